package io.sluice.systemtest;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.HttpBackend;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A two-armed node: the forwarder owns two ports (DPDK {@code net_af_packet} on two veths), clients and the router on
 * one, the backends on the other. Its worker receives on the front port and sends GRE out of the back port, from
 * that port's MAC to that port's next hop; the front port's kernel port keeps the node's ARP and its BGP session
 * with the router, and what the kernel sends leaves on the front port, not on the worker's transmit port.
 * <pre>
 *   client c0 10.20.0.2 -- rc0 10.20.0.1 [router: BIRD AS 65000] rf0 10.10.1.1 -- lf0 (DPDK front) [lb]
 *                                        rb0 10.30.0.1                             sltap0 10.10.1.2: kernel port of
 *                                            |                                     lf0; controller, ExaBGP
 *                                            |                                    lb0 (DPDK back)
 *                                            |                                     |
 *                           [backend] bk1 10.30.0.2      bk0 10.40.0.2 ------------+
 *                           VIP on lo, sluice_gredecap on bk0, http.server :80
 * </pre>
 * The backend answers the client directly through the router (DSR): the response never crosses the node.
 */
@NeedsNetns
@NeedsDpdk
@NeedsDaemon
class TwoArmedNodeTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String VIP = "10.100.0.1";
    private static final int BODY_BYTES = 1 << 20;

    @TempDir
    static Path directory;

    private static Topology topology;
    private static Namespace client;
    private static Namespace router;
    private static Namespace lb;
    private static Namespace backend;
    private static BirdRouter bird;
    private static Node node;
    private static String backPortMac;
    private static String backendMac;

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println("---- router: ip route\n" + router.exec("ip", "route"));
            System.out.println("---- BIRD log\n" + bird.logText());
            System.out.println(node.logs());
        }
    };

    @BeforeAll
    static void start() throws Exception
    {
        topology = Topology.start("ta", net ->
        {
            client = net.namespace("client");
            router = net.namespace("router");
            lb = net.namespace("lb");
            backend = net.namespace("be");
            net.veth(client, "c0", router, "rc0");
            net.afPacketVeth(router, "rf0", lb, "lf0");
            net.afPacketVeth(lb, "lb0", backend, "bk0");
            net.veth(router, "rb0", backend, "bk1");
            client.addAddress("c0", "10.20.0.2/24");
            client.addRoute("default", "via", "10.20.0.1");
            router.addAddress("rc0", "10.20.0.1/24");
            router.addAddress("rf0", "10.10.1.1/24");
            router.addAddress("rb0", "10.30.0.1/24");
            router.sysctl("net.ipv4.ip_forward", "1");
            // The controller's health checks reach the backend's tunnel address the long way, through the router.
            router.addRoute("10.40.0.0/24", "via", "10.30.0.2");
            // The node's data ports have no address: their kernel neither answers ARP there nor routes.
            for (final String port : List.of("lf0", "lb0"))
            {
                lb.sysctl("net.ipv4.conf." + port + ".arp_ignore", "8");
            }
            backend.addAddress("bk0", "10.40.0.2/24");
            backend.addAddress("bk1", "10.30.0.2/24");
            backend.addAddress("lo", VIP + "/32");
            backend.addRoute("default", "via", "10.30.0.1");
            // Decapsulated packets come from the client, whose route is through br (gredecap.c explains).
            for (final String conf : List.of("all", "default", "bk0", "bk1"))
            {
                backend.sysctl("net.ipv4.conf." + conf + ".rp_filter", "0");
            }
            backend.sysctl("net.ipv4.conf.all.arp_ignore", "1");
            backend.sysctl("net.ipv4.conf.all.arp_announce", "2");
            backPortMac = lb.exec("cat", "/sys/class/net/lb0/address").trim();
            backendMac = backend.exec("cat", "/sys/class/net/bk0/address").trim();
            final String routerMac = router.exec("cat", "/sys/class/net/rf0/address").trim();

            final Path www = Files.createDirectories(directory.resolve("www"));
            final byte[] body = new byte[BODY_BYTES];
            for (int i = 0; i < body.length; i++)
            {
                body[i] = (byte)('a' + i % 26);
            }
            Files.write(www.resolve("big.bin"), body);
            Files.writeString(www.resolve("index.html"), "backend\n");
            backend.start(directory.resolve("gredecap.log"),
                Node.repositoryRoot().resolve("native/build/sluice_gredecap").toString(), "--tun", "gre-decap0",
                "--bind", "10.40.0.2", "--no-ipv6");
            HttpBackend.start(backend, directory.resolve("http.log"), "0.0.0.0", 80, www);
            bird = net.stopping(BirdRouter.start(router, directory.resolve("bird"), "10.10.1.1", 65000,
                List.of(new BirdRouter.Peer("lb", "10.10.1.2", 65001))), BirdRouter::stop);

            final String name = Node.uniqueName("ta");
            node = net.stopping(new Node(name, lb, directory.resolve("lb"), """
                node: {name: %s, state_dir: %s}
                forwarder:
                  eal_args: ["--no-pci", "--no-huge", "-m", "256", "--vdev=net_af_packet0,iface=lf0",
                             "--vdev=net_af_packet1,iface=lb0", "--vdev=net_tap0,iface=sltap0"]
                  ports:
                    - {name: net_af_packet0, kernel_port: net_tap0, next_hop_mac: "%s"}
                    - {name: net_af_packet1, next_hop_mac: "%s"}
                    - {name: net_tap0}
                  workers: [{core: 0, rx_port: net_af_packet0, tx_port: net_af_packet1}]
                  idle_strategy: backoff
                  mbufs_per_worker: 4095
                  counters_dir: %s
                  tunnel_source_v4: 10.10.1.2
                  connection_table: {capacity: 4096}
                vips:
                  - {name: web, address: %s, port: 80, protocol: tcp, backends: [{name: be1, address: 10.40.0.2}]}
                controller:
                  health_checks: {type: http, port: 80, path: /, interval: 500ms, timeout: 400ms, rise: 1, fall: 2}
                  bgp:
                    local_as: 65001
                    peer_as: 65000
                    router_id: 10.10.1.2
                    local_address: 10.10.1.2
                    neighbors: [10.10.1.1]
                """.formatted(name, directory.resolve("state"), routerMac, backendMac, directory.resolve("shm"),
                VIP)), Node::stopProcesses);
            node.startForwarder();
            Topology.kernelPortUp(lb, "10.10.1.2/24");
            lb.addRoute("default", "via", "10.10.1.1");
            node.startController();
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
    void forwardsFromOneArmToTheOtherWhileTheKernelKeepsBgpOnTheFront() throws Exception
    {
        // BGP over the front port's kernel port: the router learns the VIP through the node.
        final String route = Eventually.await(WAIT, () -> router.routes(VIP),
            text -> text.startsWith(VIP + " via 10.10.1.2 "), "the router's route to the VIP through the node");
        assertTrue(bird.protocols().get("lb").established(), route);
        // ARP on the front port: the router resolved the node's address through the kernel port.
        final String dataMac = lb.exec("cat", "/sys/class/net/lf0/address").trim();
        final String neighbour = router.exec("ip", "neigh", "show", "10.10.1.2");
        assertTrue(neighbour.contains(dataMac), "the router learned the front port's MAC by ARP: " + neighbour);

        final long frontTxBefore = txBytes(lb, "lf0");
        final long returnTxBefore = txBytes(backend, "bk1");
        final String size = Eventually.await(WAIT, () -> client.run("curl", "-s", "--max-time", "10", "-o",
                "/dev/null", "-w", "%{size_download}", "http://" + VIP + "/big.bin").stdout(),
            text -> text.equals(Integer.toString(BODY_BYTES)), "1 MiB from the VIP");
        assertEquals(Integer.toString(BODY_BYTES), size);

        // DSR: the response came back through the backend's own link to the router, not through the node, whose
        // front port sent only the kernel's frames (BGP keepalives, ARP, health checks) meanwhile.
        final long returned = txBytes(backend, "bk1") - returnTxBefore;
        final long frontSent = txBytes(lb, "lf0") - frontTxBefore;
        assertTrue(returned > BODY_BYTES, "the backend sent the response to the router: " + returned + " bytes");
        assertTrue(frontSent < BODY_BYTES / 4, "the node's front port carried no response: " + frontSent + " bytes");

        try (CountersFile counters = CountersFile.openReadOnly(
            directory.resolve("shm").resolve(node.name()).resolve("counters.dat")))
        {
            final CountersReader reader = counters.reader();
            assertTrue(sum(reader, CounterType.KERNEL_TX_PACKETS) > 0, "BGP and ARP went to the kernel port");
            assertTrue(sum(reader, CounterType.KERNEL_RX_PACKETS) > 0, "and the kernel's answers came back");
            assertEquals(0, sum(reader, CounterType.KERNEL_TX_DROPS) + sum(reader, CounterType.KERNEL_RX_DROPS));
        }
        // Each port sends from its own MAC: the back port's GRE leaves from the back port's address to the backend.
        final String log = node.logs();
        assertTrue(log.contains("port net_af_packet1 sends from " + backPortMac + " to " + backendMac), log);
        assertTrue(log.contains("port net_af_packet0 sends from " + dataMac + " to "), log);
    }

    private static long txBytes(final Namespace namespace, final String device)
    {
        return Long.parseLong(namespace.exec("cat", "/sys/class/net/" + device + "/statistics/tx_bytes").trim());
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
