package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.testing.FlowKeyBytes;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.InternetChecksum;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.TunnelFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IPv4 without DF too big for the tunnel: the outer packet split into fragments (RFC 4459 §3.1), outer IPv4
 * fragments to an IPv4 backend and outer IPv6 packets with a Fragment header (RFC 8200 §4.5) to an IPv6 one, byte
 * for byte. The expected fragments are cut from the whole encapsulated packet {@link PipelineTestbed} builds with
 * checksums computed from scratch, and the fragments the pipeline wrote are reassembled by offset as the backend's
 * kernel does: that must give the payload of the plain encapsulation the packet would have had with a big MTU.
 */
class OuterFragmentTest
{
    private static final int ETHERNET = 14;
    private static final int OUTER_IP = ETHERNET;
    private static final int IPV4_PAYLOAD = ETHERNET + 20;
    private static final int IPV6_PAYLOAD = ETHERNET + 40;
    private static final int IPV6_FRAGMENT_PAYLOAD = IPV6_PAYLOAD + 8;
    private static final String V6_BACKEND_VIP = "10.0.0.4";

    private final PipelineTestbed bed = withTunnelMtu(1500);

    private static PipelineTestbed withTunnelMtu(final int mtu)
    {
        final PipelineTestbed testbed =
            new PipelineTestbed(PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, mtu));
        testbed.pipeline.fragmentOuter(true);
        return testbed;
    }

    // One outer IPv4 fragment cut from the whole encapsulated frame: its Ethernet and outer IPv4 header with
    // identification, flags and offset, total length and a checksum computed from scratch, then [from, to) of the
    // outer payload.
    private static byte[] fragmentOf(final byte[] whole, final int id, final int from, final int to, final boolean more)
    {
        return fragmentOf(whole, ETHERNET, id, from, to, more);
    }

    // The same behind an Ethernet header of l2 bytes (18 with a VLAN tag).
    private static byte[] fragmentOf(final byte[] whole, final int l2, final int id, final int from, final int to,
        final boolean more)
    {
        final int ip = l2;
        final int payload = l2 + 20;
        final byte[] fragment = new byte[payload + to - from];
        System.arraycopy(whole, 0, fragment, 0, payload);
        System.arraycopy(whole, payload + from, fragment, payload, to - from);
        putShort(fragment, ip + 2, 20 + to - from);
        putShort(fragment, ip + 4, id);
        putShort(fragment, ip + 6, (more ? 0x2000 : 0) | from / 8);
        putShort(fragment, ip + 10, 0);
        putShort(fragment, ip + 10, InternetChecksum.checksum(fragment, ip, 20));
        return fragment;
    }

    // One outer IPv6 fragment cut from the whole encapsulated frame: its Ethernet and IPv6 header with next header
    // 44 and the fragment's payload length, the Fragment header (next header 47 GRE, offset, M, identification),
    // then [from, to) of the fragmentable part (GRE and the inner packet).
    private static byte[] ipv6FragmentOf(final byte[] whole, final long id, final int from, final int to,
        final boolean more)
    {
        return ipv6FragmentOf(whole, ETHERNET, id, from, to, more);
    }

    // The same behind an Ethernet header of l2 bytes (18 with a VLAN tag).
    private static byte[] ipv6FragmentOf(final byte[] whole, final int l2, final long id, final int from,
        final int to, final boolean more)
    {
        final int ip = l2;
        final int header = l2 + 40;
        final int payload = header + 8;
        final byte[] fragment = new byte[payload + to - from];
        System.arraycopy(whole, 0, fragment, 0, header);
        System.arraycopy(whole, header + from, fragment, payload, to - from);
        putShort(fragment, ip + 4, 8 + to - from);
        fragment[ip + 6] = 44;
        fragment[header] = 47;
        fragment[header + 1] = 0;
        putShort(fragment, header + 2, from | (more ? 1 : 0));
        putShort(fragment, header + 4, (int)(id >>> 16));
        putShort(fragment, header + 6, (int)id);
        return fragment;
    }

    // The fragments a packet of `payload` fragmentable bytes should become, `unit` bytes each but the last.
    private static List<byte[]> expectedFragments(final byte[] whole, final boolean ipv6, final long id,
        final int unit)
    {
        final int payload = whole.length - (ipv6 ? IPV6_PAYLOAD : IPV4_PAYLOAD);
        final List<byte[]> fragments = new ArrayList<>();
        for (int from = 0; from < payload; from += unit)
        {
            final int to = Math.min(payload, from + unit);
            fragments.add(ipv6 ? ipv6FragmentOf(whole, id, from, to, to < payload) :
                fragmentOf(whole, (int)id, from, to, to < payload));
        }
        return fragments;
    }

    private static void putShort(final byte[] bytes, final int at, final int value)
    {
        bytes[at] = (byte)(value >>> 8);
        bytes[at + 1] = (byte)value;
    }

    private static int u16(final byte[] bytes, final int at)
    {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            HexDump.hex(actual));
    }

    private static void assertFragments(final List<byte[]> expected, final List<byte[]> actual)
    {
        assertEquals(expected.size(), actual.size(), "fragments");
        for (int j = 0; j < expected.size(); j++)
        {
            assertFrame("fragment " + j + " of " + expected.size(), expected.get(j), actual.get(j));
        }
    }

    /**
     * Reassembles outer fragments as the backend's kernel does (RFC 791 §3.2, RFC 8200 §4.5): same
     * identification, each payload placed at its offset, MF on all but the last, and returns the reassembled
     * payload (GRE and the inner packet). Checks each fragment's lengths, checksum and size limit on the way.
     */
    private static byte[] reassemble(final List<byte[]> fragments, final boolean ipv6, final int tunnelMtu)
    {
        final byte[] out = new byte[16 * 1024];
        int end = 0;
        long id = -1;
        for (int j = 0; j < fragments.size(); j++)
        {
            final byte[] f = fragments.get(j);
            final int offset;
            final boolean more;
            final int payloadAt;
            final long fragmentId;
            if (ipv6)
            {
                assertEquals(0x86DD, u16(f, 12));
                assertEquals(44, f[OUTER_IP + 6], "next header: Fragment");
                assertEquals(47, f[IPV6_PAYLOAD], "Fragment header's next header: GRE");
                assertEquals(f.length - IPV6_PAYLOAD, u16(f, OUTER_IP + 4), "payload length");
                assertTrue(f.length - ETHERNET <= tunnelMtu, "fragment within the tunnel MTU");
                offset = u16(f, IPV6_PAYLOAD + 2) & 0xFFF8;
                more = (u16(f, IPV6_PAYLOAD + 2) & 1) != 0;
                fragmentId = ((long)u16(f, IPV6_PAYLOAD + 4) << 16) | u16(f, IPV6_PAYLOAD + 6);
                payloadAt = IPV6_FRAGMENT_PAYLOAD;
            }
            else
            {
                assertEquals(0x0800, u16(f, 12));
                assertEquals(f.length - ETHERNET, u16(f, OUTER_IP + 2), "total length");
                assertEquals(0, InternetChecksum.checksum(f, OUTER_IP, 20), "header checksum");
                assertTrue(f.length - ETHERNET <= tunnelMtu, "fragment within the tunnel MTU");
                offset = (u16(f, OUTER_IP + 6) & 0x1FFF) * 8;
                more = (u16(f, OUTER_IP + 6) & 0x2000) != 0;
                assertEquals(0, u16(f, OUTER_IP + 6) & 0x4000, "no DF on a fragment");
                fragmentId = u16(f, OUTER_IP + 4);
                payloadAt = IPV4_PAYLOAD;
            }
            assertEquals(j < fragments.size() - 1, more, "more fragments on all but the last");
            if (more)
            {
                assertEquals(0, (f.length - payloadAt) % 8, "a fragment but the last carries a multiple of 8");
            }
            if (j == 0)
            {
                id = fragmentId;
            }
            assertEquals(id, fragmentId, "one identification per packet");
            assertEquals(end, offset, "fragments in order, without gaps");
            System.arraycopy(f, payloadAt, out, offset, f.length - payloadAt);
            end = offset + f.length - payloadAt;
        }
        return Arrays.copyOf(out, end);
    }

    private record Sent(int verdict, List<byte[]> fragments, int backend)
    {
        byte[] first()
        {
            return fragments.get(0);
        }
    }

    // Processes one frame; each later fragment goes to a buffer of its own, as the worker's mbufs.
    private static Sent process(final PipelineTestbed testbed, final byte[] frame)
    {
        final UnsafeBuffer buffer = OffHeapFrames.behindHeadroom(frame, HEADROOM);
        final PacketPipeline pipeline = testbed.pipeline;
        pipeline.beginBurst(NOW_NS);
        final int verdict = pipeline.process(buffer, HEADROOM, frame.length);
        final List<byte[]> fragments = new ArrayList<>();
        if (verdict != Verdict.FORWARD)
        {
            assertEquals(0, pipeline.fragmentCount());
            return new Sent(verdict, fragments, -1);
        }
        fragments.add(OffHeapFrames.copy(buffer, pipeline.outOffset(), pipeline.outOffset() + pipeline.outLength()));
        if (pipeline.fragmentCount() > 0)
        {
            assertEquals(1, pipeline.fragmentCount());
            assertEquals(0, pipeline.fragmentSlot(0));
            for (int j = 1; j < pipeline.fragmentsOf(0); j++)
            {
                final UnsafeBuffer mbuf = OffHeapFrames.allocate(2048);
                final int length = pipeline.writeFragment(0, j, buffer, mbuf, 128);
                fragments.add(OffHeapFrames.copy(mbuf, 128, 128 + length));
            }
        }
        return new Sent(verdict, fragments, pipeline.backend());
    }

    private static byte[] tcp(final String vip, final int sourcePort, final int destinationPort, final int payload)
    {
        return packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, vip).tcp(sourcePort, destinationPort)
            .payload(payload).build();
    }

    private static byte[] inner(final byte[] frame)
    {
        return Arrays.copyOfRange(frame, ETHERNET, frame.length);
    }

    private static byte[] key(final String vip, final int sourcePort, final int destinationPort)
    {
        return FlowKeyBytes.flow(CLIENT_V4, vip, sourcePort, destinationPort, PacketBuilder.PROTO_TCP);
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
        final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null, inner(frame), 0x2b);
        // outer payload 4 + 1500 = 1504 bytes: 1480 (a multiple of 8 within 1500 - 20) and 24 at offset 185
        assertEquals(IPV4_PAYLOAD + 1504, whole.length);
        assertEquals(2, sent.fragments().size());
        assertFrame("first fragment: MF, offset 0, id 1", fragmentOf(whole, 1, 0, 1480, true), sent.first());
        assertFrame("second fragment: offset 185", fragmentOf(whole, 1, 1480, 1504, false), sent.fragments().get(1));
        assertEquals(1500 + ETHERNET, sent.first().length);
        assertEquals(44 + ETHERNET, sent.fragments().get(1).length);
        // reassembled, the payloads are the GRE packet of the unfragmented encapsulation
        assertArrayEquals(Arrays.copyOfRange(whole, IPV4_PAYLOAD, whole.length),
            reassemble(sent.fragments(), false, 1500));

        assertEquals(1, bed.counters.outerFragmented());
        assertEquals(2, bed.counters.outerFragments());
        assertEquals(1, bed.counters.verdict(Verdict.FORWARD));
        assertEquals(0, bed.counters.verdict(Verdict.DROP));
        assertEquals(1, bed.counters.backendPackets(sent.backend()));
    }

    @Test
    void splitsIntoAsManyIpv4FragmentsAsTheTunnelMtuNeeds()
    {
        // a tunnel of 576: 552 bytes (a multiple of 8 within 576 - 20) per fragment, 1504 bytes in three
        final PipelineTestbed small = withTunnelMtu(576);
        final byte[] frame = tcp("10.0.0.1", 40020, 80, 1460);
        final Sent sent = process(small, frame);
        assertEquals(Verdict.FORWARD, sent.verdict());
        final byte[] whole = small.expectedTunnelFrame(sent.backend(), null, inner(frame), 0);
        assertFragments(List.of(fragmentOf(whole, 1, 0, 552, true), fragmentOf(whole, 1, 552, 1104, true),
            fragmentOf(whole, 1, 1104, 1504, false)), sent.fragments());
        assertArrayEquals(Arrays.copyOfRange(whole, IPV4_PAYLOAD, whole.length),
            reassemble(sent.fragments(), false, 576));
        assertEquals(1, small.counters.outerFragmented());
        assertEquals(3, small.counters.outerFragments());

        // a 9000-byte packet (port MTU 9000) into a 1280-byte tunnel: 1256 per fragment, 9004 bytes in eight
        final PipelineTestbed minimum = withTunnelMtu(1280);
        final byte[] jumbo = tcp("10.0.0.1", 40021, 80, 9000 - 40);
        final Sent eight = process(minimum, jumbo);
        assertEquals(Verdict.FORWARD, eight.verdict());
        final byte[] wholeJumbo = minimum.expectedTunnelFrame(eight.backend(), null, inner(jumbo), 0);
        assertEquals(PacketPipeline.MAX_OUTER_FRAGMENTS, eight.fragments().size());
        assertFragments(expectedFragments(wholeJumbo, false, 1, 1256), eight.fragments());
        assertArrayEquals(Arrays.copyOfRange(wholeJumbo, IPV4_PAYLOAD, wholeJumbo.length),
            reassemble(eight.fragments(), false, 1280));
        assertEquals(9004 - 7 * 1256 + IPV4_PAYLOAD, eight.fragments().get(7).length);
        assertEquals(8, minimum.counters.outerFragments());
    }

    @Test
    void splitsTheOuterIpv6PacketWithAFragmentHeaderForAnIpv6Backend()
    {
        // 10.0.0.4:443 has an IPv6 backend. 1500 - 40 - 8 = 1452: 1448 bytes (a multiple of 8) in the first, 56 after
        final byte[] frame = tcp(V6_BACKEND_VIP, 40002, 443, 1460);
        final Sent sent = process(bed, frame);
        assertEquals(Verdict.FORWARD, sent.verdict());
        assertTrue(bed.isIpv6Backend(sent.backend()));
        final byte[] whole = bed.expectedTunnelFrame(sent.backend(), key(V6_BACKEND_VIP, 40002, 443), inner(frame),
            0);
        assertEquals(IPV6_PAYLOAD + 1504, whole.length);
        assertFragments(List.of(ipv6FragmentOf(whole, 1, 0, 1448, true), ipv6FragmentOf(whole, 1, 1448, 1504, false)),
            sent.fragments());
        // 40 + 8 + 1448 = 1496: within the MTU, the fragmentable part a multiple of 8
        assertEquals(1496 + ETHERNET, sent.first().length);
        // the flow label (the flow's entropy bits) is the unfragmented packet's in every fragment
        for (final byte[] fragment : sent.fragments())
        {
            assertArrayEquals(Arrays.copyOfRange(whole, OUTER_IP, OUTER_IP + 4),
                Arrays.copyOfRange(fragment, OUTER_IP, OUTER_IP + 4), "version, traffic class, flow label");
        }
        assertArrayEquals(Arrays.copyOfRange(whole, IPV6_PAYLOAD, whole.length),
            reassemble(sent.fragments(), true, 1500));
        assertEquals(1, bed.counters.outerFragmented());
        assertEquals(2, bed.counters.outerFragments());

        // the next packet has the next identification, 32 bits in the Fragment header
        final Sent next = process(bed, frame);
        assertEquals(2, u16(next.first(), IPV6_PAYLOAD + 6));
        assertEquals(0, u16(next.first(), IPV6_PAYLOAD + 4));
    }

    @Test
    void splitsTheOuterIpv6PacketIntoAsManyFragmentsAsTheTunnelMtuNeeds()
    {
        // a tunnel of 700: 700 - 48 = 652, 648 bytes per fragment, 1504 in three
        final PipelineTestbed small = withTunnelMtu(700);
        final byte[] frame = tcp(V6_BACKEND_VIP, 40030, 443, 1460);
        final Sent sent = process(small, frame);
        assertEquals(Verdict.FORWARD, sent.verdict());
        final byte[] whole = small.expectedTunnelFrame(sent.backend(), key(V6_BACKEND_VIP, 40030, 443),
            inner(frame), 0);
        assertFragments(List.of(ipv6FragmentOf(whole, 1, 0, 648, true), ipv6FragmentOf(whole, 1, 648, 1296, true),
            ipv6FragmentOf(whole, 1, 1296, 1504, false)), sent.fragments());
        assertArrayEquals(Arrays.copyOfRange(whole, IPV6_PAYLOAD, whole.length),
            reassemble(sent.fragments(), true, 700));

        // 9000 bytes into 1280: 1232 per fragment, 9004 in eight
        final PipelineTestbed minimum = withTunnelMtu(1280);
        final byte[] jumbo = tcp(V6_BACKEND_VIP, 40031, 443, 9000 - 40);
        final Sent eight = process(minimum, jumbo);
        assertEquals(Verdict.FORWARD, eight.verdict());
        final byte[] wholeJumbo = minimum.expectedTunnelFrame(eight.backend(), key(V6_BACKEND_VIP, 40031, 443),
            inner(jumbo), 0);
        assertFragments(expectedFragments(wholeJumbo, true, 1, 1232), eight.fragments());
        assertArrayEquals(Arrays.copyOfRange(wholeJumbo, IPV6_PAYLOAD, wholeJumbo.length),
            reassemble(eight.fragments(), true, 1280));
        assertEquals(1, minimum.counters.outerFragmented());
        assertEquals(8, minimum.counters.outerFragments());
    }

    @Test
    void givesEveryFragmentedPacketItsOwnIdentification()
    {
        final byte[] frame = tcp("10.0.0.1", 40001, 80, 1300);
        for (int id = 1; id <= 3; id++)
        {
            final Sent sent = process(bed, frame);
            final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null, inner(frame), 0);
            // 4 + 1340 = 1344 bytes at a tunnel MTU of 1500 fit: no fragment
            assertFrame("fits", whole, sent.first());
            assertEquals(1, sent.fragments().size());
        }
        final byte[] big = tcp("10.0.0.1", 40001, 80, 1460);
        for (int id = 1; id <= 3; id++)
        {
            final Sent sent = process(bed, big);
            final byte[] whole = bed.expectedTunnelFrame(sent.backend(), null, inner(big), 0);
            assertFrame("first, id " + id, fragmentOf(whole, id, 0, 1480, true), sent.first());
            assertFrame("second, id " + id, fragmentOf(whole, id, 1480, 1504, false), sent.fragments().get(1));
        }
        assertEquals(3, bed.counters.outerFragmented());
    }

    @Test
    void keepsDroppingDontFragmentAndWhatEightFragmentsCannotCarry()
    {
        // DF: no fragments (ICMP fragmentation-needed when a responder is set, IcmpTooBigTest), to either family
        final byte[] dontFragment = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1")
            .dontFragment().tcp(40003, 80).payload(1460).build();
        assertEquals(Verdict.DROP, process(bed, dontFragment).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), bed.pipeline.dropReason());
        final byte[] dontFragmentV6 = packet().ethernet(OWN_MAC, ROUTER_MAC).ipv4(CLIENT_V4, V6_BACKEND_VIP)
            .dontFragment().tcp(40003, 443).payload(1460).build();
        assertEquals(Verdict.DROP, process(bed, dontFragmentV6).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), bed.pipeline.dropReason());
        // a tunnel of 1100: 1080 bytes per IPv4 fragment, 1048 per IPv6 one; 9004 bytes would need nine of either
        final PipelineTestbed small = withTunnelMtu(1100);
        final byte[] jumbo = tcp("10.0.0.1", 40004, 80, 9000 - 40);
        assertEquals(Verdict.DROP, process(small, jumbo).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), small.pipeline.dropReason());
        final byte[] jumboV6 = tcp(V6_BACKEND_VIP, 40004, 443, 9000 - 40);
        assertEquals(Verdict.DROP, process(small, jumboV6).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), small.pipeline.dropReason());
        // eight fragments at most: 8 x 1080 = 8640 bytes carry 8636 of inner packet, one more byte does not
        final Sent fits = process(small, tcp("10.0.0.1", 40005, 80, 8636 - 40));
        assertEquals(Verdict.FORWARD, fits.verdict());
        assertEquals(8, fits.fragments().size());
        assertEquals(Verdict.DROP, process(small, tcp("10.0.0.1", 40006, 80, 8637 - 40)).verdict());
        assertEquals(0, bed.counters.outerFragmented());
        assertEquals(1, small.counters.outerFragmented());
        assertEquals(8, small.counters.outerFragments());
        assertEquals(3, small.counters.dropped(DropReason.ENCAPSULATED_TOO_BIG));
    }

    @Test
    void fragmentsBehindTheVlanTagWithTheGreKeyInBothFamilies()
    {
        // GRE with its key is 8 bytes; the tag makes the Ethernet header 18 (not counted against the tunnel MTU)
        final PipelineTestbed tagged = new PipelineTestbed(
            PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, 1500),
            new TunnelOptions(true, null, 0, null, 0, 100));
        tagged.pipeline.fragmentOuter(true);
        final int l2 = ETHERNET + 4;

        final byte[] toV4 = tcp("10.0.0.1", 40040, 80, 1460);
        final Sent v4 = process(tagged, toV4);
        assertEquals(Verdict.FORWARD, v4.verdict());
        final long hashV4 = FlowKeyBytes.hash(key("10.0.0.1", 40040, 80), SEED);
        final byte[] wholeV4 = TunnelFrames.greWithOptions(PipelineTestbed.NEXT_HOP_MAC, OWN_MAC, 100,
            PacketBuilder.address(TUNNEL_SOURCE_V4), tagged.backend(v4.backend()).getAddress(), 0, 0,
            (int)(hashV4 >>> 32), inner(toV4));
        // 8 + 1500 = 1508 bytes: 1480 and 28
        assertFragments(List.of(fragmentOf(wholeV4, l2, 1, 0, 1480, true), fragmentOf(wholeV4, l2, 1, 1480, 1508,
            false)), v4.fragments());

        final byte[] toV6 = tcp(V6_BACKEND_VIP, 40041, 443, 1460);
        final Sent v6 = process(tagged, toV6);
        assertEquals(Verdict.FORWARD, v6.verdict());
        final long hashV6 = FlowKeyBytes.hash(key(V6_BACKEND_VIP, 40041, 443), SEED);
        final byte[] wholeV6 = TunnelFrames.greWithOptions(PipelineTestbed.NEXT_HOP_MAC, OWN_MAC, 100,
            PacketBuilder.address(TUNNEL_SOURCE_V6), tagged.backend(v6.backend()).getAddress(), 0,
            (int)hashV6 & 0xF_FFFF, (int)(hashV6 >>> 32), inner(toV6));
        // 1500 - 48 = 1452: 1448 and 60
        assertFragments(List.of(ipv6FragmentOf(wholeV6, l2, 1, 0, 1448, true),
            ipv6FragmentOf(wholeV6, l2, 1, 1448, 1508, false)), v6.fragments());
        assertEquals(2, tagged.counters.outerFragmented());
        assertEquals(4, tagged.counters.outerFragments());
    }

    @Test
    void dropsWithoutFragmentingWhenNotEnabled()
    {
        final PipelineTestbed plain =
            new PipelineTestbed(PipelineTestbed.config(TUNNEL_SOURCE_V4, TUNNEL_SOURCE_V6, SEED, 1500));
        final byte[] frame = tcp("10.0.0.1", 40006, 80, 1460);
        assertEquals(Verdict.DROP, process(plain, frame).verdict());
        assertEquals(DropReason.ENCAPSULATED_TOO_BIG.ordinal(), plain.pipeline.dropReason());
        assertEquals(Verdict.DROP, process(plain, tcp(V6_BACKEND_VIP, 40006, 443, 1460)).verdict());
        assertEquals(0, plain.counters.outerFragmented());
    }

    @Test
    void recordsEveryFragmentedFrameOfABurstAndTakesBackTheUnsent()
    {
        final PipelineTestbed small = withTunnelMtu(576);
        final FrameBurst burst = new FrameBurst();
        final byte[][] frames = {
            tcp("10.0.0.1", 40010, 80, 100),
            tcp("10.0.0.1", 40011, 80, 1460),
            tcp("10.0.0.1", 40012, 80, 100),
            tcp(V6_BACKEND_VIP, 40013, 443, 1460),
        };
        final UnsafeBuffer[] memory = OffHeapFrames.fillBurst(burst, frames, HEADROOM);
        assertEquals(4, small.pipeline.processBurst(burst, NOW_NS));
        assertEquals(2, small.pipeline.fragmentCount());
        assertEquals(1, small.pipeline.fragmentSlot(0));
        assertEquals(3, small.pipeline.fragmentSlot(1));
        // IPv4: 552 per fragment, three; IPv6: 576 - 48 = 528 per fragment, 1504 in three
        assertEquals(3, small.pipeline.fragmentsOf(0));
        assertEquals(3, small.pipeline.fragmentsOf(1));
        assertEquals(20 + 552 + ETHERNET, burst.length(1));
        assertEquals(576 + ETHERNET, burst.length(3));
        final UnsafeBuffer mbuf = OffHeapFrames.allocate(2048);
        final int last = small.pipeline.writeFragment(0, 2, burst.buffer(1), mbuf, 128);
        final byte[] third = OffHeapFrames.copy(mbuf, 128, 128 + last);
        assertEquals(ETHERNET + 20 + 1504 - 2 * 552, third.length);
        assertEquals(1, u16(third, OUTER_IP + 4), "id");
        assertEquals(2 * 552 / 8, u16(third, OUTER_IP + 6), "offset, no MF");
        assertEquals(0, InternetChecksum.checksum(third, OUTER_IP, 20), "checksum");
        final int second = small.pipeline.writeFragment(1, 1, burst.buffer(3), mbuf, 128);
        final byte[] middle = OffHeapFrames.copy(mbuf, 128, 128 + second);
        assertEquals(ETHERNET + 40 + 8 + 528, middle.length);
        assertEquals(528 | 1, u16(middle, IPV6_PAYLOAD + 2), "offset 528, M");
        assertEquals(1, u16(middle, IPV6_PAYLOAD + 6), "IPv6 identification");
        assertEquals(6, small.counters.outerFragments());
        // the worker found no mbufs for the later fragments of the IPv6 one: taken back whole
        small.pipeline.fragmentUnsent(1);
        burst.drop(3, DropReason.FRAGMENT_NO_BUFFER);
        assertEquals(Verdict.DROP, burst.verdict(3));
        assertEquals(1, small.counters.outerFragmented());
        assertEquals(3, small.counters.outerFragments());
        assertEquals(3, small.counters.verdict(Verdict.FORWARD));
        assertEquals(1, small.counters.verdict(Verdict.DROP));
        assertEquals(1, small.counters.dropped(DropReason.FRAGMENT_NO_BUFFER));
        // the next burst starts with none
        small.pipeline.beginBurst(NOW_NS);
        assertEquals(0, small.pipeline.fragmentCount());
    }
}
