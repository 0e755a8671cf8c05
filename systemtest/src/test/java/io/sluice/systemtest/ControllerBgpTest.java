package io.sluice.systemtest;

import io.sluice.testkit.BgpRouter;
import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Commands;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.HttpBackend;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;
import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controller acceptance tests, with real processes in network namespaces: two Sluice nodes (a
 * forwarder on DPDK {@code net_null}, its controller and the ExaBGP the controller starts), a router, and
 * two HTTP backends the controllers health-check. Every step runs twice, once against BIRD 2 ({@code merge paths
 * on}) and once against FRR 8 (zebra and bgpd, {@code maximum-paths 16}), through {@link BgpRouter}: the route,
 * ECMP, withdrawals and restarts are checked in the router's kernel table, which both fill, and the path
 * attributes in the router's own BGP table.
 * <pre>
 *   lb1 10.10.1.2 -- r1 10.10.1.1 [router: BIRD or FRR, AS 65000] r2 10.10.2.1 -- lb2 10.10.2.2
 *                                           | 10.20.0.1
 *                                           | 10.20.0.2
 *                                 be: 10.1.0.1:8080, 10.1.0.2:8080 (python http.server)
 * </pre>
 * The steps build on each other, in order, within one router's run.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(BgpRouter.Kind.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsNetns
@NeedsDpdk
@NeedsDaemon
class ControllerBgpTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIP = "10.100.0.1";
    private static final long LIVENESS_TIMEOUT_MS = 1_000;
    private static final long DRAIN_TIME_MS = 3_000;
    private static final String PREFIX = VIP + "/32";
    /** The VIP's route attributes (vips[0].bgp) every node sends, as ExaBGP's API spells them. */
    private static final String ATTRIBUTES = "med 5 community [ 65000:80 65000:443 ] large-community [ 65001:0:80 ]";
    /** The extra copies of the local AS a node being drained softly prepends. */
    private static final int DRAIN_PREPEND = 2;
    /** lb1's TCP MD5 password (FRR's configuration takes one word). */
    private static final String MD5_PASSWORD = "lb1-r1-secret";

    @TempDir
    static Path tempDirectory;

    @Parameter
    BgpRouter.Kind kind;

    private static Path directory;
    private static NetNs net;
    private static Namespace router;
    private static Namespace backends;
    private static BgpRouter bgpRouter;
    private static Node lb1;
    private static Node lb2;
    private static String tag;
    private static final List<Process> BACKEND_SERVERS = new ArrayList<>(List.of());

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println("---- router: ip route\n" + router.exec("ip", "route"));
            System.out.println("---- " + bgpRouter.kind() + " state\n" + bgpRouter.state());
            System.out.println("---- " + bgpRouter.kind() + " log\n" + bgpRouter.logText());
            System.out.println(lb1.logs());
            System.out.println(lb2.logs());
        }
    };

    @BeforeParameterizedClassInvocation
    static void startEverything(final BgpRouter.Kind routerKind) throws Exception
    {
        // One directory, namespace prefix and node names per router: the runs share nothing.
        directory = Files.createDirectories(tempDirectory.resolve(routerKind.name().toLowerCase()));
        System.out.println("ControllerBgpTest against " + routerKind);
        net = NetNs.create(routerKind == BgpRouter.Kind.BIRD ? "stb" : "stf");
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
            bgpRouter = routerKind.start(router, directory.resolve("router"), "10.10.1.1", 65000, List.of(
                new BirdRouter.Peer("lb1", "10.10.1.2", 65001, MD5_PASSWORD),
                new BirdRouter.Peer("lb2", "10.10.2.2", 65001)));
            startBackend("10.1.0.1");
            startBackend("10.1.0.2");

            tag = Node.uniqueName(routerKind == BgpRouter.Kind.BIRD ? "stb" : "stf");
            // lb1's session is signed with TCP MD5, the password in a file only the controller's user can read.
            final Path md5 = directory.resolve("lb1-r1.md5");
            Files.writeString(md5, MD5_PASSWORD + "\n");
            Files.setPosixFilePermissions(md5, PosixFilePermissions.fromString("rw-------"));
            lb1 = new Node(tag + "-lb1", ns1, directory.resolve("lb1"), lb1Config(0));
            lb2 = new Node(tag + "-lb2", ns2, directory.resolve("lb2"), config(tag + "-lb2", 1, "10.10.2.2",
                "10.10.2.1", "", 0));
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

    @AfterParameterizedClassInvocation
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
            if (bgpRouter != null)
            {
                bgpRouter.stop();
            }
        }
        finally
        {
            if (net != null)
            {
                net.close(); // also kills what is left in the namespaces: ExaBGP, backends
            }
            BACKEND_SERVERS.clear();
            lb1 = null;
            lb2 = null;
            bgpRouter = null;
            net = null;
        }
    }

    private static String lb1Config(final int asPathPrepend)
    {
        return config(tag + "-lb1", 0, "10.10.1.2", "10.10.1.1",
            ", md5_password_file: " + directory.resolve("lb1-r1.md5"), asPathPrepend);
    }

    private static String config(
        final String node, final int core, final String address, final String neighbor, final String options,
        final int asPathPrepend)
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
                bgp: {med: 5, communities: ["65000:80", "65000:443"], large_communities: ["65001:0:80"]}
            controller:
              health_checks: {type: http, port: 8080, path: /, interval: 500ms, timeout: 400ms, rise: 1, fall: 1}
              forwarder_liveness_timeout: %dms
              drain_time: %dms
              bgp:
                local_as: 65001
                peer_as: 65000
                router_id: %s
                local_address: %s
                as_path_prepend: %d
                neighbors: [{address: %s, hold_time: 9s%s}]
            """.formatted(node, directory.resolve("state"), core, directory.resolve("shm"), address, VIP,
            LIVENESS_TIMEOUT_MS, DRAIN_TIME_MS, address, address, asPathPrepend, neighbor, options);
    }

    private static void startBackend(final String address)
    {
        try
        {
            final Path root = Files.createDirectories(directory.resolve("www-" + address));
            BACKEND_SERVERS.add(
                HttpBackend.start(backends, directory.resolve("backend-" + address + ".log"), address, 8080, root));
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static void stopBackends()
    {
        BACKEND_SERVERS.forEach(server -> Commands.stop(server.toHandle(), Duration.ofSeconds(5)));
        BACKEND_SERVERS.clear();
    }

    private static String route()
    {
        return router.routes(VIP);
    }

    private static boolean viaBoth(final String route)
    {
        return route.contains("nexthop via 10.10.1.2") && route.contains("nexthop via 10.10.2.2");
    }

    // One next hop: "10.100.0.1 via A dev ..." from BIRD, "10.100.0.1 nhid N via A dev ..." from FRR's zebra,
    // which installs routes through kernel next-hop objects.
    private static boolean viaOnly(final String route, final String address)
    {
        return !route.contains("\n") && route.replaceFirst("^(\\S+) nhid \\d+ ", "$1 ")
            .startsWith(VIP + " via " + address + " ");
    }

    private static BgpRouter.PathAttributes path(final String nextHop)
    {
        return Eventually.await(WAIT, () -> bgpRouter.path(PREFIX, nextHop), java.util.Optional::isPresent,
            bgpRouter.kind() + "'s path to " + PREFIX + " via " + nextHop).orElseThrow();
    }

    @Test
    @Order(1)
    void routerLearnsTheVipFromBothNodesAsOneMultipathRoute()
    {
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth,
            "a multipath route to the VIP through both nodes");
        assertTrue(bgpRouter.established("10.10.1.2"));
        assertTrue(bgpRouter.established("10.10.2.2"));
        // The VIP's MED, communities and large communities, and the AS path without prepending, as the router got
        // them from each node.
        for (final String nextHop : List.of("10.10.1.2", "10.10.2.2"))
        {
            assertEquals(new BgpRouter.PathAttributes(nextHop, "65001", 5, List.of("65000:80", "65000:443"),
                List.of("65001:0:80")), path(nextHop), kind + ": the path via " + nextHop);
        }

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

        assertTrue(status.contains("\"10.10.1.1\":\"ipv4 from 10.10.1.2, hold 9s keepalive 3s, md5 " +
            directory.resolve("lb1-r1.md5") + "\""), "lb1's MD5-signed session (the router has the password too): " +
            status);

        final Commands.Result text = lb2.tool("status");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().contains("VIP web 10.100.0.1:80/tcp: ANNOUNCED"), text.stdout());
        assertTrue(text.stdout().contains("  session 10.10.2.1: ipv4 from 10.10.2.2, hold 9s keepalive 3s\n"),
            "the session's options in sluice status: " + text.stdout());
        assertTrue(text.stdout().contains("  route " + PREFIX + ": " + ATTRIBUTES + "\n"),
            "the route's attributes in sluice status: " + text.stdout());
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
        System.out.println("forwarder killed -> " + kind + " router route withdrawn in " + withdrawnMs + " ms");
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
    void aSoftDrainByAsPathPrependMovesTheRouterToTheOtherNodeWithoutWithdrawing() throws Exception
    {
        // What docs/operations.md tells an operator: set as_path_prepend, restart the controller (SIGUSR2, start).
        restartLb1Controller(DRAIN_PREPEND);
        Eventually.await(WAIT, ControllerBgpTest::route, route -> viaOnly(route, "10.10.2.2"),
            "the router preferring lb2's shorter AS path");
        assertEquals("65001 65001 65001", path("10.10.1.2").asPath(), kind + " still has lb1's longer path");
        assertTrue(bgpRouter.established("10.10.1.2"), "a soft drain keeps the session");
        final String status = lb1.http("/status?format=json");
        assertTrue(status.contains("\"announced\":[\"10.100.0.1/32\"]") &&
            status.contains("as-path [ 65001 65001 65001 ]"), "still announced, with the prepended path: " + status);

        restartLb1Controller(0);
        Eventually.await(WAIT, ControllerBgpTest::route, ControllerBgpTest::viaBoth, "lb1 back in the ECMP set");
        assertEquals("65001", path("10.10.1.2").asPath());
    }

    private static void restartLb1Controller(final int asPathPrepend) throws InterruptedException
    {
        final Process old = lb1.controller();
        Commands.run(List.of("kill", "-USR2", Long.toString(old.pid()))).checked();
        assertTrue(old.waitFor(30, TimeUnit.SECONDS), "the controller exits for the restart");
        lb1.rewriteConfig(lb1Config(asPathPrepend));
        lb1.startController();
    }

    @Test
    @Order(8)
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
