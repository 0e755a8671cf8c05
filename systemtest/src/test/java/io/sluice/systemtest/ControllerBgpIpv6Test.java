package io.sluice.systemtest;

import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Commands;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.HttpBackend;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;
import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dual-stack node pair, with real processes in network namespaces: two Sluice nodes (a forwarder on DPDK
 * {@code net_null}, its controller and the ExaBGP the controller starts), each with one BGP session per family to a
 * BIRD router, an IPv4 VIP with IPv4 backends and an IPv6 VIP with IPv6 backends (python http.server on IPv6).
 * <pre>
 *   lb1 10.10.1.2 fd00:10:1::2 -- r1 [router: BIRD AS 65000, kernel6 merge paths] r2 -- lb2 10.10.2.2 fd00:10:2::2
 *                                              | rb 10.20.0.1 fd00:20::1
 *                                              | be 10.20.0.2 fd00:20::2
 *                  be: 10.1.0.1:8080 (IPv4 VIP's backend), fd00:1::1:8080 and fd00:1::2:8080 (IPv6 VIP's)
 * </pre>
 * The IPv6 VIP must reach the router over the IPv6 sessions as one multipath route, be withdrawn when its backends
 * fail (while the IPv4 VIP stays), and come back with them. The steps build on each other, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsNetns
@NeedsDpdk
@NeedsDaemon
class ControllerBgpIpv6Test
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIP4 = "10.100.0.1";
    private static final String VIP6 = "fd00:100::1";
    private static final List<String> BACKENDS6 = List.of("fd00:1::1", "fd00:1::2");

    @TempDir
    static Path directory;

    private static NetNs net;
    private static Namespace router;
    private static Namespace backends;
    private static BirdRouter bird;
    private static Node lb1;
    private static Node lb2;
    private static final List<Process> BACKENDS_6 = new ArrayList<>();

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println("---- router: ip -6 route\n" + router.exec("ip", "-6", "route"));
            System.out.println("---- BIRD protocols\n" + bird.birdc("show", "protocols"));
            System.out.println("---- BIRD log\n" + bird.logText());
            System.out.println(lb1.logs());
            System.out.println(lb2.logs());
        }
    };

    @BeforeAll
    static void startEverything()
    {
        net = NetNs.create("six");
        try
        {
            router = net.namespace("router");
            backends = net.namespace("be");
            final Namespace ns1 = net.namespace("lb1");
            final Namespace ns2 = net.namespace("lb2");
            net.veth(router, "r1", ns1, "lb1");
            net.veth(router, "r2", ns2, "lb2");
            net.veth(router, "rb", backends, "be");
            router.sysctl("net.ipv4.ip_forward", "1");
            router.sysctl("net.ipv6.conf.all.forwarding", "1");
            router.sysctl("net.ipv6.fib_multipath_hash_policy", "1");
            link(router, "r1", "10.10.1.1/24", "fd00:10:1::1/64");
            link(router, "r2", "10.10.2.1/24", "fd00:10:2::1/64");
            link(router, "rb", "10.20.0.1/24", "fd00:20::1/64");
            router.addRoute("10.1.0.0/24", "via", "10.20.0.2");
            router.exec("ip", "-6", "route", "add", "fd00:1::/64", "via", "fd00:20::2");
            link(ns1, "lb1", "10.10.1.2/24", "fd00:10:1::2/64");
            ns1.addRoute("default", "via", "10.10.1.1");
            ns1.exec("ip", "-6", "route", "add", "default", "via", "fd00:10:1::1");
            link(ns2, "lb2", "10.10.2.2/24", "fd00:10:2::2/64");
            ns2.addRoute("default", "via", "10.10.2.1");
            ns2.exec("ip", "-6", "route", "add", "default", "via", "fd00:10:2::1");
            link(backends, "be", "10.20.0.2/24", "fd00:20::2/64");
            backends.addAddress("lo", "10.1.0.1/32");
            backends.addRoute("default", "via", "10.20.0.1");
            backends.exec("ip", "-6", "route", "add", "default", "via", "fd00:20::1");
            for (final String address : BACKENDS6)
            {
                backends.exec("ip", "address", "add", address + "/128", "dev", "lo", "nodad");
            }
            // One session per family and node: lb1 and lb2 over IPv4, lb1_v6 and lb2_v6 over IPv6.
            bird = BirdRouter.start(router, directory.resolve("bird"), "10.10.1.1", 65000, List.of(
                new BirdRouter.Peer("lb1", "10.10.1.2", 65001), new BirdRouter.Peer("lb2", "10.10.2.2", 65001),
                new BirdRouter.Peer("lb1_v6", "fd00:10:1::2", 65001),
                new BirdRouter.Peer("lb2_v6", "fd00:10:2::2", 65001)));
            startBackend("10.1.0.1");
            BACKENDS6.forEach(ControllerBgpIpv6Test::startBackend6);

            final String tag = Node.uniqueName("six");
            lb1 = new Node(tag + "-lb1", ns1, directory.resolve("lb1"), config(tag + "-lb1", 0, 1));
            lb2 = new Node(tag + "-lb2", ns2, directory.resolve("lb2"), config(tag + "-lb2", 1, 2));
            lb1.startForwarder();
            lb2.startForwarder();
            lb1.startController();
            lb2.startController();
        }
        catch (final RuntimeException | Error ex)
        {
            stopEverything();
            throw ex;
        }
    }

    @AfterAll
    static void stopEverything()
    {
        try
        {
            for (final Node node : new Node[] {lb1, lb2})
            {
                if (node != null)
                {
                    node.stopProcesses();
                }
            }
            if (bird != null)
            {
                bird.stop();
            }
        }
        finally
        {
            if (net != null)
            {
                net.close(); // also kills what is left in the namespaces: ExaBGP, backends
            }
        }
    }

    /** Both addresses on a device; the IPv6 one without duplicate address detection, so it is usable at once. */
    private static void link(final Namespace namespace, final String device, final String v4, final String v6)
    {
        namespace.addAddress(device, v4);
        namespace.exec("ip", "address", "add", v6, "dev", device, "nodad");
    }

    private static String config(final String node, final int core, final int index)
    {
        final String v4 = "10.10." + index + ".2";
        final String v6 = "fd00:10:" + index + "::2";
        return """
            node: {name: %s, state_dir: %s}
            forwarder:
              eal_args: ["--no-pci", "--no-huge", "-m", "128", "--vdev=net_null0"]
              ports: [{name: net_null0}]
              workers: [{core: %d, rx_port: net_null0}]
              idle_strategy: backoff
              mbufs_per_worker: 4095
              counters_dir: %s
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: %s
              tunnel_source_v6: "%s"
              connection_table: {capacity: 4096}
            vips:
              - name: web
                address: %s
                port: 80
                protocol: tcp
                backends: [{name: be1, address: 10.1.0.1}]
              - name: web6
                address: "%s"
                port: 80
                protocol: tcp
                backends: [{name: be6a, address: "%s"}, {name: be6b, address: "%s"}]
            controller:
              health_checks: {type: http, port: 8080, path: /, interval: 500ms, timeout: 400ms, rise: 1, fall: 1}
              forwarder_liveness_timeout: 1000ms
              drain_time: 1000ms
              bgp:
                local_as: 65001
                peer_as: 65000
                router_id: %s
                local_address: %s
                neighbors:
                  - 10.10.%d.1
                  - {address: "fd00:10:%d::1", local_address: "%s"}
            """.formatted(node, directory.resolve("state"), core, directory.resolve("shm"), v4, v6, VIP4, VIP6,
            BACKENDS6.get(0), BACKENDS6.get(1), v4, v4, index, index, v6);
    }

    private static Process startHttpServer(final String address)
    {
        try
        {
            final Path root = Files.createDirectories(directory.resolve("www-" + address.replace(':', '_')));
            return HttpBackend.start(backends, directory.resolve("backend-" + address.replace(':', '_') + ".log"),
                address, 8080, root);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void startBackend(final String address)
    {
        startHttpServer(address);
    }

    private static void startBackend6(final String address)
    {
        BACKENDS_6.add(startHttpServer(address));
    }

    private static void stopBackends6()
    {
        BACKENDS_6.forEach(server -> Commands.stop(server.toHandle(), Duration.ofSeconds(5)));
        BACKENDS_6.clear();
    }

    private static String route6()
    {
        return router.exec("ip", "-6", "route", "show", VIP6 + "/128").strip();
    }

    private static String route4()
    {
        return router.routes(VIP4);
    }

    private static boolean viaBoth6(final String route)
    {
        return route.contains("nexthop via fd00:10:1::2") && route.contains("nexthop via fd00:10:2::2");
    }

    private static boolean viaBoth4(final String route)
    {
        return route.contains("nexthop via 10.10.1.2") && route.contains("nexthop via 10.10.2.2");
    }

    @Test
    @Order(1)
    void routerLearnsTheIpv6VipOverTheIpv6SessionsAsOneMultipathRoute()
    {
        Eventually.await(WAIT, ControllerBgpIpv6Test::route6, ControllerBgpIpv6Test::viaBoth6,
            "a multipath IPv6 route to " + VIP6 + " through both nodes");
        Eventually.await(WAIT, ControllerBgpIpv6Test::route4, ControllerBgpIpv6Test::viaBoth4,
            "the IPv4 VIP through both nodes as well");
        final var protocols = bird.protocols();
        for (final String name : List.of("lb1", "lb2", "lb1_v6", "lb2_v6"))
        {
            assertTrue(protocols.get(name).established(), name + ": " + protocols.get(name));
        }
        // The IPv6 route came over the IPv6 sessions: BIRD names its source protocols.
        final String birdRoute = bird.birdc("show", "route", "for", VIP6 + "/128", "all");
        assertTrue(birdRoute.contains("lb1_v6") && birdRoute.contains("lb2_v6"), birdRoute);
        assertTrue(!birdRoute.contains("[lb1 ") && !birdRoute.contains("[lb2 "), birdRoute);

        final String status = lb1.http("/status?format=json");
        assertTrue(status.contains(VIP6 + "/128") && status.contains(VIP4 + "/32"), status);
        final String metrics = Eventually.await(WAIT, () -> lb1.http("/metrics"), text -> text.contains(
            "sluice_backend_healthy{address=\"fd00:1::1\",backend=\"be6a\",vip=\"web6\"} 1.0"), "be6a healthy in lb1");
        assertTrue(metrics.contains("sluice_vip_announced{vip=\"web6\"} 1.0"), metrics);
        assertTrue(metrics.contains("sluice_bgp_session_up{neighbor=\"fd00:10:1::1\"} 1.0"), metrics);
    }

    @Test
    @Order(2)
    void failingIpv6BackendsWithdrawTheIpv6VipOnlyAndItComesBackWithThem()
    {
        stopBackends6();
        for (final Node node : List.of(lb1, lb2))
        {
            Eventually.await(WAIT, () -> node.http("/metrics"),
                text -> text.contains("sluice_vip_announced{vip=\"web6\"} 0.0"), node.name() + " withdrawing web6");
        }
        Eventually.await(WAIT, ControllerBgpIpv6Test::route6, String::isEmpty, "the IPv6 VIP withdrawn by both nodes");
        assertTrue(viaBoth4(route4()), "the IPv4 VIP, whose backend is healthy, stays announced: " + route4());
        final String birdRoutes = bird.birdc("show", "route");
        assertTrue(!birdRoutes.contains(VIP6 + "/128") && birdRoutes.contains(VIP4 + "/32"),
            "BIRD has no IPv6 VIP route left, the IPv4 one stays: " + birdRoutes);

        startBackend6(BACKENDS6.get(1));
        Eventually.await(WAIT, ControllerBgpIpv6Test::route6, ControllerBgpIpv6Test::viaBoth6,
            "the IPv6 VIP announced again with one backend");
        startBackend6(BACKENDS6.get(0));
    }
}
