package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.HEADROOM;
import static io.sluice.forwarder.pipeline.PipelineTestbed.NOW_NS;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ICMP echo to a VIP answered by the pipeline: byte-exact replies (checksums computed afresh by the builder, while
 * the responder updates the ICMP checksum incrementally), the announced-only rule, bad sources, the rate limit.
 */
class IcmpEchoTest
{
    private static final byte[] DATA = PacketBuilder.pattern(40, 0x30);

    private final PipelineTestbed bed = PipelineTestbed.standard();

    private Outcome process(final byte[] frame)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, HEADROOM);
        bed.pipeline.beginBurst(NOW_NS);
        final int verdict = bed.pipeline.process(buffer, HEADROOM, frame.length);
        final byte[] out = verdict == Verdict.REPLY ? OffHeapFrames.copy(buffer, bed.pipeline.outOffset(),
            bed.pipeline.outOffset() + bed.pipeline.outLength()) : null;
        return new Outcome(verdict, out, verdict == Verdict.DROP ? DropReason.get(bed.pipeline.dropReason()) : null);
    }

    private record Outcome(int verdict, byte[] frame, DropReason reason)
    {
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            (actual == null ? "null" : HexDump.hex(actual)));
    }

    private IcmpEchoTest replying()
    {
        bed.pipeline.echoResponder(new IcmpEchoResponder(1000, 50));
        return this;
    }

    @Test
    void answersIpv4EchoToAVipByteForByte()
    {
        replying();
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").ttl(57).id(0x1234)
            .dontFragment().tos(0x20).icmpv4(8, 0, 0x4242_0007, DATA).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv4("10.0.0.1", CLIENT_V4).ttl(64).id(0x1234)
            .dontFragment().tos(0x20).icmpv4(0, 0, 0x4242_0007, DATA).noPadding().build();
        final Outcome outcome = process(request);
        assertEquals(Verdict.REPLY, outcome.verdict());
        assertFrame("IPv4 echo reply", expected, outcome.frame());
        assertEquals(1, bed.counters.icmpEchoRepliesV4());
        assertEquals(1, bed.counters.verdict(Verdict.REPLY));
    }

    @Test
    void answersShortIpv4EchoWithoutEthernetPadding()
    {
        replying();
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.2")
            .icmpv4(8, 0, 0x0001_0001, new byte[2]).minimumFrameLength(60).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv4("10.0.0.2", CLIENT_V4).ttl(64)
            .icmpv4(0, 0, 0x0001_0001, new byte[2]).noPadding().build();
        assertFrame("short echo", expected, process(request).frame());
    }

    @Test
    void dropsIpv4OptionsAndKeepsTheVlanTagInTheReply()
    {
        replying();
        final byte[] options = PacketBuilder.bytes(0x07, 0x07, 0x04, 0, 0, 0, 0, 0x01); // record route + NOP
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).vlan(42).ipv4(CLIENT_V4, "10.0.0.1")
            .ipv4Options(options).icmpv4(8, 0, 0x0bad_0001, DATA).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).vlan(42).ipv4("10.0.0.1", CLIENT_V4).ttl(64)
            .icmpv4(0, 0, 0x0bad_0001, DATA).noPadding().build();
        assertFrame("echo with options, VLAN 42", expected, process(request).frame());
    }

    @Test
    void answersIpv6EchoToAVipByteForByte()
    {
        replying();
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").hopLimit(50)
            .trafficClass(0x28).flowLabel(0x12345).icmpv6(128, 0, 0x7777_0003, DATA).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv6("2001:db8::1", CLIENT_V6).hopLimit(64)
            .trafficClass(0x28).flowLabel(0x12345).icmpv6(129, 0, 0x7777_0003, DATA).noPadding().build();
        final Outcome outcome = process(request);
        assertEquals(Verdict.REPLY, outcome.verdict());
        assertFrame("IPv6 echo reply", expected, outcome.frame());
        assertEquals(1, bed.counters.icmpEchoRepliesV6());
    }

    @Test
    void dropsIpv6ExtensionHeadersInTheReply()
    {
        replying();
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").hopByHop(8)
            .destinationOptions(16).icmpv6(128, 0, 0x0101_0202, DATA).build();
        final byte[] expected = packet().ethernet(ROUTER_MAC, OWN_MAC).ipv6("2001:db8::1", CLIENT_V6).hopLimit(64)
            .icmpv6(129, 0, 0x0101_0202, DATA).noPadding().build();
        assertFrame("echo behind hop-by-hop and destination options", expected, process(request).frame());
    }

    @Test
    void passesEchoToAVipAddressWithoutEligibleBackendAndToOtherAddresses()
    {
        replying();
        // 10.0.0.3 has only a VIP without backends, 10.0.0.5 only down or drained ones: neither is announced.
        for (final String address : new String[] {"10.0.0.3", "10.0.0.5", "10.0.0.99"})
        {
            final Outcome outcome = process(packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, address)
                .icmpv4(8, 0, 1, DATA).build());
            assertEquals(Verdict.PASS, outcome.verdict(), address);
        }
        assertEquals(3, bed.counters.passed(PassReason.NOT_LOAD_BALANCED));
        assertEquals(0, bed.counters.verdict(Verdict.REPLY));
    }

    @Test
    void passesEchoToTheKernelWithoutAResponder()
    {
        final Outcome outcome = process(packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1")
            .icmpv4(8, 0, 1, DATA).build());
        assertEquals(Verdict.PASS, outcome.verdict());
        assertEquals(1, bed.counters.passed(PassReason.NOT_LOAD_BALANCED));
    }

    @Test
    void neverAnswersMulticastBroadcastOrUnspecifiedSources()
    {
        replying();
        final byte[][] requests = {
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4("224.0.0.1", "10.0.0.1").icmpv4(8, 0, 1, DATA).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4("255.255.255.255", "10.0.0.1").icmpv4(8, 0, 1, DATA).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4("0.0.0.0", "10.0.0.1").icmpv4(8, 0, 1, DATA).build(),
            packet().ethernet(OWN_MAC, PacketBuilder.mac("01:00:5e:00:00:01")).ipv4(CLIENT_V4, "10.0.0.1")
                .icmpv4(8, 0, 1, DATA).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6("ff02::1", "2001:db8::1").icmpv6(128, 0, 1, DATA).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6("::", "2001:db8::1").icmpv6(128, 0, 1, DATA).build(),
        };
        for (final byte[] request : requests)
        {
            final Outcome outcome = process(request);
            assertEquals(Verdict.DROP, outcome.verdict(), HexDump.hex(request));
            assertEquals(DropReason.ICMP_ECHO_BAD_SOURCE, outcome.reason());
        }
        assertEquals(0, bed.counters.verdict(Verdict.REPLY));
    }

    @Test
    void rateLimitsRepliesPerWorkerAndCountsWhatItHeldBack()
    {
        bed.pipeline.echoResponder(new IcmpEchoResponder(1000, 5));
        final byte[] request = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1")
            .icmpv4(8, 0, 1, DATA).build();
        int replies = 0;
        for (int i = 0; i < 8; i++)
        {
            replies += process(request).verdict() == Verdict.REPLY ? 1 : 0;
        }
        assertEquals(5, replies, "the burst");
        assertEquals(3, bed.counters.dropped(DropReason.ICMP_RATE_LIMITED));
    }

    @Test
    void tokenBucketRefillsAtItsRateUpToItsBurst()
    {
        final TokenBucket bucket = new TokenBucket(1000, 50);
        long now = 5_000_000_000L;
        int taken = 0;
        while (bucket.tryTake(now))
        {
            taken++;
        }
        assertEquals(50, taken, "a full bucket");
        now += 999_999; // just under 1 ms: no whole token yet
        assertFalse(bucket.tryTake(now));
        now += 1;
        assertTrue(bucket.tryTake(now), "one token per ms");
        assertFalse(bucket.tryTake(now));
        now += 10_000_000; // 10 ms: 10 tokens
        taken = 0;
        while (bucket.tryTake(now))
        {
            taken++;
        }
        assertEquals(10, taken);
        now += 3_600_000_000_000L; // an hour: full, never more than the burst
        taken = 0;
        while (bucket.tryTake(now))
        {
            taken++;
        }
        assertEquals(50, taken);
    }

    @Test
    void incrementalChecksumMatchesRfc1624Example()
    {
        // RFC 1624 §4: HC 0xDD2F, m 0x5555 -> m' 0x3285 gives HC' 0x0000.
        assertEquals(0x0000, IcmpEchoResponder.updatedChecksum(0xDD2F, 0x5555, 0x3285));
    }
}
