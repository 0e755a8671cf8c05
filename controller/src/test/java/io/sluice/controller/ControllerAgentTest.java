package io.sluice.controller;

import io.sluice.common.Vip;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlCommand.SetBackendHealth;
import io.sluice.common.control.ControlCommand.SetBackendWeight;
import io.sluice.common.log.AgentErrorLog;
import io.sluice.controller.announce.AnnouncePolicy;
import io.sluice.controller.announce.RouteSpeaker;
import io.sluice.controller.health.HealthCheckRunner;
import io.sluice.controller.health.check.CheckResult;
import io.sluice.controller.liveness.CountersObserver;
import io.sluice.controller.liveness.ForwarderLiveness;
import io.sluice.controller.channel.ForwarderSession;
import io.sluice.controller.health.HealthMonitor;
import io.sluice.controller.operator.BackendWeights;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.controller.operator.OverridesFile;
import io.sluice.controller.status.NodeStatus;
import io.sluice.testkit.CapturedLog;
import io.sluice.testkit.NodeYaml;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The controller's duty cycle against a forwarder stand-in with the real counters file and control channel, a fake
 * clock, fake checks and a recording BGP speaker.
 */
class ControllerAgentTest
{
    private static final InetAddress VIP_ADDRESS = IpLiterals.parse("10.100.0.1");
    private static final Vip WEB = new Vip(VIP_ADDRESS, 80, Vip.TCP);
    private static final InetAddress B1 = IpLiterals.parse("10.1.0.1");
    private static final InetAddress B2 = IpLiterals.parse("10.1.0.2");

    @TempDir
    Path dir;

    private NodeConfig config;
    private long nowMs = 5_000_000;
    private final Map<InetAddress, Boolean> passing = new ConcurrentHashMap<>();
    // What the agent and its parts log (messages, without the time and level prefix).
    @RegisterExtension
    final CapturedLog log = CapturedLog.of(ControllerAgent.class, AnnouncePolicy.class, HealthMonitor.class,
        ForwarderSession.class);
    private final AgentErrorLog errors =
        new AgentErrorLog("controller", SystemEpochClock.INSTANCE, AgentErrorLog.DEFAULT_CAPACITY, 10_000);
    private final RecordingSpeaker speaker = new RecordingSpeaker();
    private FakeForwarder forwarder;
    private ControllerAgent agent;

    @BeforeEach
    void setUp() throws IOException, io.sluice.common.config.ConfigException
    {
        Files.writeString(configFile(), config("""
                  - {name: be1, address: 10.1.0.1}
                  - {name: be2, address: 10.1.0.2, weight: 3}
            """));
        config = NodeConfig.load(configFile());
        passing.put(B1, true);
        passing.put(B2, true);
    }

    private Path configFile()
    {
        return dir.resolve("node.yaml");
    }

    private String config(final String backends)
    {
        return "node: {name: lb1}\n" + NodeYaml.nullForwarder(dir.resolve("shm")) + """
            vips:
              - name: web
                address: 10.100.0.1
                port: 80
                protocol: tcp
                backends:
            %s
            controller:
              health_checks: {type: tcp, interval: 1s, timeout: 500ms, rise: 1, fall: 1}
              forwarder_liveness_timeout: 3s
            """.formatted(backends.stripTrailing());
    }

    @AfterEach
    void tearDown() throws InterruptedException
    {
        if (agent != null)
        {
            agent.onClose();
        }
        errors.close();
        if (forwarder != null)
        {
            forwarder.close();
        }
    }

    private ControllerAgent agent()
    {
        final HealthMonitor monitor = new HealthMonitor(config);
        agent = new ControllerAgent(configFile(), config, monitor, checked -> new HealthCheckRunner(checked,
            due -> () -> passing.getOrDefault(due.backend().address(), false) ?
                CheckResult.pass("connected", 1_000_000) : CheckResult.fail("connect refused", 1_000_000), 2),
            new BackendWeights(config.vips()),
            new OverridesFile(config.nodeDirectory().resolve(OverridesFile.FILE_NAME)),
            new ForwarderSession(config.nodeDirectory().resolve("control.dat"), Duration.ofSeconds(5), errors),
            new CountersObserver(config.nodeDirectory().resolve("counters.dat")),
            ForwarderLiveness.of(config.controller()), speaker, () -> nowMs, errors);
        return agent;
    }

    /** Runs duty cycles, the forwarder beating at the fake time, until the condition holds. */
    private void runUntil(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean())
        {
            if (forwarder != null)
            {
                forwarder.heartbeat(nowMs);
            }
            agent.doWork();
            nowMs += 10;
            if (System.nanoTime() - deadline >= 0)
            {
                fail("timed out waiting for " + what + "; log:\n" + log.toString());
            }
            Thread.sleep(1);
        }
    }

    private boolean announced()
    {
        return speaker.announced.equals(Set.of(VIP_ADDRESS));
    }

    @Test
    void announcesOnlyOnceTheForwarderConfirmedTheWholeState() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();

        runUntil(this::announced, "the VIP to be announced");

        final List<ControlCommand> applied = forwarder.applied();
        assertTrue(applied.size() >= 2, applied.toString());
        assertEquals(List.of(new SetBackendHealth(WEB, B1, false), new SetBackendHealth(WEB, B2, false)),
            applied.subList(0, 2), "the resync: backends start down until checked");
        assertTrue(applied.containsAll(List.of(new SetBackendHealth(WEB, B1, true),
            new SetBackendHealth(WEB, B2, true))), applied.toString());
        assertTrue(log.contains("VIP web: announce 10.100.0.1/32"), log.toString());
    }

    @Test
    void announcesOnlyOnceAWorkerOfTheStartingForwarderBeats() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, 0); // a counters file, no worker heartbeat yet: still starting
        agent();
        for (int i = 0; i < 150; i++) // 1.5 s of the 3 s start grace, every backend passing its checks
        {
            agent.doWork();
            nowMs += 10;
            Thread.sleep(1);
        }
        assertEquals(Set.of(), speaker.announced, log.toString());
        final NodeStatus status = agent.status();
        assertTrue(status.forwarder().alive(), "alive within the start grace");
        assertEquals("forwarder starting: no worker heartbeat yet", status.vips().get(0).announceReason());

        runUntil(this::announced, "the VIP to be announced once a worker beats");
    }

    @Test
    void neverAnnouncesWithoutAForwarder() throws InterruptedException
    {
        agent();
        for (int i = 0; i < 200; i++)
        {
            agent.doWork();
            nowMs += 10;
        }
        assertEquals(Set.of(), speaker.announced);
        final NodeStatus status = agent.status();
        assertFalse(status.forwarder().alive());
        assertEquals("forwarder dead: no counters file", status.vips().get(0).announceReason());
    }

    @Test
    void withdrawsWhenTheHeartbeatGoesStaleAndAnnouncesAgainWhenItComesBack() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");

        final long staleAt = nowMs + 3_100;
        while (nowMs < staleAt)
        {
            agent.doWork(); // no heartbeat: the forwarder hangs
            nowMs += 10;
        }
        agent.doWork();
        assertEquals(Set.of(), speaker.announced);
        assertTrue(log.contains("withdraw 10.100.0.1/32 (forwarder dead: heartbeat"),
            log.toString());

        runUntil(this::announced, "the VIP to be announced again");
    }

    @Test
    void resyncsARestartedForwarderBeforeAnnouncingAgain() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        passing.put(B2, false);
        runUntil(() -> announced() && forwarder.applied().contains(new SetBackendHealth(WEB, B1, true)),
            "be1 up and the VIP announced");
        agent.submit(new OperatorRequest(OperatorRequest.Action.SET_WEIGHT, "web", "be1", 7));
        runUntil(() -> forwarder.applied().contains(new SetBackendWeight(WEB, B1, 7)), "the new weight");

        forwarder.close();
        forwarder = null;
        runUntil(() -> speaker.announced.isEmpty(), "the withdrawal when the forwarder is gone");
        forwarder = new FakeForwarder(config, nowMs); // a new instance: another start time (FakeForwarder)
        runUntil(this::announced, "the VIP to be announced again");
        assertTrue(log.contains(" (a new instance)"), log.toString());

        assertEquals(List.of(new SetBackendHealth(WEB, B1, true), new SetBackendHealth(WEB, B2, false),
            new SetBackendWeight(WEB, B1, 7)), forwarder.applied(), "the whole state, weights included");
    }

    @Test
    void withdrawsWhenNoBackendIsEligible() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");

        passing.put(B1, false);
        passing.put(B2, false);
        nowMs += 1_000;
        runUntil(() -> speaker.announced.isEmpty(), "the withdrawal");
        runUntil(() -> "no eligible backend (0 of 2 backends eligible)".equals(
            agent.status().vips().get(0).announceReason()), "the status to say why");
        assertFalse(agent.status().vips().get(0).failOpen(), "fail_open_share 0 never fails open");
    }

    @Test
    void drainReachesTheForwarderAndIsSaved() throws Exception
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");

        final CompletableFuture<OperatorRequest.Reply> drain =
            agent.submit(new OperatorRequest(OperatorRequest.Action.DRAIN, "web", "be2", 0));
        runUntil(drain::isDone, "the drain to be applied");
        assertTrue(drain.get().accepted(), drain.get().message());
        assertTrue(drain.get().message().contains("forwarder confirmed"), drain.get().message());
        assertTrue(forwarder.applied().contains(new SetBackendWeight(WEB, B2, 0)));
        final String saved = Files.readString(config.nodeDirectory().resolve(OverridesFile.FILE_NAME));
        assertTrue(saved.contains("web\t10.1.0.2\tdrained=true\tweight=-1"), saved);

        final CompletableFuture<OperatorRequest.Reply> undrain =
            agent.submit(new OperatorRequest(OperatorRequest.Action.UNDRAIN, "web", "10.1.0.2", 0));
        runUntil(undrain::isDone, "the undrain");
        assertTrue(forwarder.applied().contains(new SetBackendWeight(WEB, B2, 3)), "back to the configured 3");

        final CompletableFuture<OperatorRequest.Reply> unknown =
            agent.submit(new OperatorRequest(OperatorRequest.Action.DRAIN, "web", "be9", 0));
        runUntil(unknown::isDone, "the refusal");
        assertFalse(unknown.get().accepted());
        assertEquals("VIP web has no backend 'be9' (backends: be1, be2)", unknown.get().message());
    }

    @Test
    void reloadAddsAndRemovesBackendsWithoutTouchingTheOthers() throws Exception
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");
        final int before = forwarder.applied().size();

        final InetAddress b3 = IpLiterals.parse("10.1.0.3");
        passing.put(b3, true);
        Files.writeString(configFile(), config("""
                  - {name: be1, address: 10.1.0.1}
                  - {name: be3, address: 10.1.0.3, weight: 2}
            """));
        final CompletableFuture<OperatorRequest.Reply> reload = agent.submit(OperatorRequest.reload());
        runUntil(() -> forwarder.applied().contains(new SetBackendHealth(WEB, b3, true)), "be3 up after its check");

        assertTrue(reload.get().accepted(), reload.get().message());
        assertTrue(reload.get().message().contains("VIP web: backend be2 removed"), reload.get().message());
        assertTrue(reload.get().message().contains("VIP web: backend be3 added (down until it passes its checks)"),
            reload.get().message());
        assertEquals(List.of(new ControlCommand.RemoveBackend(WEB, B2),
            new ControlCommand.AddBackend(WEB, b3, 2, false, "be3"), new SetBackendHealth(WEB, b3, true)),
            forwarder.applied().subList(before, before + 3), "be1 is not touched");
        assertTrue(announced());
    }

    @Test
    void reloadRefusesABadFileAndChangesNothing() throws Exception
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");
        final int before = forwarder.applied().size();

        Files.writeString(configFile(), config("      - {name: be1, address: 10.1.0.1, wieght: 2}\n"));
        final CompletableFuture<OperatorRequest.Reply> reload = agent.submit(OperatorRequest.reload());
        runUntil(reload::isDone, "the refusal");
        assertFalse(reload.get().accepted());
        assertTrue(reload.get().message().contains("wieght"), reload.get().message());
        assertTrue(reload.get().message().startsWith("reload refused, nothing changed: "), reload.get().message());
        assertEquals(before, forwarder.applied().size());
    }

    @Test
    void shutdownWithdrawsEveryVip() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(this::announced, "the VIP to be announced");

        agent.beginShutdown();
        runUntil(agent::isWithdrawnForShutdown, "the shutdown withdrawal");
        assertEquals(Set.of(), speaker.announced);
        runUntil(() -> "controller shutting down".equals(agent.status().vips().get(0).announceReason()),
            "the status to say why");
    }

    @Test
    void statusShowsHealthWeightsAndSlots() throws InterruptedException
    {
        forwarder = new FakeForwarder(config, nowMs);
        agent();
        runUntil(() -> announced() && agent.status().vips().get(0).backends().get(0).maglevSlots() == 100,
            "the forwarder's slots in the status");

        final NodeStatus.VipStatus vip = agent.status().vips().get(0);
        assertTrue(vip.announced());
        assertEquals(2, vip.eligible());
        final NodeStatus.BackendStatus be2 = vip.backends().get(1);
        assertEquals("be2", be2.name());
        assertTrue(be2.healthy());
        assertEquals(3, be2.weight());
        assertEquals("connected", be2.lastCheck());
        assertTrue(agent.status().forwarder().synced());
    }

    /** Records what the agent wants announced. */
    private static final class RecordingSpeaker implements RouteSpeaker
    {
        volatile Set<InetAddress> announced = Set.of();
        final List<Set<InetAddress>> history = new ArrayList<>();

        @Override
        public void setAnnounced(final Set<InetAddress> addresses)
        {
            if (!addresses.equals(announced))
            {
                history.add(Set.copyOf(addresses));
            }
            announced = Set.copyOf(addresses);
        }

        @Override
        public int poll(final long nowMs)
        {
            return 0;
        }

        @Override
        public boolean isCurrent()
        {
            return true;
        }

        @Override
        public String state()
        {
            return "recording";
        }

        @Override
        public Map<String, String> neighborStates()
        {
            return Map.of();
        }

        @Override
        public void close()
        {
        }
    }
}
