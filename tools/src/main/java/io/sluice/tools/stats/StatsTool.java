package io.sluice.tools.stats;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import io.sluice.common.counters.CountersFileHeader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a forwarder's counters file, as AeronStat reads Aeron's CnC file, and prints totals, rates and per-worker,
 * per-VIP, per-backend and per-port values.
 * <pre>
 *   stats [--file PATH | --node NAME [--dir DIR]] [--watch] [--interval SECONDS] [--count N] [--json]
 * </pre>
 * Each sample is two snapshots {@code --interval} apart (default 1 s), so every growing counter gets a per-second
 * rate. {@code --watch} prints a sample every interval until interrupted or {@code --count} samples; when the
 * forwarder restarts and replaces the file, the tool follows the new one. {@code --json} prints one JSON object per
 * sample on one line. Without {@code --file} or {@code --node}, the only node under the directory is read.
 */
public final class StatsTool
{
    /**
     * Exit status for a bad command line or a missing counters file.
     */
    public static final int EXIT_USAGE = 2;

    /**
     * Exit status for a counters file that cannot be read.
     */
    public static final int EXIT_FAILURE = 1;

    private final StatsArguments arguments;
    private final PrintStream out;
    private final PrintStream err;
    private final SamplingClock clock;
    private final Path path;
    private final String node;
    private CountersFile file;

    private StatsTool(
        final StatsArguments arguments,
        final PrintStream out,
        final PrintStream err,
        final SamplingClock clock,
        final Path path,
        final String node)
    {
        this.arguments = arguments;
        this.out = out;
        this.err = err;
        this.clock = clock;
        this.path = path;
        this.node = node;
    }

    /**
     * Runs the tool and exits with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the tool on the system clock.
     *
     * @param args the command line.
     * @param out  where samples go.
     * @param err  where problems go.
     * @return 0, {@link #EXIT_USAGE} for a bad command line or no counters file, {@link #EXIT_FAILURE} for a file
     *         that cannot be read.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return run(args, out, err, SamplingClock.SYSTEM);
    }

    /**
     * Runs the tool on a given clock (tests pass one that changes counters instead of sleeping).
     *
     * @param args  the command line.
     * @param out   where samples go.
     * @param err   where problems go.
     * @param clock time and waiting.
     * @return the exit status, as {@link #run(String[], PrintStream, PrintStream)}.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err, final SamplingClock clock)
    {
        return CommandLines.execute(new StatsArguments(out, err, clock), args, out, err, EXIT_USAGE);
    }

    /**
     * Samples as a checked command line asks.
     *
     * @param arguments the command line.
     * @param out       where samples go.
     * @param err       where problems go.
     * @param clock     time and waiting.
     * @return the exit status, as {@link #run(String[], PrintStream, PrintStream)}.
     */
    static int run(final StatsArguments arguments, final PrintStream out, final PrintStream err,
        final SamplingClock clock)
    {
        final Path path;
        final String node;
        if (arguments.file() != null)
        {
            path = arguments.file().toAbsolutePath();
            node = path.getParent() != null && path.getParent().getFileName() != null ?
                path.getParent().getFileName().toString() : "-";
        }
        else if (arguments.node() != null)
        {
            path = CountersFileHeader.nodeFile(arguments.directory(), arguments.node()).toAbsolutePath();
            node = arguments.node();
        }
        else
        {
            final List<String> nodes = nodesUnder(arguments.directory());
            if (nodes.size() != 1)
            {
                err.println(nodes.isEmpty() ?
                    "stats: no counters file under " + arguments.directory() + " (is the forwarder running?)" :
                    "stats: several nodes under " + arguments.directory() + " " + nodes + ": pick one with --node");
                return EXIT_USAGE;
            }
            node = nodes.get(0);
            path = CountersFileHeader.nodeFile(arguments.directory(), node).toAbsolutePath();
        }
        if (!Files.exists(path))
        {
            err.println("stats: no counters file at " + path + " (is the forwarder running?)");
            return EXIT_USAGE;
        }

        final StatsTool tool = new StatsTool(arguments, out, err, clock, path, node);
        try
        {
            tool.file = CountersFile.openReadOnly(path);
        }
        catch (final CountersFileException ex)
        {
            err.println("stats: " + ex.getMessage());
            return EXIT_FAILURE;
        }
        try
        {
            tool.sample();
            return 0;
        }
        finally
        {
            tool.file.close();
        }
    }

    private void sample()
    {
        CounterSnapshot previous = CounterSnapshot.take(file.reader(), clock);
        for (long sample = 0; sample < arguments.count(); sample++)
        {
            try
            {
                clock.sleepNanos(arguments.intervalNs());
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
            if (arguments.watch())
            {
                followReplacement();
            }
            final CounterSnapshot current = CounterSnapshot.take(file.reader(), clock);
            final StatsReport report = StatsReport.build(node, path, file.pid(), file.isOwnerAlive(),
                file.startTimeMs(), previous, current);
            if (arguments.json())
            {
                out.println(StatsJsonFormat.format(report));
            }
            else
            {
                if (sample > 0)
                {
                    out.println();
                }
                out.print(StatsTextFormat.format(report));
            }
            out.flush();
            previous = current;
        }
    }

    /**
     * Switches to a new file at the path, written by a restarted forwarder. The old mapping stays valid after its
     * file is removed, so until a new file appears the last values are shown, with the owner not alive.
     */
    private void followReplacement()
    {
        if (file.isStillAtPath() || !Files.exists(path))
        {
            return;
        }
        try
        {
            final CountersFile replacement = CountersFile.openReadOnly(path);
            file.close();
            file = replacement;
        }
        catch (final CountersFileException ex)
        {
            err.println("stats: still showing the previous file: " + ex.getMessage());
        }
    }

    private static List<String> nodesUnder(final Path directory)
    {
        final List<String> nodes = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return nodes;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory))
        {
            for (final Path entry : entries)
            {
                if (Files.isRegularFile(entry.resolve(CountersFileHeader.FILE_NAME)))
                {
                    nodes.add(entry.getFileName().toString());
                }
            }
        }
        catch (final IOException ex)
        {
            return nodes;
        }
        nodes.sort(null);
        return nodes;
    }
}
