package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.IcmpHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Answers a packet to a VIP that would not fit the tunnel MTU once encapsulated with the ICMP error that makes its
 * sender lower its path MTU, in place, so the worker sends it back out of the port it came in on to the MAC it came
 * from (as IPVS, and Katran with ICMP_TOOBIG, do). Off the hot path: the pipeline calls it only for packets the
 * encapsulator refused as too big.
 * <ul>
 *   <li>IPv4 with DF set: destination unreachable, fragmentation needed (type 3 code 4, RFC 792, RFC 1191 §4) with
 *   the next-hop MTU, quoting the IP header (options included) and the first 8 bytes of data.</li>
 *   <li>IPv6: packet too big (type 2, RFC 4443 §3.2, RFC 8201) with an MTU of at least 1280, quoting as much of
 *   the packet as fits in a 1280-byte reply (RFC 4443 §2.4 (c)).</li>
 * </ul>
 * The error's source is the VIP (the packet's destination), its destination the sender; the quote stays where it is
 * and the new headers are written in front of it (the frame's headroom), so nothing is copied or allocated. No error
 * is sent (RFC 1122 §3.2.2, RFC 4443 §2.4 (e)) for an IPv4 packet without DF (it may be fragmented instead), a
 * non-first fragment, an ICMP error, a packet from a multicast or broadcast MAC or from a multicast, broadcast or
 * unspecified IP source, or when the worker's {@link TokenBucket} is empty.
 */
public final class IcmpTooBigResponder
{
    /** The IPv6 minimum link MTU (RFC 8200 §5): never report less, never send a larger error. */
    public static final int IPV6_MIN_MTU = 1280;
    /** TTL and hop limit of the errors, as Linux's default. */
    public static final int HOP_LIMIT = 64;
    /** {@link #reply} result: the packet gets no ICMP error (see the class comment). */
    public static final int NOT_ANSWERED = -1;
    /** {@link #reply} result: the packet would get an error but the token bucket is empty. */
    public static final int RATE_LIMITED = -2;

    // Linux's icmp_send: the error keeps the packet's TOS bits and gets precedence "internetwork control".
    private static final int TOS_MASK = 0x1E;
    private static final int PRECEDENCE_INTERNETWORK_CONTROL = 0xC0;
    private static final int V4_QUOTED_DATA = 8;
    private static final int MAX_IPV6_EXTENSION_HEADERS = 8;

    private final TokenBucket bucket;
    private int replyEnd;

    /**
     * Creates a responder with its own token bucket (one per worker).
     *
     * @param ratePerSecond errors per second.
     * @param burst         errors at once.
     */
    public IcmpTooBigResponder(final int ratePerSecond, final int burst)
    {
        this.bucket = new TokenBucket(ratePerSecond, burst);
    }

    /**
     * Rewrites a packet that is too big for the tunnel into the ICMP error for its sender.
     *
     * @param buffer the frame's buffer.
     * @param frame  first byte of the Ethernet header.
     * @param ip     first byte of the IP header (validated by the pipeline's parser).
     * @param ipEnd  end of the IP packet.
     * @param ipv6   whether the packet is IPv6.
     * @param mtu    the largest inner packet the tunnel carries to the chosen backend.
     * @param nowNs  the burst's clock, for the rate limit.
     * @return the first byte of the error frame (it ends at {@link #replyEnd()}), or {@link #NOT_ANSWERED} or
     *         {@link #RATE_LIMITED}; the frame is unchanged then.
     */
    int reply(final MutableDirectBuffer buffer, final int frame, final int ip, final int ipEnd, final boolean ipv6,
        final int mtu, final long nowNs)
    {
        final int l2 = ip - frame;
        if ((buffer.getByte(frame + EthernetHeader.SOURCE_FIELD_OFFSET) & 1) != 0)
        {
            return NOT_ANSWERED;
        }
        return ipv6 ? replyV6(buffer, frame, ip, ipEnd, Math.max(IPV6_MIN_MTU, mtu), l2, nowNs) :
            replyV4(buffer, frame, ip, ipEnd, mtu, l2, nowNs);
    }

    /**
     * Returns the end of the last error frame {@link #reply} wrote.
     *
     * @return offset one past its last byte.
     */
    int replyEnd()
    {
        return replyEnd;
    }

    private int replyV4(final MutableDirectBuffer buffer, final int frame, final int ip, final int ipEnd,
        final int mtu, final int l2, final long nowNs)
    {
        final int word0 = buffer.getInt(ip, ByteOrder.BIG_ENDIAN);
        final int headerLength = Ipv4Header.headerLength(word0);
        final int fragment = buffer.getShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int quoteEnd = ip + headerLength + V4_QUOTED_DATA;
        final int at = ip - IcmpHeader.LENGTH - Ipv4Header.MIN_LENGTH;
        if ((fragment & Ipv4Header.FLAG_DONT_FRAGMENT) == 0 || (fragment & Ipv4Header.FRAGMENT_OFFSET_MASK) != 0 ||
            quoteEnd > ipEnd || ipEnd - ip <= mtu || at - l2 < 0 ||
            IcmpEchoResponder.isBadSourceV4(buffer, ip) ||
            (buffer.getByte(ip + Ipv4Header.PROTOCOL_FIELD_OFFSET) == Protocols.IPPROTO_ICMP &&
            isIcmpv4Error(buffer.getByte(ip + headerLength) & 0xFF)))
        {
            return NOT_ANSWERED;
        }
        if (!bucket.tryTake(nowNs))
        {
            return RATE_LIMITED;
        }
        // The new Ethernet header ends 28 bytes before the old one starts, so writing it first keeps the MACs to read.
        final int start = IcmpEchoResponder.moveEthernet(buffer, frame, ip, at);
        final int source = buffer.getInt(ip + Ipv4Header.SOURCE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int destination = buffer.getInt(ip + Ipv4Header.DESTINATION_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int tos = Ipv4Header.tos(word0) & TOS_MASK | PRECEDENCE_INTERNETWORK_CONTROL;

        final int icmp = ip - IcmpHeader.LENGTH;
        buffer.putInt(icmp, IcmpHeader.V4_DESTINATION_UNREACHABLE << 24 |
            IcmpHeader.V4_CODE_FRAGMENTATION_NEEDED << 16, ByteOrder.BIG_ENDIAN);
        buffer.putInt(icmp + 4, mtu & 0xFFFF, ByteOrder.BIG_ENDIAN);
        final long icmpSum = sum(buffer, icmp, quoteEnd);
        buffer.putShort(icmp + IcmpHeader.CHECKSUM_FIELD_OFFSET, (short)~fold(icmpSum), ByteOrder.BIG_ENDIAN);

        final int ipWord0 = 0x4500_0000 | tos << 16 | (quoteEnd - at);
        final int ipWord2 = HOP_LIMIT << 24 | Protocols.IPPROTO_ICMP << 16;
        buffer.putInt(at, ipWord0, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.IDENTIFICATION_FIELD_OFFSET, 0, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.TTL_FIELD_OFFSET, ipWord2, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.SOURCE_FIELD_OFFSET, destination, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.DESTINATION_FIELD_OFFSET, source, ByteOrder.BIG_ENDIAN);
        putIpv4HeaderChecksum(buffer, at);
        replyEnd = quoteEnd;
        return start;
    }

    private int replyV6(final MutableDirectBuffer buffer, final int frame, final int ip, final int ipEnd,
        final int mtu, final int l2, final long nowNs)
    {
        final int quoteEnd = Math.min(ipEnd, ip + IPV6_MIN_MTU - Ipv6Header.LENGTH - IcmpHeader.LENGTH);
        final int at = ip - IcmpHeader.LENGTH - Ipv6Header.LENGTH;
        if (ipEnd - ip <= mtu || at - l2 < 0 || IcmpEchoResponder.isBadSourceV6(buffer, ip) ||
            isLaterFragmentOrIcmpError(buffer, ip, ipEnd))
        {
            return NOT_ANSWERED;
        }
        if (!bucket.tryTake(nowNs))
        {
            return RATE_LIMITED;
        }
        final int start = IcmpEchoResponder.moveEthernet(buffer, frame, ip, at);
        final long source0 = buffer.getLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET);
        final long source1 = buffer.getLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET + 8);
        final long destination0 = buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET);
        final long destination1 = buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET + 8);
        final int icmpLength = quoteEnd - ip + IcmpHeader.LENGTH;
        buffer.putInt(at, 0x6000_0000, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET,
            icmpLength << 16 | Protocols.IPPROTO_ICMPV6 << 8 | HOP_LIMIT, ByteOrder.BIG_ENDIAN);
        buffer.putLong(at + Ipv6Header.SOURCE_FIELD_OFFSET, destination0);
        buffer.putLong(at + Ipv6Header.SOURCE_FIELD_OFFSET + 8, destination1);
        buffer.putLong(at + Ipv6Header.DESTINATION_FIELD_OFFSET, source0);
        buffer.putLong(at + Ipv6Header.DESTINATION_FIELD_OFFSET + 8, source1);

        final int icmp = ip - IcmpHeader.LENGTH;
        buffer.putInt(icmp, IcmpHeader.V6_PACKET_TOO_BIG << 24, ByteOrder.BIG_ENDIAN);
        buffer.putInt(icmp + 4, mtu, ByteOrder.BIG_ENDIAN);
        // RFC 4443 §2.3: the pseudo-header (addresses, upper-layer length, next header) and the message.
        final long pseudo = sum(buffer, at + Ipv6Header.SOURCE_FIELD_OFFSET, at + Ipv6Header.LENGTH) + icmpLength +
            Protocols.IPPROTO_ICMPV6;
        buffer.putShort(icmp + IcmpHeader.CHECKSUM_FIELD_OFFSET, (short)~fold(pseudo + sum(buffer, icmp, quoteEnd)),
            ByteOrder.BIG_ENDIAN);
        replyEnd = quoteEnd;
        return start;
    }

    // RFC 792 and RFC 1122 §3.2.2: the query types (echo, timestamp, information, address mask) are not errors.
    private static boolean isIcmpv4Error(final int type)
    {
        return type != IcmpHeader.V4_ECHO_REPLY && type != IcmpHeader.V4_ECHO_REQUEST && (type < 13 || type > 18);
    }

    // Walks the extension headers as the parser did: a Fragment header with a non-zero offset, or an ICMPv6 error
    // (types 0..127, RFC 4443 §2.1) as the upper layer, gets no error back.
    private static boolean isLaterFragmentOrIcmpError(final MutableDirectBuffer buffer, final int ip, final int ipEnd)
    {
        int nextHeader = buffer.getByte(ip + Ipv6Header.NEXT_HEADER_FIELD_OFFSET) & 0xFF;
        int at = ip + Ipv6Header.LENGTH;
        for (int walked = 0; walked < MAX_IPV6_EXTENSION_HEADERS && ipEnd - at >= Ipv6Header.EXTENSION_MIN_LENGTH;
            walked++)
        {
            if (nextHeader == Protocols.IPPROTO_FRAGMENT)
            {
                final int offsetFlags = buffer.getShort(at + Ipv6Header.FRAGMENT_OFFSET_FLAGS_FIELD_OFFSET,
                    ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if ((offsetFlags & Ipv6Header.FRAGMENT_OFFSET_MASK) != 0)
                {
                    return true;
                }
                nextHeader = buffer.getByte(at) & 0xFF;
                at += Ipv6Header.FRAGMENT_HEADER_LENGTH;
            }
            else if (nextHeader == Protocols.IPPROTO_HOPOPTS || nextHeader == Protocols.IPPROTO_ROUTING ||
                nextHeader == Protocols.IPPROTO_DSTOPTS)
            {
                final int length = ((buffer.getByte(at + 1) & 0xFF) + 1) << 3;
                nextHeader = buffer.getByte(at) & 0xFF;
                at += length;
            }
            else
            {
                break;
            }
        }
        return nextHeader == Protocols.IPPROTO_ICMPV6 && at < ipEnd && (buffer.getByte(at) & 0x80) == 0;
    }

    /**
     * Writes the checksum of the 20-byte IPv4 header (no options) at {@code ip}: RFC 1071 over its ten words with
     * the checksum word taken as zero. Also for the outer fragments {@link PacketPipeline} writes.
     *
     * @param buffer the frame.
     * @param ip     the header's first byte.
     */
    static void putIpv4HeaderChecksum(final MutableDirectBuffer buffer, final int ip)
    {
        buffer.putShort(ip + Ipv4Header.CHECKSUM_FIELD_OFFSET, (short)0);
        buffer.putShort(ip + Ipv4Header.CHECKSUM_FIELD_OFFSET,
            (short)~fold(sum(buffer, ip, ip + Ipv4Header.MIN_LENGTH)), ByteOrder.BIG_ENDIAN);
    }

    // The one's complement sum of [from, to) as 16-bit big-endian words, an odd last byte padded with zero.
    private static long sum(final MutableDirectBuffer buffer, final int from, final int to)
    {
        long sum = 0;
        int i = from;
        for (; i + 1 < to; i += 2)
        {
            sum += buffer.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        if (i < to)
        {
            sum += (buffer.getByte(i) & 0xFF) << 8;
        }
        return sum;
    }

    private static int fold(final long value)
    {
        long sum = value;
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)sum;
    }
}
