package io.sluice.controller.metrics;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.DutyCycleBuckets;

import java.util.Map;
import java.util.TreeMap;

/**
 * {@code sluice_worker_duty_cycle_seconds}: each worker's duty-cycle times as a Prometheus histogram, put together
 * from its {@link DutyCycleBuckets} counters ({@link CounterType#DUTY_CYCLE_BUCKET}, one per bucket) and their sum
 * ({@link CounterType#DUTY_CYCLE_NS_TOTAL}). A worker without bucket counters has no histogram.
 */
final class DutyCycleFamily
{
    static final String NAME = "sluice_worker_duty_cycle_seconds";
    private static final String HELP = "Time of the worker's duty cycles (poll, process, transmit), in seconds.";
    private static final double[] UPPER_BOUNDS_SECONDS = upperBoundsSeconds();

    private static final class Worker
    {
        final long[] counts = new long[DutyCycleBuckets.COUNT];
        long sumNs;
        boolean hasBuckets;
    }

    private final Map<Integer, Worker> workers = new TreeMap<>();

    void add(final CounterType type, final int worker, final int bucket, final long value)
    {
        final Worker w = workers.computeIfAbsent(worker, id -> new Worker());
        if (type == CounterType.DUTY_CYCLE_NS_TOTAL)
        {
            w.sumNs = value;
        }
        else if (bucket >= 0 && bucket < DutyCycleBuckets.COUNT)
        {
            w.counts[bucket] = value;
            w.hasBuckets = true;
        }
    }

    void addTo(final MetricSnapshotsBuilder out)
    {
        for (final Map.Entry<Integer, Worker> entry : workers.entrySet())
        {
            final Worker w = entry.getValue();
            if (w.hasBuckets)
            {
                out.histogram(NAME, HELP, UPPER_BOUNDS_SECONDS, w.counts, w.sumNs / 1e9,
                    "worker", Integer.toString(entry.getKey()));
            }
        }
    }

    private static double[] upperBoundsSeconds()
    {
        final double[] bounds = new double[DutyCycleBuckets.COUNT];
        for (int bucket = 0; bucket < bounds.length - 1; bucket++)
        {
            bounds[bucket] = DutyCycleBuckets.upperBoundNs(bucket) / 1e9;
        }
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        return bounds;
    }
}
