package io.sluice.forwarder;

import io.sluice.common.NodeProcess;
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
 * Exit status: 0 after a clean stop, 2 for bad arguments or a bad config (file, field and reason on stderr; also a
 * configured port EAL did not create or whose device lacks the queues or MTU asked for), 1 when DPDK or the
 * shared-memory files cannot be set up.
 */
public final class ForwarderMain
{
    private static final System.Logger LOGGER = System.getLogger(ForwarderMain.class.getName());

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
        NodeProcess.main("forwarder", args, ForwarderMain::runForwarder);
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            return NodeProcess.run("forwarder", args, out, err, barrier, ForwarderMain::runForwarder);
        }
    }

    private static int runForwarder(
        final Path configFile,
        final NodeConfig config, final PrintStream out, final PrintStream err, final ShutdownSignalBarrier barrier)
    {
        try (Forwarder ignored = Forwarder.start(config, configFile.toString()))
        {
            barrier.await();
            LOGGER.log(System.Logger.Level.INFO, "forwarder: stopping");
        }
        catch (final ForwarderConfigException ex)
        {
            err.println(ex.getMessage());
            return NodeProcess.EXIT_USAGE;
        }
        catch (final DpdkException | CountersFileException | ControlException ex)
        {
            LOGGER.log(System.Logger.Level.ERROR, "forwarder: " + ex.getMessage());
            return 1;
        }
        LOGGER.log(System.Logger.Level.INFO, "forwarder: stopped cleanly");
        return 0;
    }
}
