package io.sluice.controller;

import io.sluice.common.NodeProcess;
import io.sluice.common.config.Durations;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ForwarderServices;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.common.log.AgentErrorLog;
import io.sluice.controller.announce.RouteSpeaker;
import io.sluice.controller.bgp.ExaBgpRouteSpeaker;
import io.sluice.controller.channel.ForwarderSession;
import io.sluice.controller.health.HealthCheckRunner;
import io.sluice.controller.health.HealthMonitor;
import io.sluice.controller.http.ControllerHttpServer;
import io.sluice.controller.http.ControllerRoutes;
import io.sluice.controller.liveness.CountersObserver;
import io.sluice.controller.liveness.ForwarderLiveness;
import io.sluice.controller.operator.ActionToken;
import io.sluice.controller.operator.BackendWeights;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.controller.operator.OverridesFile;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import sun.misc.Signal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code sluice controller --config FILE}: health-checks the node's backends, keeps the forwarder's backend state in
 * step, watches the forwarder's heartbeat, announces the VIPs over BGP while the node can serve them, and serves
 * metrics, status and operator actions over HTTP on localhost, until SIGTERM or SIGINT.
 * <p>
 * Stopping (SIGTERM, SIGINT) takes the node out of service in order: withdraw every VIP, wait {@code drain_time}
 * for the routers to move traffic to other nodes, then stop ExaBGP and exit. SIGUSR2 exits for a restart instead:
 * ExaBGP keeps running with the routes, and the next controller adopts it and the forwarder's state, so forwarding
 * and announcements go on. SIGHUP reloads the config.
 * <p>
 * Exit status: 0 after a clean stop, 1 when it cannot start (e.g. the HTTP port is taken), 2 for bad arguments or a
 * bad config (file, field and reason on stderr).
 */
public final class ControllerMain
{
    private static final System.Logger LOGGER = System.getLogger(ControllerMain.class.getName());

    /** How many health checks may block at once. */
    static final int CHECK_THREADS = 4;
    /** How long each command waits for the forwarder's answer; short, since the agent waits with it. */
    static final Duration COMMAND_TIMEOUT = Duration.ofMillis(200);
    /** How long the start-up waits for a running forwarder's state. */
    static final Duration ADOPT_TIMEOUT = Duration.ofSeconds(1);
    /** How long a stop waits for the withdrawals to reach ExaBGP. */
    static final long WITHDRAW_TIMEOUT_MS = 5_000;
    /** Least time between two "seen N times" lines of one repeated error. */
    static final long ERROR_SUMMARY_INTERVAL_MS = 10_000;

    private ControllerMain()
    {
    }

    /**
     * Runs the controller.
     *
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        NodeProcess.main("controller", args, ControllerMain::runController);
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            return NodeProcess.run("controller", args, out, err, barrier, ControllerMain::runController);
        }
    }

    private static int runController(
        final Path configFile, final NodeConfig config, final PrintStream out, final PrintStream err,
        final ShutdownSignalBarrier barrier)
    {
        final HealthMonitor monitor;
        try
        {
            monitor = new HealthMonitor(config);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("controller: " + ex.getMessage());
            return NodeProcess.EXIT_USAGE;
        }
        final EpochClock clock = System::currentTimeMillis;
        final Path nodeDirectory = config.nodeDirectory();
        final BackendWeights weights = new BackendWeights(config.vips());
        final OverridesFile overridesFile = OverridesFile.of(config);
        migrateOverrides(overridesFile, nodeDirectory.resolve(OverridesFile.FILE_NAME));
        final boolean restored = restoreOverrides(weights, overridesFile);
        // One error log for the agent and the parts it polls; the agent reports from it while it runs.
        final AgentErrorLog errors = new AgentErrorLog("controller", SystemEpochClock.INSTANCE,
            AgentErrorLog.DEFAULT_CAPACITY, ERROR_SUMMARY_INTERVAL_MS);
        final ForwarderSession session =
            new ForwarderSession(nodeDirectory.resolve(ControlChannel.FILE_NAME), COMMAND_TIMEOUT, errors);
        final CountersObserver observer = new CountersObserver(nodeDirectory.resolve(CountersFileHeader.FILE_NAME));
        adoptRunningForwarder(config, monitor, weights, restored, session, observer, clock);

        final RouteSpeaker speaker;
        try
        {
            speaker = routeSpeaker(config, clock.time(), errors);
        }
        catch (final IOException ex)
        {
            err.println("controller: cannot set up ExaBGP in " + nodeDirectory + ": " + ex);
            CloseHelper.closeAll(session, observer, errors);
            return 1;
        }
        final ControllerAgent agent = new ControllerAgent(configFile, config, monitor,
            checked -> new HealthCheckRunner(checked, CHECK_THREADS), weights, overridesFile, session, observer,
            ForwarderLiveness.of(config.controller()), speaker, clock, errors);
        final AgentRunner agentRunner = new AgentRunner(new SleepingMillisIdleStrategy(10),
            agent::onError, null, agent);
        final ActionToken token;
        try
        {
            token = ActionToken.create(nodeDirectory);
        }
        catch (final IOException ex)
        {
            err.println("controller: cannot write " + nodeDirectory.resolve(ActionToken.FILE_NAME) + ": " + ex);
            CloseHelper.closeAll(agent::onClose, speaker);
            return 1;
        }
        final ControllerHttpServer http;
        try
        {
            http = ControllerRoutes.start(config, agent::status, agent::submit, token);
        }
        catch (final IOException ex)
        {
            err.println("controller: cannot serve metrics and status on " + config.controller().metrics().address()
                .getHostAddress() + ":" + config.controller().metrics().port() + ": " + ex.getMessage());
            CloseHelper.closeAll(agent::onClose, speaker);
            token.delete();
            return 1;
        }
        AgentRunner.startOnThread(agentRunner);
        reloadOnHangUp(agent);
        final AtomicBoolean restart = new AtomicBoolean();
        exitForRestartOnUsr2(barrier, restart);
        LOGGER.log(System.Logger.Level.INFO, "controller: node " + config.node().name() + ", " + config.vips().size() +
            " VIPs, " +
            backendCount(config) + " backends; forwarder files in " + nodeDirectory + "; metrics and status on http://" +
            http.address().getHostString() + ":" + http.address().getPort() + "; BGP: " + speaker.state());
        try
        {
            barrier.await();
            if (restart.get() && speaker instanceof ExaBgpRouteSpeaker exaBgp)
            {
                LOGGER.log(System.Logger.Level.INFO,
                    "controller: exiting for a restart: ExaBGP keeps the VIPs announced; its relay " +
                    "withdraws them if no controller connects within " +
                    Durations.format(config.controller().bgp().exabgp().orphanTimeoutNs()));
                exaBgp.detach();
            }
            else
            {
                stop(config, agent);
            }
        }
        finally
        {
            // Closing the agent runner runs onClose on the agent thread: stops the check pool, unmaps the files.
            CloseHelper.closeAll(agentRunner, speaker, http);
            token.delete();
        }
        LOGGER.log(System.Logger.Level.INFO, "controller: stopped cleanly");
        return 0;
    }

    private static void stop(final NodeConfig config, final ControllerAgent agent)
    {
        if (!config.controller().hasBgp())
        {
            LOGGER.log(System.Logger.Level.INFO, "controller: stopping (no BGP: nothing to withdraw)");
            return;
        }
        LOGGER.log(System.Logger.Level.INFO, "controller: stopping: withdrawing every VIP first");
        agent.beginShutdown();
        final long deadline = System.currentTimeMillis() + WITHDRAW_TIMEOUT_MS;
        while (!agent.isWithdrawnForShutdown() && System.currentTimeMillis() < deadline)
        {
            sleepMs(10);
        }
        if (!agent.isWithdrawnForShutdown())
        {
            LOGGER.log(System.Logger.Level.WARNING, "controller: withdrawals not confirmed by ExaBGP within " +
                WITHDRAW_TIMEOUT_MS +
                " ms; stopping ExaBGP ends the BGP sessions, which withdraws the routes too");
        }
        final long drainMs = TimeUnit.NANOSECONDS.toMillis(config.controller().drainTimeNs());
        LOGGER.log(System.Logger.Level.INFO, "controller: VIPs withdrawn; waiting drain_time " + drainMs +
            " ms for the routers to move traffic away");
        sleepMs(drainMs);
    }

    /** Controllers before node.state_dir kept the overrides in shared memory, which a reboot empties. */
    private static void migrateOverrides(final OverridesFile overridesFile, final Path legacy)
    {
        try
        {
            if (overridesFile.migrateFrom(legacy))
            {
                LOGGER.log(System.Logger.Level.INFO, "controller: moved the operator overrides from " + legacy +
                    " to " + overridesFile.path());
            }
        }
        catch (final IOException ex)
        {
            LOGGER.log(System.Logger.Level.WARNING, "controller: cannot move the operator overrides from " + legacy +
                " to " +
                overridesFile.path() + ": " + ex);
        }
    }

    private static boolean restoreOverrides(
        final BackendWeights weights, final OverridesFile overridesFile)
    {
        final List<String> problems = new ArrayList<>();
        try
        {
            final int restored = weights.restore(overridesFile.read(problems));
            problems.forEach(problem -> LOGGER.log(System.Logger.Level.WARNING, "controller: " + problem));
            if (restored > 0)
            {
                LOGGER.log(System.Logger.Level.INFO, "controller: restored " + restored + " operator overrides from " +
                    overridesFile.path());
            }
            return restored > 0;
        }
        catch (final IOException ex)
        {
            LOGGER.log(System.Logger.Level.WARNING, "controller: cannot read operator overrides " +
                overridesFile.path() + ": " + ex + "; starting from the configured weights");
            return false;
        }
    }

    /**
     * A controller that restarts next to a running forwarder takes over its backend state, so the restart changes
     * nothing in forwarding or in BGP.
     */
    private static void adoptRunningForwarder(final NodeConfig config, final HealthMonitor monitor,
        final BackendWeights weights, final boolean overridesRestored, final ForwarderSession session,
        final CountersObserver observer, final EpochClock clock)
    {
        final long nowMs = clock.time();
        final ForwarderLiveness probe = ForwarderLiveness.of(config.controller());
        if (probe.observe(nowMs, observer.observe()) == null)
        {
            LOGGER.log(System.Logger.Level.INFO, "controller: no running forwarder to adopt (" + probe.reason() + ")");
            return;
        }
        final ForwarderServices state = session.queryState(nowMs, ADOPT_TIMEOUT);
        if (state == null)
        {
            LOGGER.log(System.Logger.Level.WARNING,
                "controller: the running forwarder did not report its state; starting from the config");
            return;
        }
        monitor.adopt(state);
        if (!overridesRestored)
        {
            final int adopted = weights.adopt(state);
            if (adopted > 0)
            {
                LOGGER.log(System.Logger.Level.INFO, "controller: adopted " + adopted +
                    " backend weights from the running forwarder");
            }
        }
    }

    private static RouteSpeaker routeSpeaker(final NodeConfig config, final long nowMs, final AgentErrorLog errors)
        throws IOException
    {
        if (!config.controller().hasBgp())
        {
            return RouteSpeaker.none();
        }
        return ExaBgpRouteSpeaker.start(config.controller().bgp(), config.vips(), config.nodeDirectory(), nowMs,
            errors);
    }

    /** SIGUSR2 exits without withdrawing: for a restart of the controller alone (an upgrade, say). */
    private static void exitForRestartOnUsr2(
        final ShutdownSignalBarrier barrier, final AtomicBoolean restart)
    {
        try
        {
            Signal.handle(new Signal("USR2"), signal ->
            {
                restart.set(true);
                barrier.signal();
            });
        }
        catch (final IllegalArgumentException ex)
        {
            LOGGER.log(System.Logger.Level.WARNING, "controller: SIGUSR2 cannot be handled here (" + ex.getMessage() +
                ")");
        }
    }

    /** SIGHUP re-reads the config, as {@code sluice reload} does. */
    private static void reloadOnHangUp(final ControllerAgent agent)
    {
        try
        {
            Signal.handle(new Signal("HUP"), signal -> agent.submit(OperatorRequest.reload())
                .thenAccept(reply -> LOGGER.log(System.Logger.Level.INFO, "controller: SIGHUP: " + reply.message())));
        }
        catch (final IllegalArgumentException ex)
        {
            LOGGER.log(System.Logger.Level.WARNING, "controller: SIGHUP cannot be handled here (" + ex.getMessage() +
                "); use sluice reload");
        }
    }

    private static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static int backendCount(final NodeConfig config)
    {
        int count = 0;
        for (final VipConfig vip : config.vips())
        {
            count += vip.backends().size();
        }
        return count;
    }
}
