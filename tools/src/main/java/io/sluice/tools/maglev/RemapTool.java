package io.sluice.tools.maglev;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.maglev.MaglevTableBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * Compares how modulo, a consistent-hash ring and Maglev spread flows and how many they move when backends leave
 * (the comparison of Maglev §3.4 and §5.3, redone with Sluice's own hash and table lookup).
 * <p>
 * Builds each scheme for N backends and again without K of them (evenly spaced, so the choice is deterministic),
 * sends F random 64-bit flow hashes through both and reports, per scheme: the busiest and idlest backend's flows
 * before the removal relative to a fair share, the percent of flows that changed backend, and the percent that
 * changed needlessly, their backend being still there.
 * <pre>
 *   RemapTool --backends N --remove K --flows F [--table-size M] [--vnodes V] [--seed S] [--flow-seed R] [--json]
 * </pre>
 */
@Command(name = "RemapTool",
    description = "Compares modulo, a consistent-hash ring and Maglev: how evenly each spreads F random flows over N " +
        "backends, and how many flows each moves when K of them (evenly spaced) leave.")
public final class RemapTool implements Callable<Integer>
{
    static final int DEFAULT_VNODES = 100;
    static final long DEFAULT_FLOW_SEED = 7;
    /** Exit status for a bad command line. */
    static final int EXIT_USAGE = 2;
    private static final int MAX_FLOWS = 100_000_000;
    private static final long MAX_RING_POINTS = 20_000_000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--backends", paramLabel = "N", required = true,
        description = "backends before the removal, 1.." + BenchmarkBackends.MAX_BACKENDS)
    private int backends;

    @Option(names = "--remove", paramLabel = "K", required = true,
        description = "backends removed, 0..N-1, evenly spaced (K=1 removes backend N/2)")
    private int remove;

    @Option(names = "--flows", paramLabel = "F", required = true,
        description = "random 64-bit flow hashes sent through, 1..100000000")
    private int flows;

    @Option(names = "--table-size", paramLabel = "M", defaultValue = "" + MaglevTableBuilder.DEFAULT_TABLE_SIZE,
        description = "Maglev table size, a prime >= N (default ${DEFAULT-VALUE})")
    private int tableSize;

    @Option(names = "--vnodes", paramLabel = "V", defaultValue = "" + DEFAULT_VNODES,
        description = "hash-ring points per backend, 1..10000 (default ${DEFAULT-VALUE})")
    private int vnodes;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
        description = "hash seed of the Maglev permutations and ring points (default ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--flow-seed", paramLabel = "R", defaultValue = "" + DEFAULT_FLOW_SEED,
        description = "seed of the flow hashes, java.util.SplittableRandom (default ${DEFAULT-VALUE})")
    private long flowSeed;

    @Option(names = "--json", description = "one JSON object per scheme per line instead of a table")
    private boolean json;

    private final PrintStream out;
    private final PrintStream err;

    private RemapTool(final PrintStream out, final PrintStream err)
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
        return CommandLines.execute(new RemapTool(out, err), args, out, err, EXIT_USAGE);
    }

    @Override
    public Integer call()
    {
        final Settings settings = settings();
        try
        {
            for (final RemapResult result : compare(settings))
            {
                out.println(settings.json() ? result.toJson() : result.toRow());
            }
        }
        catch (final OutOfMemoryError ex)
        {
            err.println("RemapTool: not enough heap for " + settings.flows() + " flows and a table of " +
                settings.tableSize() + " slots; raise -Xmx");
            return 1;
        }
        return 0;
    }

    private Settings settings()
    {
        final Settings settings = new Settings(
            CommandLines.intInRange(spec, "--backends", backends, 1, BenchmarkBackends.MAX_BACKENDS),
            CommandLines.intInRange(spec, "--remove", remove, 0, Integer.MAX_VALUE),
            CommandLines.intInRange(spec, "--flows", flows, 1, MAX_FLOWS),
            CommandLines.intInRange(spec, "--table-size", tableSize, 3, Integer.MAX_VALUE),
            CommandLines.intInRange(spec, "--vnodes", vnodes, 1, 10_000),
            seed, flowSeed, json);
        checkCombination(settings.backends(), settings.remove(), settings.tableSize(), settings.vnodes());
        return settings;
    }

    /**
     * Runs the comparison for every scheme.
     *
     * @param settings the parsed command line.
     * @return one result per scheme: modulo, ring, maglev.
     */
    static List<RemapResult> compare(final Settings settings)
    {
        final long[] flowHashes = flowHashes(settings.flows(), settings.flowSeed());
        final int[] removed = removedBackends(settings.backends(), settings.remove());
        final List<PlacementScheme> schemes = List.of(
            new ModuloScheme(),
            new HashRingScheme(settings.vnodes(), settings.seed()),
            new MaglevScheme(settings.tableSize(), settings.seed()));
        final List<RemapResult> results = new ArrayList<>(schemes.size());
        for (final PlacementScheme scheme : schemes)
        {
            results.add(measure(scheme, settings.backends(), removed, flowHashes));
        }
        return results;
    }

    private void checkCombination(final int backends, final int remove, final int tableSize, final int vnodes)
    {
        if (remove >= backends)
        {
            throw CommandLines.usageError(spec, "--remove must be less than --backends (" + backends +
                "), at least one backend must remain, got " + remove);
        }
        final String tableProblem = MaglevTableBuilder.checkTableSize(tableSize);
        if (tableProblem != null)
        {
            throw CommandLines.usageError(spec, "--table-size: " + tableProblem);
        }
        if (tableSize < backends)
        {
            throw CommandLines.usageError(spec, "--table-size must be at least --backends (" + backends +
                ") so every backend gets a slot, got " + tableSize);
        }
        if ((long)backends * vnodes > MAX_RING_POINTS)
        {
            throw CommandLines.usageError(spec, "--vnodes times --backends must be at most " +
                MAX_RING_POINTS + " ring points, got " + (long)backends * vnodes);
        }
    }

    /**
     * Draws the flow hashes: uniformly random 64-bit values from a fixed seed, so runs repeat.
     *
     * @param count how many.
     * @param seed  of the generator.
     * @return the hashes.
     */
    static long[] flowHashes(final int count, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] hashes = new long[count];
        for (int i = 0; i < count; i++)
        {
            hashes[i] = random.nextLong();
        }
        return hashes;
    }

    /**
     * Chooses which backends leave: {@code k} of {@code n}, evenly spaced, at {@code (2j + 1) n / 2k}.
     *
     * @param n backends.
     * @param k backends to remove, below n.
     * @return the removed indices, ascending and distinct.
     */
    static int[] removedBackends(final int n, final int k)
    {
        final int[] removed = new int[k];
        for (int j = 0; j < k; j++)
        {
            removed[j] = (int)((2L * j + 1) * n / (2L * k));
        }
        return removed;
    }

    /**
     * Sends every flow through one scheme built with all backends and built without the removed ones.
     *
     * @param scheme     the scheme.
     * @param n          backends before the removal.
     * @param removed    indices of the removed backends.
     * @param flowHashes the flows.
     * @return the measurement.
     */
    static RemapResult measure(final PlacementScheme scheme, final int n, final int[] removed,
        final long[] flowHashes)
    {
        final boolean[] gone = new boolean[n];
        for (final int backend : removed)
        {
            gone[backend] = true;
        }
        final int[] all = new int[n];
        final int[] left = new int[n - removed.length];
        for (int i = 0, j = 0; i < n; i++)
        {
            all[i] = i;
            if (!gone[i])
            {
                left[j++] = i;
            }
        }
        final PlacementScheme.Placement before = scheme.build(all);
        final PlacementScheme.Placement after = scheme.build(left);

        final long[] load = new long[n];
        long moved = 0;
        long needless = 0;
        for (final long flow : flowHashes)
        {
            final int from = before.backendOf(flow);
            final int to = after.backendOf(flow);
            load[from]++;
            if (from != to)
            {
                moved++;
                if (!gone[from])
                {
                    needless++;
                }
            }
        }
        long max = 0;
        long min = Long.MAX_VALUE;
        for (final long flowsOnBackend : load)
        {
            max = Math.max(max, flowsOnBackend);
            min = Math.min(min, flowsOnBackend);
        }
        final int flows = flowHashes.length;
        final double fairShare = (double)flows / n;
        return new RemapResult(scheme.name(), scheme.label(), n, removed.length, flows, max / fairShare,
            min / fairShare, 100.0 * moved / flows, 100.0 * needless / flows);
    }

    /**
     * The command line, checked.
     *
     * @param backends  N.
     * @param remove    K.
     * @param flows     F.
     * @param tableSize M.
     * @param vnodes    V.
     * @param seed      hash seed.
     * @param flowSeed  flow generator seed.
     * @param json      whether to print JSON.
     */
    record Settings(int backends, int remove, int flows, int tableSize, int vnodes, long seed, long flowSeed,
        boolean json)
    {
    }
}
