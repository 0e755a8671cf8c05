package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * GRE header without checksum or sequence number, with or without a key (RFC 2784 §2, RFC 2890 §2).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |C| |K|S|   Reserved0     | Ver |         Protocol Type         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Key (optional)                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The protocol type is the EtherType of the carried packet: 0x0800 for IPv4, 0x86DD for IPv6. The key follows the
 * first word when K is set.
 */
public final class GreHeader extends HeaderFlyweight
{
    public static final int FLAGS_VERSION_FIELD_OFFSET = 0;
    public static final int PROTOCOL_TYPE_FIELD_OFFSET = 2;
    public static final int KEY_FIELD_OFFSET = 4;
    public static final int LENGTH = 4;
    public static final int LENGTH_WITH_KEY = 8;
    /** K: RFC 2890 §2.1, a key follows. */
    public static final int FLAG_KEY = 0x2000;

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
     * Writes a header with only the key flag set, version 0, and the key.
     *
     * @param protocolType EtherType of the payload.
     * @param key          the 32-bit key.
     * @return this.
     */
    public GreHeader writeWithKey(final int protocolType, final int key)
    {
        buffer.putInt(offset, (FLAG_KEY << 16) | (protocolType & 0xFFFF), ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + KEY_FIELD_OFFSET, key, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
