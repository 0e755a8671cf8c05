package io.sluice.bench;

import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PipelineCounters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link PipelineBenchmark#processBurst}'s work timed in the thread's CPU time rather than wall time, for a machine
 * so loaded that JMH's wall-clock figures are mostly time spent descheduled (load averages of 10-20 on 2 cores
 * moved JMH medians by 5x from fork to fork). Other processes still share the caches, so compare builds by
 * alternating runs, as scripts/bench-ab.sh does. Unlike the JMH benchmark it does not insist that every lookup
 * hit: it prints the hits and misses, so it also measures flows that do not fit the table's windows (1,000,000
 * flows in the default table of 2^20 entries, where some windows overflow and flows evict each other).
 * <p>
 * Usage: {@code java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -Dagrona.disable.bounds.checks=true
 * -XX:InlineSmallCode=6000 -cp bench/target/sluice-benchmarks.jar io.sluice.bench.PipelineCpuTime FLOWS hit|miss
 * CAPACITY ROUNDS SECONDS}: three warm-up rounds, then ROUNDS rounds of SECONDS of CPU time each; prints the
 * minimum and median CPU ns per packet.
 */
public final class PipelineCpuTime
{
    private PipelineCpuTime()
    {
    }

    /**
     * Runs the measurement.
     *
     * @param args flows, mode, capacity, rounds, seconds of CPU time per round.
     * @throws Exception when the set-up fails.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length != 5)
        {
            System.err.println("usage: PipelineCpuTime FLOWS hit|miss CAPACITY ROUNDS SECONDS");
            System.exit(2);
        }
        final BurstSource frames = new BurstSource();
        frames.flows = Integer.parseInt(args[0]);
        frames.setUp();
        final PipelineBenchmark.Worker worker = new PipelineBenchmark.Worker();
        worker.mode = args[1];
        worker.capacity = Integer.parseInt(args[2]);
        worker.tunnel = "none";
        worker.setUp(frames);
        final int rounds = Integer.parseInt(args[3]);
        final long roundCpuNs = (long)(Double.parseDouble(args[4]) * 1e9);
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        final double[] perPacket = new double[rounds];
        for (int round = -3; round < rounds; round++)
        {
            final long start = threads.getCurrentThreadCpuTime();
            long bursts = 0;
            long now;
            do
            {
                for (int i = 0; i < 1000; i++)
                {
                    sink += worker.process(frames.nextBurst());
                }
                bursts += 1000;
                now = threads.getCurrentThreadCpuTime();
            }
            while (now - start < roundCpuNs);
            if (round >= 0)
            {
                perPacket[round] = (double)(now - start) / (bursts * FrameBurst.MAX_BURST);
            }
        }
        final PipelineCounters counters = worker.pipeline.counters();
        final double[] sorted = perPacket.clone();
        Arrays.sort(sorted);
        System.out.printf("flows %s, mode %s, capacity %s: cpu ns/packet min %.2f median %.2f; hits %d, misses %d " +
            "(warm-up included), forwarded %d%n", args[0], args[1], args[2], sorted[0], sorted[rounds / 2],
            counters.connectionHits(), counters.connectionMisses(), sink);
    }
}
