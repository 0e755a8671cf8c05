package io.sluice.tools.maglev;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.json.JsonWriter;
import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Times {@link MaglevTableBuilder} on the C reference's backend set ({@link BenchmarkBackends}) and prints the
 * median build time, the spread of slots per backend and the table's checksum, computed exactly as
 * native/bench/maglev_ref.c does, so the two implementations can be compared run for run.
 * <pre>
 *   MaglevTool --backends N --table-size M [--seed S] [--iterations K] [--warmup W] [--json]
 * </pre>
 * For steady-state timings with a warmed-up JIT use the JMH benchmark (bench module, MaglevBuildBenchmark); this
 * tool is the quick, side-by-side check.
 */
@Command(name = "MaglevTool",
    description = "Times the Maglev table build on the C reference's backend set (backend i is 10.0.0.0 + i + 1, " +
        "weight 1, id i) and prints the median build time, the slots per backend and the table's checksum.")
public final class MaglevTool implements Callable<Integer>
{
    /** Exit status for a bad command line. */
    static final int EXIT_USAGE = 2;

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    @Spec
    private CommandSpec spec;

    @Option(names = "--backends", paramLabel = "N", required = true,
        description = "backends, 1.." + BenchmarkBackends.MAX_BACKENDS)
    private int backends;

    @Option(names = "--table-size", paramLabel = "M", required = true,
        description = "table size, a prime in 3..2147483647")
    private int tableSize;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
        description = "hash seed, a signed 64-bit integer (default ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--iterations", paramLabel = "K", defaultValue = "50",
        description = "timed builds, 1..1000000 (default ${DEFAULT-VALUE})")
    private int iterations;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "10",
        description = "untimed warm-up builds, 0..1000000 (default ${DEFAULT-VALUE})")
    private int warmup;

    @Option(names = "--json", description = "one JSON object instead of text")
    private boolean json;

    private final PrintStream out;
    private final PrintStream err;

    private MaglevTool(final PrintStream out, final PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the tool and exits with its status.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the tool.
     *
     * @param args the command line.
     * @param out  where results go.
     * @param err  where problems go.
     * @return the exit status: 0, or {@link #EXIT_USAGE} for a bad command line.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        return CommandLines.execute(new MaglevTool(out, err), args, out, err, EXIT_USAGE);
    }

    @Override
    public Integer call()
    {
        final Settings settings = new Settings(
            CommandLines.intInRange(spec, "--backends", backends, 1, BenchmarkBackends.MAX_BACKENDS),
            CommandLines.intInRange(spec, "--table-size", tableSize, 3, Integer.MAX_VALUE),
            seed,
            CommandLines.intInRange(spec, "--iterations", iterations, 1, 1_000_000),
            CommandLines.intInRange(spec, "--warmup", warmup, 0, 1_000_000),
            json);
        final String tableProblem = MaglevTableBuilder.checkTableSize(settings.tableSize());
        if (tableProblem != null)
        {
            throw CommandLines.usageError(spec, "--table-size: " + tableProblem);
        }
        final Report report;
        try
        {
            report = measure(settings);
        }
        catch (final OutOfMemoryError ex)
        {
            err.println("MaglevTool: not enough heap for a table of " + settings.tableSize() + " slots; raise -Xmx");
            return 1;
        }
        out.println(settings.json() ? report.toJson() : report.toText());
        return 0;
    }

    /**
     * Builds the table {@code warmup} times untimed, then {@code iterations} times timed.
     *
     * @param settings the parsed command line.
     * @return the timings, slot spread and checksum of the last table.
     */
    static Report measure(final Settings settings)
    {
        final List<MaglevBackend> backends = BenchmarkBackends.first(settings.backends());
        final MaglevTableBuilder builder = new MaglevTableBuilder(settings.tableSize(), settings.seed());
        final int[] table = new int[settings.tableSize()];
        for (int i = 0; i < settings.warmup(); i++)
        {
            builder.build(backends, table);
        }
        final long[] nanos = new long[settings.iterations()];
        for (int i = 0; i < nanos.length; i++)
        {
            final long start = System.nanoTime();
            builder.build(backends, table);
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        final int k = nanos.length;
        final double medianNs = (k & 1) == 1 ? nanos[k / 2] : (nanos[k / 2 - 1] + nanos[k / 2]) / 2.0;

        final int[] counts = new int[settings.backends()];
        for (final int id : table)
        {
            if (id != MaglevTable.NO_BACKEND)
            {
                counts[id]++;
            }
        }
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (final int count : counts)
        {
            min = Math.min(min, count);
            max = Math.max(max, count);
        }
        return new Report(settings, medianNs / 1e6, nanos[0] / 1e6, nanos[k - 1] / 1e6, min, max, checksum(table));
    }

    /**
     * Computes the C reference's checksum: 64-bit FNV-1a over the slots as little-endian int32s, byte by byte.
     *
     * @param slots the table's slots.
     * @return the checksum.
     */
    public static long checksum(final int[] slots)
    {
        long hash = FNV_OFFSET_BASIS;
        for (final int slot : slots)
        {
            for (int shift = 0; shift < 32; shift += 8)
            {
                hash ^= (slot >>> shift) & 0xFF;
                hash *= FNV_PRIME;
            }
        }
        return hash;
    }

    /**
     * The command line, checked.
     *
     * @param backends   N.
     * @param tableSize  M.
     * @param seed       hash seed.
     * @param iterations timed builds.
     * @param warmup     untimed builds.
     * @param json       whether to print JSON.
     */
    record Settings(int backends, int tableSize, long seed, int iterations, int warmup, boolean json)
    {
    }

    /**
     * What one run measured.
     *
     * @param settings  what was run.
     * @param medianMs  median build time.
     * @param minMs     fastest build.
     * @param maxMs     slowest build.
     * @param minSlots  slots of the backend with the fewest.
     * @param maxSlots  slots of the backend with the most.
     * @param checksum  FNV-1a of the table, as the C reference computes it.
     */
    record Report(Settings settings, double medianMs, double minMs, double maxMs, int minSlots, int maxSlots,
        long checksum)
    {
        String checksumHex()
        {
            return String.format(Locale.ROOT, "%016x", checksum);
        }

        String toJson()
        {
            return new JsonWriter().beginObject()
                .field("impl", "java")
                .field("backends", settings.backends())
                .field("table_size", settings.tableSize())
                .field("seed", settings.seed())
                .field("iterations", settings.iterations())
                .field("warmup", settings.warmup())
                .name("build_ms").fixed(medianMs, 4)
                .name("build_ms_min").fixed(minMs, 4)
                .name("build_ms_max").fixed(maxMs, 4)
                .field("min_slots", minSlots)
                .field("max_slots", maxSlots)
                .field("checksum", checksumHex())
                .endObject().toString();
        }

        String toText()
        {
            return String.format(Locale.ROOT,
                "Maglev build: N=%d backends, M=%d slots, seed %d%n" +
                "  build time  median %.4f ms (min %.4f, max %.4f) over %d builds after %d warm-up builds%n" +
                "  slots       min %d, max %d per backend (fair share %.1f)%n" +
                "  checksum    %s (FNV-1a 64 over the slots as little-endian int32, as maglev_ref.c)",
                settings.backends(), settings.tableSize(), settings.seed(), medianMs, minMs, maxMs,
                settings.iterations(), settings.warmup(), minSlots, maxSlots,
                (double)settings.tableSize() / settings.backends(), checksumHex());
        }
    }
}
