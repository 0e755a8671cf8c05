package io.sluice.common;

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
        if (handle.isEmpty() || !handle.get().isAlive())
        {
            return false;
        }
        final Optional<Instant> started = handle.get().info().startInstant();
        return started.isEmpty() || started.get().toEpochMilli() <= startTimeMs + START_TIME_SLACK_MS;
    }
}
