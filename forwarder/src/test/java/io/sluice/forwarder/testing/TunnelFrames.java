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

    /**
     * Returns the expected frame with the operator's tunnel options (RFC 2890 §2, IEEE 802.1Q): optionally an
     * 802.1Q tag (TPID 0x8100, PCP 0, DEI 0) after the MACs, and optionally the GRE key (K bit, key after the first
     * word). The outer family follows the source's length; IPv4 fields as {@link #greIpv4}, IPv6 as {@link #greIpv6}.
     *
     * @param destinationMac outer Ethernet destination (the next hop).
     * @param sourceMac      outer Ethernet source (the forwarder).
     * @param vlan           VLAN id, or 0 for no tag.
     * @param source         outer source, 4 or 16 octets.
     * @param destination    backend, as many octets.
     * @param tos            DSCP and ECN of the inner packet.
     * @param flowLabel      IPv6 flow label (ignored for IPv4).
     * @param key            the GRE key, or null for none.
     * @param inner          the inner IP packet.
     * @return the frame.
     */
    public static byte[] greWithOptions(
        final long destinationMac,
        final long sourceMac,
        final int vlan,
        final byte[] source,
        final byte[] destination,
        final int tos,
        final int flowLabel,
        final Integer key,
        final byte[] inner)
    {
        final byte[] plain = source.length == 4 ?
            greIpv4(destinationMac, sourceMac, source, destination, tos, withKeyLength(inner, key)) :
            greIpv6(destinationMac, sourceMac, source, destination, tos, flowLabel, withKeyLength(inner, key));
        // Rebuild: the plain frame's headers (lengths and checksum already counting the key's 4 bytes), the GRE
        // first word with K, the key, then the inner packet.
        final int ip = PacketBuilder.ETHERNET_LENGTH;
        final int gre = ip + (source.length == 4 ? 20 : 40);
        final ByteBuffer frame = ByteBuffer.allocate(plain.length + (vlan != 0 ? PacketBuilder.VLAN_TAG_LENGTH : 0));
        frame.put(plain, 0, 12);
        if (vlan != 0)
        {
            frame.putShort((short)PacketBuilder.ETHERTYPE_VLAN).putShort((short)vlan);
        }
        frame.put(plain, 12, gre - 12);
        final int protocolType = ((plain[gre + 2] & 0xFF) << 8) | (plain[gre + 3] & 0xFF);
        if (key != null)
        {
            frame.putShort((short)0x2000).putShort((short)protocolType).putInt(key);
        }
        else
        {
            frame.putShort((short)0).putShort((short)protocolType);
        }
        frame.put(inner);
        return frame.array();
    }

    // The inner packet padded by 4 bytes where a key goes, so the plain builders count the key in the lengths; the
    // padding is dropped again when the frame is rebuilt.
    private static byte[] withKeyLength(final byte[] inner, final Integer key)
    {
        if (key == null)
        {
            return inner;
        }
        final byte[] longer = new byte[inner.length + 4];
        System.arraycopy(inner, 0, longer, 0, inner.length);
        return longer;
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
