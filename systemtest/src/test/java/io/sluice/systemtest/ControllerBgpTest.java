package io.sluice.systemtest;

import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Commands;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controller acceptance tests, with real processes in network namespaces: two Sluice nodes (a
 * forwarder on DPDK {@code net_null}, its controller and the ExaBGP the controller starts), a BIRD router, and
 * two HTTP backends the controllers health-check.
 * <pre>
 *   lb1 10.10.1.2 -- r1 10.10.1.1 [router: BIRD AS 65000] r2 10.10.2.1 -- lb2 10.10.2.2
 *                                           | 10.20.0.1
 *                                           | 10.20.0.2
 *                                 be: 10.1.0.1:8080, 10.1.0.2:8080 (python http.server)
 * </pre>
 * The steps build on each other, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControllerBgpTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIP = "10.100.0.1";
    private static final long LIVENESS_TIMEOUT_MS = 1_000;
    private static final long DRAIN_TIME_MS = 3_000;

    @TempDir
    static Path directory;

    private static NetNs net;
    private static Namespace router;
    private static Namespace backends;
    private static BirdRouter bird;
    private static Node lb1;
    private static Node lb2;
    private static final List<Process> backendServers = new ArrayList<>(List.of());

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println("---- router: ip route\n" + router.exec("ip", "route"));
            System.out.println("---- BIRD log\n" + bird.logText());
            System.out.println(lb1.logs());
            System.out.println(lb2.logs());
        }
    };

    @BeforeAll
    static void startEverything() throws Exception
    {
        net = NetNs.create("st");
        try
        {
            router = net.namespace("router");
            backends = net.namespace("be");
            final Namespace ns1 = net.namespace("lb1");
            final Namespace ns2 = net.namespace("lb2");
            net.veth(router, "r1", ns1, "lb1");
            net.veth(router, "r2", ns2, "lb2");
            net.veth(router, "rb", backends, "be");
            router.addAddress("r1", "10.10.1.1/24");
            router.addAddress("r2", "10.10.2.1/24");
            router.addAddress("rb", "10.20.0.1/24");
            router.sysctl("net.ipv4.ip_forward", "1");
            router.sysctl("net.ipv4.fib_multipath_hash_policy", "1");
            router.addRoute("10.1.0.0/24", "via", "10.20.0.2");
            ns1.addAddress("lb1", "10.10.1.2/24");
            ns1.addRoute("default", "via", "10.10.1.1");
            ns2.addAddress("lb2", "10.10.2.2/24");
            ns2.addRoute("default", "via", "10.10.2.1");
            backends.addAddress("be", "10.20.0.2/24");
            backends.addAddress("lo", "10.1.0.1/32");
            backends.addAddress("lo", "10.1.0.2/32");
            backends.addRoute("default", "via", "10.20.0.1");
            bird = BirdRouter.start(router, directory.resolve("bird"), "10.10.1.1", 65000, List.of(
                new BirdRouter.Peer("lb1", "10.10.1.2", 65001), new BirdRouter.Peer("lb2", "10.10.2.2", 65001)));
            startBackend("10.1.0.1");
            startBackend("10.1.0.2");

            final String tag = Node.uniqueName("st");
            lb1 = new Node(tag + "-lb1", ns1, directory.resolve("lb1"), config(tag + "-lb1", 0, "10.10.1.2",
                "10.10.1.1"));
            lb2 = new Node(tag + "-lb2", ns2, directory.resolve("lb2"), config(tag + "-lb2", 1, "10.10.2.2",
                "10.10.2.1"));
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
            net.close(); // also kills what is left in the namespaces: ExaBGP, backends
        }
    }

    private static String config(final String node, final int core, final String address, final String neighbor)
    {
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
              connection_table: {capacity: 4096}
            vips:
              - name: web
                address: %s
                port: 80
                protocol: tcp
                backends: [{name: be1, address: 10.1.0.1}, {name: be2, address: 10.1.0.2}]
            controller:
              health_checks: {type: http, port: 8080, path: /, interval: 500ms, timeout: 400ms, rise: 1, fall: 1}
              forwarder_liveness_timeout: %dms
              drain_time: %dms
              bgp:
                local_as: 65001
                peer_as: 65000
                router_id: %s
                local_address: %s
                neighbors: [%s]
            """.formatted(node, directory.resolve("state"), core, directory.resolve("shm"), address, VIP, LIVENESS_TIMEOUT_MS, DRAIN_TIME_MS,
            address, address, neighbor);
    }

    private static void startBackend(final String address)
    {
        try
        {
            final Path root = Files.createDirectories(directory.resolve("www-" + address));
            backendServers.add(backends.start(directory.resolve("backend-" + address + ".log"), "/usr/bin/python3",
                "-m", "http.server", "8080", "--bind", address, "--directory", root.toString()));
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static void stopBackends()
    {
        backendServers.forEach(server -> Commands.stop(server.toHandle(), Duration.ofSeconds(5)));
        backendServers.clear();
    }

    private static String route()
    {
        return router.routes(VIP);
    }

    private static boolean viaBoth(final String route)
    {
        return route.contains("nexthop via 10.10.1.2") && route.contains("nexthop via 10.10.2.2");
    }

    private static boolean viaOnly(final String route, final String address)
    {
        return route.startsWith(VIP + " via " + address + " ");
    }

    @Test
    @Order(1)
    void routerLearnsTheVipFromBothNodesAsOneMultipathRoute()
    {
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth,
            "a multipath route to the VIP through both nodes");
        assertTrue(bird.protocols().get("lb1").established());
        assertTrue(bird.protocols().get("lb2").established());

        final String status = lb1.http("/status?format=json");
        assertTrue(status.contains("\"announced\":[\"10.100.0.1/32\"]"), status);
        assertTrue(status.contains("\"neighbors\":{\"10.10.1.1\":\"up\"}"), status);
        // One healthy backend is enough for the route; wait for both (python starts slowly on a busy machine).
        final String metrics = Eventually.await(WAIT, () -> lb1.http("/metrics"), text -> text.contains(
            "sluice_backend_healthy{address=\"10.1.0.1\",backend=\"be1\",vip=\"web\"} 1"), "be1 healthy in lb1");
        assertTrue(metrics.contains("sluice_vip_announced{vip=\"web\"} 1"), metrics);
        assertTrue(metrics.contains("sluice_forwarder_alive 1"), metrics);
        assertTrue(metrics.contains("sluice_bgp_session_up{neighbor=\"10.10.1.1\"} 1"), metrics);
        assertTrue(metrics.contains("# TYPE sluice_worker_rx_packets_total counter"),
            "the forwarder's own counters are exported too:\n" + metrics);

        final Commands.Result text = lb2.tool("status");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().contains("VIP web 10.100.0.1:80/tcp: ANNOUNCED"), text.stdout());
    }

    @Test
    @Order(2)
    void aDeadForwarderIsWithdrawnWithinTheLivenessTimeoutAndAnnouncedWhenBack()
    {
        final long killedNs = System.nanoTime();
        lb1.forwarder().destroyForcibly();
        Eventually.await(Duration.ofMillis(LIVENESS_TIMEOUT_MS + 5_000), ControllerBgpTest::route,
            route -> viaOnly(route, "10.10.2.2"), "the route through lb1 withdrawn");
        final long withdrawnMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
        System.out.println("forwarder killed -> router route withdrawn in " + withdrawnMs + " ms");
        assertTrue(lb1.controller().isAlive(), "the controller stays up and watches for the forwarder's return");

        lb1.startForwarder();
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth, "lb1 announcing again");
        final String log = lb1.logs();
        assertTrue(log.contains("resynchronizing the forwarder"), log);
    }

    @Test
    @Order(3)
    void aHungForwarderIsWithdrawnOnceItsHeartbeatIsStaleAndAnnouncedWhenItResumes()
    {
        // SIGSTOP: the process is still there, only its heartbeat stops; the liveness timeout decides.
        final String pid = Long.toString(lb2.forwarder().pid());
        Commands.run(List.of("kill", "-STOP", pid)).checked();
        try
        {
            Eventually.await(Duration.ofMillis(LIVENESS_TIMEOUT_MS + 10_000), ControllerBgpTest::route,
                route -> viaOnly(route, "10.10.1.2"), "the route through the hung lb2 withdrawn");
            final String log = lb2.logs();
            assertTrue(log.contains("forwarder dead: heartbeat"), log);
        }
        finally
        {
            Commands.run(List.of("kill", "-CONT", pid)).checked();
        }
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth, "lb2 announcing again");
    }

    @Test
    @Order(4)
    void noHealthyBackendWithdrawsTheVipAndOneHealthyBackendAnnouncesItAgain()
    {
        stopBackends();
        // Each controller must withdraw for this reason; an empty route alone could be a moment between two
        // updates of the router's multipath route, seen before either controller noticed anything.
        for (final Node node : List.of(lb1, lb2))
        {
            Eventually.await(WAIT, () -> node.http("/status?format=json"),
                status -> status.contains("no eligible backend (0 of 2 backends eligible)") &&
                    status.contains("\"announced\":[]"), node.name() + " withdrawing: no eligible backend");
        }
        Eventually.await(WAIT, ControllerBgpTest::route, String::isEmpty, "the VIP withdrawn by both nodes");

        startBackend("10.1.0.2");
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth,
            "the VIP announced again with one backend");
        startBackend("10.1.0.1");
    }

    @Test
    @Order(5)
    void drainThroughTheControllerReachesTheForwarder()
    {
        final Commands.Result drain = lb1.tool("drain", "web", "be1");
        assertEquals(0, drain.exitCode(), drain.stderr());
        assertTrue(drain.stdout().contains("drained") && drain.stdout().contains("forwarder confirmed"),
            drain.stdout());
        Eventually.await(WAIT, () -> lb1.http("/status?format=json"),
            status -> status.contains("\"name\":\"be1\",\"address\":\"10.1.0.1\"") &&
                status.contains("\"weight\":0,\"drained\":true,\"maglev_slots\":0"), "be1 drained with no slots");
        assertTrue(viaBoth(route()), "a drain is not a withdrawal");
        final Commands.Result undrain = lb1.tool("undrain", "web", "be1");
        assertEquals(0, undrain.exitCode(), undrain.stderr());
    }

    @Test
    @Order(6)
    void aControllerRestartKeepsTheVipAnnounced() throws Exception
    {
        final long exaBgpPid = Long.parseLong(Files.readString(directory.resolve("shm").resolve(lb1.name())
            .resolve("exabgp.pid")).strip());
        final Process old = lb1.controller();
        old.toHandle().parent(); // keep a handle
        Commands.run(List.of("kill", "-USR2", Long.toString(old.pid()))).checked();
        assertTrue(old.waitFor(30, TimeUnit.SECONDS), "the controller exits for the restart");
        assertEquals(0, old.exitValue());
        assertTrue(viaBoth(route()), "still announced while no controller runs");

        lb1.startController();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        while (System.nanoTime() < deadline)
        {
            assertTrue(viaBoth(route()), "the route through lb1 never disappears during the restart: " + route());
            Thread.sleep(100);
        }
        Eventually.await(WAIT, () -> lb1.http("/status?format=json"),
            status -> status.contains("\"announced\":[\"10.100.0.1/32\"]") && status.contains("\"synchronized\":true"),
            "the new controller in charge");
        assertTrue(ProcessHandle.of(exaBgpPid).isPresent(), "the same ExaBGP, adopted");
        assertTrue(lb1.logs().contains("adopted"), lb1.logs());
    }

    @Test
    @Order(7)
    void stoppingAControllerWithdrawsFirstThenWaitsTheDrainTime() throws Exception
    {
        final Process controller = lb2.controller();
        final long stoppedNs = System.nanoTime();
        controller.destroy(); // SIGTERM
        Eventually.await(WAIT, ControllerBgpTest::route, route -> viaOnly(route, "10.10.1.2"),
            "lb2 withdrawn");
        assertTrue(controller.isAlive(), "the route goes before the controller: it waits drain_time");
        assertTrue(controller.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, controller.exitValue());
        final long stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedNs);
        assertTrue(stoppedMs >= DRAIN_TIME_MS, "exited after " + stoppedMs + " ms, drain_time " + DRAIN_TIME_MS);
        assertFalse(Files.exists(directory.resolve("shm").resolve(lb2.name()).resolve("exabgp.pid")),
            "ExaBGP stopped with the controller");
        final String log = lb2.logs();
        assertTrue(log.contains("withdrawing every VIP first") && log.contains("stopped cleanly"), log);
    }
}
