package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.HEADROOM;
import static io.sluice.forwarder.pipeline.PipelineTestbed.NOW_NS;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.SEED;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V6;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Path MTU: packets to a VIP too big for a 1500-byte tunnel answered with ICMP fragmentation-needed or packet too
 * big, byte for byte (the expected errors are built by {@link PacketBuilder}, which computes every checksum from
 * scratch), and the packets that must never get one.
 */
class IcmpTooBigTest
{
    private static final int TUNNEL_MTU = 1500;
    // 1500 minus the outer IPv4 + GRE (24) or IPv6 + GRE (44) headers
    private static final int MTU_V4_BACKEND = 1476;
    private static final int MTU_V6_BACKEND = 1456;

    private final PipelineTestbed bed = withTunnelMtu(TUNNEL_MTU);

    private static PipelineTestbed withTunnelMtu(final int mtu)
    {
        return new PipelineTestbed(PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, mtu));
    }

    private IcmpTooBigTest answering(final PipelineTestbed testbed, final int burst)
    {
        testbed.pipeline.tooBigResponder(new IcmpTooBigResponder(1000, burst));
        return this;
    }

    private record Outcome(int verdict, byte[] frame, DropReason reason)
    {
    }

    private static Outcome process(final PipelineTestbed testbed, final byte[] frame)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, HEADROOM);
        testbed.pipeline.beginBurst(NOW_NS);
        final int verdict = testbed.pipeline.process(buffer, HEADROOM, frame.length);
        final byte[] out = verdict == Verdict.REPLY ? OffHeapFrames.copy(buffer, testbed.pipeline.outOffset(),
            testbed.pipeline.outOffset() + testbed.pipeline.outLength()) : null;
        return new Outcome(verdict, out,
            verdict == Verdict.DROP ? DropReason.get(testbed.pipeline.dropReason()) : null);
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            (actual == null ? "null" : HexDump.hex(actual)));
    }

    private static byte[] ipPacket(final byte[] frame, final int l3)
    {
        return Arrays.copyOfRange(frame, l3, frame.length);
    }

    @Test
    void answersIpv4WithDontFragmentWithFragmentationNeededByteForByte()
    {
        answering(bed, 50);
        final PacketBuilder request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").ttl(57)
            .id(0x4321).dontFragment().tos(0x2b).tcp(40000, 80).payload(1460);
        final byte[] frame = request.build();
        assertEquals(1514, frame.length);
        // RFC 792: the IP header and the first 8 bytes of data (here the TCP ports and sequence number).
        final byte[] quote = Arrays.copyOf(ipPacket(frame, 14), 28);
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv4("10.0.0.1", CLIENT_V4).ttl(64).id(0)
            .tos(0xC0 | 0x2b & 0x1E).icmpv4(3, 4, MTU_V4_BACKEND, quote).noPadding().build();
        final Outcome outcome = process(bed, frame);
        assertEquals(Verdict.REPLY, outcome.verdict());
        assertFrame("fragmentation needed, MTU 1476", expected, outcome.frame());
        assertEquals(1, bed.counters.icmpTooBigSentV4());
        assertEquals(1, bed.counters.verdict(Verdict.REPLY));
        assertEquals(0, bed.counters.verdict(Verdict.DROP));
    }

    @Test
    void reportsTheMtuOfTheBackendsFamilyAndQuotesIpv4OptionsBehindAVlanTag()
    {
        answering(bed, 50);
        final byte[] options = PacketBuilder.bytes(0x07, 0x07, 0x04, 0, 0, 0, 0, 0x01); // record route + NOP
        // 10.0.0.4:443 has an IPv6 backend: 44 bytes of outer headers.
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).vlan(42).ipv4(CLIENT_V4, "10.0.0.4")
            .ipv4Options(options).dontFragment().tcp(40001, 443).payload(1440).build();
        final byte[] quote = Arrays.copyOf(ipPacket(frame, 18), 28 + 8);
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).vlan(42).ipv4("10.0.0.4", CLIENT_V4).ttl(64)
            .tos(0xC0).icmpv4(3, 4, MTU_V6_BACKEND, quote).noPadding().build();
        final Outcome outcome = process(bed, frame);
        assertFrame("fragmentation needed over an IPv6 tunnel, VLAN 42, options quoted", expected, outcome.frame());
    }

    @Test
    void answersIpv6WithPacketTooBigQuotingWhatFitsIn1280Bytes()
    {
        answering(bed, 50);
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").hopLimit(50)
            .trafficClass(0x28).flowLabel(0x12345).tcp(50000, 443).payload(1440).build();
        assertEquals(1514, frame.length);
        final byte[] quote = Arrays.copyOf(ipPacket(frame, 14), 1280 - 48);
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv6("2001:db8::1", CLIENT_V6).hopLimit(64)
            .icmpv6(2, 0, MTU_V6_BACKEND, quote).noPadding().build();
        final Outcome outcome = process(bed, frame);
        assertEquals(Verdict.REPLY, outcome.verdict());
        assertEquals(14 + 1280, outcome.frame().length);
        assertFrame("packet too big, MTU 1456", expected, outcome.frame());
        assertEquals(1, bed.counters.icmpTooBigSentV6());
    }

    @Test
    void answersIpv6WithAtLeast1280WhereTheTunnelCarriesLess()
    {
        final PipelineTestbed small = withTunnelMtu(1100);
        answering(small, 50);
        // [2001:db8::1]:53/udp has an IPv4 backend: the tunnel carries 1100 - 24 = 1076.
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1")
            .udp(5353, 53).payload(1300 - 48).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv6("2001:db8::1", CLIENT_V6).hopLimit(64)
            .icmpv6(2, 0, 1280, Arrays.copyOf(ipPacket(frame, 14), 1232)).noPadding().build();
        final Outcome outcome = process(small, frame);
        // RFC 8201: the MTU reported is never below 1280, even where the tunnel carries less.
        assertFrame("packet too big, MTU raised to 1280", expected, outcome.frame());
    }

    @Test
    void dropsAnIpv6PacketOfAtMost1280BytesTheTunnelCannotCarry()
    {
        final PipelineTestbed small = withTunnelMtu(1100);
        answering(small, 50);
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1")
            .tcp(50001, 443).payload(1200).build();
        final Outcome outcome = process(small, frame);
        assertEquals(Verdict.DROP, outcome.verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG, outcome.reason());
        assertEquals(0, small.counters.icmpTooBigSentV6());
    }

    @Test
    void neverAnswersWithoutDontFragmentLaterFragmentsIcmpErrorsOrBadSources()
    {
        answering(bed, 50);
        final byte[] bigQuote = packet().ipv4("10.0.0.1", CLIENT_V4).tcp(80, 40010).payload(1440).buildIpPacket();
        final byte[] bigQuoteV6 = packet().ipv6("2001:db8::1", CLIENT_V6).tcp(443, 50010).payload(1420)
            .buildIpPacket();
        final byte[][] frames = {
            // IPv4 without DF: not an ICMP case (the outer packet would be fragmented instead)
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40002, 80).payload(1460).build(),
            // a later fragment (DF with an offset is malformed, but it must still get no error)
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").flagsAndFragmentOffset(0x4000 | 185)
                .protocol(6).payload(1480).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").fragmentHeader(185, false, 7)
                .extensionNextHeader(6).payload(1440).build(),
            // ICMP errors for a VIP's flow
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").dontFragment()
                .icmpv4(3, 1, 0, bigQuote).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").icmpv6(2, 0, 1400,
            bigQuoteV6).build(),
            // multicast source MAC, multicast and unspecified sources
            packet().ethernet(OWN_MAC, PacketBuilder.mac("01:00:5e:00:00:01")).ipv4(CLIENT_V4, "10.0.0.1")
                .dontFragment().tcp(40003, 80).payload(1460).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4("224.0.0.9", "10.0.0.1").dontFragment().tcp(40004, 80)
                .payload(1460).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4("0.0.0.0", "10.0.0.1").dontFragment().tcp(40005, 80)
                .payload(1460).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6("ff02::1", "2001:db8::1").tcp(50002, 443).payload(1440)
                .build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6("::", "2001:db8::1").tcp(50003, 443).payload(1440).build(),
        };
        for (final byte[] frame : frames)
        {
            final Outcome outcome = process(bed, frame);
            assertEquals(Verdict.DROP, outcome.verdict(), HexDump.hex(frame));
            assertEquals(DropReason.ENCAPSULATED_TOO_BIG, outcome.reason(), HexDump.hex(frame));
        }
        assertEquals(0, bed.counters.verdict(Verdict.REPLY));
        assertEquals(0, bed.counters.icmpTooBigSuppressed());
    }

    @Test
    void dropsTooBigPacketsWithoutAResponder()
    {
        final Outcome outcome = process(bed, packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1")
            .dontFragment().tcp(40020, 80).payload(1460).build());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG, outcome.reason());
    }

    @Test
    void rateLimitsErrorsPerWorkerAndCountsWhatItSuppressed()
    {
        answering(bed, 3);
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").dontFragment()
            .tcp(40030, 80).payload(1460).build();
        int replies = 0;
        for (int i = 0; i < 5; i++)
        {
            replies += process(bed, frame).verdict() == Verdict.REPLY ? 1 : 0;
        }
        assertEquals(3, replies, "the burst");
        assertEquals(2, bed.counters.icmpTooBigSuppressed());
        assertEquals(2, bed.counters.dropped(DropReason.ENCAPSULATED_TOO_BIG));
        assertEquals(3, bed.counters.icmpTooBigSentV4());
    }

    @Test
    void repliesInABurstBesideForwardedFrames()
    {
        answering(bed, 50);
        final byte[] small = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").dontFragment()
            .tcp(40040, 80).payload(100).build();
        final byte[] big = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").dontFragment()
            .tcp(40041, 80).payload(1460).build();
        final FrameBurst burst = new FrameBurst();
        final UnsafeBuffer first = OffHeapFrames.behindHeadroom(small, HEADROOM);
        final UnsafeBuffer second = OffHeapFrames.behindHeadroom(big, HEADROOM);
        burst.buffer(0).wrap(first.addressOffset(), first.capacity());
        burst.buffer(1).wrap(second.addressOffset(), second.capacity());
        burst.frame(0, HEADROOM, small.length);
        burst.frame(1, HEADROOM, big.length);
        burst.count(2);
        assertEquals(1, bed.pipeline.processBurst(burst, NOW_NS));
        assertEquals(Verdict.FORWARD, burst.verdict(0));
        assertEquals(Verdict.REPLY, burst.verdict(1));
        assertEquals(HEADROOM - 28, burst.offset(1));
        assertEquals(14 + 20 + 8 + 28, burst.length(1));
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv4("10.0.0.1", CLIENT_V4).ttl(64).tos(0xC0)
            .icmpv4(3, 4, MTU_V4_BACKEND, Arrays.copyOf(ipPacket(big, 14), 28)).noPadding().build();
        assertFrame("the error in the burst", expected,
            OffHeapFrames.copy(second, burst.offset(1), burst.offset(1) + burst.length(1)));
    }
}
