package io.sluice.forwarder.pipeline;

import io.sluice.common.Vip;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.forwarder.pipeline.PipelineTestbed.ANY_PORT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.DNS_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.EMPTY_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.OWN_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.V6_BACKEND_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.WEB_V6;
import static io.sluice.forwarder.testing.FlowKeyBytes.flow;
import static io.sluice.forwarder.testing.FlowKeyBytes.fragment;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_TCP;
import static io.sluice.forwarder.testing.PacketBuilder.PROTO_UDP;
import static io.sluice.forwarder.testing.PacketBuilder.TCP_SYN;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacketPipeline#processBurst} over a full burst of mixed frames, each in its own buffer with its own
 * headroom, as the DPDK port hands them over: every frame's verdict, drop reason, offset and length must be written
 * back, forwarded frames must hold the exact tunnel frame, and the others must be left as received.
 */
class FrameBurstTest
{
    private static final String VIP_V4 = "10.0.0.1";
    private static final String VIP_V6 = "2001:db8::1";

    private final PipelineTestbed bed = PipelineTestbed.standard();

    private static PacketBuilder ipv4(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(source, destination);
    }

    private static PacketBuilder ipv6(final String source, final String destination)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv6(source, destination);
    }

    private Fixture forward(final String description, final int headroom, final PacketBuilder packet, final Vip vip,
        final byte[] key)
    {
        return Fixture.forward(description, bed, headroom, packet, vip, key);
    }

    private List<Fixture> mixedBurst()
    {
        final List<Fixture> frames = new ArrayList<>();
        final byte[] webKey = flow(CLIENT_V4, VIP_V4, 40000, 80, PROTO_TCP);
        frames.add(forward("IPv4 TCP SYN", 128, ipv4(CLIENT_V4, VIP_V4).tcp(40000, 80).tcpFlags(TCP_SYN), WEB_V4,
            webKey));
        frames.add(Fixture.pass("ARP", bed, packet().ethernet(OWN_MAC, ROUTER_MAC)
            .etherType(PacketBuilder.ETHERTYPE_ARP).payload(28).build(), PassReason.NOT_IP));
        frames.add(forward("same flow, less headroom", 64, ipv4(CLIENT_V4, VIP_V4).tcp(40000, 80).payload(300),
            WEB_V4, webKey));
        frames.add(forward("IPv6 TCP", 128, ipv6(CLIENT_V6, VIP_V6).tcp(50000, 443), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 443, PROTO_TCP)));
        frames.add(Fixture.drop("runt", bed, new byte[10], DropReason.FRAME_TRUNCATED));
        frames.add(forward("VLAN UDP, exactly enough headroom", 20,
            ipv4(CLIENT_V4, VIP_V4).vlan(100).udp(33333, 53).payload(20), DNS_V4,
            flow(CLIENT_V4, VIP_V4, 33333, 53, PROTO_UDP)));
        frames.add(Fixture.pass("no VIP", bed, ipv4(CLIENT_V4, "10.0.0.9").tcp(40000, 80).build(),
            PassReason.NO_VIP));
        frames.add(Fixture.pass("ICMP echo", bed, ipv4(CLIENT_V4, VIP_V4).icmpv4(8, 0, 1, new byte[16]).build(),
            PassReason.NOT_LOAD_BALANCED));
        frames.add(forward("ICMPv4 fragmentation needed for the first flow", 128,
            ipv4(ROUTER_V4, VIP_V4).icmpv4(3, 4, 1400,
                packet().ipv4(VIP_V4, CLIENT_V4).tcp(80, 40000).buildIpPacket()), WEB_V4, webKey));
        frames.add(forward("IPv4 UDP fragment", 128,
            ipv4(CLIENT_V4, VIP_V4).fragment(20, false).protocol(PROTO_UDP).payload(30), DNS_V4,
            fragment(CLIENT_V4, VIP_V4, PROTO_UDP)));
        frames.add(Fixture.dropAfterSelection("no backend", bed, 128, ipv4(CLIENT_V4, "10.0.0.3").tcp(40000, 80)
            .build(), DropReason.NO_BACKEND, EMPTY_V4, flow(CLIENT_V4, "10.0.0.3", 40000, 80, PROTO_TCP)));
        frames.add(Fixture.dropAfterSelection("headroom 10", bed, 10, ipv4(CLIENT_V4, VIP_V4).tcp(40001, 80).build(),
            DropReason.NO_HEADROOM, WEB_V4, flow(CLIENT_V4, VIP_V4, 40001, 80, PROTO_TCP)));
        frames.add(Fixture.drop("IHL 4", bed, ipv4(CLIENT_V4, VIP_V4).ihl(4).tcp(40000, 80).build(),
            DropReason.IPV4_BAD_IHL));
        frames.add(forward("IPv6 extension headers", 128,
            ipv6(CLIENT_V6, VIP_V6).hopByHop(8).routing(4, 0, 24).tcp(50001, 443), WEB_V6,
            flow(CLIENT_V6, VIP_V6, 50001, 443, PROTO_TCP)));
        frames.add(forward("IPv4 client, IPv6 backend", 200, ipv4(CLIENT_V4, "10.0.0.4").tcp(40000, 443),
            V6_BACKEND_V4, flow(CLIENT_V4, "10.0.0.4", 40000, 443, PROTO_TCP)));
        frames.add(forward("IPv6 client, IPv4 backend", 128, ipv6(CLIENT_V6, VIP_V6).udp(50000, 53), DNS_V6,
            flow(CLIENT_V6, VIP_V6, 50000, 53, PROTO_UDP)));
        frames.add(Fixture.drop("UDP length 7", bed, ipv4(CLIENT_V4, VIP_V4).udp(1, 53).udpLength(7).build(),
            DropReason.UDP_BAD_LENGTH));
        final int[] headrooms = {24, 128, 256, 44};
        for (int port = 1; frames.size() < FrameBurst.MAX_BURST; port++)
        {
            frames.add(forward("all-ports VIP port " + port, headrooms[port % headrooms.length],
                ipv4(CLIENT_V4, "10.0.0.2").tcp(50000 + port, port).payload(port), ANY_PORT_V4,
                flow(CLIENT_V4, "10.0.0.2", 50000 + port, port, PROTO_TCP)));
        }
        return frames;
    }

    @Test
    void writesBackEveryFramesVerdictOffsetAndLength()
    {
        final List<Fixture> frames = mixedBurst();
        assertEquals(FrameBurst.MAX_BURST, frames.size());
        final FrameBurst burst = new FrameBurst();
        final UnsafeBuffer[] memory = load(burst, frames);

        final int forwarded = bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS);

        int expectedForwarded = 0;
        for (int i = 0; i < frames.size(); i++)
        {
            final Fixture frame = frames.get(i);
            frame.recordExpectedCounters();
            final String what = "frame " + i + " (" + frame.description() + ")";
            assertEquals(Verdict.name(frame.verdict()), Verdict.name(burst.verdict(i)), what);
            if (frame.verdict() == Verdict.FORWARD)
            {
                expectedForwarded++;
                assertEquals(frame.expectedOutOffset(), burst.offset(i), what + " offset");
                assertEquals(frame.expectedOutput().length, burst.length(i), what + " length");
                final byte[] actual = OffHeapFrames.copy(memory[i], burst.offset(i), burst.offset(i) + burst.length(i));
                assertArrayEquals(frame.expectedOutput(), actual, () -> what + "\nexpected:\n" +
                    HexDump.hex(frame.expectedOutput()) + "actual:\n" + HexDump.hex(actual));
            }
            else
            {
                assertEquals(frame.headroom(), burst.offset(i), what + " offset untouched");
                assertEquals(frame.input().length, burst.length(i), what + " length untouched");
                assertArrayEquals(frame.input(), OffHeapFrames.copy(memory[i], frame.headroom(), memory[i].capacity()),
                    what + " bytes untouched");
                if (frame.verdict() == Verdict.DROP)
                {
                    assertEquals(frame.dropReason(), DropReason.get(burst.dropReason(i)), what + " drop reason");
                }
            }
        }
        assertEquals(expectedForwarded, forwarded, "forwarded count returned");
        bed.expected.assertMatches("burst", bed.counters);
    }

    @Test
    void processesTheSameBurstObjectAgainWithFreshFrames()
    {
        final List<Fixture> frames = mixedBurst();
        final FrameBurst burst = new FrameBurst();
        load(burst, frames);
        final int first = bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS);
        for (final Fixture frame : frames)
        {
            frame.recordExpectedCounters();
        }
        // The I/O layer re-wraps every slot for the next burst; the connection table now knows every flow.
        final UnsafeBuffer[] memory = load(burst, frames);
        final int second = bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS + 1_000);
        assertEquals(first, second);
        for (int i = 0; i < frames.size(); i++)
        {
            final Fixture frame = frames.get(i);
            frame.recordExpectedCounters();
            assertEquals(frame.verdict(), burst.verdict(i), frame.description());
            if (frame.verdict() == Verdict.FORWARD)
            {
                assertArrayEquals(frame.expectedOutput(),
                    OffHeapFrames.copy(memory[i], burst.offset(i), burst.offset(i) + burst.length(i)),
                    frame.description());
            }
        }
        bed.expected.assertMatches("two bursts", bed.counters);
    }

    @Test
    void forwardsTheSameFramesWhetherFlowHashesComeEarlyOrLate()
    {
        // Round by round: whether the round hashes early, and the time. 1: every flow new, hashed late; a burst of
        // mostly misses turns early hashing on. 2: an hour on, every entry has expired: misses again, hashed early.
        // 3: every flow hits, hashed early; a burst of hits turns it off. 4: hits, hashed late.
        final boolean[] early = {false, true, true, false, false};
        final long hour = 3_600_000_000_000L;
        final long[] at = {PipelineTestbed.NOW_NS, PipelineTestbed.NOW_NS + hour, PipelineTestbed.NOW_NS + hour + 1,
            PipelineTestbed.NOW_NS + hour + 2};
        final List<Fixture> frames = mixedBurst();
        final FrameBurst burst = new FrameBurst();
        for (int round = 0; round < at.length; round++)
        {
            assertEquals(early[round], bed.pipeline.hashesFlowsEarly(), "round " + (round + 1) + " hashes early");
            final long missesBefore = bed.counters.connectionMisses();
            final UnsafeBuffer[] memory = load(burst, frames);
            bed.pipeline.processBurst(burst, at[round]);
            final long misses = bed.counters.connectionMisses() - missesBefore;
            assertEquals(round < 2, misses > frames.size() / 2, "round " + (round + 1) + ": " + misses + " misses");
            for (int i = 0; i < frames.size(); i++)
            {
                final Fixture frame = frames.get(i);
                final String what = "round " + (round + 1) + ", frame " + i + " (" + frame.description() + ")";
                assertEquals(Verdict.name(frame.verdict()), Verdict.name(burst.verdict(i)), what);
                if (frame.verdict() == Verdict.FORWARD)
                {
                    assertArrayEquals(frame.expectedOutput(),
                        OffHeapFrames.copy(memory[i], burst.offset(i), burst.offset(i) + burst.length(i)), what);
                }
            }
        }
        assertEquals(early[at.length], bed.pipeline.hashesFlowsEarly(), "after the last round");

        // A frame on its own after a burst of misses: process() hashes it for forward() too.
        load(burst, frames);
        bed.pipeline.processBurst(burst, at[3] + hour);
        assertTrue(bed.pipeline.hashesFlowsEarly(), "a burst of expired flows turns early hashing on");
        final Fixture v6Backend = frames.stream().filter(f -> f.description().equals("IPv4 client, IPv6 backend"))
            .findFirst().orElseThrow();
        final UnsafeBuffer alone = OffHeapFrames.behindHeadroom(v6Backend.input(), v6Backend.headroom());
        assertEquals(Verdict.FORWARD, bed.pipeline.process(alone, v6Backend.headroom(), v6Backend.input().length));
        assertArrayEquals(v6Backend.expectedOutput(), OffHeapFrames.copy(alone, bed.pipeline.outOffset(),
            bed.pipeline.outOffset() + bed.pipeline.outLength()), "the IPv6 outer header's flow label");
    }

    @Test
    void forwardsTheSameFramesWhetherItWarmsWholeWindowsOrFirstEntries()
    {
        // A table of 8 entries, one window: a burst of 32 new flows fills it and evicts 24 times, which turns
        // whole-window warming on; a second burst of new flows is warmed whole and evicts 32 times; an hour on,
        // when every entry has expired, 8 flows four times over take expired entries, then hit: nothing evicted,
        // which turns it off.
        final PipelineTestbed small = PipelineTestbed.withConnectionTable(ConnectionTable.BUCKET_SIZE);
        final List<List<Fixture>> rounds = List.of(allPortsFlows(small, 1, 32), allPortsFlows(small, 33, 32),
            allPortsFlows(small, 57, 8, 8, 8, 8));
        final long hour = 3_600_000_000_000L;
        final long[] at = {PipelineTestbed.NOW_NS, PipelineTestbed.NOW_NS + 1, PipelineTestbed.NOW_NS + hour};
        final boolean[] whole = {false, true, true, false};
        final long[] evicted = {24, 32, 0};
        final FrameBurst burst = new FrameBurst();
        for (int round = 0; round < rounds.size(); round++)
        {
            final String name = "round " + (round + 1);
            assertEquals(whole[round], small.pipeline.warmsWholeWindows(), name + " warms whole windows");
            final long evictionsBefore = small.pipeline.connections().evictions();
            final List<Fixture> frames = rounds.get(round);
            final UnsafeBuffer[] memory = load(burst, frames);
            assertEquals(frames.size(), small.pipeline.processBurst(burst, at[round]));
            assertEquals(evicted[round], small.pipeline.connections().evictions() - evictionsBefore, name);
            for (int i = 0; i < frames.size(); i++)
            {
                final Fixture frame = frames.get(i);
                final String what = name + ", frame " + i + " (" + frame.description() + ")";
                assertEquals(Verdict.name(Verdict.FORWARD), Verdict.name(burst.verdict(i)), what);
                assertArrayEquals(frame.expectedOutput(),
                    OffHeapFrames.copy(memory[i], burst.offset(i), burst.offset(i) + burst.length(i)), what);
            }
        }
        assertEquals(whole[rounds.size()], small.pipeline.warmsWholeWindows(), "after the last round");
    }

    // Frames of new TCP flows to the all-ports VIP from client ports 50000 + first on; with repeats, the same
    // flows again after each other (e.g. 8, 8: flows first..first+7 twice).
    private static List<Fixture> allPortsFlows(final PipelineTestbed bed, final int first, final int... repeats)
    {
        final List<Fixture> frames = new ArrayList<>();
        for (final int count : repeats)
        {
            for (int port = first; port < first + count; port++)
            {
                frames.add(Fixture.forward("all-ports VIP, client port " + (50000 + port), bed, 128,
                    ipv4(CLIENT_V4, "10.0.0.2").tcp(50000 + port, port), ANY_PORT_V4,
                    flow(CLIENT_V4, "10.0.0.2", 50000 + port, port, PROTO_TCP)));
            }
        }
        return frames;
    }

    @Test
    void processesAnEmptyBurst()
    {
        final FrameBurst burst = new FrameBurst();
        burst.count(0);
        assertEquals(0, bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS));
        bed.expected.assertMatches("empty burst", bed.counters);
    }

    @Test
    void rejectsABurstLargerThanThirtyTwo()
    {
        final FrameBurst burst = new FrameBurst();
        assertThrows(IllegalArgumentException.class, () -> burst.count(FrameBurst.MAX_BURST + 1));
        assertThrows(IllegalArgumentException.class, () -> burst.count(-1));
    }

    @Test
    void refusesAFrameInAByteArrayBeforeReadingIt()
    {
        // The pipeline reads frames by address: a buffer over a byte array would be read as if its offset were an
        // address, so it is refused outright.
        final byte[] frame = ipv4(CLIENT_V4, "10.0.0.3").tcp(40000, 80).build();
        final byte[] memory = new byte[128 + frame.length];
        System.arraycopy(frame, 0, memory, 128, frame.length);
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> bed.pipeline.process(new UnsafeBuffer(memory), 128, frame.length));
        assertEquals("frame buffers must be off-heap (wrap raw memory, not a byte array)", refused.getMessage());

        final FrameBurst burst = new FrameBurst();
        burst.buffer(0).wrap(memory);
        burst.frame(0, 128, frame.length);
        burst.count(1);
        assertThrows(IllegalArgumentException.class, () -> bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS));
        bed.expected.assertMatches("nothing counted", bed.counters);
    }

    @Test
    void takesUpANewSnapshotOnlyAtTheStartOfABurst()
    {
        final byte[] frame = ipv4(CLIENT_V4, "10.0.0.3").tcp(40000, 80).build();
        final FrameBurst burst = new FrameBurst();
        burst.buffer(0).wrap(OffHeapFrames.behindHeadroom(frame, 128));
        burst.frame(0, 128, frame.length);
        burst.count(1);
        assertEquals(0, bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS));
        assertEquals(DropReason.NO_BACKEND, DropReason.get(burst.dropReason(0)));

        bed.state.addBackend(EMPTY_V4, PipelineTestbed.inet("192.168.7.10"), 1, true);
        bed.publisher.publish(bed.state.snapshot());
        // Published mid-burst: the frame still sees the snapshot the burst started with.
        assertEquals(Verdict.DROP, bed.pipeline.process(OffHeapFrames.behindHeadroom(frame, 128), 128, frame.length));

        final UnsafeBuffer memory = OffHeapFrames.behindHeadroom(frame, 128);
        burst.buffer(0).wrap(memory);
        burst.frame(0, 128, frame.length);
        assertEquals(1, bed.pipeline.processBurst(burst, PipelineTestbed.NOW_NS));
        assertEquals(Verdict.FORWARD, burst.verdict(0));
        final int outer = burst.offset(0);
        assertArrayEquals(PacketBuilder.address("192.168.7.10"), OffHeapFrames.copy(memory, outer + 30, outer + 34),
            "outer destination is the new backend");
    }

    private static UnsafeBuffer[] load(final FrameBurst burst, final List<Fixture> frames)
    {
        final UnsafeBuffer[] memory = new UnsafeBuffer[frames.size()];
        for (int i = 0; i < frames.size(); i++)
        {
            final Fixture frame = frames.get(i);
            memory[i] = OffHeapFrames.behindHeadroom(frame.input(), frame.headroom());
            burst.buffer(i).wrap(memory[i]);
            burst.frame(i, frame.headroom(), frame.input().length);
        }
        burst.count(frames.size());
        return memory;
    }
}
