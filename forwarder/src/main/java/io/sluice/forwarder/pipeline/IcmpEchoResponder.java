package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.IcmpHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Turns an ICMP echo request to a VIP into its echo reply, in place, so the worker can send it back out of the port
 * it came in on (Katran answers echo to its VIPs in the data plane too). Off the hot path: the pipeline calls it only
 * for echo requests to an address that has a VIP with an eligible backend.
 * <p>
 * The reply swaps the MAC addresses (an 802.1Q tag stays) and the IP addresses, resets the TTL or hop limit to
 * {@link #HOP_LIMIT}, carries no IPv4 options and no IPv6 extension headers (the new headers are written right in
 * front of the ICMP message, which never moves), and turns type 8 into 0 or 128 into 129 with the ICMP checksum
 * updated incrementally (RFC 1624 eqn. 3; the IPv6 pseudo-header sum does not change when its addresses swap).
 * The IPv4 header checksum is computed afresh. Requests from a multicast or broadcast MAC, or from a multicast,
 * broadcast or unspecified IP source, get no reply (RFC 1122 §3.2.2.6, RFC 4443 §4.2); nor do requests beyond the
 * worker's {@link TokenBucket}.
 */
public final class IcmpEchoResponder
{
    /** TTL and hop limit of replies, as Linux's default. */
    public static final int HOP_LIMIT = 64;

    private final TokenBucket bucket;

    /**
     * Creates a responder with its own token bucket (one per worker).
     *
     * @param ratePerSecond replies per second.
     * @param burst         replies at once.
     */
    public IcmpEchoResponder(final int ratePerSecond, final int burst)
    {
        this.bucket = new TokenBucket(ratePerSecond, burst);
    }

    /**
     * Rewrites an echo request into its reply.
     *
     * @param buffer   the frame's buffer.
     * @param frame    first byte of the Ethernet header.
     * @param ip       first byte of the IP header.
     * @param icmp     first byte of the ICMP message.
     * @param ipEnd    end of the IP packet.
     * @param ipv6     whether the packet is IPv6.
     * @param nowNs    the burst's clock, for the rate limit.
     * @return the first byte of the reply frame (it ends at {@code ipEnd}), or -1 - {@link DropReason} ordinal.
     */
    int reply(final MutableDirectBuffer buffer, final int frame, final int ip, final int icmp, final int ipEnd,
        final boolean ipv6, final long nowNs)
    {
        if ((buffer.getByte(frame + EthernetHeader.SOURCE_FIELD_OFFSET) & 1) != 0 ||
            (ipv6 ? isBadSourceV6(buffer, ip) : isBadSourceV4(buffer, ip)))
        {
            return -1 - DropReason.ICMP_ECHO_BAD_SOURCE.ordinal();
        }
        if (!bucket.tryTake(nowNs))
        {
            return -1 - DropReason.ICMP_RATE_LIMITED.ordinal();
        }
        final int newIp = ipv6 ? replyV6(buffer, ip, icmp, ipEnd) : replyV4(buffer, ip, icmp, ipEnd);
        final int checksum = buffer.getShort(icmp + IcmpHeader.CHECKSUM_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final int code = buffer.getByte(icmp + IcmpHeader.CODE_FIELD_OFFSET) & 0xFF;
        final int oldWord = (ipv6 ? IcmpHeader.V6_ECHO_REQUEST : IcmpHeader.V4_ECHO_REQUEST) << 8 | code;
        final int newWord = (ipv6 ? IcmpHeader.V6_ECHO_REPLY : IcmpHeader.V4_ECHO_REPLY) << 8 | code;
        buffer.putByte(icmp + IcmpHeader.TYPE_FIELD_OFFSET,
            (byte)(ipv6 ? IcmpHeader.V6_ECHO_REPLY : IcmpHeader.V4_ECHO_REPLY));
        buffer.putShort(icmp + IcmpHeader.CHECKSUM_FIELD_OFFSET,
            (short)updatedChecksum(checksum, oldWord, newWord), ByteOrder.BIG_ENDIAN);
        return moveEthernet(buffer, frame, ip, newIp);
    }

    /**
     * RFC 1624 eqn. 3: {@code HC' = ~(~HC + ~m + m')}, in one's complement arithmetic.
     *
     * @param checksum the old checksum.
     * @param oldWord  the 16-bit word before.
     * @param newWord  the word after.
     * @return the new checksum.
     */
    static int updatedChecksum(final int checksum, final int oldWord, final int newWord)
    {
        int sum = (~checksum & 0xFFFF) + (~oldWord & 0xFFFF) + (newWord & 0xFFFF);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return ~sum & 0xFFFF;
    }

    static boolean isBadSourceV4(final MutableDirectBuffer buffer, final int ip)
    {
        final int source = buffer.getInt(ip + Ipv4Header.SOURCE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int first = source >>> 24;
        // 0/8 (this network), 224/4 multicast, 240/4 reserved and the limited broadcast address.
        return first == 0 || first >= 224;
    }

    static boolean isBadSourceV6(final MutableDirectBuffer buffer, final int ip)
    {
        final int source = ip + Ipv6Header.SOURCE_FIELD_OFFSET;
        if ((buffer.getByte(source) & 0xFF) == 0xFF)
        {
            return true;
        }
        return buffer.getLong(source) == 0 && buffer.getLong(source + 8) == 0;
    }

    // Writes a 20-byte IPv4 header right in front of the ICMP message; returns where it starts.
    private static int replyV4(final MutableDirectBuffer buffer, final int ip, final int icmp, final int ipEnd)
    {
        final int tos = buffer.getByte(ip + Ipv4Header.TOS_FIELD_OFFSET) & 0xFF;
        final int identification = buffer.getShort(ip + Ipv4Header.IDENTIFICATION_FIELD_OFFSET,
            ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final int flags = buffer.getShort(ip + Ipv4Header.FLAGS_FRAGMENT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) &
            Ipv4Header.FLAG_DONT_FRAGMENT;
        final int source = buffer.getInt(ip + Ipv4Header.SOURCE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int destination = buffer.getInt(ip + Ipv4Header.DESTINATION_FIELD_OFFSET, ByteOrder.BIG_ENDIAN);
        final int at = icmp - Ipv4Header.MIN_LENGTH;
        final int totalLength = ipEnd - at;
        final int word0 = 0x4500_0000 | tos << 16 | totalLength;
        final int word1 = identification << 16 | flags;
        final int word2 = HOP_LIMIT << 24 | Protocols.IPPROTO_ICMP << 16;
        buffer.putInt(at, word0, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.IDENTIFICATION_FIELD_OFFSET, word1, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.TTL_FIELD_OFFSET, word2, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.SOURCE_FIELD_OFFSET, destination, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv4Header.DESTINATION_FIELD_OFFSET, source, ByteOrder.BIG_ENDIAN);
        long sum = (word0 >>> 16) + (word0 & 0xFFFF) + (word1 >>> 16) + (word1 & 0xFFFF) + (word2 >>> 16) +
            (source >>> 16) + (source & 0xFFFF) + (destination >>> 16) + (destination & 0xFFFF);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        buffer.putShort(at + Ipv4Header.CHECKSUM_FIELD_OFFSET, (short)~sum, ByteOrder.BIG_ENDIAN);
        return at;
    }

    // Writes a 40-byte IPv6 header right in front of the ICMPv6 message; returns where it starts.
    private static int replyV6(final MutableDirectBuffer buffer, final int ip, final int icmp, final int ipEnd)
    {
        final int word0 = buffer.getInt(ip, ByteOrder.BIG_ENDIAN);
        final long source0 = buffer.getLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET);
        final long source1 = buffer.getLong(ip + Ipv6Header.SOURCE_FIELD_OFFSET + 8);
        final long destination0 = buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET);
        final long destination1 = buffer.getLong(ip + Ipv6Header.DESTINATION_FIELD_OFFSET + 8);
        final int at = icmp - Ipv6Header.LENGTH;
        buffer.putInt(at, word0, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET,
            (ipEnd - icmp) << 16 | Protocols.IPPROTO_ICMPV6 << 8 | HOP_LIMIT, ByteOrder.BIG_ENDIAN);
        buffer.putLong(at + Ipv6Header.SOURCE_FIELD_OFFSET, destination0);
        buffer.putLong(at + Ipv6Header.SOURCE_FIELD_OFFSET + 8, destination1);
        buffer.putLong(at + Ipv6Header.DESTINATION_FIELD_OFFSET, source0);
        buffer.putLong(at + Ipv6Header.DESTINATION_FIELD_OFFSET + 8, source1);
        return at;
    }

    // Writes the Ethernet header (MACs swapped, any VLAN tag kept) in front of the new IP header.
    static int moveEthernet(final MutableDirectBuffer buffer, final int frame, final int ip, final int newIp)
    {
        final int l2 = ip - frame;
        final int at = newIp - l2;
        // Read everything first: the new header may overlap the old one.
        final int destinationHigh = buffer.getInt(frame, ByteOrder.BIG_ENDIAN);
        final short destinationLow = buffer.getShort(frame + 4, ByteOrder.BIG_ENDIAN);
        final short sourceHigh = buffer.getShort(frame + 6, ByteOrder.BIG_ENDIAN);
        final int sourceLow = buffer.getInt(frame + 8, ByteOrder.BIG_ENDIAN);
        final int tail = buffer.getInt(frame + 12, ByteOrder.BIG_ENDIAN);
        final short etherType = l2 > EthernetHeader.LENGTH ?
            buffer.getShort(frame + EthernetHeader.VLAN_ETHERTYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) : 0;
        // new destination = old source (6 bytes at 6), new source = old destination (6 bytes at 0)
        buffer.putShort(at, sourceHigh, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + 2, sourceLow, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + 6, destinationHigh, ByteOrder.BIG_ENDIAN);
        buffer.putShort(at + 10, destinationLow, ByteOrder.BIG_ENDIAN);
        if (l2 > EthernetHeader.LENGTH)
        {
            buffer.putInt(at + 12, tail, ByteOrder.BIG_ENDIAN);
            buffer.putShort(at + EthernetHeader.VLAN_ETHERTYPE_FIELD_OFFSET, etherType, ByteOrder.BIG_ENDIAN);
        }
        else
        {
            buffer.putShort(at + 12, (short)(tail >>> 16), ByteOrder.BIG_ENDIAN);
        }
        return at;
    }
}
