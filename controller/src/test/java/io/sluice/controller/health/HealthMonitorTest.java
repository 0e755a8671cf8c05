package io.sluice.controller.health;

import io.sluice.common.Vip;
import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ControllerConfig;
import io.sluice.common.config.FlapDampingConfig;
import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand.SetBackendHealth;
import io.sluice.controller.health.check.CheckResult;
import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HealthMonitorTest
{

    private static final long INTERVAL_MS = 1_000;
    private static final InetAddress VIP_ADDRESS = IpLiterals.parse("192.0.2.1");
    private static final Vip WEB = new Vip(VIP_ADDRESS, 80, Vip.TCP);
    private static final InetAddress B1 = IpLiterals.parse("10.1.0.1");
    private static final InetAddress B2 = IpLiterals.parse("10.1.0.2");
    private static final InetAddress B3 = IpLiterals.parse("10.1.0.3");

    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(HealthMonitor.class);

    /** The fake checkers: whether each backend's check passes. */
    private final Map<InetAddress, Boolean> passes = new HashMap<>();
    private long nowMs = 1_000_000;

    private static HealthCheckConfig check(final int rise, final int fall, final boolean startUp)
    {
        return new HealthCheckConfig(HealthCheckConfig.Type.TCP, "/", HealthCheckConfig.VIP_PORT,
            HealthCheckConfig.DEFAULT_EXPECT_STATUS, TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS),
            TimeUnit.MILLISECONDS.toNanos(500), rise, fall, startUp);
    }

    private static HealthMonitor monitor(final HealthCheckConfig check, final FlapDampingConfig damping,
        final InetAddress... backends)
    {
        return monitor(check, damping, 0.0, backends);
    }

    private static HealthMonitor monitor(final HealthCheckConfig check, final FlapDampingConfig damping,
        final double failOpenShare, final InetAddress... backends)
    {
        final List<BackendConfig> configs = new ArrayList<>();
        for (int i = 0; i < backends.length; i++)
        {
            configs.add(new BackendConfig("b" + (i + 1), backends[i], 1));
        }
        final VipConfig vip = new VipConfig("web", VIP_ADDRESS, 80, TransportProtocol.TCP, configs);
        final ControllerConfig defaults = ControllerConfig.defaults();
        final ControllerConfig controller = new ControllerConfig(check, damping, failOpenShare,
            defaults.forwarderLivenessTimeoutNs(), defaults.drainTimeNs(), false, defaults.metrics(), null);
        return new HealthMonitor(List.of(vip), controller);
    }

    private static HealthMonitor monitor(final int rise, final int fall, final InetAddress... backends)
    {
        return monitor(check(rise, fall, false), FlapDampingConfig.defaults(), backends);
    }

    /** Runs every due check with the fake checkers, then advances the clock by one interval. */
    private void runRound(final HealthMonitor monitor)
    {
        for (final HealthMonitor.Due due : monitor.due(nowMs))
        {
            final boolean pass = passes.getOrDefault(due.backend().address(), false);
            monitor.onResult(due.vip().name(), due.backend().address(),
                pass ? CheckResult.pass("connected", 1_000) : CheckResult.fail("connect refused", 1_000), nowMs);
        }
        monitor.onTick(nowMs);
        nowMs += INTERVAL_MS;
    }

    private static SetBackendHealth set(final InetAddress backend, final boolean up)
    {
        return new SetBackendHealth(WEB, backend, up);
    }

    @Test
    void commandsEveryBackendDownOnceAtStart()
    {
        final HealthMonitor monitor = monitor(2, 2, B1, B2);

        assertEquals(List.of(), captured.messages(), "a command is logged when it is handed out");
        assertEquals(List.of(set(B1, false), set(B2, false)), monitor.drainCommands());
        assertEquals(List.of(), monitor.drainCommands());
        assertEquals(List.of("VIP web: forwarder sets backend b1 down (not checked yet)",
            "VIP web: forwarder sets backend b2 down (not checked yet)"), captured.drain());
    }

    @Test
    void neverLogsTheCommandsACarryOverDrops()
    {
        final HealthMonitor running = monitor(1, 1, B1, B2);
        passes.put(B1, true);
        passes.put(B2, true);
        runRound(running);
        running.drainCommands();
        captured.clear();

        final HealthMonitor reloaded = monitor(1, 1, B1, B2);
        assertEquals(2, reloaded.carryOver(running));

        assertEquals(List.of(), reloaded.drainCommands());
        assertEquals(List.of(), captured.messages(), "no 'down (not checked yet)' for backends the reload keeps up");
    }

    @Test
    void commandsNothingAtStartWhenBackendsStartUp()
    {
        final HealthMonitor monitor = monitor(check(2, 2, true), FlapDampingConfig.defaults(), B1, B2);

        assertEquals(List.of(), monitor.drainCommands());
        assertTrue(monitor.isCommandedUp("web", B1));
    }

    @Test
    void commandsUpAfterRisePassedChecks()
    {
        // Start up, so that B2 stays healthy and keeps the VIP out of fail-open.
        final HealthMonitor monitor = monitor(check(3, 1, true), FlapDampingConfig.defaults(), B1, B2);
        passes.put(B2, true);
        runRound(monitor);
        assertEquals(List.of(set(B1, false)), monitor.drainCommands());

        passes.put(B1, true);
        runRound(monitor);
        runRound(monitor);
        assertEquals(List.of(), monitor.drainCommands(), "two of three passes");

        runRound(monitor);
        assertEquals(List.of(set(B1, true)), monitor.drainCommands());
        runRound(monitor);
        assertEquals(List.of(), monitor.drainCommands(), "only changes are commanded");
    }

    @Test
    void commandsDownAfterFallFailedChecks()
    {
        final HealthMonitor monitor = monitor(1, 2, B1, B2);
        passes.put(B1, true);
        passes.put(B2, true);
        runRound(monitor);
        monitor.drainCommands();
        captured.drain();

        passes.put(B2, false);
        runRound(monitor);
        assertEquals(List.of(), monitor.drainCommands(), "one of two failures");
        runRound(monitor);

        assertEquals(List.of(set(B2, false)), monitor.drainCommands());
        assertTrue(captured.drain().contains("VIP web: backend b2 down: 2 consecutive failed checks " +
            "(last: connect refused)"));
    }

    @Test
    void neverFailsOpenWithTheDefaultShare()
    {
        final HealthMonitor monitor = monitor(1, 1, B1, B2);
        runRound(monitor);
        assertFalse(monitor.isFailOpen("web"));
        assertEquals(0, monitor.eligibleCount("web"), "no healthy backend: the VIP is withdrawn, not failed open");
    }

    @Test
    void failsOpenWhenAllAreDownAndBackToHealthyOnlyWhenOneRecovers()
    {
        final HealthMonitor monitor = monitor(check(1, 1, false), FlapDampingConfig.defaults(), 0.2, B1, B2, B3);
        passes.put(B1, true);
        passes.put(B2, true);
        passes.put(B3, true);
        runRound(monitor);
        monitor.drainCommands();
        captured.drain();

        passes.put(B1, false);
        passes.put(B2, false);
        runRound(monitor);
        assertEquals(List.of(set(B1, false), set(B2, false)), monitor.drainCommands());

        passes.put(B3, false);
        runRound(monitor);
        assertTrue(monitor.isFailOpen("web"));
        assertEquals(List.of(set(B1, true), set(B2, true)), monitor.drainCommands(),
            "B3 stays up: it was eligible before and after");
        assertTrue(captured.drain()
            .contains("VIP web fail-open: 0 of 3 backends healthy (below 20%), sending to all"));
        assertEquals(System.Logger.Level.WARNING,
            captured.levelOf("VIP web fail-open: 0 of 3 backends healthy (below 20%), sending to all"));

        runRound(monitor);
        assertEquals(List.of(), monitor.drainCommands(), "fail-open is commanded once");

        passes.put(B2, true);
        runRound(monitor);
        assertFalse(monitor.isFailOpen("web"));
        assertEquals(List.of(set(B1, false), set(B3, false)), monitor.drainCommands());
        assertTrue(monitor.isCommandedUp("web", B2));
    }

    @Test
    void waitsForTheFirstRoundBeforeFailingOpen()
    {
        final HealthMonitor monitor = monitor(check(1, 1, false), FlapDampingConfig.defaults(), 0.5, B1, B2);
        monitor.drainCommands();

        monitor.onResult("web", B1, CheckResult.fail("connect refused", 1), nowMs);
        assertEquals(List.of(), monitor.drainCommands(), "B2 not checked yet");
        monitor.onResult("web", B2, CheckResult.fail("connect refused", 1), nowMs);

        assertEquals(List.of(set(B1, true), set(B2, true)), monitor.drainCommands());
    }

    @Test
    void flapDampingHoldsABackendDown()
    {
        // More than one change in a minute holds down for 30 s (growing to at most 60 s).
        final FlapDampingConfig damping = new FlapDampingConfig(1, TimeUnit.SECONDS.toNanos(60),
            TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(60), TimeUnit.MINUTES.toNanos(5));
        final HealthMonitor monitor = monitor(check(1, 1, false), damping, B1, B2);
        passes.put(B1, true);
        passes.put(B2, true);
        runRound(monitor);
        assertEquals(List.of(set(B1, false), set(B2, false), set(B1, true), set(B2, true)),
            monitor.drainCommands());

        passes.put(B1, false);
        runRound(monitor);
        assertEquals(List.of(set(B1, false)), monitor.drainCommands());

        final List<String> logged = captured.drain();
        assertTrue(logged.contains("VIP web: backend b1 held down for 30 s: 2 state changes in 60 s (flapping)"),
            logged.toString());
        assertEquals(System.Logger.Level.WARNING,
            captured.levelOf("VIP web: backend b1 held down for 30 s: 2 state changes in 60 s (flapping)"));

        passes.put(B1, true);
        final long recoveredMs = nowMs;
        for (int i = 0; i < 20; i++)
        {
            runRound(monitor);
            assertEquals(List.of(), monitor.drainCommands(), "held down at round " + i);
        }

        nowMs = recoveredMs + 61_000;
        monitor.onTick(nowMs);
        assertEquals(List.of(set(B1, true)), monitor.drainCommands());
    }

    @Test
    void schedulesEachBackendOneIntervalAfterItsLastCheck()
    {
        final HealthMonitor monitor = monitor(2, 2, B1, B2);
        final long startMs = nowMs;

        assertEquals(2, monitor.due(startMs).size(), "first checks are due at once");
        assertEquals(List.of(), monitor.due(startMs));
        assertEquals(List.of(), monitor.due(startMs + INTERVAL_MS - 1));

        final List<HealthMonitor.Due> due = monitor.due(startMs + INTERVAL_MS);
        assertEquals(2, due.size());
        assertEquals(B1, due.get(0).backend().address());
        assertEquals("web", due.get(0).vip().name());
        assertEquals(List.of(), monitor.due(startMs + INTERVAL_MS + 1));
    }

    @Test
    void convertsFlapDampingToMilliseconds()
    {
        final var policy = HealthMonitor.flapDamping(FlapDampingConfig.defaults());

        assertEquals(FlapDampingConfig.DEFAULT_MAX_CHANGES, policy.maxStateChanges());
        assertEquals(60_000, policy.windowMs());
        assertEquals(30_000, policy.initialHoldDownMs());
        assertEquals(600_000, policy.maxHoldDownMs());
        assertEquals(300_000, policy.quietPeriodMs());
        final var configured = HealthMonitor.flapDamping(new FlapDampingConfig(2, TimeUnit.SECONDS.toNanos(10),
            TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(40), TimeUnit.SECONDS.toNanos(90)));
        assertEquals(90_000, configured.quietPeriodMs());
    }
}
