package io.sluice.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Tells whether the process that wrote a shared-memory file header (its pid and start time) still runs, so a
 * file left by a dead forwarder can be replaced and a live one is never taken over.
 */
public final class OwnerProcess
{
    /**
     * Slack for clock granularity: a process that started this much after the header's time is not its owner.
     */
    public static final long START_TIME_SLACK_MS = 2_000;

    private OwnerProcess()
    {
    }

    /**
     * Tells whether a process runs that could be the one that wrote a header.
     *
     * @param pid         the header's pid; 0 or less after a clean close.
     * @param startTimeMs the header's start time, epoch milliseconds.
     * @return false when no such process runs, or it started after the header was written (a reused pid).
     */
    public static boolean isAlive(final long pid, final long startTimeMs)
    {
        if (pid <= 0)
        {
            return false;
        }
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !isRunning(handle.get()))
        {
            return false;
        }
        final Optional<Instant> started = handle.get().info().startInstant();
        return started.isEmpty() || started.get().toEpochMilli() <= startTimeMs + START_TIME_SLACK_MS;
    }

    /**
     * Tells whether a process runs, not counting a zombie: {@link ProcessHandle#isAlive()} says true for a process
     * that exited but that its parent has not waited for yet, which for a process this JVM did not start (an
     * adopted ExaBGP, a forwarder started by someone else) can last as long as the parent, e.g. an init that reaps
     * late or never.
     *
     * @param process the process.
     * @return false when it exited, also while it is a zombie (Linux {@code /proc/<pid>/stat} state Z or X).
     */
    public static boolean isRunning(final ProcessHandle process)
    {
        if (!process.isAlive())
        {
            return false;
        }
        try
        {
            final String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"),
                StandardCharsets.ISO_8859_1);
            // "pid (comm) S ...": comm may hold blanks and parentheses, the state follows the last ')'.
            final int end = stat.lastIndexOf(')');
            final char state = end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : 'R';
            return state != 'Z' && state != 'X';
        }
        catch (final NoSuchFileException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            return true; // no /proc (not Linux): trust isAlive
        }
    }
}
