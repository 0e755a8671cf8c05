package io.sluice.forwarder.lb;

import io.sluice.common.Vip;
import org.agrona.BitUtil;

/**
 * An immutable open-addressing map from (address, port, protocol) to a VIP index, read by workers with no
 * allocation. Built by {@link io.sluice.forwarder.state.LoadBalancerState} on the control thread (the {@code put}
 * methods), published inside a {@link io.sluice.forwarder.state.ForwardingSnapshot}.
 * <p>
 * {@link #find} tries the exact port, then the VIP for all ports of the address. Fragments carry no port after
 * the first, so they are matched through {@link #findFragmentVip}: the all-ports VIP of the address if there is
 * one, else the VIP with the lowest port for that address and protocol (documented in docs/architecture.md).
 */
public final class VipTable
{
    public static final int NOT_FOUND = -1;
    private static final int FRAGMENT_ENTRY = 0x100;
    private static final int ECHO_ENTRY = 0x101;

    // Four longs per slot, so a probe reads one 32-byte slot: address word 0, address word 1, then the tag in the
    // low 32 bits and (VIP index + 1) in the high 32 bits (0 = empty), then padding.
    private static final int STRIDE = 4;

    private final long[] slots;
    private final int mask;

    /**
     * Creates an empty table sized for {@code entries} keys at a load of at most 1/4.
     *
     * @param entries expected number of keys.
     */
    public VipTable(final int entries)
    {
        final int capacity = BitUtil.findNextPositivePowerOfTwo(Math.max(4, entries * 4));
        slots = new long[capacity * STRIDE];
        mask = capacity - 1;
    }

    private static int tag(final boolean ipv6, final int port, final int protocol)
    {
        // bit 31: IPv6; bits 16..24: protocol, or FRAGMENT_ENTRY (outside 0..255) for the fragment entries;
        // bits 0..15: port.
        return (ipv6 ? 0x8000_0000 : 0) | (protocol << 16) | port;
    }

    private static int slot(final long w0, final long w1, final int tag, final int mask)
    {
        final long h = (w0 ^ Long.rotateLeft(w1, 29) ^ ((long)tag << 17)) * 0x9E3779B97F4A7C15L;
        return (int)(h >>> 40) & mask;
    }

    /**
     * Maps an address, port and protocol to a VIP index (port 0: every port of the address).
     *
     * @param ipv6     whether the address is IPv6.
     * @param w0       the address's first match word ({@link AddressWords#matchWord0}).
     * @param w1       the address's second match word ({@link AddressWords#matchWord1}).
     * @param port     the VIP's port, 0 for all ports.
     * @param protocol the VIP's IP protocol.
     * @param index    the VIP index.
     */
    public void put(final boolean ipv6, final long w0, final long w1, final int port, final int protocol, final int index)
    {
        final int tag = tag(ipv6, port, protocol);
        final long meta = (tag & 0xFFFF_FFFFL) | ((long)(index + 1) << 32);
        int i = slot(w0, w1, tag, mask);
        while (slots[i * STRIDE + 2] != 0)
        {
            final int at = i * STRIDE;
            if (slots[at] == w0 && slots[at + 1] == w1 && (int)slots[at + 2] == tag)
            {
                slots[at + 2] = meta;
                return;
            }
            i = (i + 1) & mask;
        }
        final int at = i * STRIDE;
        slots[at] = w0;
        slots[at + 1] = w1;
        slots[at + 2] = meta;
    }

    /**
     * Maps an address and protocol to the VIP that takes its fragments ({@link #findFragmentVip}).
     *
     * @param ipv6     whether the address is IPv6.
     * @param w0       the address's first match word.
     * @param w1       the address's second match word.
     * @param protocol the IP protocol.
     * @param index    the VIP index.
     */
    public void putFragmentVip(final boolean ipv6, final long w0, final long w1, final int protocol, final int index)
    {
        put(ipv6, w0, w1, protocol, FRAGMENT_ENTRY, index);
    }

    /**
     * Marks an address whose ICMP echo requests the forwarder answers: it has a VIP with an eligible backend, which
     * is when the controller announces it (AnnouncePolicy).
     *
     * @param ipv6  whether the address is IPv6.
     * @param w0    the address's first match word.
     * @param w1    the address's second match word.
     * @param index the VIP index.
     */
    public void putEchoAddress(final boolean ipv6, final long w0, final long w1, final int index)
    {
        put(ipv6, w0, w1, 0, ECHO_ENTRY, index);
    }

    private int get(final boolean ipv6, final long w0, final long w1, final int port, final int protocol)
    {
        final long[] slots = this.slots;
        final int tag = tag(ipv6, port, protocol);
        int i = slot(w0, w1, tag, mask);
        long meta;
        while ((meta = slots[i * STRIDE + 2]) != 0)
        {
            final int at = i * STRIDE;
            if ((int)meta == tag && slots[at] == w0 && slots[at + 1] == w1)
            {
                return (int)(meta >>> 32) - 1;
            }
            i = (i + 1) & mask;
        }
        return NOT_FOUND;
    }

    /**
     * Finds the VIP of a flow's destination.
     *
     * @param key the flow.
     * @return VIP index, or {@link #NOT_FOUND}.
     */
    public int find(final FlowKey key)
    {
        final boolean ipv6 = key.isIpv6();
        final long w0 = key.destinationWord0();
        final long w1 = key.destinationWord1();
        final int index = get(ipv6, w0, w1, key.destinationPort(), key.protocol());
        return index != NOT_FOUND ? index : get(ipv6, w0, w1, Vip.ALL_PORTS, key.protocol());
    }

    /**
     * Finds the VIP that takes fragments for a destination address and protocol.
     *
     * @param key the fragment's 3-tuple flow.
     * @return VIP index, or {@link #NOT_FOUND}.
     */
    public int findFragmentVip(final FlowKey key)
    {
        return get(key.isIpv6(), key.destinationWord0(), key.destinationWord1(), key.protocol(), FRAGMENT_ENTRY);
    }

    /**
     * Finds a VIP of an echo request's destination address that has an eligible backend (so the address is one
     * the node announces).
     *
     * @param key the request's flow (destination address; ports and protocol ignored).
     * @return VIP index, or {@link #NOT_FOUND}.
     */
    public int findEchoVip(final FlowKey key)
    {
        return get(key.isIpv6(), key.destinationWord0(), key.destinationWord1(), 0, ECHO_ENTRY);
    }
}
