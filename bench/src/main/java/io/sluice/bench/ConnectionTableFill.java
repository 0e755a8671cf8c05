package io.sluice.bench;

import io.sluice.common.cli.CommandLines;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.lb.FlowKey;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.Callable;

/**
 * Fills a connection table with distinct flows, as a flood of new flows does, and prints what the fill cost: the
 * live flows evicted on the way (an evicted flow that comes back takes the Maglev table's current choice, another
 * backend after a change), the entries in use at the end and the CPU time per insert. For a table that grows
 * ({@link ConnectionTable#growing}) against one that uses its whole capacity from the start, with the same flows
 * and hash seed; the worker calls {@link ConnectionTable#migrate} once a burst, here once every {@code --burst}
 * inserts (32: every frame of every burst a new flow; larger: new flows among established ones).
 * <p>
 * Usage: {@code java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -cp bench/target/sluice-benchmarks.jar
 * io.sluice.bench.ConnectionTableFill [--capacity N] [--burst N] FLOWS...}. The flows are IPv4 TCP, 4,096 source
 * ports of each of consecutive client addresses, to one VIP. A fill of each kind runs first, untimed (the JIT); the
 * tables' memory (64 bytes an entry) is not freed until the process ends.
 */
@Command(name = "ConnectionTableFill",
    description = "Fills a growing and a fixed connection table with FLOWS distinct flows each; prints evictions, " +
        "entries in use and CPU ns per insert.")
public final class ConnectionTableFill implements Callable<Integer>
{
    private static final long SEED = 0x5EED_5EEDL;
    private static final long TIMEOUT_NS = 1L << 40;
    private static final int WARM_UP_FLOWS = 200_000;

    @Option(names = "--capacity", description = "connection-table entries (default 2^20)")
    private int capacity = ConnectionTable.DEFAULT_CAPACITY;

    @Option(names = "--burst", description = "inserts between two migrate calls (default 32)")
    private int burst = 32;

    @Parameters(paramLabel = "FLOWS", arity = "1..*", description = "flows to insert, one fill each")
    private int[] fills;

    private ConnectionTableFill()
    {
    }

    /**
     * Runs the fills; a usage error exits 2.
     *
     * @param args {@code [--capacity N] [--burst N] FLOWS...}.
     */
    public static void main(final String[] args)
    {
        System.exit(CommandLines.execute(new ConnectionTableFill(), args, System.out, System.err, 2));
    }

    @Override
    public Integer call()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // a fill of each kind first, not printed, so the JIT has compiled both before the first timed one
        fill(table(true), WARM_UP_FLOWS);
        fill(table(false), WARM_UP_FLOWS);
        for (final int flows : fills)
        {
            for (final boolean grows : new boolean[] {true, false})
            {
                final ConnectionTable table = table(grows);
                final long start = threads.getCurrentThreadCpuTime();
                fill(table, flows);
                final long cpuNs = threads.getCurrentThreadCpuTime() - start;
                System.out.printf("%-7s %,9d flows in %,9d entries: %,7d evicted, %,9d in use at the end, " +
                    "%6.1f CPU ns an insert%n", grows ? "growing" : "fixed", flows, capacity, table.evictions(),
                    table.entriesInUse(), (double)cpuNs / flows);
            }
        }
        return 0;
    }

    // A table as the forwarder makes it (growing from ConnectionTable.GROWTH_START), or one that uses all its
    // entries from the start.
    private ConnectionTable table(final boolean grows)
    {
        return grows ? ConnectionTable.growing(capacity, SEED, TIMEOUT_NS, TIMEOUT_NS, TIMEOUT_NS) :
            new ConnectionTable(capacity, capacity, SEED, TIMEOUT_NS, TIMEOUT_NS, TIMEOUT_NS);
    }

    private void fill(final ConnectionTable table, final int flows)
    {
        final FlowKey key = new FlowKey();
        for (int f = 0; f < flows; f++)
        {
            // octets as the parser reads them: little-endian words of network-order fields
            final int source = Integer.reverseBytes(0xC000_0200 + (f >>> 12));
            final int ports = Short.toUnsignedInt(Short.reverseBytes((short)(1024 + (f & 0xFFF)))) |
                Short.toUnsignedInt(Short.reverseBytes((short)80)) << 16;
            key.ipv4(source, Integer.reverseBytes(0x0A64_0001), ports, 6);
            final int found = table.find(key, table.hash(key), 1);
            if (found < 0)
            {
                table.insert(-1 - found, key, 1, 1, 1);
            }
            if ((f + 1) % burst == 0 && table.migrating())
            {
                table.migrate(1);
            }
        }
        while (table.migrating())
        {
            table.migrate(1);
        }
    }
}
