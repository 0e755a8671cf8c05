package io.sluice.forwarder;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.control.ControlException;
import io.sluice.common.counters.CountersFileException;
import io.sluice.forwarder.dpdk.DpdkException;
import org.agrona.concurrent.ShutdownSignalBarrier;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code sluice forwarder --config FILE}: starts the forwarder, runs until SIGTERM or SIGINT, then stops RX,
 * drains, frees everything, removes its shared-memory files and exits 0.
 * <p>
 * Exit status: 0 after a clean stop, 2 for bad arguments or a bad config (file, field and reason on stderr),
 * 1 when DPDK or the shared-memory files cannot be set up.
 */
public final class ForwarderMain
{
    private ForwarderMain()
    {
    }

    /**
     * Runs the forwarder.
     *
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        // Never closed: after SIGTERM the JVM is already shutting down, and closing the barrier would release its
        // shutdown hook, so the JVM's own exit with 143 would race the halt below (and win now and then).
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        int status = 1;
        try
        {
            status = run(args, System.out, System.err, barrier);
        }
        catch (final RuntimeException | Error ex)
        {
            System.err.println("forwarder: unexpected failure: " + ex);
            ex.printStackTrace();
        }
        finally
        {
            System.out.flush();
            System.err.flush();
            // System.exit would block behind the shutdown hooks: everything is closed by now, so end with the
            // status we mean.
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
                out.println("usage: sluice forwarder --config FILE");
                return 0;
            }
            else
            {
                err.println("forwarder: unknown argument '" + args[i] + "' (usage: sluice forwarder --config FILE)");
                return 2;
            }
        }
        if (configFile == null)
        {
            err.println("forwarder: --config FILE is required");
            return 2;
        }
        final NodeConfig config;
        try
        {
            config = NodeConfig.load(configFile);
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return 2;
        }
        try (Forwarder ignored = Forwarder.start(config, out))
        {
            barrier.await();
            out.println("forwarder: stopping");
        }
        catch (final DpdkException | CountersFileException | ControlException ex)
        {
            err.println("forwarder: " + ex.getMessage());
            return 1;
        }
        out.println("forwarder: stopped cleanly");
        out.flush();
        return 0;
    }
}
