package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * UDP header (RFC 768).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Source Port          |       Destination Port        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |            Length             |           Checksum            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class UdpHeader extends TransportHeader
{
    public static final int LENGTH_FIELD_OFFSET = 4;
    public static final int CHECKSUM_FIELD_OFFSET = 6;
    public static final int LENGTH = 8;

    /**
     * Returns the length field: header plus payload.
     *
     * @return length in bytes.
     */
    public int length()
    {
        return buffer.getShort(offset + LENGTH_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }
}
