package io.sluice.tools.stats;

import io.sluice.common.counters.CountersFileHeader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link StatsTool}, checked. Every problem is a {@link BadArgumentException} whose message
 * names the option.
 *
 * @param file        {@code --file}, or null.
 * @param node        {@code --node}, or null.
 * @param directory   {@code --dir}, or the default directory.
 * @param watch       {@code --watch}.
 * @param intervalNs  {@code --interval} in nanoseconds.
 * @param count       samples to print: {@code --count}, else 1, or unlimited with {@code --watch}.
 * @param json        {@code --json}.
 * @param help        {@code --help} or {@code -h}.
 */
record StatsArguments(
    Path file, String node, Path directory, boolean watch, long intervalNs, long count, boolean json, boolean help)
{
    static final String USAGE = "usage: stats [--file PATH | --node NAME [--dir DIR]] [--watch] [--interval SECONDS] " +
        "[--count N] [--json]";

    static final double MIN_INTERVAL_S = 0.001;
    static final double MAX_INTERVAL_S = 3600;
    static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;

    private static final Set<String> VALUE_OPTIONS = Set.of("--file", "--node", "--dir", "--interval", "--count");
    private static final Set<String> FLAG_OPTIONS = Set.of("--watch", "--json");

    /**
     * A command line that cannot be used; the message names the option and the problem.
     */
    static final class BadArgumentException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        BadArgumentException(final String message)
        {
            super(message);
        }
    }

    /**
     * Parses and checks a command line.
     *
     * @param args the arguments.
     * @return the settings.
     * @throws BadArgumentException on any problem.
     */
    static StatsArguments parse(final String[] args)
    {
        for (final String arg : args)
        {
            if ("--help".equals(arg) || "-h".equals(arg))
            {
                return new StatsArguments(null, null, null, false, DEFAULT_INTERVAL_NS, 1, false, true);
            }
        }
        final Map<String, String> values = new HashMap<>();
        final Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.length; i++)
        {
            final String name = args[i];
            if (FLAG_OPTIONS.contains(name))
            {
                if (!flags.add(name))
                {
                    throw new BadArgumentException(name + " is given twice");
                }
            }
            else if (VALUE_OPTIONS.contains(name))
            {
                if (i + 1 >= args.length || args[i + 1].startsWith("--"))
                {
                    throw new BadArgumentException(name + " needs a value");
                }
                if (values.put(name, args[++i]) != null)
                {
                    throw new BadArgumentException(name + " is given twice");
                }
            }
            else
            {
                throw new BadArgumentException("unknown option: " + name);
            }
        }

        final String file = values.get("--file");
        final String node = values.get("--node");
        final String directory = values.get("--dir");
        if (file != null && (node != null || directory != null))
        {
            throw new BadArgumentException("--file cannot be combined with " + (node != null ? "--node" : "--dir"));
        }
        if (node != null && (node.isEmpty() || node.contains("/") || node.equals(".") || node.equals("..")))
        {
            throw new BadArgumentException("--node must be a node name, not a path: '" + node + "' (use --file)");
        }
        final boolean watch = flags.contains("--watch");
        final long count = values.containsKey("--count") ? count(values.get("--count")) : watch ? Long.MAX_VALUE : 1;
        return new StatsArguments(
            file == null ? null : Path.of(file),
            node,
            Path.of(directory == null ? CountersFileHeader.DEFAULT_DIRECTORY : directory),
            watch,
            values.containsKey("--interval") ? intervalNs(values.get("--interval")) : DEFAULT_INTERVAL_NS,
            count,
            flags.contains("--json"),
            false);
    }

    private static long intervalNs(final String text)
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

    private static BadArgumentException badInterval(final String text)
    {
        return new BadArgumentException("--interval must be a number of seconds in [" + MIN_INTERVAL_S + ", " +
            (long)MAX_INTERVAL_S + "], got '" + text + "'");
    }

    private static long count(final String text)
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
        throw new BadArgumentException("--count must be an integer >= 1, got '" + text + "'");
    }
}
