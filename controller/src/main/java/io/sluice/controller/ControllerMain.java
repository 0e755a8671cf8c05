package io.sluice.controller;

import io.sluice.common.config.ConfigException;
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
        // Never closed, as in ForwarderMain: closing it would release its shutdown hook and let the JVM's own exit
        // (143) race the halt below.
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        int status = 1;
        try
        {
            status = run(args, System.out, System.err, barrier);
        }
        catch (final RuntimeException | Error ex)
        {
            System.err.println("controller: unexpected failure: " + ex);
            ex.printStackTrace();
        }
        finally
        {
            System.out.flush();
            System.err.flush();
            // System.exit would block behind the shutdown hooks; everything is stopped by now.
            Runtime.getRuntime().halt(status);
        }
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            return run(args, out, err, barrier);
        }
    }

    private static int run(final String[] args, final PrintStream out, final PrintStream err,
        final ShutdownSignalBarrier barrier)
    {
        Path configFile = null;
        for (int i = 0; i < args.length; i++)
        {
            if (args[i].equals("--config") && i + 1 < args.length)
            {
                configFile = Path.of(args[++i]);
            }
            else if (args[i].equals("--help") || args[i].equals("-h"))
            {
                out.println("usage: sluice controller --config FILE");
                return 0;
            }
            else
            {
                err.println("controller: unknown argument '" + args[i] + "' (usage: sluice controller --config FILE)");
                return 2;
            }
        }
        if (configFile == null)
        {
            err.println("controller: --config FILE is required");
            return 2;
        }
        final NodeConfig config;
        final HealthMonitor monitor;
        try
        {
            config = NodeConfig.load(configFile);
            monitor = new HealthMonitor(config);
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return 2;
        }
        catch (final IllegalArgumentException ex)
        {
            err.println(configFile + ": " + ex.getMessage());
            return 2;
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
