package io.sluice.controller;

import io.sluice.common.NodeProcess;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlChannel;
import io.sluice.controller.monitor.HealthMonitor;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code sluice controller --config FILE}: health-checks the node's backends and tells the forwarder which are up,
 * until SIGTERM or SIGINT. BGP is not part of it yet.
 * <p>
 * Exit status: 0 after a clean stop, 2 for bad arguments or a bad config (file, field and reason on stderr).
 */
public final class ControllerMain
{
    /** How many health checks may block at once. */
    static final int CHECK_THREADS = 4;

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
        final NodeConfig config, final PrintStream out, final PrintStream err, final ShutdownSignalBarrier barrier)
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

        final Path channelFile = config.nodeDirectory().resolve(ControlChannel.FILE_NAME);
        final HealthCheckRunner runner = new HealthCheckRunner(monitor, channelFile, CHECK_THREADS, out);
        final AgentRunner agentRunner = new AgentRunner(new SleepingMillisIdleStrategy(10),
            ex -> err.println("controller: health-check runner error: " + ex), null, runner);
        AgentRunner.startOnThread(agentRunner);
        out.println("controller: node " + config.node().name() + ", " + config.vips().size() + " VIPs, " +
            backendCount(config) + " backends, forwarder control channel " + channelFile +
            "; BGP: not yet implemented");
        try
        {
            barrier.await();
            out.println("controller: stopping");
        }
        finally
        {
            // Closing the agent runner runs onClose on the agent thread: stops the check pool, unmaps the channel.
            CloseHelper.close(agentRunner);
        }
        out.println("controller: stopped cleanly");
        out.flush();
        return 0;
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
