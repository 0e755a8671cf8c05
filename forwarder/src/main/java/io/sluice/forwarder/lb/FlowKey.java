package io.sluice.forwarder.lb;

import io.sluice.forwarder.hash.XxHash64;

/**
 * The flow a packet belongs to, as the bytes that are hashed and compared: a mutable holder the parser fills once
 * per packet, so nothing is allocated.
 * <p>
 * Canonical key bytes, in network order as on the wire:
 * <pre>
 *   IPv4 (13 bytes): source(4) destination(4) sourcePort(2) destinationPort(2) protocol(1)
 *   IPv6 (37 bytes): source(16) destination(16) sourcePort(2) destinationPort(2) protocol(1)
 * </pre>
 * Fragments use the same layout with both ports zero (Maglev §4.3: all fragments of a datagram hash on the
 * 3-tuple). The key is held as five little-endian words of those bytes ({@code w0..w4}, unused words zero), so
 * the hash ({@link XxHash64}) and the connection table's comparison work on registers, not memory.
 */
public final class FlowKey
{
    public static final int IPV4_KEY_LENGTH = 13;
    public static final int IPV6_KEY_LENGTH = 37;

    // odd constants of the table hash (from XXH64's and SplitMix64's)
    private static final long TABLE_M0 = 0x9E3779B97F4A7C15L;
    private static final long TABLE_M1 = 0xC2B2AE3D27D4EB4FL;
    private static final long TABLE_M2 = 0x165667B19E3779F9L;
    private static final long TABLE_M3 = 0x85EBCA77C2B2AE63L;
    private static final long TABLE_M4 = 0x27D4EB2F165667C5L;

    long w0;
    long w1;
    long w2;
    long w3;
    long w4;
    int length;
    int protocol;
    int destinationPort;

    /**
     * Sets an IPv4 key.
     *
     * @param sourceOctets      source address octets read little-endian.
     * @param destinationOctets destination address octets read little-endian.
     * @param portOctets        source and destination port octets read little-endian (0 for a fragment).
     * @param protocol          IP protocol number.
     * @return this.
     */
    public FlowKey ipv4(final int sourceOctets, final int destinationOctets, final int portOctets, final int protocol)
    {
        w0 = (sourceOctets & 0xFFFF_FFFFL) | ((long)destinationOctets << 32);
        w1 = (portOctets & 0xFFFF_FFFFL) | ((long)protocol << 32);
        w2 = 0;
        w3 = 0;
        w4 = 0;
        length = IPV4_KEY_LENGTH;
        this.protocol = protocol;
        destinationPort = swapPort(portOctets >>> 16);
        return this;
    }

    /**
     * Sets an IPv6 key; each address is two words of its octets read little-endian.
     *
     * @param source0      source octets 0..7.
     * @param source1      source octets 8..15.
     * @param destination0 destination octets 0..7.
     * @param destination1 destination octets 8..15.
     * @param portOctets   source and destination port octets read little-endian (0 for a fragment).
     * @param protocol     IP protocol number.
     * @return this.
     */
    public FlowKey ipv6(
        final long source0,
        final long source1,
        final long destination0,
        final long destination1,
        final int portOctets,
        final int protocol)
    {
        w0 = source0;
        w1 = source1;
        w2 = destination0;
        w3 = destination1;
        w4 = (portOctets & 0xFFFF_FFFFL) | ((long)protocol << 32);
        length = IPV6_KEY_LENGTH;
        this.protocol = protocol;
        destinationPort = swapPort(portOctets >>> 16);
        return this;
    }

    private static int swapPort(final int octetsLittleEndian)
    {
        return ((octetsLittleEndian & 0xFF) << 8) | ((octetsLittleEndian >>> 8) & 0xFF);
    }

    /**
     * Hashes the canonical key bytes with XXH64.
     *
     * @param seed the configured hash seed.
     * @return the flow hash.
     */
    public long hash(final long seed)
    {
        return length == IPV4_KEY_LENGTH ? XxHash64.hash13(w0, w1, seed) : XxHash64.hash37(w0, w1, w2, w3, w4, seed);
    }

    /**
     * Hashes the key for a worker's own connection table: two to five independent multiplies, a few cycles where
     * XXH64 takes a chain of seven. Not the flow hash: the backend a flow gets ({@link #hash}) must be the same on
     * every forwarder, where the slot in one worker's table is that worker's business.
     *
     * @param seed the table's seed.
     * @return a hash whose low bits index the table.
     */
    public long tableHash(final long seed)
    {
        return tableHash(w0, w1, w2, w3, w4, length != IPV4_KEY_LENGTH, seed);
    }

    // The table hash of a key's words: for a key held here, and for one a connection table reads back from an entry
    // when it moves the entry (ConnectionTable, growing).
    static long tableHash(
        final long w0, final long w1, final long w2, final long w3, final long w4, final boolean ipv6, final long seed)
    {
        long h = tableMix(w0 ^ seed, TABLE_M0) + tableMix(w1 ^ Long.rotateLeft(seed, 17), TABLE_M1);
        if (ipv6)
        {
            h += tableMix(w2 ^ Long.rotateLeft(seed, 29), TABLE_M2) +
                tableMix(w3 ^ Long.rotateLeft(seed, 41), TABLE_M3) + tableMix(w4 ^ Long.rotateLeft(seed, 53), TABLE_M4);
        }
        // A product's bit k depends on the input's bits 0..k: the high half, which has them all, onto the low one.
        return h ^ (h >>> 32);
    }

    // One word's share: its high half folded onto its low half first (a multiply carries only upwards, so the
    // address octets a little-endian word holds in its top bits would otherwise reach no index bit), then spread.
    private static long tableMix(final long word, final long multiplier)
    {
        return (word ^ (word >>> 32)) * multiplier;
    }

    /**
     * Tells whether this is an IPv6 key.
     *
     * @return true for IPv6.
     */
    public boolean isIpv6()
    {
        return length == IPV6_KEY_LENGTH;
    }

    /**
     * Returns the key length in bytes.
     *
     * @return 13 or 37.
     */
    public int length()
    {
        return length;
    }

    /**
     * Returns the IP protocol.
     *
     * @return protocol number.
     */
    public int protocol()
    {
        return protocol;
    }

    /**
     * Returns the destination port in host order (0 for fragments).
     *
     * @return port.
     */
    public int destinationPort()
    {
        return destinationPort;
    }

    /**
     * Returns the destination address word used for VIP matching: for IPv4 the four octets read little-endian in
     * the low 32 bits; for IPv6 octets 0..7.
     *
     * @return destination word 0.
     */
    public long destinationWord0()
    {
        return length == IPV4_KEY_LENGTH ? w0 >>> 32 : w2;
    }

    /**
     * Returns the second destination word: 0 for IPv4, octets 8..15 for IPv6.
     *
     * @return destination word 1.
     */
    public long destinationWord1()
    {
        return length == IPV4_KEY_LENGTH ? 0 : w3;
    }

    /**
     * Copies the canonical key bytes out, for tools and tests.
     *
     * @return a new array of {@link #length()} bytes.
     */
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[length];
        final long[] words = {w0, w1, w2, w3, w4};
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(words[i >>> 3] >>> ((i & 7) << 3));
        }
        return bytes;
    }
}
