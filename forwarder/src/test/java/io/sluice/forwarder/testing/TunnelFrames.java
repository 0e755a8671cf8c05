package io.sluice.forwarder.testing;

import java.nio.ByteBuffer;

/**
 * Builds the frames the forwarder should send to a backend, from the RFCs rather than from the main code: outer
 * Ethernet, outer IPv4 or IPv6, a 4-byte GRE header (RFC 2784 §2.1, no checksum, key or sequence) and the inner IP
 * packet without its Ethernet header or padding.
 */
public final class TunnelFrames
{
    public static final int OUTER_TTL = 64;
    public static final int GRE_LENGTH = 4;
    public static final int IPV4_OVERHEAD = PacketBuilder.ETHERNET_LENGTH + 20 + GRE_LENGTH;
    public static final int IPV6_OVERHEAD = PacketBuilder.ETHERNET_LENGTH + 40 + GRE_LENGTH;

    private TunnelFrames()
    {
    }

    /**
     * Returns the expected frame for an IPv4 backend: outer IPv4 with IHL 5, the inner DSCP and ECN, identification
     * 0 and DF (RFC 6864 atomic datagram), TTL 64, protocol 47 and a correct header checksum.
     *
     * @param destinationMac outer Ethernet destination (the next hop).
     * @param sourceMac      outer Ethernet source (the forwarder).
     * @param source         tunnel source, 4 octets.
     * @param destination    backend, 4 octets.
     * @param tos            DSCP and ECN of the inner packet.
     * @param inner          the inner IP packet, IPv4 or IPv6.
     * @return the frame.
     */
    public static byte[] greIpv4(
        final long destinationMac,
        final long sourceMac,
        final byte[] source,
        final byte[] destination,
        final int tos,
        final byte[] inner)
    {
        requireLength(source, 4);
        requireLength(destination, 4);
        final int totalLength = 20 + GRE_LENGTH + inner.length;
        final ByteBuffer frame = ByteBuffer.allocate(PacketBuilder.ETHERNET_LENGTH + totalLength);
        PacketBuilder.putMac(frame, destinationMac);
        PacketBuilder.putMac(frame, sourceMac);
        frame.putShort((short)PacketBuilder.ETHERTYPE_IPV4);
        frame.put((byte)0x45).put((byte)tos).putShort((short)totalLength)
            .putShort((short)0).putShort((short)PacketBuilder.IPV4_DONT_FRAGMENT)
            .put((byte)OUTER_TTL).put((byte)PacketBuilder.PROTO_GRE).putShort((short)0)
            .put(source).put(destination);
        putGre(frame, inner);
        final byte[] bytes = frame.array();
        PacketBuilder.putShort(bytes, PacketBuilder.ETHERNET_LENGTH + 10,
            InternetChecksum.checksum(bytes, PacketBuilder.ETHERNET_LENGTH, 20));
        return bytes;
    }

    /**
     * Returns the expected frame for an IPv6 backend: outer IPv6 with the inner DSCP and ECN as traffic class, the
     * given flow label (RFC 6438: from the flow hash), next header 47 and hop limit 64.
     *
     * @param destinationMac outer Ethernet destination (the next hop).
     * @param sourceMac      outer Ethernet source (the forwarder).
     * @param source         tunnel source, 16 octets.
     * @param destination    backend, 16 octets.
     * @param trafficClass   DSCP and ECN of the inner packet.
     * @param flowLabel      20-bit flow label.
     * @param inner          the inner IP packet, IPv4 or IPv6.
     * @return the frame.
     */
    public static byte[] greIpv6(
        final long destinationMac,
        final long sourceMac,
        final byte[] source,
        final byte[] destination,
        final int trafficClass,
        final int flowLabel,
        final byte[] inner)
    {
        requireLength(source, 16);
        requireLength(destination, 16);
        final int payloadLength = GRE_LENGTH + inner.length;
        final ByteBuffer frame = ByteBuffer.allocate(PacketBuilder.ETHERNET_LENGTH + 40 + payloadLength);
        PacketBuilder.putMac(frame, destinationMac);
        PacketBuilder.putMac(frame, sourceMac);
        frame.putShort((short)PacketBuilder.ETHERTYPE_IPV6);
        frame.putInt(0x6000_0000 | (trafficClass & 0xFF) << 20 | (flowLabel & 0xF_FFFF))
            .putShort((short)payloadLength).put((byte)PacketBuilder.PROTO_GRE).put((byte)OUTER_TTL)
            .put(source).put(destination);
        putGre(frame, inner);
        return frame.array();
    }

    private static void putGre(final ByteBuffer frame, final byte[] inner)
    {
        final int version = (inner[0] & 0xF0) >>> 4;
        final int protocolType = version == 4 ? PacketBuilder.ETHERTYPE_IPV4 :
            version == 6 ? PacketBuilder.ETHERTYPE_IPV6 : -1;
        if (protocolType < 0)
        {
            throw new IllegalArgumentException("inner packet is neither IPv4 nor IPv6: version " + version);
        }
        frame.putShort((short)0).putShort((short)protocolType).put(inner);
    }

    private static void requireLength(final byte[] address, final int length)
    {
        if (address.length != length)
        {
            throw new IllegalArgumentException("address must be " + length + " octets, got " + address.length);
        }
    }
}
