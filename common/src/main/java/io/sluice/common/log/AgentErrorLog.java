package io.sluice.common.log;

import org.agrona.BufferUtil;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.errors.ErrorLogReader;

import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The error handler of a process's agents (and of any catch block in a duty cycle): an error is recorded in an
 * Agrona {@link DistinctErrorLog}, where one seen again only bumps a count and a last-seen time, and a reporter
 * (a daemon thread, or {@link #report()} called directly) logs each distinct error once with its stack trace and
 * afterwards at most one "seen N times since T" line per summary interval while it keeps coming back.
 * <p>
 * The recording thread never formats or logs anything; the log is a small direct buffer in this process.
 */
public final class AgentErrorLog implements ErrorHandler, AutoCloseable
{
    /**
     * Bytes for distinct errors: room for a few dozen stack traces; an error that no longer fits is counted in
     * {@link #unrecorded()} and logged once.
     */
    public static final int DEFAULT_CAPACITY = 64 * 1024;

    private static final System.Logger LOGGER = System.getLogger(AgentErrorLog.class.getName());

    private final AtomicBuffer buffer;
    private final DistinctErrorLog log;
    private final EpochClock clock;
    private final long summaryIntervalMs;
    private final String owner;
    private int[] reportedCounts = new int[8];
    private long[] summarisedAtMs = new long[8];
    private int known;
    private final AtomicLong unrecorded = new AtomicLong();
    private long unrecordedReported;
    private Thread reporter;
    private volatile boolean running;

    /**
     * Creates an empty log; nothing reports until {@link #startReporter(long)} or {@link #report()}.
     *
     * @param owner             what the errors come from, e.g. "forwarder", for the log lines.
     * @param clock             time of the observations and of the summaries.
     * @param capacity          bytes for distinct errors.
     * @param summaryIntervalMs least time between two summary lines of one error.
     */
    public AgentErrorLog(final String owner, final EpochClock clock, final int capacity, final long summaryIntervalMs)
    {
        this.owner = owner;
        this.clock = clock;
        this.summaryIntervalMs = summaryIntervalMs;
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity, 64));
        this.log = new DistinctErrorLog(buffer, clock);
    }

    /**
     * Records an error; called on the agent's thread.
     *
     * @param error what the agent threw or caught.
     */
    public void onError(final Throwable error)
    {
        if (!log.record(error))
        {
            unrecorded.incrementAndGet();
        }
    }

    /**
     * How many errors did not fit in the log.
     *
     * @return the count since start.
     */
    public long unrecorded()
    {
        return unrecorded.get();
    }

    /**
     * Starts a daemon thread that calls {@link #report()} every {@code periodMs}.
     *
     * @param periodMs time between two reports.
     * @return this.
     */
    public synchronized AgentErrorLog startReporter(final long periodMs)
    {
        running = true;
        reporter = new Thread(() -> reportUntilClosed(periodMs), owner + "-errors");
        reporter.setDaemon(true);
        reporter.start();
        return this;
    }

    /**
     * Logs errors seen for the first time (with their stack trace) and, for errors seen again, one summary line
     * when the summary interval has passed since the last one.
     *
     * @return how many lines were logged.
     */
    public synchronized int report()
    {
        return report(false);
    }

    /**
     * Stops the reporter and logs what is left, every repeat included.
     */
    public void close()
    {
        final Thread thread;
        synchronized (this)
        {
            running = false;
            thread = reporter;
            reporter = null;
        }
        if (thread != null)
        {
            thread.interrupt();
            try
            {
                thread.join(1000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this)
        {
            report(true);
        }
    }

    private void reportUntilClosed(final long periodMs)
    {
        while (running)
        {
            try
            {
                Thread.sleep(periodMs);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            synchronized (this)
            {
                if (running)
                {
                    report(false);
                }
            }
        }
    }

    private int report(final boolean everyRepeat)
    {
        final long now = clock.time();
        final int[] lines = new int[1];
        final int[] index = new int[1];
        ErrorLogReader.read(buffer, (count, first, last, encoded) ->
        {
            lines[0] += reportOne(index[0]++, count, first, last, encoded, now, everyRepeat);
        });
        final long missed = unrecorded.get();
        if (missed > unrecordedReported)
        {
            LOGGER.log(System.Logger.Level.ERROR, "{0}: {1} agent errors did not fit in the error log ({2} bytes)",
                owner, missed, buffer.capacity());
            unrecordedReported = missed;
            lines[0]++;
        }
        return lines[0];
    }

    private int reportOne(
        final int i, final int count, final long first, final long last, final String encoded, final long now,
        final boolean everyRepeat)
    {
        if (i >= known)
        {
            if (i >= reportedCounts.length)
            {
                reportedCounts = Arrays.copyOf(reportedCounts, reportedCounts.length * 2);
                summarisedAtMs = Arrays.copyOf(summarisedAtMs, summarisedAtMs.length * 2);
            }
            known = i + 1;
            reportedCounts[i] = count;
            summarisedAtMs[i] = now;
            LOGGER.log(System.Logger.Level.ERROR, "{0}: agent error seen {1} time(s) since {2}: {3}", owner, count,
                Instant.ofEpochMilli(first), encoded.stripTrailing());
            return 1;
        }
        if (count > reportedCounts[i] && (everyRepeat || now - summarisedAtMs[i] >= summaryIntervalMs))
        {
            LOGGER.log(System.Logger.Level.WARNING, "{0}: agent error seen {1} times since {2} (last at {3}): {4}",
                owner, count, Instant.ofEpochMilli(first), Instant.ofEpochMilli(last), firstLine(encoded));
            reportedCounts[i] = count;
            summarisedAtMs[i] = now;
            return 1;
        }
        return 0;
    }

    private static String firstLine(final String encoded)
    {
        final int end = encoded.indexOf('\n');
        return (end < 0 ? encoded : encoded.substring(0, end)).stripTrailing();
    }
}
