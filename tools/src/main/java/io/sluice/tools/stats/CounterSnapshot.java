package io.sluice.tools.stats;

import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterType;
import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every allocated counter of a counters file at one moment: metadata from one pass over the metadata buffer, then
 * each value with a volatile load.
 */
final class CounterSnapshot
{
    /**
     * One counter.
     *
     * @param id     counter id.
     * @param typeId type id as stored.
     * @param type   the type, or null when this reader does not know the id.
     * @param worker key worker.
     * @param index1 key index 1.
     * @param index2 key index 2.
     * @param label  label.
     * @param value  value.
     */
    record Entry(int id, int typeId, CounterType type, int worker, int index1, int index2, String label, long value)
    {
        /**
         * Returns what identifies the counter across samples (ids can be reused, keys cannot mean another thing).
         *
         * @return the identity.
         */
        Identity identity()
        {
            return new Identity(typeId, worker, index1, index2);
        }

        /**
         * Returns the type's name, or {@code UNKNOWN_<id>}.
         *
         * @return the name.
         */
        String typeName()
        {
            return type != null ? type.name() : CounterType.unknownName(typeId);
        }
    }

    /**
     * Type and key: the same counter in two samples.
     *
     * @param typeId type id.
     * @param worker key worker.
     * @param index1 key index 1.
     * @param index2 key index 2.
     */
    record Identity(int typeId, int worker, int index1, int index2)
    {
    }

    private final List<Entry> entries;
    private final long nanoTime;
    private final long epochMs;

    private CounterSnapshot(final List<Entry> entries, final long nanoTime, final long epochMs)
    {
        this.entries = entries;
        this.nanoTime = nanoTime;
        this.epochMs = epochMs;
    }

    /**
     * Reads every allocated counter.
     *
     * @param reader the counters.
     * @param clock  the time source.
     * @return the snapshot, in counter id order.
     */
    static CounterSnapshot take(final CountersReader reader, final SamplingClock clock)
    {
        final List<Entry> metadata = new ArrayList<>();
        reader.forEach((id, typeId, keyBuffer, label) -> metadata.add(new Entry(id, typeId,
            CounterType.fromTypeId(typeId), CounterKey.worker(keyBuffer, 0), CounterKey.index1(keyBuffer, 0),
            CounterKey.index2(keyBuffer, 0), label, 0)));
        final long nanoTime = clock.nanoTime();
        final long epochMs = clock.epochMs();
        final List<Entry> entries = new ArrayList<>(metadata.size());
        for (final Entry entry : metadata)
        {
            entries.add(new Entry(entry.id(), entry.typeId(), entry.type(), entry.worker(), entry.index1(),
                entry.index2(), entry.label(), reader.getCounterValue(entry.id())));
        }
        return new CounterSnapshot(Collections.unmodifiableList(entries), nanoTime, epochMs);
    }

    /**
     * Returns the counters.
     *
     * @return entries in id order.
     */
    List<Entry> entries()
    {
        return entries;
    }

    /**
     * Returns when the values were read, on the monotonic clock.
     *
     * @return nanoseconds.
     */
    long nanoTime()
    {
        return nanoTime;
    }

    /**
     * Returns when the values were read, on the wall clock.
     *
     * @return epoch milliseconds.
     */
    long epochMs()
    {
        return epochMs;
    }
}
