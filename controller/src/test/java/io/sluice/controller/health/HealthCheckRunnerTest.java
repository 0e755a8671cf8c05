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
import io.sluice.controller.health.check.BackendChecker;
import io.sluice.controller.health.check.CheckResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class HealthCheckRunnerTest
{
    private static final long INTERVAL_MS = 1_000;
    private static final InetAddress VIP_ADDRESS = IpLiterals.parse("192.0.2.1");
    private static final Vip WEB = new Vip(VIP_ADDRESS, 80, Vip.TCP);
    private static final InetAddress B1 = IpLiterals.parse("10.1.0.1");

    private long nowMs = 1_000_000;
    private HealthCheckRunner runner;

    @AfterEach
    void tearDown()
    {
        if (runner != null)
        {
            runner.close();
        }
    }

    static HealthMonitor monitor()
    {
        // Starts down, one pass brings it up, one failure takes it down.
        final HealthCheckConfig check = new HealthCheckConfig(HealthCheckConfig.Type.TCP, "/",
            HealthCheckConfig.VIP_PORT, HealthCheckConfig.DEFAULT_EXPECT_STATUS,
            TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS), TimeUnit.MILLISECONDS.toNanos(500), 1, 1, false);
        final VipConfig vip = new VipConfig("web", VIP_ADDRESS, 80, TransportProtocol.TCP,
            List.of(new BackendConfig("b1", B1, 1)));
        final ControllerConfig defaults = ControllerConfig.defaults();
        final ControllerConfig controller = new ControllerConfig(check, FlapDampingConfig.defaults(), 0.0,
            defaults.forwarderLivenessTimeoutNs(), defaults.drainTimeNs(), false, defaults.metrics(), null);
        return new HealthMonitor(List.of(vip), controller);
    }

    private HealthCheckRunner runner(final HealthMonitor monitor, final BackendChecker checker)
    {
        runner = new HealthCheckRunner(monitor, due -> checker, 2);
        return runner;
    }

    /** A check stuck in a socket call until the test releases it or the runner's pool is shut down. */
    private static CheckResult hang(final CountDownLatch started, final CountDownLatch release)
    {
        started.countDown();
        try
        {
            release.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return CheckResult.fail("timeout", 0);
    }

    /** Polls at the current fake time until the condition holds. */
    private void pollUntil(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean())
        {
            runner.poll(nowMs);
            if (System.nanoTime() - deadline >= 0)
            {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    @Test
    void feedsResultsToTheMonitorOneCheckPerInterval() throws InterruptedException
    {
        final HealthMonitor monitor = monitor();
        final AtomicInteger checks = new AtomicInteger();
        runner(monitor, () ->
        {
            checks.incrementAndGet();
            return CheckResult.pass("connected", 1_000);
        });

        pollUntil(() -> monitor.isCommandedUp("web", B1), "the backend to come up");

        assertEquals(List.of(new SetBackendHealth(WEB, B1, false), new SetBackendHealth(WEB, B1, true)),
            monitor.drainCommands());
        assertEquals(1, checks.get(), "one check per interval");
        assertEquals(0, runner.poll(nowMs), "nothing to collect, no check started before the interval");
        assertEquals(1, checks.get(), "the next check is an interval later");
        nowMs += INTERVAL_MS;
        pollUntil(() -> checks.get() == 2, "the second check");
    }

    @Test
    void countsACheckThatThrowsAsFailed() throws InterruptedException
    {
        final HealthMonitor monitor = monitor();
        final AtomicLong fakeNanos = new AtomicLong(1_000_000_000L);
        runner = new HealthCheckRunner(monitor, due -> () ->
        {
            throw new IllegalStateException("bug in a checker");
        }, 2, () -> fakeNanos.getAndAdd(TimeUnit.MILLISECONDS.toNanos(7)));

        pollUntil(() -> monitor.view(nowMs).get(0).backends().get(0).checks() == 1, "the check to be applied");
        final HealthMonitor.BackendView view = monitor.view(nowMs).get(0).backends().get(0);
        assertFalse(view.lastPassed());
        assertTrue(view.lastDetail().contains("bug in a checker"), view.lastDetail());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(7), view.lastLatencyNs(), "timed by the runner's clock");
    }

    @Test
    @Timeout(30) // a poll that waited for the hanging check would never return
    void aHangingCheckDoesNotBlockThePoll() throws InterruptedException
    {
        final HealthMonitor monitor = monitor();
        final AtomicInteger checks = new AtomicInteger();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        runner(monitor, () ->
        {
            checks.incrementAndGet();
            return hang(started, release);
        });

        assertEquals(1, runner.poll(nowMs), "the first check started");
        assertTrue(started.await(10, TimeUnit.SECONDS), "the check runs on a check thread");
        for (int i = 0; i < 3; i++)
        {
            nowMs += INTERVAL_MS;
            // Returns while the check is still blocked (it holds until release): the poll did not wait for it.
            assertEquals(0, runner.poll(nowMs), "due again, but nothing collected and no second check started");
            assertEquals(1, runner.checksInFlight());
        }
        assertEquals(1, checks.get(), "no second check while the first is in flight");

        release.countDown();
        pollUntil(() -> monitor.view(nowMs).get(0).backends().get(0).checks() == 1, "the hung check's result");
        assertEquals("timeout", monitor.view(nowMs).get(0).backends().get(0).lastDetail());
        nowMs += INTERVAL_MS;
        pollUntil(() -> checks.get() == 2, "the next check, an interval after the first came back");
    }
}
