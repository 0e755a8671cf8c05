package io.sluice.bench;

import io.sluice.common.Vip;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.TunnelOptions;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.tools.maglev.BenchmarkBackends;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/**
 * Cost per packet of {@link PacketPipeline#processBurst}: parse Ethernet/IPv4/TCP, match the VIP, hash the
 * 5-tuple, look up the connection table (and on a miss the Maglev table, then insert), GRE-encapsulate in place.
 * One invocation is one burst of 32 minimum-size frames ({@link BurstSource}, 10,000 distinct flows round robin)
 * to one IPv4 TCP VIP with 10 backends; times are per packet ({@code @OperationsPerInvocation(32)}). Defaults
 * as in production: connection table of 2^20 entries, Maglev M = 65537.
 * <p>
 * Modes:
 * <ul>
 *   <li>{@code hit}: the setup sends every flow through once, then the clock stands still, so every lookup finds
 *       a live entry (the steady state of established connections).</li>
 *   <li>{@code miss}: the clock advances by one TCP idle timeout (plus 1 ns) per burst, so every entry found has
 *       expired: every packet takes the miss path (bucket scan, Maglev lookup, insert over the expired entry).
 *       It touches the same 10,000 entries as {@code hit}, so the memory traffic is alike and the difference is
 *       the miss path's work. In long runs the clock wraps past Long.MAX_VALUE; the table compares times by
 *       subtraction, so expiry is unaffected.</li>
 *   <li>{@code flood} ({@code -p mode=flood}, not run by default): every frame is a flow not seen before (a new
 *       source port each round over the flows) into a table the setup filled with twice its capacity of new
 *       flows, while the clock advances 1 ns a burst so nothing expires: each packet scans a full window, evicts
 *       the flow seen least recently and inserts over it, as in a SYN flood. The tear-down checks that no lookup
 *       hit and that most inserts evicted, and prints the share. Needs enough flows that the ports do not come
 *       round while their flows are still in the table: the default 10,000 are plenty.</li>
 * </ul>
 * Each invocation first restores its 32 frames (see {@link BurstSource}); {@link #restoreOnly} measures that
 * part alone. The tear-down checks every packet was forwarded and the mode held (no miss after warm-up in
 * {@code hit}, no hit in {@code miss}), so a broken setup fails instead of printing a fast number.
 * <p>
 * The {@code flows} and {@code capacity} parameters are for experiments: {@code -p flows=64} keeps every entry
 * and frame in cache (the pipeline's compute cost alone); a smaller {@code capacity} shrinks the table's
 * footprint (fewer cache and TLB misses).
 * <p>
 * Runs with Agrona's bounds checks off, as the forwarder does (the parser checks every length against the
 * frame; the pipeline tests run with checks on in buffers that end where the frame ends);
 * {@link #processBurstBoundsChecked} gives the figure with them on.
 * <p>
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} must be about 0 B/op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
// Agrona 2 reaches jdk.internal.misc.Unsafe, which Java 17 exports only on request. Bounds checks off and
// InlineSmallCode raised, as scripts/sluice runs the forwarder; processBurstBoundsChecked measures the same work
// with the checks on.
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true", "-XX:InlineSmallCode=6000"})
public class PipelineBenchmark
{
    private static final int BACKENDS = 10;
    private static final long HASH_SEED = 0;

    /**
     * One worker's pipeline with its own connection table and counters.
     */
    @State(Scope.Thread)
    public static class Worker
    {
        @Param({"hit", "miss"})
        String mode;

        private boolean flood;

        /**
         * Connection table entries: production's default; other values are for experiments (-p capacity=...).
         */
        @Param({"1048576"})
        int capacity;

        /**
         * Tunnel options: {@code none} (the plain frame, production's default) or {@code all} (GRE key, per-flow
         * IPv4 source from a /16, VLAN tag), for the cost of the options path (-p tunnel=all).
         */
        @Param({"none"})
        String tunnel;

        PacketPipeline pipeline;
        long nowNs;
        long clockStepNs;
        private long warmUpMisses;
        private long warmUpEvictions;

        /**
         * Builds the forwarding state and, in {@code hit} mode, sends every flow through once.
         *
         * @param frames the frames.
         * @throws UnknownHostException never: addresses are literals.
         */
        @Setup(Level.Trial)
        public void setUp(final BurstSource frames) throws UnknownHostException
        {
            final PipelineConfig config = PipelineConfig.withDefaults(BurstSource.FORWARDER_MAC, BurstSource.ROUTER_MAC,
                (Inet4Address)InetAddress.getByName("10.255.0.1"), null, HASH_SEED)
                .withConnectionTableCapacity(capacity);
            final LoadBalancerState state = new LoadBalancerState(config.maxVips(), config.maxBackends(),
                config.maglevTableSize(), config.hashSeed());
            final Vip vip = new Vip(InetAddress.getByAddress(toOctets(BurstSource.VIP_ADDRESS)),
                BurstSource.VIP_PORT, Vip.TCP);
            state.addVip(vip);
            for (int i = 0; i < BACKENDS; i++)
            {
                state.addBackend(vip, InetAddress.getByAddress(BenchmarkBackends.identity(i)), 1, true);
            }
            // as the forwarder makes it: growing from ConnectionTable.GROWTH_START entries
            final ConnectionTable connections = config.newConnectionTable();
            final TunnelOptions options = switch (tunnel)
            {
                case "none" -> TunnelOptions.NONE;
                case "all" -> new TunnelOptions(true, (Inet4Address)InetAddress.getByName("10.254.0.0"), 16, null, 0,
                    100);
                default -> throw new IllegalArgumentException("tunnel must be none or all, got " + tunnel);
            };
            pipeline = new PacketPipeline(config, options, new SnapshotPublisher(state.snapshot()), connections,
                new PipelineCounters(config.maxVips(), config.maxBackends()));

            nowNs = 1_000_000_000L;
            switch (mode)
            {
                case "hit" -> clockStepNs = 0;
                case "miss" -> clockStepNs = config.tcpIdleTimeoutNs() + 1;
                case "flood" -> clockStepNs = 1;
                default -> throw new IllegalArgumentException("mode must be hit, miss or flood, got " + mode);
            }
            flood = "flood".equals(mode);
            if (flood)
            {
                // Every frame a new flow, and the table full of live ones before the clock starts: twice its
                // capacity in new flows leaves few windows with an empty entry.
                for (long sent = 0; sent < 2L * capacity; sent += FrameBurst.MAX_BURST)
                {
                    // Ports stepping down here and up in the benchmark's frames: never a flow of the fill.
                    final FrameBurst burst = frames.nextBurst();
                    BurstSource.renewFlows(burst, -1);
                    nowNs += clockStepNs;
                    pipeline.processBurst(burst, nowNs);
                }
                warmUpMisses = pipeline.counters().connectionMisses();
                warmUpEvictions = connections.evictions();
            }
            else if (clockStepNs == 0)
            {
                for (int sent = 0; sent < frames.flows(); sent += FrameBurst.MAX_BURST)
                {
                    pipeline.processBurst(frames.nextBurst(), nowNs);
                }
                warmUpMisses = pipeline.counters().connectionMisses();
                if (warmUpMisses != frames.flows())
                {
                    throw new IllegalStateException("warm-up should miss once per flow, missed " + warmUpMisses);
                }
            }
        }

        /**
         * Processes one burst at the next clock reading.
         *
         * @param burst the frames.
         * @return frames forwarded.
         */
        int process(final FrameBurst burst)
        {
            if (flood)
            {
                // Here, not in BurstSource: JMH gives this setup and the benchmark method two BurstSources.
                BurstSource.renewFlows(burst, 1);
            }
            nowNs += clockStepNs;
            return pipeline.processBurst(burst, nowNs);
        }

        /**
         * Checks that every packet was forwarded and that the mode held.
         */
        @TearDown(Level.Trial)
        public void checkCounters()
        {
            final PipelineCounters counters = pipeline.counters();
            final long forwarded = counters.verdict(Verdict.FORWARD);
            if (counters.verdict(Verdict.PASS) != 0 || counters.verdict(Verdict.DROP) != 0 || forwarded == 0)
            {
                throw new IllegalStateException("expected only FORWARD verdicts: forward " + forwarded + ", pass " +
                    counters.verdict(Verdict.PASS) + ", drop " + counters.verdict(Verdict.DROP));
            }
            final long misses = counters.connectionMisses() - warmUpMisses;
            final long hits = counters.connectionHits();
            if (clockStepNs == 0 ? misses != 0 : hits != 0)
            {
                throw new IllegalStateException("mode " + mode + " did not hold: " + hits + " hits, " + misses +
                    " misses after warm-up");
            }
            if (flood)
            {
                final long evictions = pipeline.connections().evictions() - warmUpEvictions;
                if (evictions * 2 < misses)
                {
                    throw new IllegalStateException("flood: only " + evictions + " of " + misses +
                        " new flows evicted a live one; the table was not full");
                }
                System.out.printf("flood: %d new flows, %.1f%% evicted a live flow%n", misses,
                    100.0 * evictions / misses);
            }
        }

        private static byte[] toOctets(final int address)
        {
            return new byte[]{(byte)(address >>> 24), (byte)(address >>> 16), (byte)(address >>> 8), (byte)address};
        }
    }

    /**
     * Restores one burst of frames and runs it through the pipeline.
     *
     * @param frames the frames.
     * @param worker the pipeline.
     * @return frames forwarded.
     */
    @Benchmark
    @OperationsPerInvocation(FrameBurst.MAX_BURST)
    public int processBurst(final BurstSource frames, final Worker worker)
    {
        return worker.process(frames.nextBurst());
    }

    /**
     * {@link #processBurst} with Agrona's bounds checks on (every buffer access checked against the buffer's
     * capacity): the cost of running the forwarder with {@code -Dagrona.disable.bounds.checks=false}.
     *
     * @param frames the frames.
     * @param worker the pipeline.
     * @return frames forwarded.
     */
    @Benchmark
    @OperationsPerInvocation(FrameBurst.MAX_BURST)
    @Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "-Dagrona.disable.bounds.checks=false", "-XX:InlineSmallCode=6000"})
    public int processBurstBoundsChecked(final BurstSource frames, final Worker worker)
    {
        return worker.process(frames.nextBurst());
    }

    /**
     * Restores one burst of frames only: the share of {@link #processBurst} that is benchmark scaffolding.
     *
     * @param frames the frames.
     * @return the next flow, so the work is not optimised away.
     */
    @Benchmark
    @OperationsPerInvocation(FrameBurst.MAX_BURST)
    public int restoreOnly(final BurstSource frames)
    {
        frames.nextBurst();
        return frames.cursor();
    }
}
