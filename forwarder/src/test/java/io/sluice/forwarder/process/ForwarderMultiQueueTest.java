package io.sluice.forwarder.process;

import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapReader;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.sluice.forwarder.process.NodeSpec.backend;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One worker polling the receive queues of two ports in turn (several ports on one core), on real EAL and
 * {@code net_pcap} vdevs: every frame of both ports is forwarded, encapsulated, out of the worker's one transmit
 * port.
 */
@NeedsDpdk
class ForwarderMultiQueueTest
{
    private static final int FRAMES_PORT_0 = 40;
    private static final int FRAMES_PORT_1 = 60;
    private static final int ETHERNET = 14;
    private static final int OUTER = ETHERNET + 20 + 4; // Ethernet, IPv4, GRE

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    @Test
    void forwardsWhatArrivesOnEitherOfItsPorts() throws IOException
    {
        final long ownMac = PacketBuilder.mac(NodeSpec.DEFAULT_OWN_MAC);
        final long routerMac = PacketBuilder.mac("02:5a:00:00:00:aa");
        final List<byte[]> port0 = new ArrayList<>();
        final List<byte[]> port1 = new ArrayList<>();
        for (int i = 0; i < FRAMES_PORT_0 + FRAMES_PORT_1; i++)
        {
            final byte[] frame = PacketBuilder.packet().ethernet(ownMac, routerMac)
                .ipv4("10.9." + (i % 2) + "." + (1 + i / 2), "10.100.0.1").tcp(40_000 + i, 80)
                .tcpFlags(PacketBuilder.TCP_SYN).build();
            (i < FRAMES_PORT_0 ? port0 : port1).add(frame);
        }
        final Path in0 = dir.resolve("in0.pcap");
        final Path in1 = dir.resolve("in1.pcap");
        final Path out0 = dir.resolve("out0.pcap");
        final Path out1 = dir.resolve("out1.pcap");
        PcapWriter.write(in0, port0);
        PcapWriter.write(in1, port1);
        final NodeSpec spec = NodeSpec.create(dir).vip("10.100.0.1", 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=" + in0 + ",tx_pcap=" + out0).vdev("net_pcap1,rx_pcap=" + in1 + ",tx_pcap=" + out1)
            .port("net_pcap0").port("net_pcap1").workerPolling(1, "net_pcap0", "net_pcap0", "net_pcap1");

        final ForwarderProcess forwarder = forwarders.start(spec, dir);
        final int total = FRAMES_PORT_0 + FRAMES_PORT_1;
        forwarder.waitUntil("all " + total + " frames of both ports forwarded", () ->
            forwarder.values().sum(CounterType.FORWARDED) == total &&
            forwarder.values().sum(CounterType.TX_PACKETS) == total &&
            forwarder.values().sum(CounterType.PORT_RX_PACKETS) == total); // port stats are sampled every 100 ms
        forwarder.awaitCompleteFlush();
        final CounterValues values = forwarder.values();
        forwarder.stop();

        assertEquals(total, values.sum(CounterType.RX_PACKETS));
        assertEquals(total, values.sum(CounterType.PORT_RX_PACKETS), "both ports' receive counters");
        final List<byte[]> output = PcapReader.read(out0);
        assertEquals(total, output.size(), "every frame leaves on the worker's transmit port");
        assertEquals(0, PcapReader.read(out1).size(), "nothing leaves on the second receive port");
        // Each output frame carries one input frame's IP packet behind Ethernet, IPv4 and GRE.
        final List<String> expected = new ArrayList<>();
        port0.forEach(frame -> expected.add(hex(frame, ETHERNET)));
        port1.forEach(frame -> expected.add(hex(frame, ETHERNET)));
        final List<String> inner = new ArrayList<>();
        output.forEach(frame -> inner.add(hex(frame, OUTER)));
        expected.sort(null);
        inner.sort(null);
        assertEquals(expected, inner);
    }

    // The IPv4 packet at an offset, to its total length: the input frames carry Ethernet padding to 60 bytes, the
    // encapsulated copy only the IP packet.
    private static String hex(final byte[] frame, final int from)
    {
        final int totalLength = ((frame[from + 2] & 0xFF) << 8) | (frame[from + 3] & 0xFF);
        return HexFormat.of().formatHex(Arrays.copyOfRange(frame, from, from + totalLength));
    }
}
