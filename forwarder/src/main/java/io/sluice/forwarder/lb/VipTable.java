package io.sluice.forwarder.lb;

import io.sluice.common.Vip;
import org.agrona.BitUtil;

/**
 * An immutable open-addressing map from (address, port, protocol) to a VIP index, read by workers with no
 * allocation. Built by {@link LoadBalancerState}, published inside a {@link ForwardingSnapshot}.
 * <p>
 * {@link #find} tries the exact port, then the VIP for all ports of the address. Fragments carry no port after
 * the first, so they are matched through {@link #findFragmentVip}: the all-ports VIP of the address if there is
 * one, else the VIP with the lowest port for that address and protocol (documented in docs/architecture.md).
 */
public final class VipTable
{
    public static final int NOT_FOUND = -1;
    private static final int FRAGMENT_ENTRY = 0x100;

    private final long[] word0;
    private final long[] word1;
    private final int[] portProtocol;
    private final int[] vipIndex;
    private final int mask;

    VipTable(final int entries)
    {
        final int capacity = BitUtil.findNextPositivePowerOfTwo(Math.max(4, entries * 4));
        word0 = new long[capacity];
        word1 = new long[capacity];
        portProtocol = new int[capacity];
        vipIndex = new int[capacity];
        java.util.Arrays.fill(vipIndex, NOT_FOUND);
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
        long h = (w0 * 0x9E3779B97F4A7C15L) ^ (w1 * 0xC2B2AE3D27D4EB4FL) ^ (tag * 0x165667B19E3779F9L);
        h ^= h >>> 29;
        return (int)h & mask;
    }

    void put(final boolean ipv6, final long w0, final long w1, final int port, final int protocol, final int index)
    {
        final int tag = tag(ipv6, port, protocol);
        int i = slot(w0, w1, tag, mask);
        while (vipIndex[i] != NOT_FOUND)
        {
            if (word0[i] == w0 && word1[i] == w1 && portProtocol[i] == tag)
            {
                vipIndex[i] = index;
                return;
            }
            i = (i + 1) & mask;
        }
        word0[i] = w0;
        word1[i] = w1;
        portProtocol[i] = tag;
        vipIndex[i] = index;
    }

    void putFragmentVip(final boolean ipv6, final long w0, final long w1, final int protocol, final int index)
    {
        put(ipv6, w0, w1, protocol, FRAGMENT_ENTRY, index);
    }

    private int get(final boolean ipv6, final long w0, final long w1, final int port, final int protocol)
    {
        final int tag = tag(ipv6, port, protocol);
        int i = slot(w0, w1, tag, mask);
        int index;
        while ((index = vipIndex[i]) != NOT_FOUND)
        {
            if (word0[i] == w0 && word1[i] == w1 && portProtocol[i] == tag)
            {
                return index;
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
}
