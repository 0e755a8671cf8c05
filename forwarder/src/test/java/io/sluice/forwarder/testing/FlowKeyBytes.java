package io.sluice.forwarder.testing;

import io.sluice.forwarder.hash.XxHash64;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The canonical flow key bytes of {@code io.sluice.forwarder.lb.FlowKey}, built from addresses and ports rather
 * than from a parsed packet: source, destination, source port, destination port, protocol, in network order
 * (13 bytes for IPv4, 37 for IPv6). Hashed with the generic XXH64 over those bytes, not the register fast path,
 * so expected backends do not depend on the parser's word packing.
 */
public final class FlowKeyBytes
{
    private FlowKeyBytes()
    {
    }

    /**
     * Returns the key of a TCP or UDP flow.
     *
     * @param source          source address literal.
     * @param destination     destination address literal.
     * @param sourcePort      source port.
     * @param destinationPort destination port.
     * @param protocol        IP protocol.
     * @return 13 or 37 bytes.
     */
    public static byte[] flow(
        final String source, final String destination, final int sourcePort, final int destinationPort,
        final int protocol)
    {
        final byte[] from = PacketBuilder.address(source);
        final byte[] to = PacketBuilder.address(destination);
        if (from.length != to.length)
        {
            throw new IllegalArgumentException("mixed address families: " + source + " " + destination);
        }
        return ByteBuffer.allocate(from.length * 2 + 5).put(from).put(to)
            .putShort((short)sourcePort).putShort((short)destinationPort).put((byte)protocol).array();
    }

    /**
     * Returns the 3-tuple key of a fragment: ports zero (Maglev §4.3).
     *
     * @param source      source address literal.
     * @param destination destination address literal.
     * @param protocol    IP protocol.
     * @return 13 or 37 bytes.
     */
    public static byte[] fragment(final String source, final String destination, final int protocol)
    {
        return flow(source, destination, 0, 0, protocol);
    }

    /**
     * Hashes key bytes with XXH64.
     *
     * @param key  canonical key bytes.
     * @param seed hash seed.
     * @return the hash.
     */
    public static long hash(final byte[] key, final long seed)
    {
        return XxHash64.hash(new UnsafeBuffer(key), 0, key.length, seed);
    }

    /**
     * Tells whether a key is IPv6.
     *
     * @param key canonical key bytes.
     * @return true for a 37-byte key.
     */
    public static boolean isIpv6(final byte[] key)
    {
        return key.length == 37;
    }
}
