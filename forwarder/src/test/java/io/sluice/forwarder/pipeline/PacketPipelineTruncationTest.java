package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.testing.InternetChecksum;
import io.sluice.forwarder.testing.PacketBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V6;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every truncation of several valid frames, processed in a buffer that ends where the truncated frame ends (so a
 * read past the frame throws): each must give its exact drop reason and nothing may throw.
 * <p>
 * Two kinds of truncation: the frame cut short with its length fields intact (a runt or a bad capture: the IP
 * length check fires first), and the IP packet cut short with its length field rewritten to match (a sender that
 * sent a short packet: the check of the first header that no longer fits fires).
 */
class PacketPipelineTruncationTest
{
    private static final String VIP_V4 = "10.0.0.1";
    private static final String VIP_V6 = "2001:db8::1";

    private final PipelineTestbed bed = PipelineTestbed.standard();

    /**
     * From frame (or IP packet) length {@code from} on, the expected outcome is a drop, a pass, or (both null) a
     * forward.
     */
    private record Expect(int from, DropReason drop, PassReason pass)
    {
    }

    private static Expect drop(final int from, final DropReason reason)
    {
        return new Expect(from, reason, null);
    }

    private static Expect forward(final int from)
    {
        return new Expect(from, null, null);
    }

    private static PacketBuilder ipv4(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination).noPadding();
    }

    private static PacketBuilder ipv6(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(source, destination).noPadding();
    }

    private static PacketBuilder ipv4Tcp()
    {
        return ipv4(CLIENT_V4, VIP_V4).tcp(40000, 80).payload(10);
    }

    private static PacketBuilder ipv4UdpTagged()
    {
        return ipv4(CLIENT_V4, VIP_V4).vlan(100).udp(33333, 53).payload(20);
    }

    private static PacketBuilder ipv4TcpWithOptions()
    {
        return ipv4(CLIENT_V4, VIP_V4).ipv4Options(new byte[12]).tcp(40001, 80).payload(6);
    }

    private static PacketBuilder ipv6TcpWithExtensions()
    {
        return ipv6(CLIENT_V6, VIP_V6).hopByHop(8).destinationOptions(16).routing(4, 0, 24).tcp(50000, 443)
            .payload(4);
    }

    private static PacketBuilder icmpv4FragmentationNeeded()
    {
        return ipv4(ROUTER_V4, VIP_V4).icmpv4(3, 4, 1400,
            PacketBuilder.truncate(packet().ipv4(VIP_V4, CLIENT_V4).tcp(80, 40000).buildIpPacket(), 28));
    }

    private static PacketBuilder icmpv6PacketTooBig()
    {
        return ipv6(ROUTER_V6, VIP_V6).icmpv6(2, 0, 1280,
            PacketBuilder.truncate(packet().ipv6(VIP_V6, CLIENT_V6).tcp(443, 50000).payload(20).buildIpPacket(), 48));
    }

    @Test
    void dropsEveryTruncatedFrameWithItsExactReason()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.addAll(frameCuts("IPv4 TCP", ipv4Tcp(), WEB_V4, flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.IPV4_TRUNCATED),
            drop(34, DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME)));
        fixtures.addAll(frameCuts("VLAN IPv4 UDP", ipv4UdpTagged(), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33333, 53, PROTO_UDP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.VLAN_TRUNCATED),
            drop(18, DropReason.IPV4_TRUNCATED), drop(38, DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME)));
        fixtures.addAll(frameCuts("IPv4 TCP with 12 bytes of options", ipv4TcpWithOptions(), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40001, 80, PROTO_TCP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.IPV4_TRUNCATED),
            drop(34, DropReason.IPV4_OPTIONS_TRUNCATED), drop(46, DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME)));
        fixtures.addAll(frameCuts("IPv6 TCP with extension headers", ipv6TcpWithExtensions(), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.IPV6_TRUNCATED),
            drop(54, DropReason.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME)));
        fixtures.addAll(frameCuts("ICMPv4 fragmentation needed", icmpv4FragmentationNeeded(), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.IPV4_TRUNCATED),
            drop(34, DropReason.IPV4_TOTAL_LENGTH_EXCEEDS_FRAME)));
        fixtures.addAll(frameCuts("ICMPv6 packet too big", icmpv6PacketTooBig(), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP),
            drop(0, DropReason.FRAME_TRUNCATED), drop(14, DropReason.IPV6_TRUNCATED),
            drop(54, DropReason.IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME)));
        final PacketBuilder arp = packet().ethernet(OWN_MAC, ROUTER_MAC).vlan(5).etherType(PacketBuilder.ETHERTYPE_ARP)
            .payload(28).noPadding();
        fixtures.addAll(frameCuts("VLAN ARP", arp, null, null, drop(0, DropReason.FRAME_TRUNCATED),
            drop(14, DropReason.VLAN_TRUNCATED), new Expect(18, null, PassReason.NOT_IP)));

        assertEquals(List.of(), Fixture.runAll(fixtures));
        bed.expected.assertMatches("truncated frames", bed.counters);
    }

    @Test
    void dropsEveryShortenedIpPacketAtTheFirstHeaderThatNoLongerFits()
    {
        final List<Fixture> fixtures = new ArrayList<>();
        fixtures.addAll(packetCuts("IPv4 TCP", ipv4Tcp(), WEB_V4, flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP),
            drop(0, DropReason.IPV4_TRUNCATED), drop(20, DropReason.TCP_TRUNCATED), forward(40)));
        fixtures.addAll(packetCuts("VLAN IPv4 UDP", ipv4UdpTagged(), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33333, 53, PROTO_UDP),
            drop(0, DropReason.IPV4_TRUNCATED), drop(20, DropReason.UDP_TRUNCATED),
            drop(28, DropReason.UDP_BAD_LENGTH)));
        fixtures.addAll(packetCuts("IPv4 TCP with 12 bytes of options", ipv4TcpWithOptions(), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40001, 80, PROTO_TCP),
            drop(0, DropReason.IPV4_TRUNCATED), drop(20, DropReason.IPV4_OPTIONS_TRUNCATED),
            drop(32, DropReason.TCP_TRUNCATED), forward(52)));
        fixtures.addAll(packetCuts("IPv6 TCP with extension headers", ipv6TcpWithExtensions(), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP),
            drop(0, DropReason.IPV6_TRUNCATED), drop(40, DropReason.IPV6_EXTENSION_TRUNCATED),
            drop(88, DropReason.TCP_TRUNCATED), forward(108)));
        fixtures.addAll(packetCuts("ICMPv4 fragmentation needed", icmpv4FragmentationNeeded(), WEB_V4,
            flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP),
            drop(0, DropReason.IPV4_TRUNCATED), drop(20, DropReason.ICMP_TRUNCATED),
            drop(28, DropReason.ICMP_QUOTE_TRUNCATED)));
        fixtures.addAll(packetCuts("ICMPv6 packet too big", icmpv6PacketTooBig(), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP),
            drop(0, DropReason.IPV6_TRUNCATED), drop(40, DropReason.ICMP_TRUNCATED),
            drop(48, DropReason.ICMP_QUOTE_TRUNCATED)));

        assertEquals(List.of(), Fixture.runAll(fixtures));
        bed.expected.assertMatches("shortened packets", bed.counters);
    }

    // Frame lengths 0..n-1 with the headers as built, then the whole frame, which must be forwarded (or passed).
    private List<Fixture> frameCuts(final String name, final PacketBuilder packet, final Vip vip, final byte[] key,
        final Expect... expects)
    {
        final byte[] frame = packet.build();
        final List<Fixture> fixtures = new ArrayList<>();
        for (int length = 0; length <= frame.length; length++)
        {
            final byte[] cut = Arrays.copyOf(frame, length);
            final String description = name + " cut to " + length + " of " + frame.length + " bytes";
            final Expect expect = length == frame.length && vip != null ? forward(length) : find(expects, length);
            fixtures.add(fixture(description, cut, packet.l3Offset(), packet.ipPacket(), packet.tosValue(), vip,
                key, expect));
        }
        return fixtures;
    }

    // IP packet lengths 0..n-1 with the total length or payload length rewritten to match, then the whole packet.
    private List<Fixture> packetCuts(final String name, final PacketBuilder packet, final Vip vip, final byte[] key,
        final Expect... expects)
    {
        final byte[] frame = packet.build();
        final int l3 = packet.l3Offset();
        final byte[] ip = packet.ipPacket();
        final boolean ipv6 = (ip[0] & 0xF0) == 0x60;
        final List<Fixture> fixtures = new ArrayList<>();
        for (int length = 0; length <= ip.length; length++)
        {
            final byte[] cut = Arrays.copyOf(frame, l3 + length);
            if (ipv6 && length >= 40)
            {
                putShort(cut, l3 + 4, length - 40);
            }
            else if (!ipv6 && length >= 20)
            {
                putShort(cut, l3 + 2, length);
                putShort(cut, l3 + 10, 0);
                putShort(cut, l3 + 10, InternetChecksum.checksum(cut, l3, Math.min(length, (ip[0] & 0x0F) * 4)));
            }
            final String description = name + " IP packet shortened to " + length + " of " + ip.length + " bytes";
            final Expect expect = length == ip.length ? forward(length) : find(expects, length);
            fixtures.add(fixture(description, cut, l3, Arrays.copyOfRange(cut, l3, cut.length), packet.tosValue(),
                vip, key, expect));
        }
        return fixtures;
    }

    private Fixture fixture(final String description, final byte[] frame, final int l3, final byte[] inner,
        final int tos, final Vip vip, final byte[] key, final Expect expect)
    {
        if (expect.drop() != null)
        {
            return Fixture.drop(description, bed, frame, expect.drop());
        }
        if (expect.pass() != null)
        {
            return Fixture.pass(description, bed, frame, expect.pass());
        }
        return Fixture.forwardFrame(description, bed, PipelineTestbed.HEADROOM, frame, l3, inner, tos, vip, key);
    }

    private static Expect find(final Expect[] expects, final int length)
    {
        Expect found = null;
        for (final Expect expect : expects)
        {
            if (expect.from() <= length)
            {
                found = expect;
            }
        }
        return found;
    }

    private static void putShort(final byte[] bytes, final int offset, final int value)
    {
        bytes[offset] = (byte)(value >>> 8);
        bytes[offset + 1] = (byte)value;
    }

    @Test
    void neverThrowsOnCorruptedFrames()
    {
        final byte[][] frames = {
            ipv4Tcp().build(), ipv4UdpTagged().build(), ipv4TcpWithOptions().build(), ipv6TcpWithExtensions().build(),
            icmpv4FragmentationNeeded().build(), icmpv6PacketTooBig().build(),
            ipv6(CLIENT_V6, VIP_V6).fragmentHeader(3, false, 9).protocol(PROTO_TCP).payload(40).build()};
        final Random random = new Random(0x5EED);
        final int iterations = 50_000;
        for (int i = 0; i < iterations; i++)
        {
            final byte[] original = frames[random.nextInt(frames.length)];
            final byte[] frame = Arrays.copyOf(original, random.nextInt(4) == 0 ?
                random.nextInt(original.length + 1) : original.length);
            for (int flips = 1 + random.nextInt(3); flips > 0 && frame.length > 0; flips--)
            {
                frame[random.nextInt(Math.min(frame.length, 120))] = (byte)random.nextInt(256);
            }
            final PipelineTestbed.Outcome outcome = bed.process(frame, PipelineTestbed.HEADROOM);
            assertNull(outcome.thrown(), () -> "threw on\n" + PacketBuilder.hex(frame));
            assertTrue(outcome.verdict() >= 0 && outcome.verdict() < Verdict.COUNT);
            if (outcome.verdict() == Verdict.FORWARD)
            {
                assertInnerPacketUntouched(frame, outcome);
            }
        }
        assertEquals(iterations, bed.counters.verdict(Verdict.FORWARD) + bed.counters.verdict(Verdict.PASS) +
            bed.counters.verdict(Verdict.DROP));
    }

    // The tunnel headers sit in front of the inner packet; the inner packet itself is where it was, unchanged.
    private static void assertInnerPacketUntouched(final byte[] frame, final PipelineTestbed.Outcome outcome)
    {
        final byte[] memory = outcome.memory();
        final int outer = outcome.outOffset();
        final boolean ipv6Outer = memory[outer + 12] == (byte)0x86 && memory[outer + 13] == (byte)0xDD;
        final int innerStart = outer + (ipv6Outer ? 58 : 38);
        final int innerEnd = outer + outcome.outLength();
        assertTrue(outer >= 0 && innerStart <= innerEnd && innerEnd <= memory.length);
        final int frameOffset = innerStart - PipelineTestbed.HEADROOM;
        assertTrue(frameOffset == 14 || frameOffset == 18, () -> "inner packet at frame offset " + frameOffset);
        assertTrue(Arrays.equals(frame, frameOffset, innerEnd - PipelineTestbed.HEADROOM, memory, innerStart,
            innerEnd), () -> "inner packet changed\n" + PacketBuilder.hex(frame));
    }
}
