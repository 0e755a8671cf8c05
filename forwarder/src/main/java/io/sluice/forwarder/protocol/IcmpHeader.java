package io.sluice.forwarder.protocol;

/**
 * ICMPv4 (RFC 792) and ICMPv6 (RFC 4443) share the first four octets; error messages carry, after four more,
 * the start of the packet that caused them.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Type      |     Code      |          Checksum             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        unused / next-hop MTU (v4 type 3 code 4) / MTU (v6)    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Quoted IP header + at least the first 8 octets of data   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class IcmpHeader
{
    public static final int TYPE_FIELD_OFFSET = 0;
    public static final int CODE_FIELD_OFFSET = 1;
    public static final int LENGTH = 8;

    public static final int V4_DESTINATION_UNREACHABLE = 3;
    public static final int V4_CODE_FRAGMENTATION_NEEDED = 4;
    public static final int V6_DESTINATION_UNREACHABLE = 1;
    public static final int V6_PACKET_TOO_BIG = 2;
    public static final int V4_ECHO_REPLY = 0;
    public static final int V4_ECHO_REQUEST = 8;
    public static final int V6_ECHO_REQUEST = 128;
    public static final int V6_ECHO_REPLY = 129;
    public static final int CHECKSUM_FIELD_OFFSET = 2;

    private IcmpHeader()
    {
    }
}
