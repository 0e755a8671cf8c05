package io.sluice.tools.stats;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.counters.CountersFileHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * The command line of {@link StatsTool} ({@code sluice stats}), parsed by picocli and checked; every problem is a
 * usage error naming the option.
 */
@Command(name = "stats", synopsisHeading = "", customSynopsis = StatsArguments.USAGE,
    description = {"Reads a running forwarder's counters file and prints totals, per-second rates and the " +
        "per-worker, per-VIP, per-backend and per-port values. Without --file or --node, the only node under the " +
        "directory is read. Exit status: 0, 1 a file that is not a counters file, 2 a bad command line or no " +
        "counters file."})
final class StatsArguments implements Callable<Integer>
{
    static final String USAGE = "usage: stats [--file PATH | --node NAME [--dir DIR]] [--watch] [--interval SECONDS] " +
        "[--count N] [--json]";

    static final double MIN_INTERVAL_S = 0.001;
    static final double MAX_INTERVAL_S = 3600;
    static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Option(names = "--file", paramLabel = "PATH", description = "the counters file to read")
    private Path file;

    @Option(names = "--node", paramLabel = "NAME",
        description = "read DIR/NAME/" + CountersFileHeader.FILE_NAME)
    private String node;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "counters directory (default " + ForwarderConfig.DEFAULT_COUNTERS_DIRECTORY + "); alone, reads its " +
            "only node")
    private Path directory;

    @Option(names = "--watch", description = "print a sample every interval until interrupted")
    private boolean watch;

    @Option(names = "--interval", paramLabel = "SECONDS", converter = IntervalConverter.class,
        description = "time between the two reads of a sample, for rates (default 1, min 0.001)")
    private Long intervalNs;

    @Option(names = "--count", paramLabel = "N", converter = CountConverter.class,
        description = "print N samples, then stop (with or without --watch; default 1, unlimited with --watch)")
    private Long count;

    @Option(names = "--json", description = "one JSON object per sample, one per line")
    private boolean json;

    private final PrintStream out;
    private final PrintStream err;
    private final SamplingClock clock;

    StatsArguments(final PrintStream out, final PrintStream err, final SamplingClock clock)
    {
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    @Override
    public Integer call()
    {
        if (file != null && (node != null || directory != null))
        {
            throw CommandLines.usageError(spec, "--file cannot be combined with " +
                (node != null ? "--node" : "--dir"));
        }
        if (node != null && (node.isEmpty() || node.contains("/") || node.equals(".") || node.equals("..")))
        {
            throw CommandLines.usageError(spec, "--node must be a node name, not a path: '" + node + "' (use --file)");
        }
        return StatsTool.run(this, out, err, clock);
    }

    /** @return {@code --file}, or null. */
    Path file()
    {
        return file;
    }

    /** @return {@code --node}, or null. */
    String node()
    {
        return node;
    }

    /** @return {@code --dir}, or the default directory. */
    Path directory()
    {
        return directory != null ? directory : Path.of(CountersFileHeader.DEFAULT_DIRECTORY);
    }

    /** @return {@code --watch}. */
    boolean watch()
    {
        return watch;
    }

    /** @return {@code --interval} in nanoseconds. */
    long intervalNs()
    {
        return intervalNs != null ? intervalNs : DEFAULT_INTERVAL_NS;
    }

    /** @return samples to print: {@code --count}, else 1, or unlimited with {@code --watch}. */
    long count()
    {
        return count != null ? count : watch ? Long.MAX_VALUE : 1;
    }

    /** @return {@code --json}. */
    boolean json()
    {
        return json;
    }

    /**
     * {@code --interval SECONDS}: a number of seconds in [0.001, 3600], as nanoseconds.
     */
    static final class IntervalConverter implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String text)
        {
            final double seconds;
            try
            {
                seconds = Double.parseDouble(text);
            }
            catch (final NumberFormatException ex)
            {
                throw badInterval(text);
            }
            if (!(seconds >= MIN_INTERVAL_S && seconds <= MAX_INTERVAL_S))
            {
                throw badInterval(text);
            }
            return Math.round(seconds * 1e9);
        }

        private static TypeConversionException badInterval(final String text)
        {
            return new TypeConversionException("--interval must be a number of seconds in [" + MIN_INTERVAL_S +
                ", " + (long)MAX_INTERVAL_S + "], got '" + text + "'");
        }
    }

    /**
     * {@code --count N}: an integer, at least 1.
     */
    static final class CountConverter implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String text)
        {
            try
            {
                final long count = Long.parseLong(text);
                if (count >= 1)
                {
                    return count;
                }
            }
            catch (final NumberFormatException ex)
            {
                // reported below
            }
            throw new TypeConversionException("--count must be an integer >= 1, got '" + text + "'");
        }
    }
}
