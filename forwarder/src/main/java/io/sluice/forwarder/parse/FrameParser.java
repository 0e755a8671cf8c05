package io.sluice.forwarder.parse;

import io.sluice.forwarder.lb.FlowKey;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PassReason;
import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.FrameBytes;
import io.sluice.forwarder.protocol.IcmpHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import io.sluice.forwarder.protocol.TcpHeader;
import io.sluice.forwarder.protocol.UdpHeader;
import org.agrona.MutableDirectBuffer;

/**
 * Parses one frame's L2-L4 headers in place into a {@link FlowKey}: Ethernet (at most one 802.1Q tag), then IPv4
 * (options allowed) or IPv6 (hop-by-hop, routing, destination-options and fragment headers walked, RFC 8200 §4).
 * TCP and UDP flows key on the 5-tuple; fragments on the 3-tuple so every fragment of a datagram meets the same
 * backend (Maglev §4.3); ICMP destination-unreachable and packet-too-big errors key on the flow they quote,
 * reversed, so they reach the backend that owns the connection.
 * <p>
 * {@link #parse} returns a code: {@link #FLOW}, {@link #FRAGMENT}, {@link #ECHO_REQUEST}, a pass
 * ({@link #passCode}) or a drop ({@link #dropCode}); after a flow, fragment or echo request the accessors describe
 * the packet. Owned by one worker's pipeline; allocates nothing and never throws on frame content.
 */
public final class FrameParser
{
    /** A TCP or UDP flow (or the flow an ICMP error quotes): the key is the 5-tuple. */
    public static final int FLOW = 0;
    /** An IPv4 or IPv6 fragment: the key is the 3-tuple, ports 0. */
    public static final int FRAGMENT = 1;
    /** Codes from here up are passes: {@code PASS_BASE + PassReason.ordinal()}. */
    public static final int PASS_BASE = 2;
    /** An ICMP echo request (only when {@link #echoRequests} is on): the key holds its addresses, ports 0. */
    public static final int ECHO_REQUEST = Integer.MAX_VALUE;

    private static final int MAX_IPV6_EXTENSION_HEADERS = 8;

    // whether echo requests are reported as ECHO_REQUEST (the pipeline answers them) or passed as not load-balanced
    private boolean echoRequests;

    // the packet parsed last
    private int ipOffset;
    private int ipEnd;
    private boolean ipv6Packet;
    private int tos;
    private int echoIcmpOffset;

    // IPv6 extension walk results
    private int walkNextHeader;
    private int walkOffset;
    private boolean walkFragment;

    /**
     * Returns the code of a drop for a reason.
     *
     * @param reason why the frame is dropped.
     * @return a negative code, {@code -1 - reason.ordinal()}.
     */
    public static int dropCode(final DropReason reason)
    {
        return -1 - reason.ordinal();
    }

    /**
     * Returns the code of a pass for a reason.
     *
     * @param reason why the frame goes to the kernel.
     * @return {@code PASS_BASE + reason.ordinal()}.
     */
    public static int passCode(final PassReason reason)
    {
        return PASS_BASE + reason.ordinal();
    }

    /**
     * Makes {@link #parse} report ICMP echo requests as {@link #ECHO_REQUEST} instead of passing them.
     *
     * @param enabled whether the caller answers echo requests.
     * @return this.
     */
    public FrameParser echoRequests(final boolean enabled)
    {
        this.echoRequests = enabled;
        return this;
    }

    /**
     * Returns the first byte of the IP header of the last packet parsed.
     *
     * @return offset in the buffer.
     */
    public int ipOffset()
    {
        return ipOffset;
    }

    /**
     * Returns the end of the last packet parsed, as its IP header's length says (the frame may be padded beyond).
     *
     * @return offset in the buffer.
     */
    public int ipEnd()
    {
        return ipEnd;
    }

    /**
     * Tells whether the last packet parsed is IPv6.
     *
     * @return true for IPv6.
     */
    public boolean ipv6()
    {
        return ipv6Packet;
    }

    /**
     * Returns the last packet's IPv4 TOS or IPv6 traffic class (DSCP and ECN).
     *
     * @return 0..255.
     */
    public int tos()
    {
        return tos;
    }

    /**
     * Returns where the ICMP header of the last echo request starts, after {@link #ECHO_REQUEST}.
     *
     * @return offset in the buffer.
     */
    public int echoIcmpOffset()
    {
        return echoIcmpOffset;
    }

    /**
     * Parses a frame into a flow key.
     *
     * @param key    where the flow key goes.
     * @param buffer buffer holding the frame; off-heap, as DPDK mbufs are (read by address, {@link FrameBytes}).
     * @param offset first byte of the Ethernet header.
     * @param length frame length.
     * @return {@link #FLOW}, {@link #FRAGMENT}, {@link #ECHO_REQUEST}, a pass code or a drop code.
     * @throws IllegalArgumentException if the buffer wraps a byte array.
     */
    public int parse(final FlowKey key, final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (length < EthernetHeader.LENGTH)
        {
            return dropCode(DropReason.FRAME_TRUNCATED);
        }
        final int end = offset + length;
        if (!FrameBytes.isOffHeap(buffer))
        {
            throw new IllegalArgumentException("frame buffers must be off-heap (wrap raw memory, not a byte array)");
        }
        int etherType = FrameBytes.getUnsignedShortBigEndian(buffer, offset + EthernetHeader.ETHERTYPE_FIELD_OFFSET);
        int l3 = offset + EthernetHeader.LENGTH;
        if (etherType == Protocols.ETHERTYPE_VLAN)
        {
            if (length < EthernetHeader.LENGTH + EthernetHeader.VLAN_TAG_LENGTH)
            {
                return dropCode(DropReason.VLAN_TRUNCATED);
            }
            etherType =
                FrameBytes.getUnsignedShortBigEndian(buffer, offset + EthernetHeader.VLAN_ETHERTYPE_FIELD_OFFSET);
            l3 += EthernetHeader.VLAN_TAG_LENGTH;
        }
        if (etherType == Protocols.ETHERTYPE_IPV4)
        {
            return parseIpv4(key, buffer, l3, end);
        }
        if (etherType == Protocols.ETHERTYPE_IPV6)
        {
            return parseIpv6(key, buffer, l3, end);
        }
        return passCode(PassReason.NOT_IP);
    }

    private int parseIpv4(final FlowKey key, final MutableDirectBuffer buffer, final int l3, final int end)
    {
        final int available = end - l3;
        if (available < Ipv4Header.MIN_LENGTH)
        {
            return dropCode(DropReason.IPV4_TRUNCATED);
        }
        // Three words carry every field the pipeline needs: read each once.
        final int word0 = FrameBytes.getIntBigEndian(buffer, l3);
        final int problem = checkIpv4(word0, available);
        if (problem != 0)
        {
            return problem;
        }
        final int fragmentWord = FrameBytes.getIntBigEndian(buffer, l3 + Ipv4Header.IDENTIFICATION_FIELD_OFFSET);
        final int protocol = Ipv4Header.protocol(FrameBytes.getIntBigEndian(buffer, l3 + Ipv4Header.TTL_FIELD_OFFSET));
        ipOffset = l3;
        ipEnd = l3 + Ipv4Header.totalLength(word0);
        ipv6Packet = false;
        tos = Ipv4Header.tos(word0);
        final int source = FrameBytes.getIntLittleEndian(buffer, l3 + Ipv4Header.SOURCE_FIELD_OFFSET);
        final int destination = FrameBytes.getIntLittleEndian(buffer, l3 + Ipv4Header.DESTINATION_FIELD_OFFSET);
        if (Ipv4Header.isFragment(fragmentWord))
        {
            key.ipv4(source, destination, 0, protocol);
            return FRAGMENT;
        }
        final int l4 = l3 + Ipv4Header.headerLength(word0);
        if (protocol == Protocols.IPPROTO_TCP || protocol == Protocols.IPPROTO_UDP)
        {
            final int checked = checkTransport(buffer, l4, ipEnd, protocol);
            if (checked != FLOW)
            {
                return checked;
            }
            key.ipv4(source, destination, FrameBytes.getIntLittleEndian(buffer, l4), protocol);
            return FLOW;
        }
        if (protocol == Protocols.IPPROTO_ICMP)
        {
            return parseIcmpv4Error(key, buffer, l4);
        }
        return passCode(PassReason.NOT_LOAD_BALANCED);
    }

    private static int checkIpv4(final int word0, final int available)
    {
        if (Ipv4Header.version(word0) != 4)
        {
            return dropCode(DropReason.IPV4_BAD_VERSION);
        }
        final int headerLength = Ipv4Header.headerLength(word0);
        if (headerLength < Ipv4Header.MIN_LENGTH)
        {
            return dropCode(DropReason.IPV4_BAD_IHL);
        }
        if (headerLength > available)
        {
            return dropCode(DropReason.IPV4_OPTIONS_TRUNCATED);
        }
        final int totalLength = Ipv4Header.totalLength(word0);
        if (totalLength > available)
        {
            return dropCode(DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME);
        }
        if (totalLength < headerLength)
        {
            return dropCode(DropReason.IPV4_TOTAL_LENGTH_TOO_SMALL);
        }
        return 0;
    }

    private int checkTransport(final MutableDirectBuffer buffer, final int l4, final int packetEnd, final int protocol)
    {
        final int available = packetEnd - l4;
        if (protocol == Protocols.IPPROTO_TCP)
        {
            if (available < TcpHeader.MIN_LENGTH)
            {
                return dropCode(DropReason.TCP_TRUNCATED);
            }
            final int headerLength =
                TcpHeader.headerLength(FrameBytes.getUnsignedByte(buffer, l4 + TcpHeader.DATA_OFFSET_FIELD_OFFSET));
            if (headerLength < TcpHeader.MIN_LENGTH)
            {
                return dropCode(DropReason.TCP_BAD_DATA_OFFSET);
            }
            return headerLength > available ? dropCode(DropReason.TCP_TRUNCATED) : FLOW;
        }
        if (available < UdpHeader.LENGTH)
        {
            return dropCode(DropReason.UDP_TRUNCATED);
        }
        final int udpLength = FrameBytes.getUnsignedShortBigEndian(buffer, l4 + UdpHeader.LENGTH_FIELD_OFFSET);
        return udpLength < UdpHeader.LENGTH || udpLength > available ?
            dropCode(DropReason.UDP_BAD_LENGTH) : FLOW;
    }

    private int parseIcmpv4Error(final FlowKey key, final MutableDirectBuffer buffer, final int l4)
    {
        if (ipEnd - l4 < IcmpHeader.LENGTH)
        {
            return dropCode(DropReason.ICMP_TRUNCATED);
        }
        final int type = FrameBytes.getUnsignedByte(buffer, l4 + IcmpHeader.TYPE_FIELD_OFFSET);
        if (type == IcmpHeader.V4_ECHO_REQUEST && echoRequests)
        {
            key.ipv4(FrameBytes.getIntLittleEndian(buffer, ipOffset + Ipv4Header.SOURCE_FIELD_OFFSET),
                FrameBytes.getIntLittleEndian(buffer, ipOffset + Ipv4Header.DESTINATION_FIELD_OFFSET), 0,
                Protocols.IPPROTO_ICMP);
            echoIcmpOffset = l4;
            return ECHO_REQUEST;
        }
        if (type != IcmpHeader.V4_DESTINATION_UNREACHABLE)
        {
            return passCode(PassReason.NOT_LOAD_BALANCED);
        }
        // The quote is the original packet from the VIP to the client: the flow is its reverse.
        final int quote = l4 + IcmpHeader.LENGTH;
        final int available = ipEnd - quote;
        if (available < Ipv4Header.MIN_LENGTH)
        {
            return dropCode(DropReason.ICMP_QUOTE_TRUNCATED);
        }
        final int quotedWord0 = FrameBytes.getIntBigEndian(buffer, quote);
        final int headerLength = Ipv4Header.headerLength(quotedWord0);
        if (Ipv4Header.version(quotedWord0) != 4 || headerLength < Ipv4Header.MIN_LENGTH)
        {
            return dropCode(DropReason.ICMP_QUOTE_MALFORMED);
        }
        if (available < headerLength + 8)
        {
            return dropCode(DropReason.ICMP_QUOTE_TRUNCATED);
        }
        final int protocol =
            Ipv4Header.protocol(FrameBytes.getIntBigEndian(buffer, quote + Ipv4Header.TTL_FIELD_OFFSET));
        // A quoted non-first fragment carries payload where the ports would be: no flow to key on.
        final int quotedWord1 = FrameBytes.getIntBigEndian(buffer, quote + Ipv4Header.IDENTIFICATION_FIELD_OFFSET);
        final boolean laterFragment = (quotedWord1 & Ipv4Header.FRAGMENT_OFFSET_MASK) != 0;
        if (laterFragment || (protocol != Protocols.IPPROTO_TCP && protocol != Protocols.IPPROTO_UDP))
        {
            return passCode(PassReason.NOT_LOAD_BALANCED);
        }
        final int quotedSource = FrameBytes.getIntLittleEndian(buffer, quote + Ipv4Header.SOURCE_FIELD_OFFSET);
        final int quotedDestination =
            FrameBytes.getIntLittleEndian(buffer, quote + Ipv4Header.DESTINATION_FIELD_OFFSET);
        final int ports = FrameBytes.getIntLittleEndian(buffer, quote + headerLength);
        key.ipv4(quotedDestination, quotedSource, Integer.rotateLeft(ports, 16), protocol);
        return FLOW;
    }

    private int parseIpv6(final FlowKey key, final MutableDirectBuffer buffer, final int l3, final int end)
    {
        final int available = end - l3;
        if (available < Ipv6Header.LENGTH)
        {
            return dropCode(DropReason.IPV6_TRUNCATED);
        }
        // Version, traffic class and flow label in the first word; payload length, next header, hop limit in the next.
        final int word0 = FrameBytes.getIntBigEndian(buffer, l3);
        if (Ipv6Header.version(word0) != 6)
        {
            return dropCode(DropReason.IPV6_BAD_VERSION);
        }
        final int word1 = FrameBytes.getIntBigEndian(buffer, l3 + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET);
        final int payloadLength = Ipv6Header.payloadLength(word1);
        if (Ipv6Header.LENGTH + payloadLength > available)
        {
            return dropCode(DropReason.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME);
        }
        ipOffset = l3;
        ipEnd = l3 + Ipv6Header.LENGTH + payloadLength;
        ipv6Packet = true;
        tos = Ipv6Header.trafficClass(word0);
        final int walked = walkExtensions(buffer, Ipv6Header.nextHeader(word1), l3 + Ipv6Header.LENGTH, ipEnd);
        if (walked != 0)
        {
            return walked;
        }
        final int protocol = walkNextHeader;
        final int l4 = walkOffset;
        final int source = l3 + Ipv6Header.SOURCE_FIELD_OFFSET;
        final int destination = l3 + Ipv6Header.DESTINATION_FIELD_OFFSET;
        if (walkFragment)
        {
            setIpv6Key(key, buffer, source, destination, 0, protocol);
            return FRAGMENT;
        }
        if (protocol == Protocols.IPPROTO_TCP || protocol == Protocols.IPPROTO_UDP)
        {
            final int checked = checkTransport(buffer, l4, ipEnd, protocol);
            if (checked != FLOW)
            {
                return checked;
            }
            setIpv6Key(key, buffer, source, destination, FrameBytes.getIntLittleEndian(buffer, l4), protocol);
            return FLOW;
        }
        if (protocol == Protocols.IPPROTO_ICMPV6)
        {
            return parseIcmpv6Error(key, buffer, l4);
        }
        return passCode(PassReason.NOT_LOAD_BALANCED);
    }

    private int parseIcmpv6Error(final FlowKey key, final MutableDirectBuffer buffer, final int l4)
    {
        if (ipEnd - l4 < IcmpHeader.LENGTH)
        {
            return dropCode(DropReason.ICMP_TRUNCATED);
        }
        final int type = FrameBytes.getUnsignedByte(buffer, l4 + IcmpHeader.TYPE_FIELD_OFFSET);
        if (type == IcmpHeader.V6_ECHO_REQUEST && echoRequests)
        {
            setIpv6Key(key, buffer, ipOffset + Ipv6Header.SOURCE_FIELD_OFFSET,
                ipOffset + Ipv6Header.DESTINATION_FIELD_OFFSET, 0, Protocols.IPPROTO_ICMPV6);
            echoIcmpOffset = l4;
            return ECHO_REQUEST;
        }
        if (type != IcmpHeader.V6_DESTINATION_UNREACHABLE && type != IcmpHeader.V6_PACKET_TOO_BIG)
        {
            return passCode(PassReason.NOT_LOAD_BALANCED);
        }
        final int quote = l4 + IcmpHeader.LENGTH;
        if (ipEnd - quote < Ipv6Header.LENGTH)
        {
            return dropCode(DropReason.ICMP_QUOTE_TRUNCATED);
        }
        if (Ipv6Header.version(FrameBytes.getIntBigEndian(buffer, quote)) != 6)
        {
            return dropCode(DropReason.ICMP_QUOTE_MALFORMED);
        }
        // The quote's own payload length describes the original, not the (truncated) quote: walk to ipEnd.
        final int quotedWord1 = FrameBytes.getIntBigEndian(buffer, quote + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET);
        final int walked = walkExtensions(buffer, Ipv6Header.nextHeader(quotedWord1), quote + Ipv6Header.LENGTH, ipEnd);
        if (walked != 0)
        {
            return dropCode(DropReason.ICMP_QUOTE_TRUNCATED);
        }
        final int protocol = walkNextHeader;
        if (walkFragment || (protocol != Protocols.IPPROTO_TCP && protocol != Protocols.IPPROTO_UDP))
        {
            return passCode(PassReason.NOT_LOAD_BALANCED);
        }
        if (ipEnd - walkOffset < 8)
        {
            return dropCode(DropReason.ICMP_QUOTE_TRUNCATED);
        }
        final int ports = FrameBytes.getIntLittleEndian(buffer, walkOffset);
        setIpv6Key(key, buffer, quote + Ipv6Header.DESTINATION_FIELD_OFFSET, quote + Ipv6Header.SOURCE_FIELD_OFFSET,
            Integer.rotateLeft(ports, 16), protocol);
        return FLOW;
    }

    private static void setIpv6Key(
        final FlowKey key,
        final MutableDirectBuffer buffer, final int source, final int destination, final int ports, final int protocol)
    {
        key.ipv6(
            FrameBytes.getLongLittleEndian(buffer, source),
            FrameBytes.getLongLittleEndian(buffer, source + 8),
            FrameBytes.getLongLittleEndian(buffer, destination),
            FrameBytes.getLongLittleEndian(buffer, destination + 8),
            ports,
            protocol);
    }

    // Walks RFC 8200 §4 extension headers from {@code offset}; sets walkNextHeader/walkOffset/walkFragment.
    private int walkExtensions(final MutableDirectBuffer buffer, final int firstNextHeader, final int offset,
        final int packetEnd)
    {
        int nextHeader = firstNextHeader;
        int at = offset;
        boolean fragment = false;
        for (int walked = 0; ; walked++)
        {
            final boolean generic = nextHeader == Protocols.IPPROTO_HOPOPTS ||
                nextHeader == Protocols.IPPROTO_ROUTING || nextHeader == Protocols.IPPROTO_DSTOPTS;
            if (!generic && nextHeader != Protocols.IPPROTO_FRAGMENT)
            {
                break;
            }
            if (walked == MAX_IPV6_EXTENSION_HEADERS)
            {
                return dropCode(DropReason.IPV6_EXTENSION_CHAIN_TOO_LONG);
            }
            if (packetEnd - at < Ipv6Header.EXTENSION_MIN_LENGTH)
            {
                return dropCode(DropReason.IPV6_EXTENSION_TRUNCATED);
            }
            final int headerLength = generic ?
                (FrameBytes.getUnsignedByte(buffer, at + 1) + 1) << 3 : Ipv6Header.FRAGMENT_HEADER_LENGTH;
            if (headerLength > packetEnd - at)
            {
                return dropCode(DropReason.IPV6_EXTENSION_TRUNCATED);
            }
            fragment |= !generic;
            nextHeader = FrameBytes.getUnsignedByte(buffer, at);
            at += headerLength;
            if (!generic)
            {
                // RFC 8200 §4.5: after the Fragment header comes the fragmentable part, which in a non-first
                // fragment is bare payload. Stop here so every fragment keys on the Fragment header's next header.
                break;
            }
        }
        walkNextHeader = nextHeader;
        walkOffset = at;
        walkFragment = fragment;
        return 0;
    }
}
