package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.lb.AddressWords;
import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.FrameBytes;
import io.sluice.forwarder.protocol.GreHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Wraps an IP packet in Ethernet + outer IP + GRE (RFC 2784) in front of it, in the frame's headroom: the payload
 * never moves. The backend decapsulates and answers the client directly (Direct Server Return).
 * <p>
 * Outer header: source = this forwarder's tunnel address, destination = the backend, TTL/hop limit 64, DSCP and
 * ECN copied from the inner packet (RFC 2983 uniform model, RFC 6040 normal mode), IPv4 DF set and identification
 * 0 (RFC 6864 allows it for atomic datagrams), IPv6 flow label from the flow hash (RFC 6438) so fabric ECMP keeps
 * a flow on one path.
 * <p>
 * The operator's {@link TunnelOptions} (802.1Q tag, RFC 2890 key, per-flow source from a prefix) are written by
 * {@link GreOptionsEncapsulator}; without them the frame is the plain one below, from fixed words, at one branch's
 * cost. {@link #outerHeaderLength} says how many bytes go in front of the inner packet either way.
 */
public final class GreEncapsulator
{
    public static final int IPV4_OVERHEAD = EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + GreHeader.LENGTH;
    public static final int IPV6_OVERHEAD = EthernetHeader.LENGTH + Ipv6Header.LENGTH + GreHeader.LENGTH;
    private static final int OUTER_TTL = 64;
    private static final int GRE_IPV4_LITTLE_ENDIAN = swap16(Protocols.ETHERTYPE_IPV4);
    private static final int GRE_IPV6_LITTLE_ENDIAN = swap16(Protocols.ETHERTYPE_IPV6);

    private final boolean hasSourceV4;
    private final boolean hasSourceV6;
    private final int tunnelMtu;
    private final long v4Word0;
    private final long v4Word1;
    private final long v4Word2;
    private final long v4Word3;
    private final long v4Word4;
    private final long v4ChecksumBase;
    // The IPv6 outer headers with every per-packet field zero (first word, payload length, destination, GRE
    // protocol), as little-endian words at v6WordOffset(i).
    private final long[] v6Words = new long[(IPV6_OVERHEAD + 7) / 8];
    // null for the plain frame
    private final GreOptionsEncapsulator withOptions;

    /**
     * Creates an encapsulator for one node's addresses, writing plain frames.
     *
     * @param config the pipeline config.
     */
    public GreEncapsulator(final PipelineConfig config)
    {
        this(config, TunnelOptions.NONE);
    }

    /**
     * Creates an encapsulator for one node's addresses and one worker's tunnel options.
     *
     * @param config  the pipeline config.
     * @param options key, source prefixes and VLAN tag; {@link TunnelOptions#NONE} for the plain frame.
     */
    public GreEncapsulator(final PipelineConfig config, final TunnelOptions options)
    {
        withOptions = options.isPlain() ? null : new GreOptionsEncapsulator(config, options);
        final long ownMac = config.ownMac();
        final long nextHopMac = config.nextHopMac();
        hasSourceV4 = config.tunnelSourceV4() != null;
        final int sourceV4 = hasSourceV4 ? AddressWords.bigEndian32(config.tunnelSourceV4().getAddress()) : 0;
        hasSourceV6 = config.tunnelSourceV6() != null;
        final byte[] v6 = hasSourceV6 ? config.tunnelSourceV6().getAddress() : new byte[16];
        final long sourceV6High = AddressWords.bigEndian64(v6, 0);
        final long sourceV6Low = AddressWords.bigEndian64(v6, 8);
        tunnelMtu = config.tunnelMtu();

        // The IPv4 outer headers with every per-packet field zero, written once with the flyweights.
        final UnsafeBuffer template = new UnsafeBuffer(new byte[IPV4_OVERHEAD + 2]);
        final EthernetHeader ethernet = new EthernetHeader();
        ethernet.wrap(template, 0);
        ethernet.macs(nextHopMac, ownMac).etherType(Protocols.ETHERTYPE_IPV4);
        final Ipv4Header ipv4 = new Ipv4Header();
        ipv4.wrap(template, EthernetHeader.LENGTH);
        ipv4.writeBasic(0, 0, Ipv4Header.FLAG_DONT_FRAGMENT, OUTER_TTL, Protocols.IPPROTO_GRE, sourceV4, 0);
        // The checksum writeBasic computed is the complement of the constant fields' folded sum: keep that sum,
        // then clear the field so the per-packet checksum can be OR-ed in.
        final int checksumAt = EthernetHeader.LENGTH + Ipv4Header.CHECKSUM_FIELD_OFFSET;
        v4ChecksumBase = ~template.getShort(checksumAt, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        template.putShort(checksumAt, (short)0);
        final GreHeader gre = new GreHeader();
        gre.wrap(template, EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH);
        gre.write(0);
        v4Word0 = template.getLong(0, ByteOrder.LITTLE_ENDIAN);
        v4Word1 = template.getLong(8, ByteOrder.LITTLE_ENDIAN);
        v4Word2 = template.getLong(16, ByteOrder.LITTLE_ENDIAN);
        v4Word3 = template.getLong(24, ByteOrder.LITTLE_ENDIAN);
        v4Word4 = template.getLong(30, ByteOrder.LITTLE_ENDIAN);

        // The IPv6 outer headers the same way; encapsulateIpv6 writes the per-packet fields over them.
        final UnsafeBuffer v6Template = new UnsafeBuffer(new byte[IPV6_OVERHEAD]);
        ethernet.wrap(v6Template, 0);
        ethernet.macs(nextHopMac, ownMac).etherType(Protocols.ETHERTYPE_IPV6);
        final Ipv6Header ipv6 = new Ipv6Header();
        ipv6.wrap(v6Template, EthernetHeader.LENGTH);
        ipv6.write(0, 0, 0, Protocols.IPPROTO_GRE, OUTER_TTL, sourceV6High, sourceV6Low, 0, 0);
        gre.wrap(v6Template, EthernetHeader.LENGTH + Ipv6Header.LENGTH);
        gre.write(0);
        for (int i = 0; i < v6Words.length; i++)
        {
            v6Words[i] = v6Template.getLong(v6WordOffset(i), ByteOrder.LITTLE_ENDIAN);
        }
    }

    // Where the i-th word of the IPv6 template goes: every 8 bytes, the last one ending with the 58 header bytes
    // (so it overlaps the one before).
    private static int v6WordOffset(final int i)
    {
        return Math.min(i * 8, IPV6_OVERHEAD - 8);
    }

    /**
     * Returns how many bytes the encapsulation puts in front of the inner IP packet for a backend of one family:
     * Ethernet, the 802.1Q tag if any, the outer IP header and GRE with its key if any.
     *
     * @param backendIpv6 whether the backend is reached over IPv6.
     * @return bytes: 38 or 58 for the plain frame, 4 more for a tag, 4 more for a key.
     */
    public int outerHeaderLength(final boolean backendIpv6)
    {
        if (withOptions != null)
        {
            return withOptions.outerHeaderLength(backendIpv6);
        }
        return backendIpv6 ? IPV6_OVERHEAD : IPV4_OVERHEAD;
    }

    /**
     * Returns the part of {@link #outerHeaderLength} that counts against {@code tunnel_mtu}: the outer IP header
     * and GRE (with its key), not the Ethernet header or tag.
     *
     * @param backendIpv6 whether the backend is reached over IPv6.
     * @return bytes: 24 or 44, 4 more with a key.
     */
    public int tunnelOverhead(final boolean backendIpv6)
    {
        final int ethernet = withOptions != null ? withOptions.ethernetLength() : EthernetHeader.LENGTH;
        return outerHeaderLength(backendIpv6) - ethernet;
    }

    /**
     * Encapsulates the IP packet at {@code [innerOffset, innerOffset + innerLength)}.
     *
     * @param buffer         frame buffer with headroom before the packet; off-heap (written by address, see
     *                       {@link FrameBytes}).
     * @param innerOffset    first byte of the inner IP header.
     * @param innerLength    inner IP packet length (without Ethernet padding).
     * @param innerIpv6      whether the inner packet is IPv6.
     * @param tos            inner DSCP + ECN.
     * @param flowHash       the flow's hash, for the IPv6 flow label.
     * @param backendIpv6    whether the backend is reached over IPv6.
     * @param backendHigh    backend address octets 0..7 (IPv4 in the low 32 bits).
     * @param backendLow     backend address octets 8..15 (IPv6 only).
     * @return the new frame start offset (its length is {@code innerOffset + innerLength - start}), or the
     *         negative of {@code 1 + DropReason.ordinal()} when the packet cannot be encapsulated.
     */
    public int encapsulate(
        final MutableDirectBuffer buffer,
        final int innerOffset,
        final int innerLength,
        final boolean innerIpv6,
        final int tos,
        final long flowHash,
        final boolean backendIpv6,
        final long backendHigh,
        final long backendLow)
    {
        if (withOptions != null)
        {
            return withOptions.encapsulate(buffer, innerOffset, innerLength, innerIpv6, tos, flowHash, backendIpv6,
                backendHigh, backendLow);
        }
        if (backendIpv6)
        {
            return encapsulateIpv6(buffer, innerOffset, innerLength, innerIpv6, tos, flowHash, backendHigh, backendLow);
        }
        final int start = innerOffset - IPV4_OVERHEAD;
        final int outerLength = Ipv4Header.MIN_LENGTH + GreHeader.LENGTH + innerLength;
        final int problem = checkFit(hasSourceV4, start, outerLength);
        if (problem != 0)
        {
            return problem;
        }
        // The 38 header bytes are five little-endian words of the template with the per-packet fields OR-ed in:
        // DSCP/ECN (byte 15), total length (16-17), checksum (24-25), backend address (30-33), GRE protocol (36-37).
        final int destination = (int)backendHigh;
        long sum = v4ChecksumBase + tos + outerLength + (destination >>> 16) + (destination & 0xFFFF);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        final int checksum = ~(int)sum & 0xFFFF;
        final int greProtocol = innerIpv6 ? GRE_IPV6_LITTLE_ENDIAN : GRE_IPV4_LITTLE_ENDIAN;
        FrameBytes.putLongLittleEndian(buffer, start, v4Word0);
        FrameBytes.putLongLittleEndian(buffer, start + 8, v4Word1 | ((long)tos << 56));
        FrameBytes.putLongLittleEndian(buffer, start + 16, v4Word2 | swap16(outerLength));
        FrameBytes.putLongLittleEndian(buffer, start + 24, v4Word3 | swap16(checksum));
        FrameBytes.putLongLittleEndian(buffer, start + 30,
            v4Word4 | (Integer.reverseBytes(destination) & 0xFFFF_FFFFL) | ((long)greProtocol << 48));
        return start;
    }

    private int encapsulateIpv6(
        final MutableDirectBuffer buffer,
        final int innerOffset,
        final int innerLength,
        final boolean innerIpv6,
        final int tos,
        final long flowHash,
        final long backendHigh,
        final long backendLow)
    {
        final int start = innerOffset - IPV6_OVERHEAD;
        final int payloadLength = GreHeader.LENGTH + innerLength;
        final int problem = checkFit(hasSourceV6, start, Ipv6Header.LENGTH + payloadLength);
        if (problem != 0)
        {
            return problem;
        }
        final long[] v6Words = this.v6Words;
        for (int i = 0; i < v6Words.length; i++)
        {
            FrameBytes.putLongLittleEndian(buffer, start + v6WordOffset(i), v6Words[i]);
        }
        final int ip = start + EthernetHeader.LENGTH;
        FrameBytes.putIntBigEndian(buffer, ip, Ipv6Header.firstWord(tos, (int)flowHash));
        FrameBytes.putShortBigEndian(buffer, ip + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET, payloadLength);
        FrameBytes.putLongBigEndian(buffer, ip + Ipv6Header.DESTINATION_FIELD_OFFSET, backendHigh);
        FrameBytes.putLongBigEndian(buffer, ip + Ipv6Header.DESTINATION_FIELD_OFFSET + 8, backendLow);
        FrameBytes.putShortBigEndian(buffer, ip + Ipv6Header.LENGTH + GreHeader.PROTOCOL_TYPE_FIELD_OFFSET,
            innerIpv6 ? Protocols.ETHERTYPE_IPV6 : Protocols.ETHERTYPE_IPV4);
        return start;
    }

    /**
     * Tells whether {@link #encapsulate} reads its flow hash for an IPv4 backend: with tunnel options (the GRE key's
     * or the outer source's entropy); the plain IPv4 header carries none. IPv6 outer headers always do (flow label).
     *
     * @return true with tunnel options.
     */
    public boolean usesFlowHash()
    {
        return withOptions != null;
    }

    /**
     * Returns the largest inner packet the tunnel carries to a backend of a family: the tunnel MTU minus the outer
     * IP and GRE headers, with the GRE key when there is one (the next-hop MTU of the ICMP errors for packets that do
     * not fit).
     *
     * @param backendIpv6 whether the backend is reached over IPv6.
     * @return bytes.
     */
    public int innerMtu(final boolean backendIpv6)
    {
        return tunnelMtu - tunnelOverhead(backendIpv6);
    }

    // 0 when an outer header of this family can be written: a tunnel source, headroom from frame offset start, and an
    // outer IP packet within the tunnel MTU; else the failure for the first that is missing.
    private int checkFit(final boolean hasSource, final int start, final int outerIpLength)
    {
        return checkFit(hasSource, start, outerIpLength, tunnelMtu);
    }

    static int checkFit(final boolean hasSource, final int start, final int outerIpLength, final int tunnelMtu)
    {
        if (!hasSource)
        {
            return failure(DropReason.NO_TUNNEL_SOURCE);
        }
        if (start < 0)
        {
            return failure(DropReason.NO_HEADROOM);
        }
        if (outerIpLength > tunnelMtu)
        {
            return failure(DropReason.ENCAPSULATED_TOO_BIG);
        }
        return 0;
    }

    // A 16-bit big-endian field as the low bits of a little-endian word.
    private static int swap16(final int value)
    {
        return ((value & 0xFF) << 8) | (value >>> 8);
    }

    static int failure(final DropReason reason)
    {
        return -1 - reason.ordinal();
    }
}
