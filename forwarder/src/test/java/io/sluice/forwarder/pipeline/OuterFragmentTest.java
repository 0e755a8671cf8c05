package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.InternetChecksum;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
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
 * IPv4 without DF too big for the tunnel: the outer IPv4 packet split into two fragments (RFC 4459 §3.1), byte for
 * byte. The expected fragments are cut from the whole encapsulated packet {@link PipelineTestbed} builds with
 * checksums computed from scratch, so concatenating their payloads must give the packet the backend reassembles.
 */
class OuterFragmentTest
{
    private static final int ETHERNET = 14;
    private static final int OUTER_IP = ETHERNET;
    private static final int OUTER_PAYLOAD = ETHERNET + 20;

    private final PipelineTestbed bed = withTunnelMtu(1500);

    private static PipelineTestbed withTunnelMtu(final int mtu)
    {
        final PipelineTestbed testbed =
            new PipelineTestbed(PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, mtu));
        testbed.pipeline.fragmentOuter(true);
        return testbed;
    }

    // One outer fragment cut from the whole encapsulated frame: its Ethernet and outer IPv4 header with identification,
    // flags and offset, total length and a checksum computed from scratch, then [from, to) of the outer payload.
    private static byte[] fragmentOf(final byte[] whole, final int id, final int from, final int to, final boolean more)
    {
        final byte[] fragment = new byte[OUTER_PAYLOAD + to - from];
        System.arraycopy(whole, 0, fragment, 0, OUTER_PAYLOAD);
        System.arraycopy(whole, OUTER_PAYLOAD + from, fragment, OUTER_PAYLOAD, to - from);
        putShort(fragment, OUTER_IP + 2, 20 + to - from);
        putShort(fragment, OUTER_IP + 4, id);
        putShort(fragment, OUTER_IP + 6, (more ? 0x2000 : 0) | from / 8);
        putShort(fragment, OUTER_IP + 10, 0);
        putShort(fragment, OUTER_IP + 10, InternetChecksum.checksum(fragment, OUTER_IP, 20));
        return fragment;
    }

    private static void putShort(final byte[] bytes, final int at, final int value)
    {
        bytes[at] = (byte)(value >>> 8);
        bytes[at + 1] = (byte)value;
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            HexDump.hex(actual));
    }

    private record Sent(int verdict, byte[] first, byte[] second, int backend)
    {
    }

    // Processes one frame; the second fragment goes to a buffer of its own, as the worker's second mbuf.
    private static Sent process(final PipelineTestbed testbed, final byte[] frame)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, HEADROOM);
        final PacketPipeline pipeline = testbed.pipeline;
        pipeline.beginBurst(NOW_NS);
        final int verdict = pipeline.process(buffer, HEADROOM, frame.length);
        if (verdict != Verdict.FORWARD)
        {
            assertEquals(0, pipeline.fragmentCount());
            return new Sent(verdict, null, null, -1);
        }
        final byte[] first = OffHeapFrames.copy(buffer, pipeline.outOffset(),
            pipeline.outOffset() + pipeline.outLength());
        byte[] second = null;
        if (pipeline.fragmentCount() > 0)
        {
            assertEquals(1, pipeline.fragmentCount());
            assertEquals(0, pipeline.fragmentSlot(0));
            final UnsafeBuffer mbuf = OffHeapFrames.allocate(2048);
            final int length = pipeline.writeSecondFragment(0, buffer, mbuf, 128);
            second = OffHeapFrames.copy(mbuf, 128, 128 + length);
        }
        return new Sent(verdict, first, second, pipeline.backend());
    }

    @Test
    void splitsTheOuterPacketOfIpv4WithoutDontFragmentIntoTwoFragmentsByteForByte()
    {
        final PacketBuilder builder = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").ttl(57)
            .id(0x1234).tos(0x2b).tcp(40000, 80).payload(1460);
        final byte[] frame = builder.build();
        assertEquals(1514, frame.length);
        final Sent sent = process(bed, frame);
        assertEquals(Verdict.FORWARD, sent.verdict());
        final byte[] inner = Arrays.copyOfRange(frame, ETHERNET, frame.length);
        final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null, inner, 0x2b);
        // outer payload 4 + 1500 = 1504 bytes: 1480 (a multiple of 8 within 1500 - 20) and 24 at offset 185
        assertEquals(OUTER_PAYLOAD + 1504, whole.length);
        assertFrame("first fragment: MF, offset 0, id 1", fragmentOf(whole, 1, 0, 1480, true), sent.first());
        assertFrame("second fragment: offset 185", fragmentOf(whole, 1, 1480, 1504, false), sent.second());
        assertEquals(1500 + ETHERNET, sent.first().length);
        assertEquals(44 + ETHERNET, sent.second().length);
        // reassembled, the payloads are the GRE packet of the unfragmented encapsulation
        final byte[] reassembled = new byte[1504];
        System.arraycopy(sent.first(), OUTER_PAYLOAD, reassembled, 0, 1480);
        System.arraycopy(sent.second(), OUTER_PAYLOAD, reassembled, 1480, 24);
        assertArrayEquals(Arrays.copyOfRange(whole, OUTER_PAYLOAD, whole.length), reassembled);

        assertEquals(1, bed.counters.outerFragmented());
        assertEquals(1, bed.counters.verdict(Verdict.FORWARD));
        assertEquals(0, bed.counters.verdict(Verdict.DROP));
        assertEquals(1, bed.counters.backendPackets(sent.backend()));
    }

    @Test
    void givesEveryFragmentedPacketItsOwnIdentification()
    {
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40001, 80)
            .payload(1300).build();
        for (int id = 1; id <= 3; id++)
        {
            final Sent sent = process(bed, frame);
            final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null,
                Arrays.copyOfRange(frame, ETHERNET, frame.length), 0);
            // 4 + 1340 = 1344 bytes at a tunnel MTU of 1500 fit: no fragment
            assertFrame("fits", whole, sent.first());
            assertEquals(null, sent.second());
        }
        final byte[] big = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40001, 80)
            .payload(1460).build();
        for (int id = 1; id <= 3; id++)
        {
            final Sent sent = process(bed, big);
            final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null,
                Arrays.copyOfRange(big, ETHERNET, big.length), 0);
            assertFrame("first, id " + id, fragmentOf(whole, id, 0, 1480, true), sent.first());
            assertFrame("second, id " + id, fragmentOf(whole, id, 1480, 1504, false), sent.second());
        }
        assertEquals(3, bed.counters.outerFragmented());
    }

    @Test
    void keepsDroppingWhatTwoFragmentsCannotCarryDontFragmentAndIpv6Backends()
    {
        // 10.0.0.4:443 has an IPv6 backend: the outer IPv6 packet is not fragmented
        final byte[] toIpv6 = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.4").tcp(40002, 443)
            .payload(1460).build();
        assertEquals(Verdict.DROP, process(bed, toIpv6).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), bed.pipeline.dropReason());
        // DF: no fragments (ICMP fragmentation-needed when a responder is set, IcmpTooBigTest)
        final byte[] dontFragment = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1")
            .dontFragment().tcp(40003, 80).payload(1460).build();
        assertEquals(Verdict.DROP, process(bed, dontFragment).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), bed.pipeline.dropReason());
        // a tunnel of 700: 680 per fragment, 1504 bytes would need three
        final PipelineTestbed small = withTunnelMtu(700);
        final byte[] big = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40004, 80)
            .payload(1460).build();
        assertEquals(Verdict.DROP, process(small, big).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), small.pipeline.dropReason());
        // and 1200 bytes in two: 680 (a multiple of 8) and 524
        final byte[] fits = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40005, 80)
            .payload(1160).build();
        final Sent sent = process(small, fits);
        final byte[] whole = small.expectedTunnelFrame(sent.backend(), null,
            Arrays.copyOfRange(fits, ETHERNET, fits.length), 0);
        assertFrame("first of two at MTU 700", fragmentOf(whole, 1, 0, 680, true), sent.first());
        assertFrame("second of two at MTU 700", fragmentOf(whole, 1, 680, 1204, false), sent.second());
        assertEquals(0, bed.counters.outerFragmented());
        assertEquals(1, small.counters.outerFragmented());
    }

    @Test
    void dropsWithoutFragmentingWhenNotEnabled()
    {
        final PipelineTestbed plain =
            new PipelineTestbed(PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, 1500));
        final byte[] frame = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40006, 80)
            .payload(1460).build();
        assertEquals(Verdict.DROP, process(plain, frame).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), plain.pipeline.dropReason());
        assertEquals(0, plain.counters.outerFragmented());
    }

    @Test
    void recordsEveryFragmentedFrameOfABurstAndTakesBackTheUnsent()
    {
        final FrameBurst burst = new FrameBurst();
        final byte[][] frames = {
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40010, 80).payload(100).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40011, 80).payload(1460).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40012, 80).payload(100).build(),
            packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").tcp(40013, 80).payload(1460).build(),
        };
        final UnsafeBuffer[] memory = new UnsafeBuffer[frames.length];
        for (int i = 0; i < frames.length; i++)
        {
            memory[i] = OffHeapFrames.behindHeadroom(frames[i], HEADROOM);
            burst.buffer(i).wrap(memory[i]);
            burst.frame(i, HEADROOM, frames[i].length);
        }
        burst.count(frames.length);
        assertEquals(4, bed.pipeline.processBurst(burst, NOW_NS));
        assertEquals(2, bed.pipeline.fragmentCount());
        assertEquals(1, bed.pipeline.fragmentSlot(0));
        assertEquals(3, bed.pipeline.fragmentSlot(1));
        final UnsafeBuffer mbuf = OffHeapFrames.allocate(2048);
        for (int k = 0; k < 2; k++)
        {
            final int slot = bed.pipeline.fragmentSlot(k);
            assertEquals(1514, burst.length(slot));
            final int length = bed.pipeline.writeSecondFragment(k, burst.buffer(slot), mbuf, 128);
            final byte[] second = OffHeapFrames.copy(mbuf, 128, 128 + length);
            assertEquals(44 + ETHERNET, second.length);
            assertEquals(k + 1, ((second[OUTER_IP + 4] & 0xFF) << 8) | (second[OUTER_IP + 5] & 0xFF), "id");
            assertEquals(185, ((second[OUTER_IP + 6] & 0xFF) << 8) | (second[OUTER_IP + 7] & 0xFF), "offset");
            assertEquals(0, InternetChecksum.checksum(second, OUTER_IP, 20), "checksum");
        }
        // the worker found no mbuf for the second of them
        bed.pipeline.fragmentUnsent(1);
        burst.drop(3, DropReason.FRAGMENT_NO_BUFFER);
        assertEquals(Verdict.DROP, burst.verdict(3));
        assertEquals(1, bed.counters.outerFragmented());
        assertEquals(3, bed.counters.verdict(Verdict.FORWARD));
        assertEquals(1, bed.counters.verdict(Verdict.DROP));
        assertEquals(1, bed.counters.dropped(DropReason.FRAGMENT_NO_BUFFER));
        // the next burst starts with none
        bed.pipeline.beginBurst(NOW_NS);
        assertEquals(0, bed.pipeline.fragmentCount());
    }
}
