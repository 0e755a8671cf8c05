package io.sluice.common.counters;

/**
 * How a worker's histogram of duty-cycle times crosses into the counters file: fixed log2 buckets, one
 * {@link CounterType#DUTY_CYCLE_BUCKET} counter per bucket and worker (key index1 the bucket), plus the sum of all
 * durations in {@link CounterType#DUTY_CYCLE_NS_TOTAL}. Bucket 0 counts cycles under 256 ns, bucket {@code i}
 * cycles in {@code [128 << i, 256 << i)} ns, and the last one every longer cycle (134 ms and more). Counts are not
 * cumulative; readers add them up for Prometheus {@code le} buckets and percentiles.
 */
public final class DutyCycleBuckets
{
    /** Buckets, the open-ended last one included. */
    public static final int COUNT = 21;

    private static final int FIRST_BOUND_SHIFT = 8;

    private DutyCycleBuckets()
    {
    }

    /**
     * Returns the exclusive upper bound of a bucket.
     *
     * @param bucket 0 to {@link #COUNT} - 1.
     * @return nanoseconds, {@link Long#MAX_VALUE} for the last bucket.
     */
    public static long upperBoundNs(final int bucket)
    {
        return bucket == COUNT - 1 ? Long.MAX_VALUE : 1L << (FIRST_BOUND_SHIFT + bucket);
    }

    /**
     * Returns the inclusive lower bound of a bucket.
     *
     * @param bucket 0 to {@link #COUNT} - 1.
     * @return nanoseconds.
     */
    public static long lowerBoundNs(final int bucket)
    {
        return bucket == 0 ? 0 : 1L << (FIRST_BOUND_SHIFT - 1 + bucket);
    }

    /**
     * Returns the bucket a duration falls into.
     *
     * @param durationNs the duration, negative read as 0.
     * @return the bucket.
     */
    public static int bucketOf(final long durationNs)
    {
        if (durationNs < (1L << FIRST_BOUND_SHIFT))
        {
            return 0;
        }
        final int log2 = 63 - Long.numberOfLeadingZeros(durationNs);
        return Math.min(COUNT - 1, log2 - FIRST_BOUND_SHIFT + 1);
    }

    /**
     * Returns the name a bucket's counter label carries, e.g. {@code lt_256ns} or {@code ge_134217728ns}.
     *
     * @param bucket the bucket.
     * @return the name.
     */
    public static String name(final int bucket)
    {
        return bucket == COUNT - 1 ? "ge_" + lowerBoundNs(bucket) + "ns" : "lt_" + upperBoundNs(bucket) + "ns";
    }

    /**
     * Returns the upper bound of the bucket where a quantile of the counts falls: "the quantile is below this".
     *
     * @param counts   per-bucket counts, {@link #COUNT} of them.
     * @param quantile 0 to 1.
     * @return nanoseconds ({@link Long#MAX_VALUE} in the open-ended bucket), or -1 when every count is 0.
     */
    public static long quantileUpperBoundNs(final long[] counts, final double quantile)
    {
        long total = 0;
        for (final long count : counts)
        {
            total += count;
        }
        if (total == 0)
        {
            return -1;
        }
        final double rank = Math.max(1, Math.ceil(quantile * total));
        long seen = 0;
        for (int bucket = 0; bucket < counts.length; bucket++)
        {
            seen += counts[bucket];
            if (seen >= rank)
            {
                return upperBoundNs(bucket);
            }
        }
        return upperBoundNs(COUNT - 1);
    }
}
