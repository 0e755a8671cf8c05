package io.sluice.bench;

import io.sluice.forwarder.agent.DutyCycleHistogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What recording the duty-cycle histogram adds to a worker's cycle: {@link #timedBurst} is a burst through the
 * pipeline timed as {@code ForwarderWorker.doWork} times it (the clock read before and after, the longest kept),
 * {@link #timedBurstRecorded} the same plus {@link DutyCycleHistogram#record}. Compare the two in one run (the
 * machine's speed moves between runs); {@code -prof gc} shows both allocate nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true", "-XX:InlineSmallCode=6000"})
public class DutyCycleHistogramBenchmark
{
    /**
     * The worker's cycle bookkeeping: the longest cycle, and the histogram.
     */
    @State(Scope.Thread)
    public static class Cycles
    {
        final DutyCycleHistogram histogram = new DutyCycleHistogram();
        long maxNs;
    }

    /**
     * One burst, timed, the longest cycle kept (what the worker did before the histogram).
     *
     * @param frames the frames.
     * @param worker the pipeline.
     * @param cycles the bookkeeping.
     * @return frames forwarded.
     */
    @Benchmark
    @OperationsPerInvocation(32)
    public int timedBurst(final BurstSource frames, final PipelineBenchmark.Worker worker, final Cycles cycles)
    {
        final long start = System.nanoTime();
        final int forwarded = worker.process(frames.nextBurst());
        final long durationNs = System.nanoTime() - start;
        if (durationNs > cycles.maxNs)
        {
            cycles.maxNs = durationNs;
        }
        return forwarded;
    }

    /**
     * One burst, timed, the longest cycle kept and the time recorded in the histogram.
     *
     * @param frames the frames.
     * @param worker the pipeline.
     * @param cycles the bookkeeping.
     * @return frames forwarded.
     */
    @Benchmark
    @OperationsPerInvocation(32)
    public int timedBurstRecorded(final BurstSource frames, final PipelineBenchmark.Worker worker,
        final Cycles cycles)
    {
        final long start = System.nanoTime();
        final int forwarded = worker.process(frames.nextBurst());
        final long durationNs = System.nanoTime() - start;
        cycles.histogram.record(durationNs);
        if (durationNs > cycles.maxNs)
        {
            cycles.maxNs = durationNs;
        }
        return forwarded;
    }
}
