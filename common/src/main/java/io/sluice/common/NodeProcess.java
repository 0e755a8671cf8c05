package io.sluice.common;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.NodeCheck;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.log.Logging;
import org.agrona.concurrent.ShutdownSignalBarrier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * What the forwarder and the controller processes share: {@code --config FILE} parsing, loading and checking the
 * node config with the same {@link NodeCheck} (exit 2 with file, field and reason), waiting for SIGTERM/SIGINT,
 * and ending with the status the process means.
 * <p>
 * Exit status: 0 after a clean stop, 2 for bad arguments or a bad config, anything else as the body decides.
 */
public final class NodeProcess
{
    /**
     * Exit status for bad arguments or a bad config.
     */
    public static final int EXIT_USAGE = 2;

    /**
     * The part of a process that differs: start, wait on the barrier, stop.
     */
    @FunctionalInterface
    public interface Body
    {
        /**
         * Runs the process until the barrier is signalled.
         *
         * @param configFile the file the config came from, for a reload.
         * @param config     the loaded node config.
         * @param out        where progress goes.
         * @param err        where problems go.
         * @param barrier    signalled by SIGTERM or SIGINT.
         * @return the exit status.
         */
        int run(Path configFile, NodeConfig config, PrintStream out, PrintStream err, ShutdownSignalBarrier barrier);
    }

    private NodeProcess()
    {
    }

    /**
     * Runs a process as {@code main} and halts the JVM with its status.
     *
     * @param name process name for messages, e.g. "forwarder".
     * @param args command-line arguments.
     * @param body what the process does.
     */
    public static void main(final String name, final String[] args, final Body body)
    {
        // Never closed: after SIGTERM the JVM is already shutting down, and closing the barrier would release its
        // shutdown hook, so the JVM's own exit with 143 would race the halt below (and win now and then).
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        Logging.configure();
        int status = 1;
        try
        {
            status = run(name, args, System.out, System.err, barrier, body);
        }
        catch (final RuntimeException | Error ex)
        {
            System.err.println(name + ": unexpected failure: " + ex);
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

    /**
     * Parses {@code --config FILE}, loads the config and runs the body.
     *
     * @param name    process name for messages.
     * @param args    command-line arguments.
     * @param out     where progress goes.
     * @param err     where problems go.
     * @param barrier signalled by SIGTERM or SIGINT.
     * @param body    what the process does.
     * @return the exit status.
     */
    public static int run(
        final String name,
        final String[] args,
        final PrintStream out,
        final PrintStream err,
        final ShutdownSignalBarrier barrier,
        final Body body)
    {
        final Options options = new Options(name, out, err, barrier, body);
        final CommandLine commandLine = CommandLines.of(options, out, err, EXIT_USAGE);
        commandLine.setCommandName(name);
        return CommandLines.execute(commandLine, args);
    }

    /**
     * The command line of {@code sluice forwarder} and {@code sluice controller}: {@code --config FILE}.
     */
    @Command(name = "node",
        description = "Runs until SIGTERM or SIGINT; a bad config is reported as FILE: FIELD: REASON and exits 2.")
    static final class Options implements Callable<Integer>
    {
        @Spec
        private CommandSpec spec;

        @Option(names = "--config", paramLabel = "FILE",
            description = "the node config (required), e.g. /etc/sluice/node.yaml")
        private Path configFile;

        private final String name;
        private final PrintStream out;
        private final PrintStream err;
        private final ShutdownSignalBarrier barrier;
        private final Body body;

        Options(final String name, final PrintStream out, final PrintStream err, final ShutdownSignalBarrier barrier,
            final Body body)
        {
            this.name = name;
            this.out = out;
            this.err = err;
            this.barrier = barrier;
            this.body = body;
        }

        @Override
        public Integer call()
        {
            if (configFile == null)
            {
                throw CommandLines.usageError(spec, "--config FILE is required");
            }
            return load(name, configFile, out, err, barrier, body);
        }
    }

    private static int load(final String name, final Path configFile, final PrintStream out, final PrintStream err,
        final ShutdownSignalBarrier barrier, final Body body)
    {
        final NodeConfig config;
        try
        {
            // The Java heap is checked in the forwarder's own JVM; the controller's heap is not the forwarder's.
            config = NodeCheck.load(configFile, "forwarder".equals(name));
        }
        catch (final ConfigException ex)
        {
            err.println(ex.getMessage());
            return EXIT_USAGE;
        }
        final int status = body.run(configFile, config, out, err, barrier);
        // Everything is closed: directories this process made for its files go if nothing is left in them.
        CreatedDirectories.removeEmpty();
        return status;
    }
}
