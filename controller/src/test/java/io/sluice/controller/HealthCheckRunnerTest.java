package io.sluice.controller;

import io.sluice.common.Vip;
import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ControllerConfig;
import io.sluice.common.config.FlapDampingConfig;
import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlCommand.SetBackendHealth;
import io.sluice.common.control.ControlServer;
import io.sluice.controller.health.CheckResult;
import io.sluice.controller.monitor.BackendChecker;
import io.sluice.controller.monitor.HealthMonitor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
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

    @TempDir
    Path dir;

    private long nowMs = 1_000_000;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final List<ControlCommand> applied = new CopyOnWriteArrayList<>();
    private HealthCheckRunner runner;
    private ControlChannel serverChannel;
    private Thread serverThread;

    @AfterEach
    void tearDown() throws InterruptedException
    {
        if (runner != null)
        {
            runner.onClose();
        }
        if (serverThread != null)
        {
            serverThread.interrupt();
            serverThread.join(5_000);
        }
        if (serverChannel != null)
        {
            serverChannel.close();
        }
    }

    private static HealthMonitor monitor()
    {
        // Starts down, one pass brings it up, one failure takes it down.
        final HealthCheckConfig check = new HealthCheckConfig(HealthCheckConfig.Type.TCP, "/",
            HealthCheckConfig.VIP_PORT, 200, 399, TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS),
            TimeUnit.MILLISECONDS.toNanos(500), 1, 1, false);
        final VipConfig vip = new VipConfig("web", VIP_ADDRESS, 80, TransportProtocol.TCP,
            List.of(new BackendConfig("b1", B1, 1)));
        final ControllerConfig defaults = ControllerConfig.defaults();
        final ControllerConfig controller = new ControllerConfig(check, FlapDampingConfig.defaults(), 0.0,
            defaults.forwarderLivenessTimeoutNs(), defaults.drainTimeNs(), false, defaults.metrics(), null);
        return new HealthMonitor(List.of(vip), controller);
    }

    private Path channelFile()
    {
        return dir.resolve("node-a").resolve(ControlChannel.FILE_NAME);
    }

    private HealthCheckRunner runner(final HealthMonitor monitor, final BackendChecker checker)
    {
        runner = new HealthCheckRunner(monitor, due -> checker, channelFile(), () -> nowMs, 2,
            new PrintStream(log, true, StandardCharsets.UTF_8), Duration.ofSeconds(5));
        return runner;
    }

    /** A check stuck in a socket call until the runner's pool is shut down. */
    private static CheckResult hang()
    {
        try
        {
            Thread.sleep(60_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return CheckResult.fail("timeout", 0);
    }

    /** A forwarder stand-in that accepts every SET_BACKEND_HEALTH. */
    private void startForwarder()
    {
        serverChannel = ControlChannel.create(channelFile(), 65536);
        final ControlServer server = new ControlServer(serverChannel);
        serverThread = new Thread(() ->
        {
            while (!Thread.currentThread().isInterrupted())
            {
                final int read = server.poll((command, responder) ->
                {
                    applied.add(command);
                    return null;
                }, 10);
                if (read == 0)
                {
                    Thread.onSpinWait();
                }
            }
        }, "test-forwarder");
        serverThread.setDaemon(true);
        serverThread.start();
    }

    /** Runs duty cycles at the current fake time until the condition holds. */
    private void doWorkUntil(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean())
        {
            runner.doWork();
            if (System.nanoTime() - deadline >= 0)
            {
                fail("timed out waiting for " + what + "; log:\n" + log.toString(StandardCharsets.UTF_8));
            }
            Thread.sleep(1);
        }
    }

    @Test
    void feedsResultsToTheMonitorAndSendsItsCommandsToTheForwarder() throws InterruptedException
    {
        startForwarder();
        final HealthMonitor monitor = monitor();
        final AtomicInteger checks = new AtomicInteger();
        runner(monitor, () ->
        {
            checks.incrementAndGet();
            return CheckResult.pass("connected", 1_000);
        });

        doWorkUntil(() -> applied.size() == 2, "the start-down and the up command");

        assertEquals(List.of(new SetBackendHealth(WEB, B1, false), new SetBackendHealth(WEB, B1, true)), applied);
        assertTrue(monitor.isCommandedUp("web", B1));
        assertEquals(1, checks.get(), "one check per interval");
        assertEquals(List.of(), runner.unconfirmedCommands());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("forwarder sets backend b1 up"), log.toString());
    }

    @Test
    void keepsCommandsAndRetriesWhileTheControlChannelIsMissing() throws InterruptedException
    {
        runner(monitor(), HealthCheckRunnerTest::hang); // no result, so the start-down command is the only one

        assertDoesNotThrow(runner::doWork);
        assertDoesNotThrow(runner::doWork);
        assertFalse(runner.isLinked());
        assertEquals(List.of(new SetBackendHealth(WEB, B1, false)), runner.unconfirmedCommands());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("no control channel"), log.toString());

        startForwarder();
        runner.doWork();
        assertFalse(runner.isLinked(), "tries again only a retry interval later");

        nowMs += HealthCheckRunner.RETRY_INTERVAL_MS;
        doWorkUntil(() -> applied.size() == 1, "the start-down command");
        assertTrue(runner.isLinked());
        assertEquals(List.of(new SetBackendHealth(WEB, B1, false)), applied);
    }

    @Test
    void aHangingCheckDoesNotBlockTheDutyCycle() throws InterruptedException
    {
        final AtomicInteger checks = new AtomicInteger();
        runner(monitor(), () ->
        {
            checks.incrementAndGet();
            return hang();
        });

        final long start = System.nanoTime();
        runner.doWork();
        doWorkUntil(() -> checks.get() == 1, "the check to start");
        nowMs += INTERVAL_MS;
        runner.doWork();
        nowMs += INTERVAL_MS;
        runner.doWork();
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "duty cycles did not wait");
        Thread.sleep(50);
        assertEquals(1, checks.get(), "no second check while the first is in flight");
    }
}
