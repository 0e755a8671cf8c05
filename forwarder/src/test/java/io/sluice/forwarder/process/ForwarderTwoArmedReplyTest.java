package io.sluice.forwarder.process;

import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.testing.HexDump;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapReader;
import io.sluice.forwarder.testing.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.forwarder.process.NodeSpec.backend;
import static io.sluice.forwarder.testing.PacketBuilder.packet;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A two-armed worker on real EAL and two {@code net_pcap} ports: it receives on port 0 (clients) and forwards on
 * port 1 (backends). A DF packet too big for the 1500-byte tunnel is answered with ICMP fragmentation-needed out of
 * port 0, to the MAC it came from, byte for byte, and an echo request to the VIP likewise, on the worker's return
 * queue there; the GRE traffic (and the two outer fragments of a packet without DF) leaves by port 1. Before,
 * such a worker had no responders and dropped the oversize packet silently (a PMTU black hole).
 */
class ForwarderTwoArmedReplyTest
{
    private static final String VIP = "10.100.0.1";
    private static final String CLIENT = "203.0.113.9";
    private static final long PORT0_MAC = PacketBuilder.mac("02:5a:00:00:0a:01");
    private static final long CLIENT_ROUTER_MAC = PacketBuilder.mac("02:5a:00:00:0a:fe");
    private static final int SMALL = 20;

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    @Test
    void answersOutOfTheReceivePortWhileForwardingOutOfTheOther() throws IOException
    {
        final List<byte[]> input = new ArrayList<>();
        for (int i = 0; i < SMALL; i++)
        {
            input.add(packet().ethernet(PORT0_MAC, CLIENT_ROUTER_MAC).ipv4(CLIENT, VIP).tcp(40_000 + i, 80)
                .tcpFlags(PacketBuilder.TCP_SYN).build());
        }
        final byte[] tooBig = packet().ethernet(PORT0_MAC, CLIENT_ROUTER_MAC).ipv4(CLIENT, VIP).ttl(60).id(0x1234)
            .dontFragment().tcp(41_000, 80).payload(1460).build();
        final byte[] noDf = packet().ethernet(PORT0_MAC, CLIENT_ROUTER_MAC).ipv4(CLIENT, VIP).ttl(60).id(0x1235)
            .tcp(41_001, 80).payload(1460).build();
        final byte[] echo = packet().ethernet(PORT0_MAC, CLIENT_ROUTER_MAC).ipv4(CLIENT, VIP).ttl(60).id(7)
            .icmpv4(8, 0, 0x0009_0001, new byte[32]).build();
        input.add(tooBig);
        input.add(noDf);
        input.add(echo);
        final Path in0 = dir.resolve("in0.pcap");
        final Path in1 = dir.resolve("in1.pcap");
        final Path out0 = dir.resolve("out0.pcap");
        final Path out1 = dir.resolve("out1.pcap");
        PcapWriter.write(in0, input);
        PcapWriter.write(in1, List.of());
        final NodeSpec spec = NodeSpec.create(dir).vip(VIP, 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=" + in0 + ",tx_pcap=" + out0).vdev("net_pcap1,rx_pcap=" + in1 + ",tx_pcap=" + out1)
            .port("net_pcap0").port("net_pcap1").worker(1, "net_pcap0", "net_pcap1");

        final ForwarderProcess forwarder = forwarders.start(spec, dir);
        // SMALL + 1 forwarded (the one without DF as two fragments), 2 replies
        final long sent = SMALL + 2 + 2;
        forwarder.waitUntil("every frame judged, " + sent + " sent", () ->
            forwarder.values().sum(CounterType.RX_PACKETS) == input.size() &&
            forwarder.values().sum(CounterType.TX_PACKETS) == sent &&
            forwarder.values().sum(CounterType.PORT_TX_PACKETS) == sent);
        forwarder.awaitCompleteFlush();
        final CounterValues values = forwarder.values();
        final String output = forwarder.output();
        forwarder.stop();

        assertEquals(2, values.sum(CounterType.REPLIES_SENT), "replies sent");
        assertEquals(0, values.sum(CounterType.REPLY_DROPS), "reply drops");
        assertEquals(1, values.sum(CounterType.ICMP_TOO_BIG_SENT_V4));
        assertEquals(1, values.sum(CounterType.ICMP_ECHO_REPLIES_V4));
        assertEquals(1, values.sum(CounterType.OUTER_FRAGMENTED));
        assertTrue(output.contains("rx-worker-0: ICMP replies leave by net_pcap0 on tx queue 0"), output);

        final List<byte[]> port0 = PcapReader.read(out0);
        final List<byte[]> port1 = PcapReader.read(out1);
        assertEquals(2, port0.size(), "the two replies leave by the receive port");
        final byte[] expectedError = packet().ethernet(CLIENT_ROUTER_MAC, PORT0_MAC).ipv4(VIP, CLIENT).ttl(64).id(0)
            .tos(0xC0).icmpv4(3, 4, 1476, Arrays.copyOfRange(tooBig, 14, 14 + 28)).noPadding().build();
        final byte[] expectedEcho = packet().ethernet(CLIENT_ROUTER_MAC, PORT0_MAC).ipv4(VIP, CLIENT).ttl(64).id(7)
            .icmpv4(0, 0, 0x0009_0001, new byte[32]).noPadding().build();
        assertFrame("fragmentation needed, MTU 1476, to the MAC it came from", expectedError, port0.get(0));
        assertFrame("echo reply", expectedEcho, port0.get(1));

        assertEquals(SMALL + 2, port1.size(), "GRE and the two outer fragments leave by the transmit port");
        for (final byte[] frame : port1)
        {
            assertEquals(0x0800, u16(frame, 12), "outer IPv4");
            final boolean laterFragment = (u16(frame, 14 + 6) & 0x1FFF) != 0;
            assertTrue(laterFragment || frame[14 + 9] == 47, "GRE or a second outer fragment");
            assertEquals(PacketBuilder.mac(NodeSpec.DEFAULT_NEXT_HOP_MAC), mac(frame, 0), "to the next hop");
        }
        System.out.printf("answersOutOfTheReceivePortWhileForwardingOutOfTheOther: %d replies on net_pcap0, %d " +
            "frames on net_pcap1%n", port0.size(), port1.size());
    }

    private static void assertFrame(final String what, final byte[] expected, final byte[] actual)
    {
        assertArrayEquals(expected, actual, what + "\nexpected\n" + HexDump.hex(expected) + "\nactual\n" +
            HexDump.hex(actual));
    }

    private static int u16(final byte[] bytes, final int at)
    {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }

    private static long mac(final byte[] bytes, final int at)
    {
        long value = 0;
        for (int i = 0; i < 6; i++)
        {
            value = (value << 8) | (bytes[at + i] & 0xFF);
        }
        return value;
    }
}
