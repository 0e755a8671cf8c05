package io.sluice.controller.bgp;

/**
 * When to restart a process that died: after 1 s, then twice as long after each further death, at most 30 s; back to
 * 1 s once it has run for a minute, so a process that dies once a day always comes back quickly.
 *
 * <p>Pure: times are the caller's milliseconds.
 */
public final class RestartBackoff
{
    /**
     * The first delay.
     */
    public static final long INITIAL_DELAY_MS = 1_000;

    /**
     * The longest delay.
     */
    public static final long MAX_DELAY_MS = 30_000;

    /**
     * How long a process must run for its next death to count as the first again.
     */
    public static final long STABLE_AFTER_MS = 60_000;

    private long nextDelayMs = INITIAL_DELAY_MS;

    /**
     * Returns the delay before restarting a process that just died, and grows the next one.
     *
     * @param startedMs when the process started.
     * @param diedMs    when it was seen dead.
     * @return how long to wait before starting it again.
     */
    public long onDeath(final long startedMs, final long diedMs)
    {
        if (diedMs - startedMs >= STABLE_AFTER_MS)
        {
            nextDelayMs = INITIAL_DELAY_MS;
        }
        final long delay = nextDelayMs;
        nextDelayMs = Math.min(MAX_DELAY_MS, nextDelayMs * 2);
        return delay;
    }

    /**
     * Returns the delay the next death would get.
     *
     * @return milliseconds.
     */
    public long nextDelayMs()
    {
        return nextDelayMs;
    }
}
