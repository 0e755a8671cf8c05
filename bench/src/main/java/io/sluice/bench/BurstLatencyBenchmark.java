package io.sluice.bench;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.agent.WorkerCores;
import io.sluice.forwarder.pipeline.FrameBurst;
import net.openhft.chronicle.jlbh.JLBH;
import net.openhft.chronicle.jlbh.JLBHOptions;
import net.openhft.chronicle.jlbh.JLBHResult;
import net.openhft.chronicle.jlbh.JLBHTask;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.FileNotFoundException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Latency of {@code PacketPipeline.processBurst} per burst at a fixed offered rate, with JLBH (Chronicle's
 * latency harness): bursts are scheduled at a constant rate and each one's latency runs from when it was due, not
 * from when it started, so a stall also counts against the bursts queued behind it (coordinated omission
 * corrected). First measures the highest rate back to back, then offers fractions of it; prints, per rate and run,
 * p50, p99, p99.99 and the worst burst in microseconds, and the tail over the median. A run is at least a million
 * bursts (JLBH reports p99.99 only from about a million samples).
 * <p>
 * The same pipeline as {@link PipelineBenchmark} (32 x 60-byte IPv4 TCP frames, 10 backends, table 2^20), on the
 * calling thread. Usage: {@code java [flags] -cp sluice-benchmarks.jar io.sluice.bench.BurstLatencyBenchmark
 * [--flows N] [--mode hit|miss] [--rates 0.5,0.9] [--seconds S] [--runs R] [--jlbh-log FILE]}.
 */
@Command(name = "BurstLatencyBenchmark",
    description = "Latency of processBurst per burst at fixed offered rates (JLBH, coordinated omission corrected): " +
        "p50, p99, p99.99 and the worst burst per rate and run.")
public final class BurstLatencyBenchmark implements Callable<Integer>
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MIN_BURSTS_PER_RUN = 1_000_000L;

    @Spec
    private CommandSpec spec;

    @Option(names = "--flows", paramLabel = "N", defaultValue = "10000",
        description = "distinct flows in the bursts (default ${DEFAULT-VALUE})")
    private int flows;

    @Option(names = "--mode", paramLabel = "hit|miss", defaultValue = "hit",
        description = "connection-table hits or misses (default ${DEFAULT-VALUE})")
    private String mode;

    @Option(names = "--rates", paramLabel = "F,F...", defaultValue = "0.5,0.9",
        description = "offered rates as fractions of the back-to-back rate, each in (0, 1] (default ${DEFAULT-VALUE})")
    private String rates;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "5",
        description = "seconds per run, at least a million bursts (default ${DEFAULT-VALUE})")
    private int seconds;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
        description = "runs per rate (default ${DEFAULT-VALUE})")
    private int runs;

    @Option(names = "--jlbh-log", paramLabel = "FILE", description = "JLBH's own report goes here (default nowhere)")
    private String jlbhLog;

    @Option(names = "--cpu", paramLabel = "N", defaultValue = "-1",
        description = "pin the measuring thread to this CPU, as the forwarder pins a worker (start the JVM under " +
            "taskset on the other cores to keep them off it; default: not pinned)")
    private int cpu;

    private BurstLatencyBenchmark()
    {
    }

    /**
     * Runs the benchmark.
     *
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        System.exit(CommandLines.execute(new BurstLatencyBenchmark(), args, System.out, System.err, 2));
    }

    @Override
    public Integer call() throws Exception
    {
        final double[] fractions = fractions(rates);
        // BurstSource needs a burst of distinct flows.
        CommandLines.intInRange(spec, "--flows", flows, FrameBurst.MAX_BURST, 10_000_000);
        CommandLines.intInRange(spec, "--seconds", seconds, 1, 86_400);
        CommandLines.intInRange(spec, "--runs", runs, 1, 1_000);
        if (!"hit".equals(mode) && !"miss".equals(mode))
        {
            throw CommandLines.usageError(spec, "--mode must be hit or miss, got '" + mode + "'");
        }
        final WorkerCores.Reservation pinned = CorePin.pin(spec, "--cpu", cpu);
        try
        {
            return measure(fractions);
        }
        finally
        {
            pinned.release();
        }
    }

    private int measure(final double[] fractions) throws Exception
    {
        final BurstSource frames = new BurstSource();
        frames.flows = flows;
        frames.setUp();
        final PipelineBenchmark.Worker worker = worker(frames, mode);
        final double maxBurstsPerSecond = maxRate(worker, frames);
        System.out.printf(Locale.ROOT,
            "burst latency: %d flows, %s, back to back %.0f bursts/s (%.1f Mpps, %.1f ns/packet)%n", flows, mode,
            maxBurstsPerSecond, maxBurstsPerSecond * 32 / 1e6, 1e9 / (maxBurstsPerSecond * 32));
        try (PrintStream log = jlbhLog == null ? new PrintStream(OutputStream.nullOutputStream()) : open(jlbhLog))
        {
            for (final double fraction : fractions)
            {
                final int rate = (int)Math.max(1, Math.round(maxBurstsPerSecond * fraction));
                final String name = String.format(Locale.ROOT, "%3.0f%% of max (%d bursts/s)", fraction * 100, rate);
                final JLBHOptions options = new JLBHOptions()
                    .throughput(rate)
                    .warmUpIterations(Math.max(50_000, rate))
                    // At least a million bursts a run, so that JLBH reports p99.99.
                    .iterations(Math.max((long)rate * seconds, MIN_BURSTS_PER_RUN))
                    .runs(runs)
                    .recordOSJitter(false)
                    .accountForCoordinatedOmission(true)
                    .jlbhTask(new BurstTask(worker, frames));
                log.println("== " + name);
                new JLBH(options, log, result -> print(name, result)).start();
            }
        }
        return 0;
    }

    private static void print(final String name, final JLBHResult result)
    {
        final List<JLBHResult.RunResult> runs = result.endToEnd().eachRunSummary();
        for (int run = 0; run < runs.size(); run++)
        {
            // JLBH reports a percentile only when the run had enough samples for it (p99.99: about a million).
            final Map<JLBHResult.RunResult.Percentile, Duration> percentiles = runs.get(run).percentiles();
            final double p50 = micros(percentiles.get(JLBHResult.RunResult.Percentile.PERCENTILE_50TH));
            final double p99 = micros(percentiles.get(JLBHResult.RunResult.Percentile.PERCENTILE_99TH));
            final double p9999 = micros(percentiles.get(JLBHResult.RunResult.Percentile.PERCENTILE_99_99TH));
            final double worst = micros(percentiles.get(JLBHResult.RunResult.Percentile.WORST));
            System.out.printf(Locale.ROOT,
                "  %s run %d: p50 %8.2f us  p99 %8.2f us  p99.99 %8.2f us  worst %9.2f us  p99/p50 %.2f  " +
                "p99.99/p50 %.2f%n", name, run + 1, p50, p99, p9999, worst, p99 / p50, p9999 / p50);
        }
    }

    private static double micros(final Duration duration)
    {
        return duration == null ? Double.NaN : duration.toNanos() / 1e3;
    }

    // Back to back for two seconds after one of warm-up: bursts per second.
    private static double maxRate(final PipelineBenchmark.Worker worker, final BurstSource frames)
    {
        long bursts = 0;
        final long warmUpEnd = System.nanoTime() + NANOS_PER_SECOND;
        while (System.nanoTime() < warmUpEnd)
        {
            worker.process(frames.nextBurst());
        }
        final long start = System.nanoTime();
        final long end = start + 2 * NANOS_PER_SECOND;
        long now;
        do
        {
            for (int i = 0; i < 1_000; i++)
            {
                worker.process(frames.nextBurst());
            }
            bursts += 1_000;
            now = System.nanoTime();
        }
        while (now < end);
        return bursts * 1e9 / (now - start);
    }

    private static PipelineBenchmark.Worker worker(final BurstSource frames, final String mode)
        throws UnknownHostException
    {
        final PipelineBenchmark.Worker worker = new PipelineBenchmark.Worker();
        worker.mode = mode;
        worker.capacity = 1 << 20;
        worker.tunnel = "none"; // the JMH default: plain GRE, as the forwarder sends without tunnel_entropy or vlan
        worker.setUp(frames);
        return worker;
    }

    /**
     * One burst per JLBH iteration, sampled from the time it was due.
     */
    private static final class BurstTask implements JLBHTask
    {
        private final PipelineBenchmark.Worker worker;
        private final BurstSource frames;
        private JLBH jlbh;
        private long forwarded;

        BurstTask(final PipelineBenchmark.Worker worker, final BurstSource frames)
        {
            this.worker = worker;
            this.frames = frames;
        }

        @Override
        public void init(final JLBH jlbh)
        {
            this.jlbh = jlbh;
        }

        @Override
        public void run(final long startTimeNs)
        {
            forwarded += worker.process(frames.nextBurst());
            jlbh.sample(System.nanoTime() - startTimeNs);
        }

        @Override
        public void complete()
        {
            if (forwarded == 0)
            {
                throw new IllegalStateException("no packet forwarded");
            }
        }
    }

    private double[] fractions(final String list)
    {
        final String[] parts = list.split(",");
        final double[] fractions = new double[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                fractions[i] = Double.parseDouble(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                fractions[i] = Double.NaN;
            }
            if (!(fractions[i] > 0 && fractions[i] <= 1))
            {
                throw CommandLines.usageError(spec, "--rates takes fractions of the maximum in (0, 1], got " +
                    parts[i]);
            }
        }
        return fractions;
    }

    private static PrintStream open(final String path) throws FileNotFoundException
    {
        return new PrintStream(path);
    }
}
