package io.sluice.systemtest;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.HttpBackend;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel path of a data port: frames for no VIP go to a DPDK {@code net_tap} port, the node's kernel answers
 * through it, and the worker sends the answers out on the wire. A real node needs it to answer ARP and keep its BGP
 * sessions on a NIC that DPDK owns.
 * <pre>
 *   peer ns: 10.10.1.1/24 on p0 ---- veth ---- lb ns: l0 (no address; DPDK net_af_packet on it)
 *                                               forwarder --kernel port--> net_tap "sltap0" 10.10.1.2/24
 *                                               python http.server on 10.10.1.2:8080
 * </pre>
 * The peer reaches the HTTP server at 10.10.1.2 only through the forwarder: ARP and TCP both ways cross it.
 */
@NeedsNetns
@NeedsDpdk
class KernelPortTest
{
    private static final String TAP_MAC = "02:00:00:00:10:02";

    @TempDir
    static Path directory;

    private static Topology topology;
    private static Namespace peer;
    private static Namespace lb;
    private static Node node;

    @BeforeAll
    static void start() throws Exception
    {
        topology = Topology.start("kp", net ->
        {
            peer = net.namespace("peer");
            lb = net.namespace("lb");
            net.afPacketVeth(peer, "p0", lb, "l0");
            peer.addAddress("p0", "10.10.1.1/24");
            // The lb end has no address: its kernel ignores what arrives there; DPDK's AF_PACKET socket reads it.
            lb.exec("ip", "link", "set", "l0", "up");
            // Nor does it answer ARP there (it would for any local address): the TAP behind the forwarder must.
            lb.sysctl("net.ipv4.conf.l0.arp_ignore", "8");
            final String name = Node.uniqueName("kp");
            node = net.stopping(new Node(name, lb, directory.resolve("lb"), """
                node: {name: %s}
                forwarder:
                  eal_args: ["--no-pci", "--no-huge", "-m", "256", "--vdev=net_af_packet0,iface=l0",
                             "--vdev=net_tap0,iface=sltap0,mac=%s"]
                  ports:
                    - {name: net_af_packet0, kernel_port: net_tap0}
                    - {name: net_tap0}
                  workers: [{core: 0, rx_port: net_af_packet0}]
                  idle_strategy: backoff
                  mbufs_per_worker: 4095
                  counters_dir: %s
                  next_hop_mac: "02:00:00:00:00:fe"
                  tunnel_source_v4: 10.10.1.2
                  connection_table: {capacity: 4096}
                vips:
                  - {name: web, address: 10.100.0.1, port: 80, protocol: tcp, backends: [{address: 10.1.0.1}]}
                """.formatted(name, TAP_MAC, directory.resolve("shm"))), Node::stopProcesses);
            node.startForwarder();
            Topology.kernelPortUp(lb, "10.10.1.2/24");
            final Path root = Files.createDirectories(directory.resolve("www"));
            Files.writeString(root.resolve("hello.txt"), "hello through the kernel port\n");
            HttpBackend.start(lb, directory.resolve("http.log"), "10.10.1.2", 8080, root);
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

    @Test
    void theNodesKernelAnswersArpAndTcpThroughTheForwarder()
    {
        final String body = Eventually.await(Duration.ofSeconds(60),
            () -> peer.run("curl", "-s", "--max-time", "3", "http://10.10.1.2:8080/hello.txt").stdout(),
            text -> text.contains("hello through the kernel port"), "an HTTP answer from the node's kernel");
        assertEquals("hello through the kernel port\n", body);
        // The forwarder gave the TAP the data port's MAC (eal_args asked for TAP_MAC): the node's kernel answers ARP
        // with the MAC its traffic arrives at, as a NIC that filters on its own MAC needs.
        final String dataMac = lb.exec("cat", "/sys/class/net/l0/address").trim();
        assertNotEquals(TAP_MAC, dataMac);
        assertEquals(dataMac, lb.exec("cat", "/sys/class/net/sltap0/address").trim(), "the TAP's MAC");
        final String neighbour = peer.exec("ip", "neigh", "show", "10.10.1.2");
        assertTrue(neighbour.contains(dataMac), "the peer learned the data port's MAC by ARP: " + neighbour);

        try (CountersFile counters = CountersFile.openReadOnly(
            directory.resolve("shm").resolve(node.name()).resolve("counters.dat")))
        {
            final CountersReader reader = counters.reader();
            final long toKernel = sum(reader, CounterType.KERNEL_TX_PACKETS);
            final long fromKernel = sum(reader, CounterType.KERNEL_RX_PACKETS);
            assertTrue(toKernel >= 4, "ARP request, SYN, ACK, request went to the kernel: " + toKernel);
            assertTrue(fromKernel >= 3, "ARP reply, SYN-ACK, response came from the kernel: " + fromKernel);
            assertEquals(0, sum(reader, CounterType.KERNEL_TX_DROPS) + sum(reader, CounterType.KERNEL_RX_DROPS));
        }
        final List<String> log = List.of(node.logs().split("\n"));
        assertTrue(log.stream().anyMatch(line -> line.contains("frames for no VIP to kernel port net_tap0")),
            node.logs());
        final String macLine = "forwarder: kernel port net_tap0 takes net_af_packet0's MAC " + dataMac + " (it had " +
            TAP_MAC + ")";
        assertTrue(log.stream().anyMatch(line -> line.contains(macLine)), node.logs());
    }

    private static long sum(final CountersReader reader, final CounterType type)
    {
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
