package io.sluice.tools.stats;

/**
 * Time for {@link StatsTool}: wall-clock time for heartbeat ages and uptime, a monotonic clock for rates, and the
 * wait between samples. Tests pass a fake that advances time and changes counters instead of sleeping.
 */
public interface SamplingClock
{
    /**
     * The system clocks and {@link Thread#sleep}.
     */
    SamplingClock SYSTEM = new SamplingClock()
    {
        @Override
        public long epochMs()
        {
            return System.currentTimeMillis();
        }

        @Override
        public long nanoTime()
        {
            return System.nanoTime();
        }

        @Override
        public void sleepNanos(final long nanos) throws InterruptedException
        {
            Thread.sleep(nanos / 1_000_000, (int)(nanos % 1_000_000));
        }
    };

    /**
     * Returns wall-clock time.
     *
     * @return epoch milliseconds.
     */
    long epochMs();

    /**
     * Returns monotonic time.
     *
     * @return nanoseconds from an arbitrary origin.
     */
    long nanoTime();

    /**
     * Waits.
     *
     * @param nanos how long.
     * @throws InterruptedException when interrupted.
     */
    void sleepNanos(long nanos) throws InterruptedException;
}
