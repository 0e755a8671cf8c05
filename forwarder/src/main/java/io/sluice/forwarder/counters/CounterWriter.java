package io.sluice.forwarder.counters;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Writes counter values by id into a counters values buffer, without allocating: what a worker uses to publish its
 * plain-field counters once per flush.
 * <p>
 * Each counter has a single writer. {@link #set} is a release store, so a reader that sees a value also sees
 * everything the writer did before it; it costs a plain store on x86.
 */
public final class CounterWriter
{
    private final AtomicBuffer values;

    /**
     * Wraps a values buffer.
     *
     * @param values the manager's values buffer ({@link CountersReader#valuesBuffer()}).
     */
    public CounterWriter(final AtomicBuffer values)
    {
        this.values = values;
    }

    /**
     * Wraps the values buffer of a reader or manager.
     *
     * @param reader the counters.
     * @return a writer over its values.
     */
    public static CounterWriter of(final CountersReader reader)
    {
        return new CounterWriter(reader.valuesBuffer());
    }

    /**
     * Sets a counter's value with a release store.
     *
     * @param id    counter id from {@link CounterAllocator}.
     * @param value the value.
     */
    public void set(final int id, final long value)
    {
        values.putLongRelease(CountersReader.counterOffset(id), value);
    }

    /**
     * Adds to a counter's value; for a counter with a single writer only (a plain read, then a release store).
     *
     * @param id    counter id.
     * @param delta amount to add.
     */
    public void add(final int id, final long delta)
    {
        final int offset = CountersReader.counterOffset(id);
        values.putLongRelease(offset, values.getLong(offset) + delta);
    }

    /**
     * Raises a counter to a value if it is below it (for high-water marks); single writer only.
     *
     * @param id    counter id.
     * @param value candidate maximum.
     */
    public void setMax(final int id, final long value)
    {
        final int offset = CountersReader.counterOffset(id);
        if (value > values.getLong(offset))
        {
            values.putLongRelease(offset, value);
        }
    }

    /**
     * Returns a counter's value with an acquire load.
     *
     * @param id counter id.
     * @return the value.
     */
    public long get(final int id)
    {
        return values.getLongAcquire(CountersReader.counterOffset(id));
    }
}
