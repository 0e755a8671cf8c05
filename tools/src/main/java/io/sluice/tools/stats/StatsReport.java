package io.sluice.tools.stats;

import io.sluice.common.counters.CounterLabels;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.DutyCycleBuckets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@code stats} shows for one sample: two snapshots of a counters file combined into per-worker values, totals
 * over workers, per-VIP, per-backend, per-port and process-wide values, each with a per-second rate where the type
 * has one. Counters are matched across the two snapshots by type and key; a counter that went backwards (its
 * forwarder restarted) counts from zero.
 */
final class StatsReport
{
    /**
     * A worker whose latest duty cycle is older than this is flagged as stale.
     */
    static final long STALE_HEARTBEAT_MS = 1_000;

    /**
     * A value and how much it grew between the two snapshots.
     */
    static final class Stat
    {
        long value;
        long delta;
        private boolean seen;

        void add(final CounterType.Kind kind, final long value, final long delta)
        {
            if (kind == CounterType.Kind.COUNTER || kind == CounterType.Kind.GAUGE)
            {
                this.value += value;
                this.delta += delta;
            }
            else if (kind == CounterType.Kind.MAXIMUM)
            {
                this.value = seen ? Math.max(this.value, value) : value;
            }
            else
            {
                this.value = value;
            }
            seen = true;
        }
    }

    /**
     * A drop or pass reason's value and growth.
     */
    static final class ReasonStat
    {
        final String name;
        final Stat stat = new Stat();

        ReasonStat(final String name)
        {
            this.name = name;
        }
    }

    /**
     * Everything known about one subject: a worker, the totals, a VIP, a backend, a port or the process.
     */
    static final class Group
    {
        final int id;
        final String name;
        final String backendName;
        final int slot;
        final Map<CounterType, Stat> stats = new EnumMap<>(CounterType.class);
        final SortedMap<Integer, ReasonStat> dropReasons = new TreeMap<>();
        final SortedMap<Integer, ReasonStat> passReasons = new TreeMap<>();
        /** Duty cycles per {@link DutyCycleBuckets} bucket, named by the bucket. */
        final SortedMap<Integer, ReasonStat> dutyCycleBuckets = new TreeMap<>();

        Group(final int id, final String name, final String backendName, final int slot)
        {
            this.id = id;
            this.name = name;
            this.backendName = backendName;
            this.slot = slot;
        }

        void add(final CounterSnapshot.Entry entry, final long delta)
        {
            final CounterType type = entry.type();
            if (type == CounterType.DUTY_CYCLE_BUCKET)
            {
                dutyCycleBuckets.computeIfAbsent(entry.index1(), bucket -> new ReasonStat(nameOr(
                    CounterLabels.reasonName(entry.label()), "bucket_" + bucket)))
                    .stat.add(type.kind(), entry.value(), delta);
            }
            else if (type.scope() == CounterType.Scope.WORKER_REASON)
            {
                final SortedMap<Integer, ReasonStat> reasons =
                    type == CounterType.DROP_REASON ? dropReasons : passReasons;
                reasons.computeIfAbsent(entry.index1(), ordinal -> new ReasonStat(nameOr(
                    CounterLabels.reasonName(entry.label()), "reason_" + ordinal)))
                    .stat.add(type.kind(), entry.value(), delta);
            }
            else
            {
                stats.computeIfAbsent(type, t -> new Stat()).add(type.kind(), entry.value(), delta);
            }
        }

        /**
         * Returns the upper bound of the duty-cycle bucket a quantile falls in: over the interval when cycles ran in
         * it, else since the worker started.
         *
         * @param quantile 0 to 1.
         * @return nanoseconds ({@link Long#MAX_VALUE} in the open-ended bucket), -1 without any cycle.
         */
        long dutyCycleQuantileNs(final double quantile)
        {
            final long[] values = new long[DutyCycleBuckets.COUNT];
            final long[] deltas = new long[DutyCycleBuckets.COUNT];
            long deltaTotal = 0;
            for (final Map.Entry<Integer, ReasonStat> bucket : dutyCycleBuckets.entrySet())
            {
                if (bucket.getKey() >= 0 && bucket.getKey() < DutyCycleBuckets.COUNT)
                {
                    values[bucket.getKey()] = bucket.getValue().stat.value;
                    deltas[bucket.getKey()] = bucket.getValue().stat.delta;
                    deltaTotal += bucket.getValue().stat.delta;
                }
            }
            return DutyCycleBuckets.quantileUpperBoundNs(deltaTotal > 0 ? deltas : values, quantile);
        }

        /**
         * Returns a stat.
         *
         * @param type the type.
         * @return the stat, or null when no counter of the type was seen.
         */
        Stat stat(final CounterType type)
        {
            return stats.get(type);
        }

        /**
         * Returns a value.
         *
         * @param type the type.
         * @return the value, 0 when no counter of the type was seen.
         */
        long value(final CounterType type)
        {
            final Stat stat = stats.get(type);
            return stat == null ? 0 : stat.value;
        }
    }

    /**
     * A counter as read, with its growth.
     *
     * @param entry the counter.
     * @param delta growth since the previous snapshot.
     */
    record Row(CounterSnapshot.Entry entry, long delta)
    {
    }

    final String node;
    final Path file;
    final long pid;
    final boolean alive;
    final long startTimeMs;
    final long nowMs;
    final long intervalNs;
    final Group totals = new Group(-1, "totals", null, -1);
    final Group process = new Group(-1, "process", null, -1);
    final SortedMap<Integer, Group> workers = new TreeMap<>();
    final SortedMap<Integer, Group> vips = new TreeMap<>();
    final SortedMap<Long, Group> backends = new TreeMap<>();
    final SortedMap<Integer, Group> ports = new TreeMap<>();
    final List<Row> rows = new ArrayList<>();

    private StatsReport(
        final String node,
        final Path file,
        final long pid,
        final boolean alive,
        final long startTimeMs,
        final long nowMs,
        final long intervalNs)
    {
        this.node = node;
        this.file = file;
        this.pid = pid;
        this.alive = alive;
        this.startTimeMs = startTimeMs;
        this.nowMs = nowMs;
        this.intervalNs = intervalNs;
    }

    /**
     * Combines two snapshots of a file.
     *
     * @param node     the node's name.
     * @param file     the file's path.
     * @param pid      the owner's pid.
     * @param alive    whether the owner runs.
     * @param startMs  the file's start time.
     * @param previous the earlier snapshot.
     * @param current  the later snapshot.
     * @return the report.
     */
    static StatsReport build(
        final String node,
        final Path file,
        final long pid,
        final boolean alive,
        final long startMs,
        final CounterSnapshot previous,
        final CounterSnapshot current)
    {
        final StatsReport report = new StatsReport(node, file, pid, alive, startMs, current.epochMs(),
            current.nanoTime() - previous.nanoTime());
        final Map<CounterSnapshot.Identity, Long> before = new HashMap<>();
        for (final CounterSnapshot.Entry entry : previous.entries())
        {
            before.put(entry.identity(), entry.value());
        }
        for (final CounterSnapshot.Entry entry : current.entries())
        {
            final CounterType type = entry.type();
            final long delta = type != null && type.hasRate() ? growth(before.get(entry.identity()), entry.value()) : 0;
            report.rows.add(new Row(entry, delta));
            if (type != null)
            {
                report.add(entry, delta);
            }
        }
        return report;
    }

    private void add(final CounterSnapshot.Entry entry, final long delta)
    {
        final CounterType type = entry.type();
        switch (type.scope())
        {
            case WORKER, WORKER_REASON ->
            {
                workers.computeIfAbsent(entry.worker(), worker -> new Group(worker, "worker " + worker, null, -1))
                    .add(entry, delta);
                final CounterType.Kind kind = type.kind();
                if (kind == CounterType.Kind.COUNTER || kind == CounterType.Kind.GAUGE ||
                    kind == CounterType.Kind.MAXIMUM)
                {
                    totals.add(entry, delta);
                }
            }
            case VIP -> vips.computeIfAbsent(entry.index1(), vip -> new Group(vip,
                nameOr(CounterLabels.vipName(entry.label()), "vip#" + vip), null, -1)).add(entry, delta);
            case BACKEND -> backends.computeIfAbsent(((long)entry.index1() << 32) | (entry.index2() & 0xFFFF_FFFFL),
                key -> new Group(entry.index1(), nameOr(CounterLabels.vipName(entry.label()), "vip#" + entry.index1()),
                    nameOr(CounterLabels.backendName(entry.label()), "slot#" + entry.index2()), entry.index2()))
                .add(entry, delta);
            case PORT -> ports.computeIfAbsent(entry.index1(), port -> new Group(port, "port " + port, null, -1))
                .add(entry, delta);
            case PROCESS -> process.add(entry, delta);
            default -> throw new IllegalStateException("unhandled scope " + type.scope());
        }
    }

    /**
     * Returns a per-second rate.
     *
     * @param delta growth over the interval.
     * @return per second, 0 for an empty interval.
     */
    double rate(final long delta)
    {
        return intervalNs > 0 ? delta * 1e9 / intervalNs : 0.0;
    }

    /**
     * Returns how long ago a worker's latest duty cycle was.
     *
     * @param worker the worker's group.
     * @return milliseconds (at least 0), or -1 when the worker has no heartbeat yet.
     */
    long heartbeatAgeMs(final Group worker)
    {
        final long heartbeat = worker.value(CounterType.HEARTBEAT_MS);
        return heartbeat <= 0 ? -1 : Math.max(0, nowMs - heartbeat);
    }

    /**
     * Tells whether a worker looks stuck: no heartbeat yet, or none for {@link #STALE_HEARTBEAT_MS}.
     *
     * @param worker the worker's group.
     * @return true when stale.
     */
    boolean isStale(final Group worker)
    {
        final long age = heartbeatAgeMs(worker);
        return age < 0 || age > STALE_HEARTBEAT_MS;
    }

    /**
     * Returns the forwarder's uptime.
     *
     * @return milliseconds since the file was created.
     */
    long uptimeMs()
    {
        return Math.max(0, nowMs - startTimeMs);
    }

    /**
     * Returns the rows in id order.
     *
     * @return the rows.
     */
    List<Row> rows()
    {
        return Collections.unmodifiableList(rows);
    }

    private static long growth(final Long before, final long now)
    {
        if (before == null || now < before)
        {
            return Math.max(0, now); // new since the previous sample, or restarted from zero
        }
        return now - before;
    }

    private static String nameOr(final String name, final String fallback)
    {
        return name != null && !name.isEmpty() ? name : fallback;
    }
}
