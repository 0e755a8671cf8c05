package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * GRE header without checksum, key or sequence number (RFC 2784 §2, RFC 2890).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |C|       Reserved0       | Ver |         Protocol Type         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The protocol type is the EtherType of the carried packet: 0x0800 for IPv4, 0x86DD for IPv6.
 */
public final class GreHeader extends HeaderFlyweight
{
    public static final int FLAGS_VERSION_FIELD_OFFSET = 0;
    public static final int PROTOCOL_TYPE_FIELD_OFFSET = 2;
    public static final int LENGTH = 4;

    /**
     * Writes a header with all flags clear, version 0.
     *
     * @param protocolType EtherType of the payload.
     * @return this.
     */
    public GreHeader write(final int protocolType)
    {
        buffer.putInt(offset, protocolType & 0xFFFF, ByteOrder.BIG_ENDIAN);
        return this;
    }

    /**
     * Returns the protocol type.
     *
     * @return EtherType of the payload.
     */
    public int protocolType()
    {
        return buffer.getShort(offset + PROTOCOL_TYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }
}
