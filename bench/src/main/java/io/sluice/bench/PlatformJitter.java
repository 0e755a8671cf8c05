package io.sluice.bench;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.agent.WorkerCores;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The platform's own hiccups on one core: a thread that does nothing but read the clock, as a busy-polling worker
 * does between bursts, counts the gaps between two readings longer than 1 us (the thread was interrupted,
 * descheduled, or its virtual CPU was). Whatever the pipeline costs, a burst that meets such a gap takes that much
 * longer, so these gaps bound the tail a latency benchmark ({@link BurstLatencyBenchmark}) can show on the machine.
 * <p>
 * Usage: {@code taskset -c 0 java -cp bench/target/sluice-benchmarks.jar io.sluice.bench.PlatformJitter [--cpu N]
 * [--seconds S]}: prints the gaps over each threshold per second, the share of the time lost in gaps and the
 * longest.
 */
@Command(name = "PlatformJitter",
    description = "Gaps in a clock-reading loop on one core (interrupts, descheduling, the hypervisor): how many per " +
        "second exceed 1, 2, 5, 10, 20, 50, 100 us and 1 ms, the share of the time lost in them, the longest.")
public final class PlatformJitter implements Callable<Integer>
{
    private static final long[] THRESHOLDS_NS = {1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000};
    private static final String[] THRESHOLD_NAMES = {"1us", "2us", "5us", "10us", "20us", "50us", "100us", "1ms"};

    @Spec
    private CommandSpec spec;

    @Option(names = "--cpu", paramLabel = "N", defaultValue = "-1",
        description = "pin the thread to this CPU (default: not pinned)")
    private int cpu;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
        description = "how long to watch (default ${DEFAULT-VALUE})")
    private int seconds;

    private PlatformJitter()
    {
    }

    /**
     * Runs the probe.
     *
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        System.exit(CommandLines.execute(new PlatformJitter(), args, System.out, System.err, 2));
    }

    @Override
    public Integer call()
    {
        CommandLines.intInRange(spec, "--seconds", seconds, 1, 86_400);
        final WorkerCores.Reservation pinned = CorePin.pin(spec, "--cpu", cpu);
        try
        {
            // a first second unrecorded, so the loop is compiled before it is watched
            watch(1, new long[THRESHOLDS_NS.length]);
            final long[] over = new long[THRESHOLDS_NS.length];
            final long[] totals = watch(seconds, over);
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "platform jitter: cpu %s, %d s; gaps per second over", cpu >= 0 ? Integer.toString(cpu) : "any",
                seconds));
            for (int i = 0; i < over.length; i++)
            {
                line.append(String.format(Locale.ROOT, " %s %.1f", THRESHOLD_NAMES[i], (double)over[i] / seconds));
            }
            line.append(String.format(Locale.ROOT, "; %.3f%% of the time in gaps over 1 us, longest %.1f us",
                totals[0] * 100.0 / (seconds * 1e9), totals[1] / 1e3));
            System.out.println(line);
        }
        finally
        {
            pinned.release();
        }
        return 0;
    }

    // Reads the clock for the given time; counts into over[i] the gaps longer than THRESHOLDS_NS[i]; returns the
    // time spent in gaps over the first threshold and the longest gap.
    private static long[] watch(final int forSeconds, final long[] over)
    {
        long last = System.nanoTime();
        final long end = last + forSeconds * 1_000_000_000L;
        long inGaps = 0;
        long longest = 0;
        while (last < end)
        {
            final long now = System.nanoTime();
            final long gap = now - last;
            last = now;
            if (gap > THRESHOLDS_NS[0])
            {
                inGaps += gap;
                longest = Math.max(longest, gap);
                for (int i = 0; i < THRESHOLDS_NS.length && gap > THRESHOLDS_NS[i]; i++)
                {
                    over[i]++;
                }
            }
        }
        return new long[] {inGaps, longest};
    }
}
