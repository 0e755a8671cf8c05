package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * IPv6 fixed header (RFC 8200 §3).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version| Traffic Class |           Flow Label                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Payload Length        |  Next Header  |   Hop Limit   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Source Address (128 bits)                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Destination Address (128 bits)                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Extension headers (RFC 8200 §4) other than Fragment share the layout {next header, length in 8-octet units
 * not counting the first 8}; the Fragment header (RFC 8200 §4.5) is 8 octets:
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Next Header  |   Reserved    |      Fragment Offset    |Res|M|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Identification                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class Ipv6Header extends HeaderFlyweight
{
    public static final int VERSION_CLASS_FLOW_FIELD_OFFSET = 0;
    public static final int PAYLOAD_LENGTH_FIELD_OFFSET = 4;
    public static final int NEXT_HEADER_FIELD_OFFSET = 6;
    public static final int HOP_LIMIT_FIELD_OFFSET = 7;
    public static final int SOURCE_FIELD_OFFSET = 8;
    public static final int DESTINATION_FIELD_OFFSET = 24;
    public static final int LENGTH = 40;
    public static final int ADDRESS_LENGTH = 16;

    public static final int EXTENSION_MIN_LENGTH = 8;
    public static final int FRAGMENT_HEADER_LENGTH = 8;
    public static final int FRAGMENT_OFFSET_FLAGS_FIELD_OFFSET = 2;
    public static final int FRAGMENT_IDENTIFICATION_FIELD_OFFSET = 4;
    public static final int FRAGMENT_OFFSET_MASK = 0xFFF8;
    public static final int FRAGMENT_MORE_FLAG = 0x0001;

    /**
     * Writes a fixed header.
     *
     * @param trafficClass   DSCP and ECN.
     * @param flowLabel      20-bit flow label.
     * @param payloadLength  bytes after this header.
     * @param nextHeader     protocol of the payload.
     * @param hopLimit       hop limit.
     * @param sourceHigh     source address, first 8 octets as a big-endian long.
     * @param sourceLow      source address, last 8 octets.
     * @param destinationHigh destination address, first 8 octets.
     * @param destinationLow  destination address, last 8 octets.
     * @return this.
     */
    public Ipv6Header write(
        final int trafficClass,
        final int flowLabel,
        final int payloadLength,
        final int nextHeader,
        final int hopLimit,
        final long sourceHigh,
        final long sourceLow,
        final long destinationHigh,
        final long destinationLow)
    {
        buffer.putInt(offset, firstWord(trafficClass, flowLabel), ByteOrder.BIG_ENDIAN);
        buffer.putInt(
            offset + PAYLOAD_LENGTH_FIELD_OFFSET, (payloadLength << 16) | (nextHeader << 8) | hopLimit,
            ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + SOURCE_FIELD_OFFSET, sourceHigh, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + SOURCE_FIELD_OFFSET + 8, sourceLow, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + DESTINATION_FIELD_OFFSET, destinationHigh, ByteOrder.BIG_ENDIAN);
        buffer.putLong(offset + DESTINATION_FIELD_OFFSET + 8, destinationLow, ByteOrder.BIG_ENDIAN);
        return this;
    }

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
     * Returns the traffic class (DSCP and ECN) from the first word.
     *
     * @param word0 octets 0..3.
     * @return traffic class.
     */
    public static int trafficClass(final int word0)
    {
        return (word0 >>> 20) & 0xFF;
    }

    /**
     * Returns the payload length from the second word (payload length, next header, hop limit).
     *
     * @param word1 octets 4..7.
     * @return length in bytes.
     */
    public static int payloadLength(final int word1)
    {
        return word1 >>> 16;
    }

    /**
     * Returns the next header from the second word.
     *
     * @param word1 octets 4..7.
     * @return IP protocol number.
     */
    public static int nextHeader(final int word1)
    {
        return (word1 >>> 8) & 0xFF;
    }

    /**
     * Returns the first word of a header: version 6, traffic class and flow label.
     *
     * @param trafficClass DSCP and ECN.
     * @param flowLabel    low 20 bits used.
     * @return octets 0..3 as a big-endian int.
     */
    public static int firstWord(final int trafficClass, final int flowLabel)
    {
        return 0x6000_0000 | (trafficClass << 20) | (flowLabel & 0xF_FFFF);
    }
}
