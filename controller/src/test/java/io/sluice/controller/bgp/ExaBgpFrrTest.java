package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.FrrRouter;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;
import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real ExaBGP 4.2 against a real FRR 8 router (zebra + bgpd as user frr, {@code maximum-paths 16}) in network
 * namespaces: the route, ECMP over two nodes, withdrawal and an ExaBGP restart, as {@link ExaBgpBirdTest} checks
 * them against BIRD. Root needed, as CI has; run under the shared lock.
 * <pre>
 *   router ns: FRR, AS 65000         lb1 ns: ExaBGP, AS 65001       lb2 ns: ExaBGP, AS 65001
 *   r1 10.10.1.1/24  ------------------ lb1 10.10.1.2/24
 *   r2 10.10.2.1/24  ------------------------------------------------ lb2 10.10.2.2/24
 * </pre>
 */
@NeedsNetns
@NeedsDaemon
class ExaBgpFrrTest
{
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final InetAddress VIP = IpLiterals.parse("10.100.0.1");
    private static final String VIP_TEXT = "10.100.0.1";

    @TempDir
    Path directory;

    private NetNs net;
    private Namespace router;
    private Namespace lb1Namespace;
    private Namespace lb2Namespace;
    private FrrRouter frr;
    private final List<LbNode> nodes = new ArrayList<>();

    @BeforeEach
    void buildTopology()
    {
        net = NetNs.create("bgpf");
        try
        {
            final TwoLbTopology topology = TwoLbTopology.build(net);
            router = topology.router();
            lb1Namespace = topology.lb1();
            lb2Namespace = topology.lb2();
            frr = FrrRouter.start(router, directory.resolve("frr"), "10.10.1.1", 65000, TwoLbTopology.PEERS);
        }
        catch (final RuntimeException | Error ex)
        {
            tearDown();
            throw ex;
        }
    }

    @AfterEach
    void tearDown()
    {
        try
        {
            for (final LbNode node : nodes)
            {
                node.close();
            }
        }
        finally
        {
            try
            {
                if (frr != null)
                {
                    frr.stop();
                }
            }
            finally
            {
                net.close();
            }
        }
    }

    @Test
    void announcesSpreadsOverTwoNodesAndWithdrawsThroughFrr()
    {
        report(() ->
        {
            final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1");
            final LbNode lb2 = node("lb2", lb2Namespace, "10.10.2.2", "10.10.2.1");
            Eventually.await(WAIT, () -> frr.established("10.10.1.2") && frr.established("10.10.2.2"),
                "FRR's sessions with lb1 and lb2 established");
            lb1.setAnnounced(Set.of(VIP));
            awaitRoute(routes -> routes.startsWith(VIP_TEXT + " nhid") || routes.startsWith(VIP_TEXT + " via") ?
                routes.contains("via 10.10.1.2 dev r1 proto bgp") : false, "the route via lb1");

            lb2.setAnnounced(Set.of(VIP));
            final String multipath = awaitRoute(routes -> routes.contains("nexthop via 10.10.1.2 dev r1 weight 1") &&
                routes.contains("nexthop via 10.10.2.2 dev r2 weight 1"), "a multipath route via lb1 and lb2");
            assertTrue(multipath.contains("proto bgp"), multipath);

            lb1.setAnnounced(Set.of());
            awaitRoute(routes -> routes.contains("via 10.10.2.2 dev r2 proto bgp") && !routes.contains("10.10.1.2"),
                "the route via lb2 only");
            lb2.setAnnounced(Set.of());
            awaitRoute(String::isEmpty, "the route withdrawn");
        });
    }

    @Test
    void restartsADeadExaBgpAndFrrLearnsTheVipAgain()
    {
        report(() ->
        {
            final LbNode lb1 = node("lb1", lb1Namespace, "10.10.1.2", "10.10.1.1");
            lb1.setAnnounced(Set.of(VIP));
            awaitRoute(routes -> routes.contains("via 10.10.1.2 dev r1 proto bgp"), "the route via lb1");
            final long firstPid = lb1.call(node -> node.sidecar().pid());
            ProcessHandle.of(firstPid).orElseThrow().destroyForcibly();
            Eventually.await(WAIT, () -> lb1.call(node -> node.sidecar().restarts()), restarts -> restarts == 1,
                "the sidecar restarting ExaBGP");
            awaitRoute(routes -> routes.contains("via 10.10.1.2 dev r1 proto bgp"), "the route back via lb1");
            assertNotEquals(firstPid, (long)lb1.call(node -> node.sidecar().pid()));
            assertEquals(Set.of(VIP), lb1.call(node -> node.api().announced()));
        });
    }

    private void report(final Runnable test)
    {
        try
        {
            test.run();
        }
        catch (final AssertionError | RuntimeException ex)
        {
            System.out.println("---- FRR\n" + frr.logText());
            System.out.println("---- vtysh show bgp ipv4 unicast\n" + frr.vtysh("show bgp ipv4 unicast"));
            for (final LbNode node : nodes)
            {
                System.out.println("---- " + node.namespace().name() + " ExaBGP log\n" + node.exaBgpLog());
            }
            throw ex;
        }
    }

    private LbNode node(final String name, final Namespace namespace, final String address, final String neighbor)
    {
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4(address), IpLiterals.parse(address),
            List.of(IpLiterals.parse(neighbor)), ExaBgpConfig.defaults());
        final LbNode node = LbNode.start(name, namespace, directory.resolve(name + "-" + nodes.size()), bgp,
            ExaBgpFiles.DEFAULT_ORPHAN_TIMEOUT);
        nodes.add(node);
        return node;
    }

    private String awaitRoute(final java.util.function.Predicate<String> condition, final String what)
    {
        return Eventually.await(WAIT, () -> router.routes(VIP_TEXT), condition, what);
    }
}
