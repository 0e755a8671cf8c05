package io.sluice.systemtest;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.forwarder.capture.PcapNgReader;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.SluiceJvm;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live capture from a running forwarder during real traffic, and ping to a VIP answered by the forwarder.
 * <pre>
 *   peer ns: 10.10.1.1/24 on p0 ---- veth ---- lb ns: l0 (DPDK net_af_packet on it, no kernel port)
 *            routes 10.100.0.0/24 via 10.10.1.2 (a static neighbour: l0's MAC)
 *   VIPs 10.100.0.1:5353/udp and 10.100.0.2:5353/udp, GRE to 10.10.1.1 (the peer drops it: no ip_gre)
 * </pre>
 * The peer sends numbered UDP datagrams to both VIPs and pings 10.100.0.1 while {@code sluice capture --vip
 * 10.100.0.1} runs in another process; the file must hold exactly the frames for that VIP, as received and as
 * transmitted, and the counters must say the same.
 */
@NeedsNetns
@NeedsDpdk
class CaptureAndPingTest
{
    private static final int DATAGRAMS = 40;
    private static final int OTHER_DATAGRAMS = 15;
    private static final int PINGS = 5;

    @TempDir
    static Path directory;

    private static Topology topology;
    private static Namespace peer;
    private static Namespace lb;
    private static Node node;

    @BeforeAll
    static void start() throws Exception
    {
        topology = Topology.start("cp", net ->
        {
            peer = net.namespace("peer");
            lb = net.namespace("lb");
            net.afPacketVeth(peer, "p0", lb, "l0");
            peer.addAddress("p0", "10.10.1.1/24");
            lb.exec("ip", "link", "set", "l0", "up");
            final String l0Mac = lb.exec("cat", "/sys/class/net/l0/address").trim();
            final String p0Mac = peer.exec("cat", "/sys/class/net/p0/address").trim();
            peer.exec("ip", "neigh", "replace", "10.10.1.2", "lladdr", l0Mac, "dev", "p0", "nud", "permanent");
            peer.addRoute("10.100.0.0/24", "via", "10.10.1.2", "dev", "p0");
            final String name = Node.uniqueName("cp");
            node = net.stopping(new Node(name, lb, directory.resolve("lb"), """
                node: {name: %s}
                forwarder:
                  eal_args: ["--no-pci", "--no-huge", "-m", "256", "--vdev=net_af_packet0,iface=l0"]
                  ports: [{name: net_af_packet0}]
                  workers: [{core: 0, rx_port: net_af_packet0}]
                  idle_strategy: backoff
                  mbufs_per_worker: 4095
                  counters_dir: %s
                  next_hop_mac: "%s"
                  tunnel_source_v4: 10.10.1.2
                  connection_table: {capacity: 4096}
                vips:
                  - {name: dns1, address: 10.100.0.1, port: 5353, protocol: udp, backends: [{address: 10.10.1.1}]}
                  - {name: dns2, address: 10.100.0.2, port: 5353, protocol: udp, backends: [{address: 10.10.1.1}]}
                """.formatted(name, directory.resolve("shm"), p0Mac)), Node::stopProcesses);
            node.startForwarder();
            Eventually.await(Duration.ofSeconds(60), () -> Files.exists(nodeDirectory().resolve("capture.dat")) &&
                node.logs().contains("running"), "the forwarder running");
        });
    }

    @AfterAll
    static void stop()
    {
        if (topology != null)
        {
            topology.close(); // also whatever still runs in the namespaces
        }
    }

    private static Path nodeDirectory()
    {
        return directory.resolve("shm").resolve(node.name());
    }

    @Test
    void captureHoldsExactlyTheVipsFramesBeforeAndAfterEncapsulationAndPingIsAnswered() throws Exception
    {
        final long capturedBefore = sum(CounterType.CAPTURE_FRAMES);
        final long repliesBefore = sum(CounterType.ICMP_ECHO_REPLIES_V4);
        final Path pcap = directory.resolve("dns1.pcapng");
        final Path toolLog = directory.resolve("capture.out");
        final List<String> command = new ArrayList<>(SluiceJvm.command());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
            "io.sluice.forwarder.capture.CaptureTool", "--dir", directory.resolve("shm").toString(), "--node",
            node.name(), "--vip", "10.100.0.1", "-w", pcap.toString(), "--seconds", "60", "--json"));
        final Process tool = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(toolLog.toFile())
            .start();
        try
        {
            Eventually.await(Duration.ofSeconds(30), () -> Files.exists(pcap) && sessionRunning(),
                "the capture session to start");
            Thread.sleep(300); // the worker looks once per duty cycle (backoff idle: at most 1 ms apart)
            final Path send = directory.resolve("send.py");
            Files.writeString(send, SEND_SCRIPT);
            final String sent = peer.exec("/usr/bin/python3", send.toString(), Integer.toString(DATAGRAMS),
                Integer.toString(OTHER_DATAGRAMS), Integer.toString(PINGS));
            assertEquals("pings answered " + PINGS + " of " + PINGS, sent.trim(), "ping to the VIP");
            Eventually.await(Duration.ofSeconds(20),
                () -> sum(CounterType.CAPTURE_FRAMES) - capturedBefore >= 2L * (DATAGRAMS + PINGS),
                "the worker to capture every frame");
        }
        finally
        {
            tool.destroy(); // SIGTERM: the tool ends the session, drains, closes the file
            if (!tool.waitFor(20, TimeUnit.SECONDS))
            {
                tool.destroyForcibly();
            }
        }
        final String summary = Files.readString(toolLog, StandardCharsets.UTF_8);
        final int expected = 2 * (DATAGRAMS + PINGS);
        assertTrue(summary.contains("\"written\":" + expected + ",\"rx\":" + (DATAGRAMS + PINGS) + ",\"tx\":" +
            (DATAGRAMS + PINGS) + ",\"matched\":" + expected + ",\"captured\":" + expected + ",\"dropped\":0"),
            summary);
        assertEquals(expected, sum(CounterType.CAPTURE_FRAMES) - capturedBefore, "capture frames counter");
        assertEquals(0, sum(CounterType.CAPTURE_DROPS));
        assertEquals(PINGS, sum(CounterType.ICMP_ECHO_REPLIES_V4) - repliesBefore, "echo replies counter");

        final List<PcapNgReader.Packet> packets = PcapNgReader.read(pcap);
        final List<byte[]> rxUdp = new ArrayList<>();
        final List<byte[]> txGre = new ArrayList<>();
        int rxEcho = 0;
        int txReply = 0;
        for (final PcapNgReader.Packet packet : packets)
        {
            assertEquals("net_af_packet0", packet.interfaceName());
            final byte[] frame = packet.data();
            final int protocol = frame[23] & 0xFF;
            if (packet.inbound())
            {
                assertEquals("10.100.0.1", address(frame, 30), "received for the VIP");
                if (protocol == 17)
                {
                    rxUdp.add(frame);
                }
                else
                {
                    assertEquals(8, frame[34] & 0xFF, "echo request");
                    rxEcho++;
                }
            }
            else if (protocol == 47)
            {
                assertEquals("10.10.1.1", address(frame, 30), "GRE to the backend");
                txGre.add(frame);
            }
            else
            {
                assertEquals(0, frame[34] & 0xFF, "echo reply");
                assertEquals("10.100.0.1", address(frame, 26), "from the VIP");
                txReply++;
            }
        }
        assertEquals(DATAGRAMS, rxUdp.size());
        assertEquals(DATAGRAMS, txGre.size());
        assertEquals(PINGS, rxEcho);
        assertEquals(PINGS, txReply);
        for (int i = 0; i < DATAGRAMS; i++)
        {
            final byte[] received = rxUdp.get(i);
            final String payload = new String(received, 42, received.length - 42, StandardCharsets.US_ASCII);
            assertTrue(payload.startsWith("capture-" + i + "."), "datagram " + i + " in order: " + payload);
            // After encapsulation the frame carries the received IP packet unchanged behind 14 + 20 + 4 bytes.
            final int ipLength = ((received[16] & 0xFF) << 8) | (received[17] & 0xFF);
            assertArrayEquals(Arrays.copyOfRange(received, 14, 14 + ipLength),
                Arrays.copyOfRange(txGre.get(i), 38, 38 + ipLength), "datagram " + i + " before and after GRE");
        }
    }

    private static boolean sessionRunning()
    {
        try (var file = io.sluice.forwarder.capture.CaptureFile.open(nodeDirectory().resolve("capture.dat")))
        {
            return file.session() != 0;
        }
    }

    private static String address(final byte[] frame, final int offset)
    {
        return (frame[offset] & 0xFF) + "." + (frame[offset + 1] & 0xFF) + "." + (frame[offset + 2] & 0xFF) + "." +
            (frame[offset + 3] & 0xFF);
    }

    private static long sum(final CounterType type)
    {
        try (CountersFile counters = CountersFile.openReadOnly(nodeDirectory().resolve("counters.dat")))
        {
            final CountersReader reader = counters.reader();
            final long[] total = {0};
            reader.forEach((value, id, label) ->
            {
                if (reader.getCounterTypeId(id) == type.typeId())
                {
                    total[0] += value;
                }
            });
            return total[0];
        }
    }

    // Numbered datagrams to 10.100.0.1 (in the filter) and 10.100.0.2 (not), interleaved, then pings to
    // 10.100.0.1 over a raw socket, checking each reply's source, type, id, sequence and checksum.
    private static final String SEND_SCRIPT = """
        import socket, struct, sys, time
        n, other, pings = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("10.10.1.1", 40000))
        for i in range(max(n, other)):
            if i < n:
                udp.sendto(("capture-%d." % i).encode() + b"x" * 20, ("10.100.0.1", 5353))
            if i < other:
                udp.sendto(("other-%d." % i).encode(), ("10.100.0.2", 5353))
            time.sleep(0.002)
        def checksum(data):
            if len(data) % 2:
                data += b"\\0"
            s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
            s = (s & 0xffff) + (s >> 16)
            s = (s & 0xffff) + (s >> 16)
            return ~s & 0xffff
        raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        raw.settimeout(2.0)
        answered = 0
        for seq in range(pings):
            body = struct.pack("!HH", 0x5151, seq) + b"sluice ping %d" % seq
            header = struct.pack("!BBH", 8, 0, 0)
            packet = struct.pack("!BBH", 8, 0, checksum(header + body)) + body
            raw.sendto(packet, ("10.100.0.1", 0))
            deadline = time.time() + 2.0
            while time.time() < deadline:
                try:
                    data, peer = raw.recvfrom(2048)
                except socket.timeout:
                    break
                ihl = (data[0] & 0x0f) * 4
                icmp = data[ihl:]
                if peer[0] != "10.100.0.1" or icmp[0] != 0 or icmp[4:8] != body[0:4]:
                    continue
                if checksum(icmp) == 0 and icmp[8:] == body[4:] and data[8] == 64:
                    answered += 1
                break
            time.sleep(0.01)
        print("pings answered %d of %d" % (answered, pings))
        """;
}
