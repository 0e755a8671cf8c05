package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * IPv4 header (RFC 791 §3.1).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version|  IHL  |   DSCP    |ECN|          Total Length         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Identification        |Flags|      Fragment Offset    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Time to Live |    Protocol   |         Header Checksum       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Source Address                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Destination Address                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Options (IHL > 5)                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Addresses are handled as {@code int}s holding the four octets in network order (first octet most significant).
 */
public final class Ipv4Header extends HeaderFlyweight
{
    public static final int VERSION_IHL_FIELD_OFFSET = 0;
    public static final int TOS_FIELD_OFFSET = 1;
    public static final int TOTAL_LENGTH_FIELD_OFFSET = 2;
    public static final int IDENTIFICATION_FIELD_OFFSET = 4;
    public static final int FLAGS_FRAGMENT_FIELD_OFFSET = 6;
    public static final int TTL_FIELD_OFFSET = 8;
    public static final int PROTOCOL_FIELD_OFFSET = 9;
    public static final int CHECKSUM_FIELD_OFFSET = 10;
    public static final int SOURCE_FIELD_OFFSET = 12;
    public static final int DESTINATION_FIELD_OFFSET = 16;
    public static final int MIN_LENGTH = 20;

    public static final int FLAG_DONT_FRAGMENT = 0x4000;
    public static final int FLAG_MORE_FRAGMENTS = 0x2000;
    public static final int FRAGMENT_OFFSET_MASK = 0x1FFF;

    /**
     * Returns the version from the header's first word (read big-endian), so a parser reads that word once.
     *
     * @param word0 octets 0..3.
     * @return the version.
     */
    public static int version(final int word0)
    {
        return word0 >>> 28;
    }

    /**
     * Returns the header length in bytes from the first word.
     *
     * @param word0 octets 0..3.
     * @return IHL x 4.
     */
    public static int headerLength(final int word0)
    {
        return (word0 >>> 22) & 0x3C;
    }

    /**
     * Returns DSCP and ECN from the first word.
     *
     * @param word0 octets 0..3.
     * @return TOS.
     */
    public static int tos(final int word0)
    {
        return (word0 >>> 16) & 0xFF;
    }

    /**
     * Returns the total length from the first word.
     *
     * @param word0 octets 0..3.
     * @return total length.
     */
    public static int totalLength(final int word0)
    {
        return word0 & 0xFFFF;
    }

    /**
     * Tells from the second word (identification, flags, offset) whether this is a fragment.
     *
     * @param word1 octets 4..7.
     * @return true when MF is set or the offset is not zero.
     */
    public static boolean isFragment(final int word1)
    {
        return (word1 & (FLAG_MORE_FRAGMENTS | FRAGMENT_OFFSET_MASK)) != 0;
    }

    /**
     * Returns the protocol from the third word (TTL, protocol, checksum).
     *
     * @param word2 octets 8..11.
     * @return IP protocol number.
     */
    public static int protocol(final int word2)
    {
        return (word2 >>> 16) & 0xFF;
    }

    /**
     * Writes a 20-byte header without options and its checksum.
     *
     * @param tos         DSCP and ECN.
     * @param totalLength header plus payload.
     * @param flags       flags and fragment offset.
     * @param ttl         time to live.
     * @param protocol    payload protocol.
     * @param source      source address.
     * @param destination destination address.
     * @return this.
     */
    public Ipv4Header writeBasic(
        final int tos,
        final int totalLength,
        final int flags,
        final int ttl,
        final int protocol,
        final int source,
        final int destination)
    {
        final int word0 = 0x4500_0000 | (tos << 16) | totalLength;
        final int word2Upper = (ttl << 8) | protocol;
        buffer.putInt(offset, word0, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + IDENTIFICATION_FIELD_OFFSET, flags, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + TTL_FIELD_OFFSET, word2Upper << 16, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + SOURCE_FIELD_OFFSET, source, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + DESTINATION_FIELD_OFFSET, destination, ByteOrder.BIG_ENDIAN);

        // RFC 1071 one's complement sum of the ten 16-bit words, folded; the checksum word itself is zero.
        long sum = (word0 >>> 16) + (word0 & 0xFFFF) + (flags >>> 16) + (flags & 0xFFFF) + word2Upper +
            (source >>> 16) + (source & 0xFFFF) + (destination >>> 16) + (destination & 0xFFFF);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        buffer.putShort(offset + CHECKSUM_FIELD_OFFSET, (short)~sum, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
