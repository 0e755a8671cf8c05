package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.NetNs;
import io.sluice.testkit.Namespace;

import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real ExaBGP 4.2 against a real BIRD 2 router in network namespaces (root needed, as CI has):
 * <pre>
 *   router ns: BIRD, AS 65000        lb1 ns: ExaBGP, AS 65001       lb2 ns: ExaBGP, AS 65001
 *   r1 10.10.1.1/24  ------------------ lb1 10.10.1.2/24
 *   r2 10.10.2.1/24  ------------------------------------------------ lb2 10.10.2.2/24
 * </pre>
 * The controller's socket lives in a temporary directory: pathname Unix sockets work across network namespaces.
 */
@NeedsNetns
@NeedsDaemon
class ExaBgpBirdTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final InetAddress VIP = IpLiterals.parse("10.100.0.1");
    private static final String VIP_TEXT = "10.100.0.1";

    @TempDir
    static Path directory;

    private static NetNs net;
    private static Namespace router;
    private static Namespace lb1Namespace;
    private static Namespace lb2Namespace;
    private static BirdRouter bird;

    private final List<LbNode> nodes = new ArrayList<>();

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println("---- BIRD log\n" + bird.logText());
            System.out.println("---- birdc show route\n" + bird.birdc("show", "route", "all"));
            for (final LbNode node : nodes)
            {
                System.out.println("---- " + node.namespace().name() + " ExaBGP log\n" + node.exaBgpLog());
            }
        }
    };

    @BeforeAll
    static void buildTopology()
    {
        net = NetNs.create("bgp");
        try
        {
            final TwoLbTopology topology = TwoLbTopology.build(net);
            router = topology.router();
            lb1Namespace = topology.lb1();
            lb2Namespace = topology.lb2();
            bird = BirdRouter.start(router, directory.resolve("bird"), "10.10.1.1", 65000, TwoLbTopology.PEERS);
        }
        catch (final RuntimeException | Error ex)
        {
            net.close();
            throw ex;
        }
    }

    @AfterAll
    static void removeTopology()
    {
        try
        {
            if (bird != null)
            {
                bird.stop();
            }
        }
        finally
        {
            net.close();
        }
    }

    @BeforeEach
    void noRouteYet()
    {
        awaitRoute("", "no route to the VIP before the test");
    }

    @AfterEach
    void stopNodes()
    {
        RuntimeException failure = null;
        for (final LbNode node : nodes)
        {
            try
            {
                node.close();
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    @Test
    void announcesAndWithdrawsAVipThroughExaBgpAndBird()
    {
        final long startNs = System.nanoTime();
        final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1", ExaBgpFiles.DEFAULT_ORPHAN_TIMEOUT);
        Eventually.await(WAIT, () -> bird.protocols().get("lb1"), BirdRouter.Protocol::established,
            "BIRD's session with lb1 established");
        Eventually.await(WAIT, () -> lb1.call(node -> node.api().neighborStates()),
            states -> states.equals(Map.of("10.10.1.1", "up")), "ExaBGP reporting its session up");
        final long sessionMs = elapsedMs(startNs);

        final long announceNs = System.nanoTime();
        lb1.setAnnounced(Set.of(VIP));
        awaitRoute(VIP_TEXT + " via 10.10.1.2 dev r1 proto bird metric 32", "the router's route to the VIP via lb1");
        final long announceMs = elapsedMs(announceNs);
        Eventually.await(WAIT, () -> lb1.call(node -> node.api().isCurrent()), "ExaBGP's ack");
        assertEquals(Set.of(VIP), lb1.call(node -> node.api().announced()));

        final long withdrawNs = System.nanoTime();
        lb1.setAnnounced(Set.of());
        awaitRoute("", "the route withdrawn");
        final long withdrawMs = elapsedMs(withdrawNs);

        System.out.printf("timings: ExaBGP start to session up %d ms, setAnnounced to kernel route %d ms, " +
            "withdrawal to route gone %d ms%n", sessionMs, announceMs, withdrawMs);
    }

    @Test
    void restartsADeadExaBgpAndAnnouncesTheVipAgain()
    {
        final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1", ExaBgpFiles.DEFAULT_ORPHAN_TIMEOUT);
        lb1.setAnnounced(Set.of(VIP));
        awaitRoute(VIP_TEXT + " via 10.10.1.2 dev r1 proto bird metric 32", "the route via lb1");
        final long firstPid = lb1.call(node -> node.sidecar().pid());

        final long killNs = System.nanoTime();
        ProcessHandle.of(firstPid).orElseThrow().destroyForcibly();

        Eventually.await(WAIT, () -> lb1.call(node -> node.sidecar().restarts()), restarts -> restarts == 1,
            "the sidecar restarting ExaBGP");
        Eventually.await(WAIT, () -> lb1.call(node -> node.api().reconnects()), reconnects -> reconnects >= 1,
            "the new relay connecting");
        awaitRoute(VIP_TEXT + " via 10.10.1.2 dev r1 proto bird metric 32", "the route back via lb1");
        System.out.printf("timings: ExaBGP killed to route back %d ms%n", elapsedMs(killNs));
        assertNotEquals(firstPid, (long)lb1.call(node -> node.sidecar().pid()));
        assertEquals(Set.of(VIP), lb1.call(node -> node.api().announced()));
    }

    @Test
    void twoNodesAnnouncingTheSameVipGiveTheRouterOneMultipathRoute()
    {
        final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1", ExaBgpFiles.DEFAULT_ORPHAN_TIMEOUT);
        final LbNode lb2 = node("lb2", lb2Namespace, "10.10.2.2", "10.10.2.1", ExaBgpFiles.DEFAULT_ORPHAN_TIMEOUT);
        lb1.setAnnounced(Set.of(VIP));
        lb2.setAnnounced(Set.of(VIP));

        final String multipath = Eventually.await(WAIT, () -> router.routes(VIP_TEXT),
            routes -> routes.contains("nexthop via 10.10.1.2 dev r1 weight 1") &&
                routes.contains("nexthop via 10.10.2.2 dev r2 weight 1"), "a multipath route via lb1 and lb2");
        assertTrue(multipath.startsWith(VIP_TEXT + " proto bird metric 32"), multipath);
        assertEquals(1, multipath.lines().filter(line -> line.startsWith(VIP_TEXT)).count(), multipath);

        lb1.setAnnounced(Set.of());
        awaitRoute(VIP_TEXT + " via 10.10.2.2 dev r2 proto bird metric 32", "the route via lb2 only");
    }

    @Test
    void keepsTheVipThroughAQuickControllerRestartAndWithdrawsItWhenTheControllerStaysAway() throws Exception
    {
        final Duration orphanTimeout = Duration.ofSeconds(3);
        final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1", orphanTimeout);
        lb1.setAnnounced(Set.of(VIP));
        final String route = VIP_TEXT + " via 10.10.1.2 dev r1 proto bird metric 32";
        awaitRoute(route, "the route via lb1");
        final long pid = lb1.call(node -> node.sidecar().pid());

        lb1.killController();
        lb1.startControllerAgain();
        assertEquals(pid, (long)lb1.call(node -> node.sidecar().pid()), "the new controller adopts ExaBGP");
        Eventually.await(WAIT, () -> lb1.call(node -> node.api().announced()), Set.of(VIP)::equals,
            "the relay telling the new controller what it announced");
        lb1.setAnnounced(Set.of(VIP));
        // Past the orphan timeout: the relay must not have withdrawn the route of a controller that came back.
        Thread.sleep(orphanTimeout.toMillis() + 1_000);
        assertEquals(route, router.routes(VIP_TEXT));

        final long goneNs = System.nanoTime();
        lb1.killController();
        awaitRoute("", "the relay withdrawing the orphaned route");
        final long goneMs = elapsedMs(goneNs);
        System.out.printf("timings: controller gone to route withdrawn %d ms (orphan timeout %d ms)%n", goneMs,
            orphanTimeout.toMillis());
        assertTrue(goneMs >= orphanTimeout.toMillis() - 100, "withdrawn after only " + goneMs + " ms");
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "ExaBGP keeps running");
    }

    private LbNode node(final String name, final Namespace namespace, final String address, final String neighbor,
        final Duration orphanTimeout)
    {
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4(address), IpLiterals.parse(address),
            List.of(IpLiterals.parse(neighbor)), ExaBgpConfig.defaults());
        final LbNode node = LbNode.start(name, namespace, directory.resolve(name + "-" + nodes.size()), bgp,
            orphanTimeout);
        nodes.add(node);
        return node;
    }

    private static void awaitRoute(final String expected, final String what)
    {
        Eventually.await(WAIT, () -> router.routes(VIP_TEXT), expected::equals, what);
    }

    private static long elapsedMs(final long startNs)
    {
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
