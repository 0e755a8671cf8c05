package io.sluice.forwarder.process;

import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterType;
import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every allocated counter of a forwarder's counters file at one moment, keyed the way readers must group them: by
 * type and key (worker, index 1, index 2), never by label.
 */
final class CounterValues
{
    /**
     * One counter: what it counts and its value.
     */
    record Entry(int id, CounterType type, int worker, int index1, int index2, String label, long value)
    {
    }

    /** Stands for every worker in the per-VIP, per-backend and per-reason lookups. */
    static final int ALL_WORKERS = -2;

    private final List<Entry> entries;

    private CounterValues(final List<Entry> entries)
    {
        this.entries = entries;
    }

    /**
     * Reads metadata, then each value with a volatile load.
     */
    static CounterValues read(final CountersReader reader)
    {
        final List<Entry> metadata = new ArrayList<>();
        reader.forEach((id, typeId, key, label) -> metadata.add(new Entry(id, CounterType.fromTypeId(typeId),
            CounterKey.worker(key, 0), CounterKey.index1(key, 0), CounterKey.index2(key, 0), label, 0)));
        final List<Entry> entries = new ArrayList<>(metadata.size());
        for (final Entry entry : metadata)
        {
            entries.add(new Entry(entry.id(), entry.type(), entry.worker(), entry.index1(), entry.index2(),
                entry.label(), reader.getCounterValue(entry.id())));
        }
        return new CounterValues(entries);
    }

    /**
     * Sums a type over every worker (and every index).
     */
    long sum(final CounterType type)
    {
        long sum = 0;
        for (final Entry entry : entries)
        {
            if (entry.type() == type)
            {
                sum += entry.value();
            }
        }
        return sum;
    }

    /**
     * Returns one worker's value of a per-worker type.
     */
    long worker(final CounterType type, final int worker)
    {
        return sum(type, worker, CounterKey.NONE, CounterKey.NONE, true);
    }

    /**
     * Sums a per-reason type (drop or pass reasons) over workers.
     */
    long reason(final CounterType type, final int ordinal)
    {
        return sum(type, ALL_WORKERS, ordinal, CounterKey.NONE, true);
    }

    /**
     * Returns a per-reason value of one worker.
     */
    long reason(final CounterType type, final int worker, final int ordinal)
    {
        return sum(type, worker, ordinal, CounterKey.NONE, true);
    }

    /**
     * Sums a per-VIP type over workers; {@link #ALL_WORKERS} for all.
     */
    long vip(final CounterType type, final int worker, final int vipIndex)
    {
        return sum(type, worker, vipIndex, CounterKey.NONE, true);
    }

    /**
     * Sums a per-backend type over workers; {@link #ALL_WORKERS} for all.
     */
    long backend(final CounterType type, final int worker, final int vipIndex, final int slot)
    {
        return sum(type, worker, vipIndex, slot, true);
    }

    /**
     * Tells whether a backend's packet counters are allocated (it is configured).
     */
    boolean hasBackend(final int vipIndex, final int slot)
    {
        for (final Entry entry : entries)
        {
            if (entry.type() == CounterType.BACKEND_PACKETS && entry.index1() == vipIndex && entry.index2() == slot)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the counter ids of a backend's packet counters, one per worker.
     */
    List<Integer> backendPacketIds(final int vipIndex, final int slot)
    {
        final List<Integer> ids = new ArrayList<>();
        for (final Entry entry : entries)
        {
            if (entry.type() == CounterType.BACKEND_PACKETS && entry.index1() == vipIndex && entry.index2() == slot)
            {
                ids.add(entry.id());
            }
        }
        return ids;
    }

    /**
     * Returns the value of a process-wide counter.
     */
    long process(final CounterType type)
    {
        return sum(type, CounterKey.NONE, CounterKey.NONE, CounterKey.NONE, false);
    }

    /**
     * Returns the value of a process-wide counter, or {@code absent} while it is not allocated yet.
     */
    long process(final CounterType type, final long absent)
    {
        for (final Entry entry : entries)
        {
            if (entry.type() == type)
            {
                return entry.value();
            }
        }
        return absent;
    }

    private long sum(final CounterType type, final int worker, final int index1, final int index2,
        final boolean anyIsFine)
    {
        long sum = 0;
        boolean found = false;
        for (final Entry entry : entries)
        {
            if (entry.type() == type && (worker == ALL_WORKERS || entry.worker() == worker) &&
                entry.index1() == index1 && entry.index2() == index2)
            {
                sum += entry.value();
                found = true;
            }
        }
        if (!found && !anyIsFine)
        {
            throw new AssertionError("no counter " + type + " (" + worker + ", " + index1 + ", " + index2 + ")");
        }
        return sum;
    }

    /**
     * Lists the non-zero counters, for failure messages.
     */
    @Override
    public String toString()
    {
        final Map<String, Long> nonZero = new TreeMap<>();
        for (final Entry entry : entries)
        {
            if (entry.value() != 0 && entry.type() != CounterType.HEARTBEAT_MS)
            {
                nonZero.merge(entry.type() + "[" + entry.worker() + "," + entry.index1() + "," + entry.index2() + "]",
                    entry.value(), Long::sum);
            }
        }
        final StringBuilder text = new StringBuilder("counters:");
        nonZero.forEach((key, value) -> text.append("\n  ").append(key).append(" = ").append(value));
        return text.toString();
    }
}
