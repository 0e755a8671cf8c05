package io.sluice.forwarder.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The process that holds a core, as its OpenHFT affinity lock file ({@code cpu-N.lock} in {@code java.io.tmpdir})
 * says: the pid on the first line, the time it took the core on the second; the command line from
 * {@code /proc/PID/cmdline}, shortened to what names the program (for a JVM its main class or jar and their
 * arguments, not the JVM's options).
 *
 * @param core     the CPU.
 * @param pid      the holder's pid, or {@link #NO_PID} when the lock file gives none.
 * @param since    when it took the core, as the lock file writes it; empty when unknown.
 * @param command  the holder's program and arguments, shortened; empty when unknown (the process is gone, or
 *                 /proc is not readable).
 * @param lockFile the lock file.
 */
public record CoreHolder(int core, long pid, String since, String command, Path lockFile)
{
    /** The pid of a lock file that gives none. */
    public static final long NO_PID = -1;
    /** The longest command shown; the rest is cut with "...". */
    static final int MAX_COMMAND_LENGTH = 160;

    // JVM options whose value is the next argument; everything else up to the main class is one argument.
    private static final Set<String> JAVA_OPTIONS_WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p",
        "--module-path", "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-opens", "--add-exports",
        "--add-reads", "--patch-module", "--enable-native-access");

    /**
     * Describes the holder for a message: {@code core 1 is held by pid 7270 (java io.sluice.forwarder.ForwarderMain
     * --config lb1.yaml) since 2026.12.02 at 02:48:10 UTC (lock file /tmp/cpu-1.lock): ...}.
     *
     * @return one line.
     */
    public String describe()
    {
        final StringBuilder text = new StringBuilder("core ").append(core).append(" is held by ");
        if (pid == NO_PID)
        {
            text.append("another process (its lock file gives no pid)");
        }
        else
        {
            text.append("pid ").append(pid);
            if (!command.isEmpty())
            {
                text.append(" (").append(command).append(')');
            }
        }
        if (!since.isEmpty())
        {
            text.append(" since ").append(since);
        }
        return text.append(" (lock file ").append(lockFile).append("): stop that process or give this worker ")
            .append("another core").toString();
    }

    /**
     * Shortens a command line to what names the program: the program's file name, and for a JVM its main class
     * (or {@code -jar} file, or {@code -m} module) and the arguments after it, without the JVM's own options.
     *
     * @param argv the command line, {@code argv[0]} first.
     * @return the short form, at most {@link #MAX_COMMAND_LENGTH} characters; empty for an empty command line.
     */
    public static String shortCommand(final List<String> argv)
    {
        if (argv.isEmpty())
        {
            return "";
        }
        final String program = Path.of(argv.get(0)).getFileName().toString();
        int main = 1;
        if ("java".equals(program))
        {
            while (main < argv.size() && argv.get(main).startsWith("-"))
            {
                final String option = argv.get(main);
                if ("-jar".equals(option) || "-m".equals(option) || "--module".equals(option))
                {
                    main++;
                    break;
                }
                main += JAVA_OPTIONS_WITH_VALUE.contains(option) ? 2 : 1;
            }
        }
        final StringBuilder text = new StringBuilder(program);
        for (int i = Math.min(main, argv.size()); i < argv.size(); i++)
        {
            text.append(' ').append(argv.get(i));
        }
        return text.length() <= MAX_COMMAND_LENGTH ? text.toString() :
            text.substring(0, MAX_COMMAND_LENGTH - 3) + "...";
    }
}
