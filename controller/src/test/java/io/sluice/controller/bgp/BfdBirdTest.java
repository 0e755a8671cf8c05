package io.sluice.controller.bgp;

import io.sluice.common.config.BfdConfig;
import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipRouteConfig;
import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Commands;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.FrrRouter;
import io.sluice.testkit.NetNs;

import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controller's BGP speaker with BFD on, against a real router whose BGP sessions are tied to BFD (BIRD 2 with
 * {@code bfd on}, FRR 8 with bfdd and {@code neighbor X bfd profile sluice}; root needed, as CI has): ExaBGP and
 * the BFD speaker (BIRD's {@code protocol bfd}) in lb1's namespace, as {@link ExaBgpRouteSpeaker} starts them. The BFD
 * session comes Up; freezing both processes (SIGSTOP, a node
 * that cannot say goodbye) makes the router drop the node's route through BFD, before the 9 s hold time; SIGCONT
 * brings it back; closing the speaker stops BIRD and removes its files.
 */
@NeedsNetns
@NeedsDaemon
class BfdBirdTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final InetAddress VIP = IpLiterals.parse("10.100.0.1");
    /** The route via lb1 as BIRD installs it. */
    private static final String BIRD_ROUTE = "10.100.0.1 via 10.10.1.2 dev r1 proto bird metric 32";
    /** The route via lb1 as FRR's zebra installs it (through a kernel next-hop object, whose id varies). */
    private static final String FRR_ROUTE = "10.100.0.1 nhid \\d+ via 10.10.1.2 dev r1 proto bgp metric 20";

    @TempDir
    Path directory;

    @Test
    void birdRouterDropsAFrozenNodeThroughBfdAndTakesItBackWhenItThaws() throws Exception
    {
        try (NetNs net = NetNs.create("bfd"))
        {
            final TwoLbTopology topology = TwoLbTopology.build(net);
            try (BirdRouter bird = BirdRouter.start(topology.router(), directory.resolve("bird"), "10.10.1.1",
                65000, TwoLbTopology.PEERS.subList(0, 1), true))
            {
                freezeAndThaw(topology, BIRD_ROUTE::equals,
                    address -> bird.bfdState(address).toLowerCase(Locale.ROOT),
                    () -> bird.protocols().get("lb1").established(), () -> bird.birdc("show", "bfd", "sessions"));
            }
        }
    }

    @Test
    void frrRouterDropsAFrozenNodeThroughBfdAndTakesItBackWhenItThaws() throws Exception
    {
        try (NetNs net = NetNs.create("bfdf"))
        {
            final TwoLbTopology topology = TwoLbTopology.build(net);
            try (FrrRouter frr = FrrRouter.start(topology.router(), directory.resolve("frr"), "10.10.1.1", 65000,
                TwoLbTopology.PEERS.subList(0, 1), true))
            {
                freezeAndThaw(topology, route -> route.matches(FRR_ROUTE),
                    address -> frr.bfdState(address).toLowerCase(Locale.ROOT),
                    () -> frr.established("10.10.1.2"),
                    () -> frr.vtysh("show bfd peers") + frr.state() + frr.logText());
            }
        }
    }

    /**
     * Starts lb1's speaker with BFD, waits for the router's BFD session and route, freezes every process in lb1's
     * namespace, checks the router drops the route through BFD, thaws, checks the route comes back, and closes the
     * speaker, which must leave no process and no BIRD file behind.
     */
    private void freezeAndThaw(final TwoLbTopology topology, final Predicate<String> viaLb1,
        final Function<String, String> routerBfdState,
        final BooleanSupplier routerBgpEstablished, final Supplier<String> routerDetails) throws Exception
    {
        final String lb1 = topology.lb1().name();
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.of(new BgpNeighborConfig(IpLiterals.parse("10.10.1.1"),
            IpLiterals.parse("10.10.1.2"), 9, null, false, new BfdConfig(true, 100, 100, 3))),
            VipRouteConfig.NO_MED, 0, new ExaBgpConfig(false, "ip netns exec " + lb1 + " exabgp"),
            "ip netns exec " + lb1 + " bird");
        final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        final Path node = directory.resolve("lb1");
        try
        {
            final ExaBgpRouteSpeaker speaker = call(loop, () -> ExaBgpRouteSpeaker.start(bgp, node, nowMs()));
            loop.scheduleWithFixedDelay(() ->
            {
                speaker.poll(nowMs());
            }, 0, 10, TimeUnit.MILLISECONDS);
            try
            {
                Eventually.await(WAIT, () -> routerBfdState.apply("10.10.1.2"), "up"::equals,
                    "the router's BFD session with lb1 up");
                call(loop, () ->
                {
                    speaker.setAnnounced(Set.of(VIP));
                    return null;
                });
                Eventually.await(WAIT, () -> topology.router().routes("10.100.0.1"), viaLb1,
                    "the route via lb1");
                final String state = call(loop, speaker::state);
                assertTrue(state.contains("BFD speaker BIRD pid "), state);

                final List<Long> pids = namespacePids(lb1);
                assertFalse(pids.isEmpty(), "no process in " + lb1);
                final long freezeNs = System.nanoTime();
                signal("STOP", pids);
                try
                {
                    Eventually.await(WAIT, () -> topology.router().routes("10.100.0.1"), String::isEmpty,
                        "the route dropped after the freeze");
                    final long goneMs = (System.nanoTime() - freezeNs) / 1_000_000;
                    System.out.printf("timings: lb1 frozen to route gone %d ms (BFD 3 x 100 ms, hold 9 s)%n",
                        goneMs);
                    assertEquals("down", routerBfdState.apply("10.10.1.2"), routerDetails.get());
                    assertFalse(routerBgpEstablished.getAsBoolean(), "BGP still established");
                }
                finally
                {
                    signal("CONT", pids);
                }
                Eventually.await(WAIT, () -> topology.router().routes("10.100.0.1"), viaLb1,
                    "the route back via lb1 after the thaw");
                assertEquals("up", routerBfdState.apply("10.10.1.2"));
            }
            finally
            {
                loop.shutdown();
                loop.awaitTermination(10, TimeUnit.SECONDS);
                speaker.close();
                System.out.println("---- lb1 bfd.log\n" + readOrNote(node.resolve("bfd.log")));
            }
            assertTrue(namespacePids(lb1).isEmpty(), "processes left in " + lb1 + ": " + namespacePids(lb1));
            assertFalse(Files.exists(node.resolve("bfd.pid")), "bfd.pid left behind");
            assertFalse(Files.exists(node.resolve("bfd.ctl")), "bfd.ctl left behind");
            Eventually.await(WAIT, () -> routerBfdState.apply("10.10.1.2"), s -> !"up".equals(s),
                "the router's BFD session down after the speaker stopped");
        }
        finally
        {
            loop.shutdownNow();
        }
    }

    private static <T> T call(final ScheduledExecutorService loop, final Callable<T> action) throws Exception
    {
        return loop.submit(action).get(30, TimeUnit.SECONDS);
    }

    private static List<Long> namespacePids(final String namespace)
    {
        final Commands.Result result = Commands.run(List.of("ip", "netns", "pids", namespace));
        return result.stdout().lines().filter(line -> !line.isBlank()).map(line -> Long.parseLong(line.strip()))
            .toList();
    }

    private static void signal(final String signal, final List<Long> pids)
    {
        for (final long pid : pids)
        {
            Commands.run(List.of("kill", "-" + signal, Long.toString(pid)));
        }
    }

    private static String readOrNote(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final Exception ex)
        {
            return "(cannot read " + file + ": " + ex + ")";
        }
    }

    private static long nowMs()
    {
        return System.nanoTime() / 1_000_000;
    }
}
