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
 * {@link GreEncapsulator}'s path for the operator's {@link TunnelOptions}: an 802.1Q tag, an RFC 2890 GRE key and a
 * per-flow outer source from a prefix (Katran's approach), in any combination. The default frame (none of them)
 * never comes here, so its cost is unchanged.
 * <p>
 * Same model as the default path: per family the constant outer headers are a template of little-endian words,
 * written first, and the per-packet fields are stored over them. The flow hash gives the entropy: its bits 32..63
 * are the GRE key and, from the lowest up, the host bits of an IPv4 source; an IPv6 source's host bits come from
 * the hash rotated by 32 (its bits 0..19 are already the flow label). The bits are independent of the Maglev
 * lookup (hash mod a prime) in all but theory, and fixed per flow, so a flow keeps its path and its RSS queue.
 */
final class GreOptionsEncapsulator
{
    private static final int OUTER_TTL = 64;

    private final int tunnelMtu;
    private final boolean hasSourceV4;
    private final boolean hasSourceV6;
    private final boolean greKey;
    private final int l2Length;
    private final int greLength;

    private final int v4Length;
    private final long[] v4Words;
    private final int v4ChecksumBase;
    private final boolean v4PerFlowSource;
    private final int v4Prefix;
    private final int v4HostMask;

    private final int v6Length;
    private final long[] v6Words;
    private final boolean v6PerFlowSource;
    private final long v6PrefixLow;
    private final long v6HostMask;

    GreOptionsEncapsulator(final PipelineConfig config, final TunnelOptions options)
    {
        tunnelMtu = config.tunnelMtu();
        greKey = options.greKey();
        l2Length = EthernetHeader.LENGTH + (options.vlan() != 0 ? EthernetHeader.VLAN_TAG_LENGTH : 0);
        greLength = greKey ? GreHeader.LENGTH_WITH_KEY : GreHeader.LENGTH;

        hasSourceV4 = config.tunnelSourceV4() != null;
        v4PerFlowSource = options.sourcePrefixV4() != null;
        v4HostMask = v4PerFlowSource ? (int)(0xFFFF_FFFFL >>> options.sourcePrefixV4Length()) : 0;
        v4Prefix = v4PerFlowSource ? AddressWords.bigEndian32(options.sourcePrefixV4().getAddress()) & ~v4HostMask : 0;
        final int fixedSourceV4 =
            hasSourceV4 && !v4PerFlowSource ? AddressWords.bigEndian32(config.tunnelSourceV4().getAddress()) : 0;
        v4Length = l2Length + Ipv4Header.MIN_LENGTH + greLength;
        final UnsafeBuffer v4 = new UnsafeBuffer(new byte[v4Length]);
        writeEthernet(v4, config, options.vlanTci(), Protocols.ETHERTYPE_IPV4);
        final Ipv4Header ipv4 = new Ipv4Header();
        ipv4.wrap(v4, l2Length);
        ipv4.writeBasic(0, 0, Ipv4Header.FLAG_DONT_FRAGMENT, OUTER_TTL, Protocols.IPPROTO_GRE, fixedSourceV4, 0);
        // As in GreEncapsulator: keep the constant fields' folded sum, clear the field for the per-packet checksum.
        final int checksumAt = l2Length + Ipv4Header.CHECKSUM_FIELD_OFFSET;
        v4ChecksumBase = ~v4.getShort(checksumAt, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        v4.putShort(checksumAt, (short)0);
        writeGre(v4, l2Length + Ipv4Header.MIN_LENGTH);
        v4Words = words(v4);

        hasSourceV6 = config.tunnelSourceV6() != null;
        v6PerFlowSource = options.sourcePrefixV6() != null;
        final byte[] v6Source = v6PerFlowSource ? options.sourcePrefixV6().getAddress() :
            hasSourceV6 ? config.tunnelSourceV6().getAddress() : new byte[16];
        v6HostMask = v6PerFlowSource ? -1L >>> (options.sourcePrefixV6Length() - 64) : 0;
        v6PrefixLow = AddressWords.bigEndian64(v6Source, 8) & ~v6HostMask;
        v6Length = l2Length + Ipv6Header.LENGTH + greLength;
        final UnsafeBuffer v6 = new UnsafeBuffer(new byte[v6Length]);
        writeEthernet(v6, config, options.vlanTci(), Protocols.ETHERTYPE_IPV6);
        final Ipv6Header ipv6 = new Ipv6Header();
        ipv6.wrap(v6, l2Length);
        ipv6.write(0, 0, 0, Protocols.IPPROTO_GRE, OUTER_TTL, AddressWords.bigEndian64(v6Source, 0), v6PrefixLow, 0, 0);
        writeGre(v6, l2Length + Ipv6Header.LENGTH);
        v6Words = words(v6);
    }

    private static void writeEthernet(
        final UnsafeBuffer template, final PipelineConfig config, final int vlanTci, final int etherType)
    {
        final EthernetHeader ethernet = new EthernetHeader();
        ethernet.wrap(template, 0);
        ethernet.macs(config.nextHopMac(), config.ownMac());
        if (vlanTci == 0)
        {
            ethernet.etherType(etherType);
            return;
        }
        // IEEE 802.1Q: TPID 0x8100, then PCP (vlan_pcp), DEI 0 and the VLAN id, then the EtherType of the payload.
        ethernet.etherType(Protocols.ETHERTYPE_VLAN);
        template.putShort(EthernetHeader.VLAN_TCI_FIELD_OFFSET, (short)vlanTci, ByteOrder.BIG_ENDIAN);
        template.putShort(EthernetHeader.VLAN_ETHERTYPE_FIELD_OFFSET, (short)etherType, ByteOrder.BIG_ENDIAN);
    }

    // The GRE header with protocol type 0 (and key 0): both are written per packet.
    private void writeGre(final UnsafeBuffer template, final int at)
    {
        final GreHeader gre = new GreHeader();
        gre.wrap(template, at);
        if (greKey)
        {
            gre.writeWithKey(0, 0);
        }
        else
        {
            gre.write(0);
        }
    }

    // The template as little-endian words at wordOffset(i, length): every 8 bytes, the last one ending with the
    // template (so it overlaps the one before).
    private static long[] words(final UnsafeBuffer template)
    {
        final int length = template.capacity();
        final long[] words = new long[(length + 7) / 8];
        for (int i = 0; i < words.length; i++)
        {
            words[i] = template.getLong(wordOffset(i, length), ByteOrder.LITTLE_ENDIAN);
        }
        return words;
    }

    private static int wordOffset(final int i, final int length)
    {
        return Math.min(i * 8, length - 8);
    }

    private static void putWords(final MutableDirectBuffer buffer, final int start, final long[] words, final int length)
    {
        for (int i = 0; i < words.length; i++)
        {
            FrameBytes.putLongLittleEndian(buffer, start + wordOffset(i, length), words[i]);
        }
    }

    int ethernetLength()
    {
        return l2Length;
    }

    int outerHeaderLength(final boolean backendIpv6)
    {
        return backendIpv6 ? v6Length : v4Length;
    }

    int encapsulate(
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
        final int protocol = innerIpv6 ? Protocols.ETHERTYPE_IPV6 : Protocols.ETHERTYPE_IPV4;
        final int entropy = (int)(flowHash >>> 32);
        if (backendIpv6)
        {
            final int start = innerOffset - v6Length;
            final int payloadLength = greLength + innerLength;
            final int problem = GreEncapsulator.checkFit(hasSourceV6, start, Ipv6Header.LENGTH + payloadLength,
                tunnelMtu);
            if (problem != 0)
            {
                return problem;
            }
            putWords(buffer, start, v6Words, v6Length);
            final int ip = start + l2Length;
            FrameBytes.putIntBigEndian(buffer, ip, Ipv6Header.firstWord(tos, (int)flowHash));
            FrameBytes.putShortBigEndian(buffer, ip + Ipv6Header.PAYLOAD_LENGTH_FIELD_OFFSET, payloadLength);
            if (v6PerFlowSource)
            {
                FrameBytes.putLongBigEndian(buffer, ip + Ipv6Header.SOURCE_FIELD_OFFSET + 8,
                    v6PrefixLow | (Long.rotateRight(flowHash, 32) & v6HostMask));
            }
            FrameBytes.putLongBigEndian(buffer, ip + Ipv6Header.DESTINATION_FIELD_OFFSET, backendHigh);
            FrameBytes.putLongBigEndian(buffer, ip + Ipv6Header.DESTINATION_FIELD_OFFSET + 8, backendLow);
            putGreFields(buffer, ip + Ipv6Header.LENGTH, protocol, entropy);
            return start;
        }
        final int start = innerOffset - v4Length;
        final int outerLength = Ipv4Header.MIN_LENGTH + greLength + innerLength;
        final int problem = GreEncapsulator.checkFit(hasSourceV4, start, outerLength, tunnelMtu);
        if (problem != 0)
        {
            return problem;
        }
        putWords(buffer, start, v4Words, v4Length);
        final int ip = start + l2Length;
        final int destination = (int)backendHigh;
        long sum = v4ChecksumBase + tos + outerLength + (destination >>> 16) + (destination & 0xFFFF);
        if (v4PerFlowSource)
        {
            final int source = v4Prefix | (entropy & v4HostMask);
            FrameBytes.putIntBigEndian(buffer, ip + Ipv4Header.SOURCE_FIELD_OFFSET, source);
            sum += (source >>> 16) + (source & 0xFFFF);
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        FrameBytes.putShortBigEndian(buffer, ip, 0x4500 | tos);
        FrameBytes.putShortBigEndian(buffer, ip + Ipv4Header.TOTAL_LENGTH_FIELD_OFFSET, outerLength);
        FrameBytes.putShortBigEndian(buffer, ip + Ipv4Header.CHECKSUM_FIELD_OFFSET, ~(int)sum & 0xFFFF);
        FrameBytes.putIntBigEndian(buffer, ip + Ipv4Header.DESTINATION_FIELD_OFFSET, destination);
        putGreFields(buffer, ip + Ipv4Header.MIN_LENGTH, protocol, entropy);
        return start;
    }

    private void putGreFields(final MutableDirectBuffer buffer, final int gre, final int protocol, final int key)
    {
        FrameBytes.putShortBigEndian(buffer, gre + GreHeader.PROTOCOL_TYPE_FIELD_OFFSET, protocol);
        if (greKey)
        {
            FrameBytes.putIntBigEndian(buffer, gre + GreHeader.KEY_FIELD_OFFSET, key);
        }
    }
}
