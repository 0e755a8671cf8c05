package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.lb.AddressWords;
import io.sluice.forwarder.protocol.EthernetHeader;
import io.sluice.forwarder.protocol.GreHeader;
import io.sluice.forwarder.protocol.Ipv4Header;
import io.sluice.forwarder.protocol.Ipv6Header;
import io.sluice.forwarder.protocol.Protocols;
import org.agrona.MutableDirectBuffer;

/**
 * Wraps an IP packet in Ethernet + outer IP + GRE (RFC 2784) in front of it, in the frame's headroom: the payload
 * never moves. The backend decapsulates and answers the client directly (Direct Server Return).
 * <p>
 * Outer header: source = this forwarder's tunnel address, destination = the backend, TTL/hop limit 64, DSCP and
 * ECN copied from the inner packet (RFC 2983 uniform model, RFC 6040 normal mode), IPv4 DF set and identification
 * 0 (RFC 6864 allows it for atomic datagrams), IPv6 flow label from the flow hash (RFC 6438) so fabric ECMP keeps
 * a flow on one path.
 */
public final class GreEncapsulator
{
    public static final int IPV4_OVERHEAD = EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + GreHeader.LENGTH;
    public static final int IPV6_OVERHEAD = EthernetHeader.LENGTH + Ipv6Header.LENGTH + GreHeader.LENGTH;
    private static final int OUTER_TTL = 64;

    private final EthernetHeader ethernet = new EthernetHeader();
    private final Ipv4Header ipv4 = new Ipv4Header();
    private final Ipv6Header ipv6 = new Ipv6Header();
    private final GreHeader gre = new GreHeader();
    private final long ownMac;
    private final long nextHopMac;
    private final boolean hasSourceV4;
    private final int sourceV4;
    private final boolean hasSourceV6;
    private final long sourceV6High;
    private final long sourceV6Low;
    private final int tunnelMtu;

    /**
     * Creates an encapsulator for one node's addresses.
     *
     * @param config the pipeline config.
     */
    public GreEncapsulator(final PipelineConfig config)
    {
        ownMac = config.ownMac();
        nextHopMac = config.nextHopMac();
        hasSourceV4 = config.tunnelSourceV4() != null;
        sourceV4 = hasSourceV4 ? AddressWords.bigEndian32(config.tunnelSourceV4().getAddress()) : 0;
        hasSourceV6 = config.tunnelSourceV6() != null;
        final byte[] v6 = hasSourceV6 ? config.tunnelSourceV6().getAddress() : new byte[16];
        sourceV6High = AddressWords.bigEndian64(v6, 0);
        sourceV6Low = AddressWords.bigEndian64(v6, 8);
        tunnelMtu = config.tunnelMtu();
    }

    /**
     * Encapsulates the IP packet at {@code [innerOffset, innerOffset + innerLength)}.
     *
     * @param buffer         frame buffer with headroom before the packet.
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
        final int greProtocol = innerIpv6 ? Protocols.ETHERTYPE_IPV6 : Protocols.ETHERTYPE_IPV4;
        final int start;
        if (!backendIpv6)
        {
            start = innerOffset - IPV4_OVERHEAD;
            final int outerLength = Ipv4Header.MIN_LENGTH + GreHeader.LENGTH + innerLength;
            if (!hasSourceV4)
            {
                return failure(DropReason.NO_TUNNEL_SOURCE);
            }
            if (start < 0)
            {
                return failure(DropReason.NO_HEADROOM);
            }
            if (outerLength > tunnelMtu)
            {
                return failure(DropReason.ENCAPSULATED_TOO_BIG);
            }
            ethernet.wrap(buffer, start);
            ethernet.macs(nextHopMac, ownMac).etherType(Protocols.ETHERTYPE_IPV4);
            ipv4.wrap(buffer, start + EthernetHeader.LENGTH);
            ipv4.writeBasic(tos, outerLength, Ipv4Header.FLAG_DONT_FRAGMENT, OUTER_TTL, Protocols.IPPROTO_GRE,
                sourceV4, (int)backendHigh);
            gre.wrap(buffer, start + EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH);
        }
        else
        {
            start = innerOffset - IPV6_OVERHEAD;
            final int payloadLength = GreHeader.LENGTH + innerLength;
            if (!hasSourceV6)
            {
                return failure(DropReason.NO_TUNNEL_SOURCE);
            }
            if (start < 0)
            {
                return failure(DropReason.NO_HEADROOM);
            }
            if (Ipv6Header.LENGTH + payloadLength > tunnelMtu)
            {
                return failure(DropReason.ENCAPSULATED_TOO_BIG);
            }
            ethernet.wrap(buffer, start);
            ethernet.macs(nextHopMac, ownMac).etherType(Protocols.ETHERTYPE_IPV6);
            ipv6.wrap(buffer, start + EthernetHeader.LENGTH);
            ipv6.write(tos, (int)flowHash, payloadLength, Protocols.IPPROTO_GRE, OUTER_TTL, sourceV6High,
                sourceV6Low, backendHigh, backendLow);
            gre.wrap(buffer, start + EthernetHeader.LENGTH + Ipv6Header.LENGTH);
        }
        gre.write(greProtocol);
        return start;
    }

    private static int failure(final DropReason reason)
    {
        return -1 - reason.ordinal();
    }
}
