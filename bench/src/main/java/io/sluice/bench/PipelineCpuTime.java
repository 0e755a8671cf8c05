package io.sluice.bench;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PipelineCounters;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.Callable;

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
@Command(name = "PipelineCpuTime",
    description = "processBurst's CPU time per packet: three warm-up rounds, then ROUNDS rounds of SECONDS of CPU " +
        "time each; prints the minimum and median CPU ns per packet, the hits and the misses.")
public final class PipelineCpuTime implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "FLOWS", description = "distinct flows in the bursts")
    private int flows;

    @Parameters(index = "1", paramLabel = "hit|miss", description = "connection-table hits or misses")
    private String mode;

    @Parameters(index = "2", paramLabel = "CAPACITY", description = "connection-table entries")
    private int capacity;

    @Parameters(index = "3", paramLabel = "ROUNDS", description = "measured rounds")
    private int rounds;

    @Parameters(index = "4", paramLabel = "SECONDS", description = "CPU seconds per round")
    private double seconds;

    private PipelineCpuTime()
    {
    }

    /**
     * Runs the measurement; a usage error exits 2.
     *
     * @param args {@code FLOWS hit|miss CAPACITY ROUNDS SECONDS}.
     */
    public static void main(final String[] args)
    {
        System.exit(CommandLines.execute(new PipelineCpuTime(), args, System.out, System.err, 2));
    }

    @Override
    public Integer call() throws Exception
    {
        final BurstSource frames = new BurstSource();
        frames.flows = flows;
        frames.setUp();
        final PipelineBenchmark.Worker worker = new PipelineBenchmark.Worker();
        worker.mode = mode;
        worker.capacity = capacity;
        worker.tunnel = "none";
        worker.setUp(frames);
        final long roundCpuNs = (long)(seconds * 1e9);
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
            "(warm-up included), forwarded %d%n", flows, mode, capacity, sorted[0], sorted[rounds / 2],
            counters.connectionHits(), counters.connectionMisses(), sink);
        return 0;
    }
}
