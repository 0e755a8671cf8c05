package io.sluice.bench;

import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;
import io.sluice.tools.maglev.BenchmarkBackends;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Time to build one Maglev table (Maglev §3.4 Pseudocode 1, {@link MaglevTableBuilder}) for N backends and M
 * slots, on the C reference's backend set ({@link BenchmarkBackends}) so the figures compare with
 * native/build/maglev_ref's {@code build_ms_median} for the same N and M.
 * <p>
 * Builds into one reused {@code int[]}, as the C reference does, so table allocation stays out of the
 * measurement; each build still sorts the backends and computes their permutations, as in production.
 * The control thread pays this per VIP change, never a worker.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class MaglevBuildBenchmark
{
    @Param({"100", "1000"})
    int backends;

    @Param({"65537", "655373"})
    int tableSize;

    private MaglevTableBuilder builder;
    private List<MaglevBackend> backendList;
    private int[] table;

    /**
     * Creates the builder, the backend list and the table array once per trial.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        builder = new MaglevTableBuilder(tableSize, 0);
        backendList = BenchmarkBackends.first(backends);
        table = new int[tableSize];
    }

    /**
     * Builds one table.
     *
     * @return the table, so the build cannot be optimised away.
     */
    @Benchmark
    public int[] build()
    {
        builder.build(backendList, table);
        return table;
    }

    /**
     * Checks the last table is full, so a broken build never reports a fast time.
     */
    @TearDown(Level.Trial)
    public void checkTableFull()
    {
        for (final int slot : table)
        {
            if (slot == MaglevTable.NO_BACKEND)
            {
                throw new IllegalStateException("Maglev table has an empty slot after a build");
            }
        }
    }
}
