package io.sluice.forwarder.agent;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.DutyCycleBuckets;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PassReason;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.ForwardingSnapshot;
import org.agrona.concurrent.EpochClock;

import java.util.Map;
import java.util.TreeMap;

/**
 * The forwarder's counters in the shared-memory counters file. The control thread allocates them (per worker
 * at start, per VIP and backend as they come and go) and publishes which id belongs to which slot; each worker
 * copies its plain counters into its own ids at every flush, with release stores. One writer per counter.
 */
public final class ForwarderCounters
{
    private static final CounterType[] WORKER_TYPES = {
        CounterType.RX_PACKETS, CounterType.RX_BYTES, CounterType.TX_PACKETS, CounterType.TX_BYTES,
        CounterType.TX_FULL_DROPS, CounterType.TX_REJECTED, CounterType.FORWARDED, CounterType.PASSED,
        CounterType.DROPPED, CounterType.CONN_HITS, CounterType.CONN_MISSES, CounterType.CONN_EVICTIONS,
        CounterType.CONN_EXPIRATIONS, CounterType.CONN_REBINDS, CounterType.CONN_ENTRIES, CounterType.HEARTBEAT_MS,
        CounterType.DUTY_CYCLES, CounterType.MAX_DUTY_CYCLE_NS, CounterType.SNAPSHOT_VERSION,
        CounterType.KERNEL_TX_PACKETS, CounterType.KERNEL_TX_DROPS, CounterType.KERNEL_RX_PACKETS,
        CounterType.KERNEL_RX_DROPS, CounterType.CAPTURE_FRAMES, CounterType.CAPTURE_DROPS,
        CounterType.ICMP_ECHO_REPLIES_V4, CounterType.ICMP_ECHO_REPLIES_V6, CounterType.ICMP_RATE_LIMITED,
        CounterType.ICMP_TOO_BIG_SENT_V4, CounterType.ICMP_TOO_BIG_SENT_V6, CounterType.ICMP_TOO_BIG_SUPPRESSED,
        CounterType.OUTER_FRAGMENTED, CounterType.REPLIES_SENT, CounterType.REPLY_DROPS,
        CounterType.OUTER_FRAGMENTS,
    };

    private final CounterAllocator allocator;
    private final CounterWriter writer;
    private final EpochClock clock;
    private final int workers;
    private final int[][] workerIds;
    private final int[][] dropIds;
    private final int[][] passIds;
    // Per worker: the duty-cycle time sum, then one counter per DutyCycleBuckets bucket.
    private final int[][] dutyCycleIds;
    private final Map<Integer, int[]> vipEntries = new TreeMap<>();
    private final Map<Integer, int[]> backendEntries = new TreeMap<>();
    private volatile SlotCounterMap slotMap = SlotCounterMap.EMPTY;

    /**
     * Allocates every per-worker counter.
     *
     * @param allocator the counters file's allocator (control thread only).
     * @param workers   number of workers.
     * @param clock     wall clock for heartbeats.
     */
    public ForwarderCounters(final CounterAllocator allocator, final int workers, final EpochClock clock)
    {
        this.allocator = allocator;
        this.writer = allocator.writer();
        this.clock = clock;
        this.workers = workers;
        workerIds = new int[workers][WORKER_TYPES.length];
        dropIds = new int[workers][DropReason.count()];
        passIds = new int[workers][PassReason.values().length];
        dutyCycleIds = new int[workers][];
        for (int w = 0; w < workers; w++)
        {
            for (int t = 0; t < WORKER_TYPES.length; t++)
            {
                workerIds[w][t] = allocator.workerCounter(WORKER_TYPES[t], w);
            }
            for (final DropReason reason : DropReason.values())
            {
                dropIds[w][reason.ordinal()] =
                    allocator.reasonCounter(CounterType.DROP_REASON, w, reason.ordinal(), reason.name());
            }
            for (final PassReason reason : PassReason.values())
            {
                passIds[w][reason.ordinal()] =
                    allocator.reasonCounter(CounterType.PASS_REASON, w, reason.ordinal(), reason.name());
            }
            dutyCycleIds[w] = allocateDutyCycleCounters(allocator, w);
        }
        // A row per worker before the first VIP: SlotCounterMap.EMPTY has none, and a flush indexes by worker.
        publishMap();
    }

    /**
     * Allocates a VIP's per-worker counters (control thread).
     *
     * @param index      VIP index.
     * @param generation its slot generation.
     * @param label      how operators name it.
     */
    public void onVipAdded(final int index, final int generation, final String label)
    {
        // Per worker packets and bytes, then the Maglev fingerprint (one per VIP, written by the control thread).
        final int[] entry = new int[2 + 2 * workers];
        entry[0] = generation;
        for (int w = 0; w < workers; w++)
        {
            entry[1 + 2 * w] = allocator.vipCounter(CounterType.VIP_PACKETS, w, index, label);
            entry[2 + 2 * w] = allocator.vipCounter(CounterType.VIP_BYTES, w, index, label);
        }
        entry[1 + 2 * workers] = allocator.vipCounter(CounterType.VIP_MAGLEV_FINGERPRINT, 0, index, label);
        free(vipEntries.put(index, entry));
        publishMap();
    }

    /**
     * Records the fingerprint of a VIP's Maglev table (control thread, when the table was rebuilt).
     *
     * @param index       VIP index.
     * @param fingerprint the table's {@link io.sluice.forwarder.maglev.MaglevFingerprint}.
     */
    public void onMaglevFingerprint(final int index, final long fingerprint)
    {
        final int[] entry = vipEntries.get(index);
        if (entry != null)
        {
            writer.set(entry[1 + 2 * workers], fingerprint);
        }
    }

    /**
     * Frees a VIP's counters (control thread).
     *
     * @param index VIP index.
     */
    public void onVipRemoved(final int index)
    {
        free(vipEntries.remove(index));
        publishMap();
    }

    /**
     * Allocates a backend's per-worker counters (control thread).
     *
     * @param vipIndex     its VIP's index.
     * @param slot         backend slot.
     * @param generation   its slot generation.
     * @param vipLabel     how operators name the VIP.
     * @param backendLabel how operators name the backend.
     */
    public void onBackendAdded(
        final int vipIndex, final int slot, final int generation, final String vipLabel, final String backendLabel)
    {
        final int[] entry = new int[1 + 2 * workers];
        entry[0] = generation;
        for (int w = 0; w < workers; w++)
        {
            entry[1 + 2 * w] = allocator.backendCounter(CounterType.BACKEND_PACKETS, w, vipIndex, slot, vipLabel,
                backendLabel);
            entry[2 + 2 * w] = allocator.backendCounter(CounterType.BACKEND_BYTES, w, vipIndex, slot, vipLabel,
                backendLabel);
        }
        free(backendEntries.put(slot, entry));
        publishMap();
    }

    /**
     * Frees a backend's counters (control thread).
     *
     * @param slot backend slot.
     */
    public void onBackendRemoved(final int slot)
    {
        free(backendEntries.remove(slot));
        publishMap();
    }

    private void free(final int[] entry)
    {
        if (entry != null)
        {
            for (int i = 1; i < entry.length; i++)
            {
                allocator.free(entry[i]);
            }
        }
    }

    private void publishMap()
    {
        final int[] vipSlots = new int[vipEntries.size()];
        final int[] vipGenerations = new int[vipSlots.length];
        final int[][] vipIds = new int[workers][2 * vipSlots.length];
        int i = 0;
        for (final Map.Entry<Integer, int[]> e : vipEntries.entrySet())
        {
            vipSlots[i] = e.getKey();
            vipGenerations[i] = e.getValue()[0];
            for (int w = 0; w < workers; w++)
            {
                vipIds[w][2 * i] = e.getValue()[1 + 2 * w];
                vipIds[w][2 * i + 1] = e.getValue()[2 + 2 * w];
            }
            i++;
        }
        final int[] backendSlots = new int[backendEntries.size()];
        final int[] backendGenerations = new int[backendSlots.length];
        final int[][] backendIds = new int[workers][2 * backendSlots.length];
        i = 0;
        for (final Map.Entry<Integer, int[]> e : backendEntries.entrySet())
        {
            backendSlots[i] = e.getKey();
            backendGenerations[i] = e.getValue()[0];
            for (int w = 0; w < workers; w++)
            {
                backendIds[w][2 * i] = e.getValue()[1 + 2 * w];
                backendIds[w][2 * i + 1] = e.getValue()[2 + 2 * w];
            }
            i++;
        }
        slotMap = new SlotCounterMap(vipSlots, vipGenerations, vipIds, backendSlots, backendGenerations, backendIds);
    }

    /**
     * Returns the flush target of one worker.
     *
     * @param worker worker id.
     * @return the publisher, called on that worker's thread.
     */
    public WorkerCounters.Publisher publisher(final int worker)
    {
        return (io, pipeline) -> publish(worker, io, pipeline);
    }

    private void publish(final int worker, final WorkerCounters io, final PacketPipeline pipeline)
    {
        final CounterWriter writer = this.writer;
        final int[] ids = workerIds[worker];
        final PipelineCounters counters = pipeline.counters();
        final ConnectionTable connections = pipeline.connections();
        int t = 0;
        writer.set(ids[t++], io.rxPackets());
        writer.set(ids[t++], io.rxBytes());
        writer.set(ids[t++], io.txPackets());
        writer.set(ids[t++], io.txBytes());
        writer.set(ids[t++], io.txFullDrops());
        writer.set(ids[t++], io.txRejected());
        writer.set(ids[t++], counters.verdict(Verdict.FORWARD));
        writer.set(ids[t++], counters.verdict(Verdict.PASS));
        writer.set(ids[t++], counters.verdict(Verdict.DROP));
        writer.set(ids[t++], counters.connectionHits());
        writer.set(ids[t++], counters.connectionMisses());
        writer.set(ids[t++], connections.evictions());
        writer.set(ids[t++], connections.expirations());
        writer.set(ids[t++], counters.connectionRebinds());
        writer.set(ids[t++], connections.size());
        writer.set(ids[t++], clock.time());
        writer.set(ids[t++], io.dutyCycles());
        writer.set(ids[t++], io.maxDutyCycleNs());
        writer.set(ids[t++], pipeline.snapshot().version());
        writer.set(ids[t++], io.kernelTxPackets());
        writer.set(ids[t++], io.kernelTxDrops());
        writer.set(ids[t++], io.kernelRxPackets());
        writer.set(ids[t++], io.kernelRxDrops());
        writer.set(ids[t++], io.captureFrames());
        writer.set(ids[t++], io.captureDrops());
        writer.set(ids[t++], counters.icmpEchoRepliesV4());
        writer.set(ids[t++], counters.icmpEchoRepliesV6());
        writer.set(ids[t++], counters.dropped(DropReason.ICMP_RATE_LIMITED));
        writer.set(ids[t++], counters.icmpTooBigSentV4());
        writer.set(ids[t++], counters.icmpTooBigSentV6());
        writer.set(ids[t++], counters.icmpTooBigSuppressed());
        writer.set(ids[t++], counters.outerFragmented());
        writer.set(ids[t++], io.repliesSent());
        writer.set(ids[t++], io.replyDrops());
        writer.set(ids[t], counters.outerFragments());

        final int[] drops = dropIds[worker];
        for (int r = 0; r < drops.length; r++)
        {
            writer.set(drops[r], counters.dropped(DropReason.get(r)));
        }
        final int[] passes = passIds[worker];
        for (int r = 0; r < passes.length; r++)
        {
            writer.set(passes[r], counters.passed(r));
        }
        publishSlots(worker, counters, pipeline.snapshot());
        publishDutyCycles(dutyCycleIds[worker], io.dutyCycleTimes());
    }

    private static int[] allocateDutyCycleCounters(final CounterAllocator allocator, final int worker)
    {
        final int[] ids = new int[1 + DutyCycleBuckets.COUNT];
        ids[0] = allocator.workerCounter(CounterType.DUTY_CYCLE_NS_TOTAL, worker);
        for (int bucket = 0; bucket < DutyCycleBuckets.COUNT; bucket++)
        {
            ids[1 + bucket] = allocator.reasonCounter(CounterType.DUTY_CYCLE_BUCKET, worker, bucket,
                DutyCycleBuckets.name(bucket));
        }
        return ids;
    }

    private void publishDutyCycles(final int[] ids, final DutyCycleHistogram times)
    {
        writer.set(ids[0], times.sumNs());
        for (int bucket = 0; bucket < DutyCycleBuckets.COUNT; bucket++)
        {
            writer.set(ids[1 + bucket], times.bucketCount(bucket));
        }
    }

    private void publishSlots(final int worker, final PipelineCounters counters, final ForwardingSnapshot snapshot)
    {
        final SlotCounterMap map = slotMap;
        final int[] vipIds = map.vipIds[worker];
        for (int i = 0; i < map.vipSlots.length; i++)
        {
            final int vip = map.vipSlots[i];
            if (vip < snapshot.vipCapacity() && snapshot.vipGeneration(vip) == map.vipGenerations[i])
            {
                writer.set(vipIds[2 * i], counters.vipPackets(vip));
                writer.set(vipIds[2 * i + 1], counters.vipBytes(vip));
            }
        }
        final int[] backendIds = map.backendIds[worker];
        for (int i = 0; i < map.backendSlots.length; i++)
        {
            final int slot = map.backendSlots[i];
            if (slot < snapshot.backendCapacity() && snapshot.generation(slot) == map.backendGenerations[i])
            {
                writer.set(backendIds[2 * i], counters.backendPackets(slot));
                writer.set(backendIds[2 * i + 1], counters.backendBytes(slot));
            }
        }
    }
}
