package io.sluice.forwarder.agent;

import io.sluice.common.counters.DutyCycleBuckets;
import org.HdrHistogram.Histogram;

/**
 * A worker's histogram of duty-cycle times, recorded on the worker's thread without allocation into an
 * HdrHistogram and read out in the fixed {@link DutyCycleBuckets} for the counters file.
 * <p>
 * The HdrHistogram keeps no significant decimal digit: each of its buckets is one power of two, exactly the
 * resolution the counters file carries, so it stays at 31 longs (the whole of it fits in four cache lines) and a
 * flush reads it in a few nanoseconds. Cycles longer than about a second count as a second, in the last bucket.
 */
public final class DutyCycleHistogram
{
    private static final long HIGHEST_TRACKABLE_NS = 1L << 30;

    private final Histogram histogram = new Histogram(1, HIGHEST_TRACKABLE_NS, 0);
    private long sumNs;

    /**
     * Records one duty cycle (worker thread).
     *
     * @param durationNs how long it took; negative (a clock step) counts as 0.
     */
    public void record(final long durationNs)
    {
        final long clamped = Math.min(Math.max(durationNs, 0), HIGHEST_TRACKABLE_NS);
        histogram.recordValue(clamped);
        sumNs += clamped;
    }

    /**
     * Returns the cycles recorded in one of the counters file's buckets.
     *
     * @param bucket 0 to {@link DutyCycleBuckets#COUNT} - 1.
     * @return the count, not cumulative.
     */
    public long bucketCount(final int bucket)
    {
        final long high = Math.min(DutyCycleBuckets.upperBoundNs(bucket) - 1, HIGHEST_TRACKABLE_NS);
        return histogram.getCountBetweenValues(DutyCycleBuckets.lowerBoundNs(bucket), high);
    }

    /**
     * Returns the cycles recorded.
     *
     * @return the count.
     */
    public long count()
    {
        return histogram.getTotalCount();
    }

    /**
     * Returns the sum of the recorded durations.
     *
     * @return nanoseconds.
     */
    public long sumNs()
    {
        return sumNs;
    }

    /**
     * Returns the highest duration recorded, at the histogram's resolution.
     *
     * @return nanoseconds, 0 when nothing was recorded.
     */
    public long maxNs()
    {
        return histogram.getMaxValue();
    }
}
