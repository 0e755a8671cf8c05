package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.maglev.MaglevTableBuilder;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.OffHeapFrames;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.TunnelFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.Arrays;

import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.CLIENT_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.HEADROOM;
import static io.sluice.forwarder.pipeline.PipelineTestbed.NOW_NS;
import static io.sluice.forwarder.pipeline.PipelineTestbed.ROUTER_MAC;
import static io.sluice.forwarder.pipeline.PipelineTestbed.SEED;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V4;
import static io.sluice.forwarder.pipeline.PipelineTestbed.TUNNEL_SOURCE_V6;
import static io.sluice.forwarder.pipeline.PipelineTestbed.inet;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A two-armed node's pipeline: it sends encapsulated frames from the backend-facing port's MAC to that side's next
 * hop, and in the same burst answers a packet too big for the tunnel (and an echo request) to the MAC it came from,
 * from the MAC it was sent to (the client-facing port's), whatever the transmit port's MACs are. The worker sends
 * the replies out of the receive port (ForwarderWorker, and ForwarderTwoArmedReplyTest on DPDK). Byte for byte.
 */
class TwoArmedReplyTest
{
    // the client-facing port (frames arrive to it) and the backend-facing port with its next hop
    private static final long FRONT_MAC = PacketBuilder.mac("02:5a:00:00:00:01");
    private static final long BACK_MAC = PacketBuilder.mac("02:5a:00:00:0b:01");
    private static final long BACK_NEXT_HOP_MAC = PacketBuilder.mac("02:5a:00:00:0b:fe");
    private static final int TUNNEL_MTU = 1500;

    private static PipelineTestbed backSideBed()
    {
        final PipelineConfig defaults = PipelineConfig.withDefaults(BACK_MAC, BACK_NEXT_HOP_MAC,
            (Inet4Address)inet(TUNNEL_SOURCE_V4), (Inet6Address)inet(TUNNEL_SOURCE_V6), SEED);
        final PipelineTestbed bed = new PipelineTestbed(new PipelineConfig(defaults.ownMac(), defaults.nextHopMac(),
            defaults.tunnelSourceV4(), defaults.tunnelSourceV6(), defaults.hashSeed(),
            MaglevTableBuilder.DEFAULT_TABLE_SIZE, PipelineTestbed.CONNECTION_TABLE_CAPACITY,
            defaults.tcpIdleTimeoutNs(), defaults.udpIdleTimeoutNs(), defaults.otherIdleTimeoutNs(), TUNNEL_MTU,
            defaults.maxVips(), defaults.maxBackends()));
        bed.pipeline.tooBigResponder(new IcmpTooBigResponder(1000, 50));
        bed.pipeline.echoResponder(new IcmpEchoResponder(1000, 50));
        return bed;
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            (actual == null ? "null" : HexDump.hex(actual)));
    }

    @Test
    void repliesGoToTheSendersMacFromTheReceivePortsWhileForwardedFramesUseTheTransmitPorts()
    {
        final PipelineTestbed bed = backSideBed();
        // 10.0.0.4:443 has one IPv6 backend: 1500 - 44 bytes fit; [2001:db8::1]:53 has one IPv4 backend.
        final byte[] tooBig = packet().ethernet(FRONT_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.4").ttl(60)
            .id(0x1234).dontFragment().tcp(40001, 443).payload(1460).build();
        final byte[] fits = packet().ethernet(FRONT_MAC, ROUTER_MAC).ipv6(CLIENT_V6, "2001:db8::1").hopLimit(60)
            .udp(5353, 53).payload(100).build();
        final byte[] echo = packet().ethernet(FRONT_MAC, ROUTER_MAC).ipv4(CLIENT_V4, "10.0.0.1").ttl(60).id(7)
            .icmpv4(8, 0, 0x0001_0002, new byte[32]).build();
        final byte[][] frames = {tooBig, fits, echo};

        final FrameBurst burst = new FrameBurst();
        final UnsafeBuffer[] memory = OffHeapFrames.fillBurst(burst, frames, HEADROOM);
        assertEquals(1, bed.pipeline.processBurst(burst, NOW_NS));

        assertEquals(Verdict.REPLY, burst.verdict(0));
        final byte[] expectedError = packet().ethernet(ROUTER_MAC, FRONT_MAC).ipv4("10.0.0.4", CLIENT_V4).ttl(64)
            .id(0).tos(0xC0).icmpv4(3, 4, 1456, Arrays.copyOfRange(tooBig, 14, 14 + 28)).noPadding().build();
        assertFrame("fragmentation needed, from the receive port's MAC to the router's", expectedError,
            OffHeapFrames.copy(memory[0], burst.offset(0), burst.offset(0) + burst.length(0)));

        assertEquals(Verdict.FORWARD, burst.verdict(1));
        final byte[] inner = Arrays.copyOfRange(fits, 14, fits.length);
        final byte[] expectedGre = TunnelFrames.greIpv4(BACK_NEXT_HOP_MAC, BACK_MAC,
            inet(TUNNEL_SOURCE_V4).getAddress(), inet("192.168.6.10").getAddress(), 0, inner);
        assertFrame("GRE from the transmit port's MAC to its next hop", expectedGre,
            OffHeapFrames.copy(memory[1], burst.offset(1), burst.offset(1) + burst.length(1)));

        assertEquals(Verdict.REPLY, burst.verdict(2));
        final byte[] expectedEcho = packet().ethernet(ROUTER_MAC, FRONT_MAC).ipv4("10.0.0.1", CLIENT_V4).ttl(64)
            .id(7).icmpv4(0, 0, 0x0001_0002, new byte[32]).noPadding().build();
        assertFrame("echo reply, from the receive port's MAC", expectedEcho,
            OffHeapFrames.copy(memory[2], burst.offset(2), burst.offset(2) + burst.length(2)));

        assertEquals(2, bed.counters.verdict(Verdict.REPLY));
        assertEquals(1, bed.counters.icmpTooBigSentV4());
        assertEquals(1, bed.counters.icmpEchoRepliesV4());
    }
}
