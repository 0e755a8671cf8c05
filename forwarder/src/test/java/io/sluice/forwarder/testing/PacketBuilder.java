package io.sluice.forwarder.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds test frames byte by byte, independently of the forwarder's flyweights: Ethernet, one optional 802.1Q tag,
 * IPv4 (options) or IPv6 (extension headers), then TCP, UDP, ICMPv4/ICMPv6 or raw bytes, padded to the Ethernet
 * minimum. Length, version and offset fields can be overridden to build malformed packets.
 * <pre>
 *   byte[] frame = PacketBuilder.packet()
 *       .ethernet(ownMac, routerMac).vlan(100)
 *       .ipv4("203.0.113.7", "10.0.0.1").tos(0xB9)
 *       .tcp(40000, 80).tcpFlags(PacketBuilder.TCP_SYN)
 *       .build();
 * </pre>
 * Setters such as {@link #tos} apply to the IP header of the packet being built. IPv4 header and ICMP checksums are
 * computed (RFC 1071); TCP and UDP checksums are left zero, which the forwarder never reads.
 */
public final class PacketBuilder
{
    public static final int MIN_FRAME_LENGTH = 60;
    public static final int ETHERNET_LENGTH = 14;
    public static final int VLAN_TAG_LENGTH = 4;

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88A8;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_LLDP = 0x88CC;

    public static final int PROTO_HOPOPTS = 0;
    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int PROTO_ROUTING = 43;
    public static final int PROTO_FRAGMENT = 44;
    public static final int PROTO_GRE = 47;
    public static final int PROTO_ICMPV6 = 58;
    public static final int PROTO_NONE = 59;
    public static final int PROTO_DSTOPTS = 60;
    public static final int PROTO_OSPF = 89;

    public static final int TCP_FIN = 0x01;
    public static final int TCP_SYN = 0x02;
    public static final int TCP_RST = 0x04;
    public static final int TCP_PSH = 0x08;
    public static final int TCP_ACK = 0x10;

    public static final int IPV4_DONT_FRAGMENT = 0x4000;
    public static final int IPV4_MORE_FRAGMENTS = 0x2000;

    private enum Transport
    {
        NONE, TCP, UDP, ICMPV4, ICMPV6
    }

    // Ethernet
    private boolean hasEthernet;
    private long destinationMac;
    private long sourceMac;
    private int etherTypeOverride = -1;
    private int vlanTpid = -1;
    private int vlanTci;

    // IP
    private int ipVersion;
    private byte[] ipSource;
    private byte[] ipDestination;
    private int tos;
    private int ttl = 64;
    private int identification;
    private int flagsAndFragmentOffset;
    private byte[] ipv4Options = new byte[0];
    private int flowLabel;
    private final List<byte[]> extensions = new ArrayList<>();
    private final List<Integer> extensionTypes = new ArrayList<>();
    private final List<Integer> extensionNextHeaders = new ArrayList<>();
    private Integer versionOverride;
    private Integer ihlOverride;
    private Integer totalLengthOverride;
    private Integer payloadLengthOverride;
    private int protocolOverride = -1;

    // transport
    private Transport transport = Transport.NONE;
    private int sourcePort;
    private int destinationPort;
    private int tcpFlags = TCP_ACK;
    private long sequence = 0x0102_0304L;
    private long acknowledgement;
    private int window = 0xFFFF;
    private byte[] tcpOptions = new byte[0];
    private Integer dataOffsetOverride;
    private Integer udpLengthOverride;
    private int icmpType;
    private int icmpCode;
    private int icmpRestOfHeader;
    private byte[] payload = new byte[0];

    // frame
    private int minimumFrameLength = MIN_FRAME_LENGTH;
    private byte padByte;

    // results of the last build
    private int l3Offset = -1;
    private byte[] lastIpPacket;

    private PacketBuilder()
    {
    }

    /**
     * Starts a packet.
     *
     * @return a new builder.
     */
    public static PacketBuilder packet()
    {
        return new PacketBuilder();
    }

    // ---------------------------------------------------------------- Ethernet

    /**
     * Adds the Ethernet header.
     *
     * @param destination MAC as the low 48 bits.
     * @param source      MAC as the low 48 bits.
     * @return this.
     */
    public PacketBuilder ethernet(final long destination, final long source)
    {
        hasEthernet = true;
        destinationMac = destination;
        sourceMac = source;
        return this;
    }

    /**
     * Overrides the EtherType (the one after the VLAN tag, if tagged); required when there is no IP header.
     *
     * @param etherType value.
     * @return this.
     */
    public PacketBuilder etherType(final int etherType)
    {
        etherTypeOverride = etherType;
        return this;
    }

    /**
     * Adds an 802.1Q tag.
     *
     * @param vid VLAN id, 12 bits.
     * @return this.
     */
    public PacketBuilder vlan(final int vid)
    {
        return vlanTag(ETHERTYPE_VLAN, vid & 0x0FFF);
    }

    /**
     * Adds a tag with any TPID and TCI (priority, DEI and VID).
     *
     * @param tpid tag protocol id, e.g. 0x8100 or 0x88A8.
     * @param tci  tag control information.
     * @return this.
     */
    public PacketBuilder vlanTag(final int tpid, final int tci)
    {
        vlanTpid = tpid;
        vlanTci = tci;
        return this;
    }

    // ---------------------------------------------------------------- IP

    /**
     * Adds an IPv4 header.
     *
     * @param source      address literal.
     * @param destination address literal.
     * @return this.
     */
    public PacketBuilder ipv4(final String source, final String destination)
    {
        ipVersion = 4;
        ipSource = address(source, 4);
        ipDestination = address(destination, 4);
        return this;
    }

    /**
     * Adds an IPv6 fixed header.
     *
     * @param source      address literal.
     * @param destination address literal.
     * @return this.
     */
    public PacketBuilder ipv6(final String source, final String destination)
    {
        ipVersion = 6;
        ipSource = address(source, 16);
        ipDestination = address(destination, 16);
        return this;
    }

    /**
     * Sets the IPv4 type of service or the IPv6 traffic class (DSCP and ECN).
     *
     * @param tos 8 bits.
     * @return this.
     */
    public PacketBuilder tos(final int tos)
    {
        this.tos = tos & 0xFF;
        return this;
    }

    /**
     * Sets the IPv6 traffic class; same field as {@link #tos}.
     *
     * @param trafficClass 8 bits.
     * @return this.
     */
    public PacketBuilder trafficClass(final int trafficClass)
    {
        return tos(trafficClass);
    }

    /**
     * Sets the IPv4 TTL or IPv6 hop limit.
     *
     * @param ttl 8 bits.
     * @return this.
     */
    public PacketBuilder ttl(final int ttl)
    {
        this.ttl = ttl & 0xFF;
        return this;
    }

    /**
     * Sets the IPv6 hop limit; same field as {@link #ttl}.
     *
     * @param hopLimit 8 bits.
     * @return this.
     */
    public PacketBuilder hopLimit(final int hopLimit)
    {
        return ttl(hopLimit);
    }

    /**
     * Sets the IPv6 flow label.
     *
     * @param label 20 bits.
     * @return this.
     */
    public PacketBuilder flowLabel(final int label)
    {
        flowLabel = label & 0xF_FFFF;
        return this;
    }

    /**
     * Sets the IPv4 identification.
     *
     * @param id 16 bits.
     * @return this.
     */
    public PacketBuilder id(final int id)
    {
        identification = id & 0xFFFF;
        return this;
    }

    /**
     * Sets the IPv4 flags and fragment offset word as is.
     *
     * @param value 3 flag bits and 13 offset bits.
     * @return this.
     */
    public PacketBuilder flagsAndFragmentOffset(final int value)
    {
        flagsAndFragmentOffset = value & 0xFFFF;
        return this;
    }

    /**
     * Sets the IPv4 DF flag, no fragment offset.
     *
     * @return this.
     */
    public PacketBuilder dontFragment()
    {
        return flagsAndFragmentOffset(IPV4_DONT_FRAGMENT);
    }

    /**
     * Makes this an IPv4 fragment.
     *
     * @param offsetUnits fragment offset in 8-byte units.
     * @param more        whether MF is set.
     * @return this.
     */
    public PacketBuilder fragment(final int offsetUnits, final boolean more)
    {
        return flagsAndFragmentOffset((more ? IPV4_MORE_FRAGMENTS : 0) | (offsetUnits & 0x1FFF));
    }

    /**
     * Sets the IPv4 options; IHL follows unless overridden.
     *
     * @param options option bytes, a multiple of 4 for a well-formed header.
     * @return this.
     */
    public PacketBuilder ipv4Options(final byte[] options)
    {
        ipv4Options = options.clone();
        return this;
    }

    /**
     * Overrides the IP version nibble.
     *
     * @param version 4 bits.
     * @return this.
     */
    public PacketBuilder version(final int version)
    {
        versionOverride = version;
        return this;
    }

    /**
     * Overrides the IPv4 IHL.
     *
     * @param ihl header length in 32-bit words, 4 bits.
     * @return this.
     */
    public PacketBuilder ihl(final int ihl)
    {
        ihlOverride = ihl;
        return this;
    }

    /**
     * Overrides the IPv4 total length.
     *
     * @param totalLength 16 bits.
     * @return this.
     */
    public PacketBuilder totalLength(final int totalLength)
    {
        totalLengthOverride = totalLength;
        return this;
    }

    /**
     * Overrides the IPv6 payload length.
     *
     * @param payloadLength 16 bits.
     * @return this.
     */
    public PacketBuilder payloadLength(final int payloadLength)
    {
        payloadLengthOverride = payloadLength;
        return this;
    }

    /**
     * Overrides the upper-layer protocol: the IPv4 protocol, or the next header after the last IPv6 extension.
     *
     * @param protocol IP protocol number.
     * @return this.
     */
    public PacketBuilder protocol(final int protocol)
    {
        protocolOverride = protocol;
        return this;
    }

    /**
     * Adds an IPv6 hop-by-hop options header of a given length, filled with one PadN option.
     *
     * @param length header length in bytes, a multiple of 8, at least 8.
     * @return this.
     */
    public PacketBuilder hopByHop(final int length)
    {
        return extension(PROTO_HOPOPTS, optionsHeader(length));
    }

    /**
     * Adds an IPv6 destination options header of a given length, filled with one PadN option.
     *
     * @param length header length in bytes, a multiple of 8, at least 8.
     * @return this.
     */
    public PacketBuilder destinationOptions(final int length)
    {
        return extension(PROTO_DSTOPTS, optionsHeader(length));
    }

    /**
     * Adds an IPv6 routing header: type, segments left, then zero bytes.
     *
     * @param routingType   routing type.
     * @param segmentsLeft  segments left.
     * @param length        header length in bytes, a multiple of 8, at least 8.
     * @return this.
     */
    public PacketBuilder routing(final int routingType, final int segmentsLeft, final int length)
    {
        final byte[] header = sizedExtension(length);
        header[2] = (byte)routingType;
        header[3] = (byte)segmentsLeft;
        return extension(PROTO_ROUTING, header);
    }

    /**
     * Adds an IPv6 fragment header (RFC 8200 §4.5).
     *
     * @param offsetUnits fragment offset in 8-byte units, 13 bits.
     * @param more        the M flag.
     * @param id          identification.
     * @return this.
     */
    public PacketBuilder fragmentHeader(final int offsetUnits, final boolean more, final int id)
    {
        final byte[] header = new byte[8];
        final int offsetFlags = ((offsetUnits & 0x1FFF) << 3) | (more ? 1 : 0);
        header[2] = (byte)(offsetFlags >>> 8);
        header[3] = (byte)offsetFlags;
        ByteBuffer.wrap(header, 4, 4).putInt(id);
        return extension(PROTO_FRAGMENT, header);
    }

    /**
     * Adds an IPv6 extension header as raw bytes; byte 0 (next header) is filled in by the builder.
     *
     * @param type   the header's protocol number, written into the previous next header field.
     * @param header the whole header; its length byte is not checked.
     * @return this.
     */
    public PacketBuilder extension(final int type, final byte[] header)
    {
        extensionTypes.add(type);
        extensions.add(header.clone());
        extensionNextHeaders.add(-1);
        return this;
    }

    /**
     * Overrides the next header field of the extension header added last.
     *
     * @param nextHeader protocol number.
     * @return this.
     */
    public PacketBuilder extensionNextHeader(final int nextHeader)
    {
        extensionNextHeaders.set(extensionNextHeaders.size() - 1, nextHeader);
        return this;
    }

    // ---------------------------------------------------------------- transport

    /**
     * Adds a TCP header (20 bytes, ACK set, unless changed).
     *
     * @param source      source port.
     * @param destination destination port.
     * @return this.
     */
    public PacketBuilder tcp(final int source, final int destination)
    {
        transport = Transport.TCP;
        sourcePort = source;
        destinationPort = destination;
        return this;
    }

    /**
     * Sets the TCP flags.
     *
     * @param flags flag bits.
     * @return this.
     */
    public PacketBuilder tcpFlags(final int flags)
    {
        tcpFlags = flags;
        return this;
    }

    /**
     * Sets the TCP sequence and acknowledgement numbers.
     *
     * @param seq sequence number.
     * @param ack acknowledgement number.
     * @return this.
     */
    public PacketBuilder tcpSequence(final long seq, final long ack)
    {
        sequence = seq;
        acknowledgement = ack;
        return this;
    }

    /**
     * Sets the TCP options; the data offset follows unless overridden.
     *
     * @param options option bytes, a multiple of 4 for a well-formed header.
     * @return this.
     */
    public PacketBuilder tcpOptions(final byte[] options)
    {
        tcpOptions = options.clone();
        return this;
    }

    /**
     * Overrides the TCP data offset.
     *
     * @param words header length in 32-bit words, 4 bits.
     * @return this.
     */
    public PacketBuilder dataOffset(final int words)
    {
        dataOffsetOverride = words;
        return this;
    }

    /**
     * Adds a UDP header.
     *
     * @param source      source port.
     * @param destination destination port.
     * @return this.
     */
    public PacketBuilder udp(final int source, final int destination)
    {
        transport = Transport.UDP;
        sourcePort = source;
        destinationPort = destination;
        return this;
    }

    /**
     * Overrides the UDP length.
     *
     * @param length 16 bits.
     * @return this.
     */
    public PacketBuilder udpLength(final int length)
    {
        udpLengthOverride = length;
        return this;
    }

    /**
     * Adds an ICMPv4 header (RFC 792); the quote (for errors) follows as its payload.
     *
     * @param type          message type.
     * @param code          message code.
     * @param restOfHeader  bytes 4..7 (identifier and sequence, next-hop MTU, or zero).
     * @param quote         the quoted packet or echo data.
     * @return this.
     */
    public PacketBuilder icmpv4(final int type, final int code, final int restOfHeader, final byte[] quote)
    {
        transport = Transport.ICMPV4;
        return icmp(type, code, restOfHeader, quote);
    }

    /**
     * Adds an ICMPv6 header (RFC 4443); the quote follows as its payload.
     *
     * @param type          message type.
     * @param code          message code.
     * @param restOfHeader  bytes 4..7 (MTU for packet too big).
     * @param quote         the quoted packet or echo data.
     * @return this.
     */
    public PacketBuilder icmpv6(final int type, final int code, final int restOfHeader, final byte[] quote)
    {
        transport = Transport.ICMPV6;
        return icmp(type, code, restOfHeader, quote);
    }

    private PacketBuilder icmp(final int type, final int code, final int restOfHeader, final byte[] quote)
    {
        icmpType = type;
        icmpCode = code;
        icmpRestOfHeader = restOfHeader;
        payload = quote.clone();
        return this;
    }

    /**
     * Sets the bytes after the last header.
     *
     * @param bytes payload.
     * @return this.
     */
    public PacketBuilder payload(final byte[] bytes)
    {
        payload = bytes.clone();
        return this;
    }

    /**
     * Sets a payload of a given length with a recognisable pattern.
     *
     * @param length bytes.
     * @return this.
     */
    public PacketBuilder payload(final int length)
    {
        return payload(pattern(length, 0x30));
    }

    // ---------------------------------------------------------------- frame

    /**
     * Sets the length frames are padded to (60, the Ethernet minimum without FCS, unless changed).
     *
     * @param length minimum frame length; 0 for no padding.
     * @return this.
     */
    public PacketBuilder minimumFrameLength(final int length)
    {
        minimumFrameLength = length;
        return this;
    }

    /**
     * Turns padding off.
     *
     * @return this.
     */
    public PacketBuilder noPadding()
    {
        return minimumFrameLength(0);
    }

    /**
     * Sets the value of the padding bytes (zero unless changed).
     *
     * @param value byte value.
     * @return this.
     */
    public PacketBuilder padByte(final int value)
    {
        padByte = (byte)value;
        return this;
    }

    /**
     * Builds the Ethernet frame.
     *
     * @return a new array.
     */
    public byte[] build()
    {
        if (!hasEthernet)
        {
            throw new IllegalStateException("no Ethernet header: call ethernet(...) or use buildIpPacket()");
        }
        lastIpPacket = null;
        final byte[] l3 = ipVersion == 0 ? payload.clone() : buildIpPacket();
        final int etherType = etherTypeOverride >= 0 ? etherTypeOverride :
            ipVersion == 4 ? ETHERTYPE_IPV4 : ipVersion == 6 ? ETHERTYPE_IPV6 : -1;
        if (etherType < 0)
        {
            throw new IllegalStateException("no IP header: set etherType(...)");
        }
        final int headerLength = ETHERNET_LENGTH + (vlanTpid >= 0 ? VLAN_TAG_LENGTH : 0);
        final int length = Math.max(headerLength + l3.length, minimumFrameLength);
        final ByteBuffer frame = ByteBuffer.allocate(length);
        putMac(frame, destinationMac);
        putMac(frame, sourceMac);
        if (vlanTpid >= 0)
        {
            frame.putShort((short)vlanTpid).putShort((short)vlanTci);
        }
        frame.putShort((short)etherType).put(l3);
        while (frame.hasRemaining())
        {
            frame.put(padByte);
        }
        l3Offset = headerLength;
        return frame.array();
    }

    /**
     * Builds the IP packet alone (for ICMP quotes and for the expected tunnel payload).
     *
     * @return a new array.
     */
    public byte[] buildIpPacket()
    {
        final byte[] upper = buildTransport();
        final byte[] packet = ipVersion == 4 ? buildIpv4(upper) : ipVersion == 6 ? buildIpv6(upper) : null;
        if (packet == null)
        {
            throw new IllegalStateException("no IP header: call ipv4(...) or ipv6(...)");
        }
        if (transport == Transport.ICMPV6)
        {
            fillIcmpv6Checksum(packet, packet.length - upper.length, upper.length);
        }
        lastIpPacket = packet;
        return packet.clone();
    }

    /**
     * Returns where the IP header starts in the frame of the last {@link #build()}.
     *
     * @return 14, or 18 when tagged.
     */
    public int l3Offset()
    {
        return l3Offset;
    }

    /**
     * Returns the IP packet of the last build, without Ethernet and padding.
     *
     * @return a copy, or null when the frame carries no IP packet.
     */
    public byte[] ipPacket()
    {
        return lastIpPacket == null ? null : lastIpPacket.clone();
    }

    /**
     * Returns the DSCP and ECN byte set on the IP header.
     *
     * @return tos or traffic class.
     */
    public int tosValue()
    {
        return tos;
    }

    private byte[] buildTransport()
    {
        switch (transport)
        {
            case TCP:
            {
                final int headerLength = 20 + tcpOptions.length;
                final int offsetWords = dataOffsetOverride != null ? dataOffsetOverride : headerLength / 4;
                final ByteBuffer tcp = ByteBuffer.allocate(headerLength + payload.length);
                tcp.putShort((short)sourcePort).putShort((short)destinationPort)
                    .putInt((int)sequence).putInt((int)acknowledgement)
                    .put((byte)(offsetWords << 4)).put((byte)tcpFlags).putShort((short)window)
                    .putShort((short)0).putShort((short)0)
                    .put(tcpOptions).put(payload);
                return tcp.array();
            }
            case UDP:
            {
                final int length = udpLengthOverride != null ? udpLengthOverride : 8 + payload.length;
                final ByteBuffer udp = ByteBuffer.allocate(8 + payload.length);
                udp.putShort((short)sourcePort).putShort((short)destinationPort).putShort((short)length)
                    .putShort((short)0).put(payload);
                return udp.array();
            }
            case ICMPV4:
            case ICMPV6:
            {
                final ByteBuffer icmp = ByteBuffer.allocate(8 + payload.length);
                icmp.put((byte)icmpType).put((byte)icmpCode).putShort((short)0).putInt(icmpRestOfHeader)
                    .put(payload);
                final byte[] bytes = icmp.array();
                if (transport == Transport.ICMPV4)
                {
                    putShort(bytes, 2, InternetChecksum.checksum(bytes, 0, bytes.length));
                }
                return bytes;
            }
            default:
                return payload.clone();
        }
    }

    private int upperProtocol()
    {
        if (protocolOverride >= 0)
        {
            return protocolOverride;
        }
        switch (transport)
        {
            case TCP:
                return PROTO_TCP;
            case UDP:
                return PROTO_UDP;
            case ICMPV4:
                return PROTO_ICMP;
            case ICMPV6:
                return PROTO_ICMPV6;
            default:
                return ipVersion == 6 ? PROTO_NONE : 255;
        }
    }

    private byte[] buildIpv4(final byte[] upper)
    {
        final int headerLength = 20 + ipv4Options.length;
        final int ihl = ihlOverride != null ? ihlOverride : headerLength / 4;
        final int version = versionOverride != null ? versionOverride : 4;
        final int totalLength = totalLengthOverride != null ? totalLengthOverride : headerLength + upper.length;
        final ByteBuffer ip = ByteBuffer.allocate(headerLength + upper.length);
        ip.put((byte)((version << 4) | (ihl & 0x0F))).put((byte)tos).putShort((short)totalLength)
            .putShort((short)identification).putShort((short)flagsAndFragmentOffset)
            .put((byte)ttl).put((byte)upperProtocol()).putShort((short)0)
            .put(ipSource).put(ipDestination).put(ipv4Options).put(upper);
        final byte[] bytes = ip.array();
        putShort(bytes, 10, InternetChecksum.checksum(bytes, 0, headerLength));
        return bytes;
    }

    private byte[] buildIpv6(final byte[] upper)
    {
        int extensionLength = 0;
        for (final byte[] extension : extensions)
        {
            extensionLength += extension.length;
        }
        final int version = versionOverride != null ? versionOverride : 6;
        final int payloadLength = payloadLengthOverride != null ? payloadLengthOverride : extensionLength +
            upper.length;
        final int firstNextHeader = extensions.isEmpty() ? upperProtocol() : extensionTypes.get(0);
        final ByteBuffer ip = ByteBuffer.allocate(40 + extensionLength + upper.length);
        ip.putInt((version << 28) | (tos << 20) | flowLabel).putShort((short)payloadLength)
            .put((byte)firstNextHeader).put((byte)ttl).put(ipSource).put(ipDestination);
        for (int i = 0; i < extensions.size(); i++)
        {
            final byte[] header = extensions.get(i).clone();
            final int chained = i + 1 < extensions.size() ? extensionTypes.get(i + 1) : upperProtocol();
            final int override = extensionNextHeaders.get(i);
            header[0] = (byte)(override >= 0 ? override : chained);
            ip.put(header);
        }
        ip.put(upper);
        return ip.array();
    }

    // RFC 4443 §2.3: the checksum covers the RFC 8200 §8.1 pseudo-header.
    private void fillIcmpv6Checksum(final byte[] packet, final int icmpOffset, final int icmpLength)
    {
        long sum = InternetChecksum.sum(0, ipSource, 0, 16);
        sum = InternetChecksum.sum(sum, ipDestination, 0, 16);
        sum += icmpLength + PROTO_ICMPV6;
        sum = InternetChecksum.sum(sum, packet, icmpOffset, icmpLength);
        putShort(packet, icmpOffset + 2, InternetChecksum.finish(sum));
    }

    private static byte[] optionsHeader(final int length)
    {
        final byte[] header = sizedExtension(length);
        header[2] = 1; // PadN (RFC 8200 §4.2) over the rest of the header
        header[3] = (byte)(length - 4);
        return header;
    }

    private static byte[] sizedExtension(final int length)
    {
        if (length < 8 || length % 8 != 0 || length > 2048)
        {
            throw new IllegalArgumentException("extension header length must be a multiple of 8 in 8..2048: " + length);
        }
        final byte[] header = new byte[length];
        header[1] = (byte)(length / 8 - 1);
        return header;
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Parses a MAC address.
     *
     * @param text like {@code 02:00:00:00:00:01}.
     * @return the low 48 bits of a long, first octet most significant.
     */
    public static long mac(final String text)
    {
        final String[] parts = text.split(":");
        if (parts.length != 6)
        {
            throw new IllegalArgumentException("not a MAC address: " + text);
        }
        long value = 0;
        for (final String part : parts)
        {
            value = (value << 8) | Integer.parseInt(part, 16);
        }
        return value;
    }

    /**
     * Returns the octets of an address literal.
     *
     * @param literal IPv4 or IPv6 literal (never resolved through DNS).
     * @return 4 or 16 octets.
     */
    public static byte[] address(final String literal)
    {
        try
        {
            return InetAddress.getByName(literal).getAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("not an address literal: " + literal, ex);
        }
    }

    private static byte[] address(final String literal, final int length)
    {
        final byte[] octets = address(literal);
        if (octets.length != length)
        {
            throw new IllegalArgumentException("expected an IPv" + (length == 4 ? 4 : 6) + " address: " + literal);
        }
        return octets;
    }

    /**
     * Makes bytes from ints, for literal byte sequences in tests.
     *
     * @param values each taken modulo 256.
     * @return the bytes.
     */
    public static byte[] bytes(final int... values)
    {
        final byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            out[i] = (byte)values[i];
        }
        return out;
    }

    /**
     * Makes a recognisable payload: {@code first, first + 1, ...} modulo 256.
     *
     * @param length bytes.
     * @param first  first value.
     * @return the bytes.
     */
    public static byte[] pattern(final int length, final int first)
    {
        final byte[] out = new byte[length];
        for (int i = 0; i < length; i++)
        {
            out[i] = (byte)(first + i);
        }
        return out;
    }

    /**
     * Returns the first {@code length} bytes.
     *
     * @param bytes  source.
     * @param length bytes to keep.
     * @return a copy, truncated.
     */
    public static byte[] truncate(final byte[] bytes, final int length)
    {
        return Arrays.copyOf(bytes, length);
    }

    /**
     * Formats bytes as a Wireshark-style hex dump; see {@link HexDump#hex(byte[])}.
     *
     * @param bytes data.
     * @return the dump.
     */
    public static String hex(final byte[] bytes)
    {
        return HexDump.hex(bytes);
    }

    static void putMac(final ByteBuffer out, final long mac)
    {
        out.putShort((short)(mac >>> 32)).putInt((int)mac);
    }

    static void putShort(final byte[] bytes, final int offset, final int value)
    {
        bytes[offset] = (byte)(value >>> 8);
        bytes[offset + 1] = (byte)value;
    }
}
