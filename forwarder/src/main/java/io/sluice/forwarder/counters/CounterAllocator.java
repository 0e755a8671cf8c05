package io.sluice.forwarder.counters;

import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterLabels;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * Allocates the forwarder's counters with the {@link CounterKey key} and {@link CounterLabels label} their
 * {@link CounterType} calls for, so every reader finds them the same way.
 * <p>
 * Allocation and {@link #free} are not thread-safe: one thread (the forwarder's control thread) does them, off the
 * data path. Workers only write values, through a {@link CounterWriter}. A counter must not be freed while a
 * worker may still write its id: the id is handed to the next allocation with its value reset.
 */
public final class CounterAllocator
{
    private final CountersManager manager;
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[CounterKey.LENGTH]);

    /**
     * Allocates from a manager, normally {@link CountersFile#manager()}.
     *
     * @param manager the counters manager.
     */
    public CounterAllocator(final CountersManager manager)
    {
        this.manager = manager;
    }

    /**
     * Allocates a per-worker counter, e.g. {@code rx packets: worker=0}.
     *
     * @param type   a type of scope {@link CounterType.Scope#WORKER}.
     * @param worker the worker id.
     * @return the counter id.
     */
    public int workerCounter(final CounterType type, final int worker)
    {
        checkScope(type, CounterType.Scope.WORKER);
        checkIndex("worker", worker);
        return allocate(type, worker, CounterKey.NONE, CounterKey.NONE, CounterLabels.worker(type, worker));
    }

    /**
     * Allocates a per-worker counter of one drop or pass reason, e.g. {@code drops: reason=IPV4_TRUNCATED worker=0}.
     *
     * @param type       {@link CounterType#DROP_REASON} or {@link CounterType#PASS_REASON}.
     * @param worker     the worker id.
     * @param ordinal    the reason's ordinal.
     * @param reasonName the reason's name, shown by readers.
     * @return the counter id.
     */
    public int reasonCounter(final CounterType type, final int worker, final int ordinal, final String reasonName)
    {
        checkScope(type, CounterType.Scope.WORKER_REASON);
        checkIndex("worker", worker);
        checkIndex("reason ordinal", ordinal);
        return allocate(type, worker, ordinal, CounterKey.NONE, CounterLabels.reason(type, worker, reasonName));
    }

    /**
     * Allocates a per-worker, per-VIP counter, e.g. {@code vip packets: vip=web (10.100.0.1:80/tcp) worker=0}.
     *
     * @param type     a type of scope {@link CounterType.Scope#VIP}.
     * @param worker   the worker id.
     * @param vipIndex the VIP's index.
     * @param vipLabel how operators name the VIP.
     * @return the counter id.
     */
    public int vipCounter(final CounterType type, final int worker, final int vipIndex, final String vipLabel)
    {
        checkScope(type, CounterType.Scope.VIP);
        checkIndex("worker", worker);
        checkIndex("VIP index", vipIndex);
        return allocate(type, worker, vipIndex, CounterKey.NONE, CounterLabels.vip(type, worker, vipLabel));
    }

    /**
     * Allocates a per-worker, per-backend counter, e.g.
     * {@code backend packets: vip=web (10.100.0.1:80/tcp) backend=b1 (10.0.0.1) worker=0}.
     *
     * @param type         a type of scope {@link CounterType.Scope#BACKEND}.
     * @param worker       the worker id.
     * @param vipIndex     the VIP's index.
     * @param slot         the backend's slot.
     * @param vipLabel     how operators name the VIP.
     * @param backendLabel how operators name the backend.
     * @return the counter id.
     */
    public int backendCounter(
        final CounterType type,
        final int worker,
        final int vipIndex,
        final int slot,
        final String vipLabel,
        final String backendLabel)
    {
        checkScope(type, CounterType.Scope.BACKEND);
        checkIndex("worker", worker);
        checkIndex("VIP index", vipIndex);
        checkIndex("backend slot", slot);
        return allocate(type, worker, vipIndex, slot, CounterLabels.backend(type, worker, vipLabel, backendLabel));
    }

    /**
     * Allocates a per-port counter, e.g. {@code port rx missed: port=0}.
     *
     * @param type   a type of scope {@link CounterType.Scope#PORT}.
     * @param portId the DPDK port id.
     * @return the counter id.
     */
    public int portCounter(final CounterType type, final int portId)
    {
        checkScope(type, CounterType.Scope.PORT);
        checkIndex("port id", portId);
        return allocate(type, CounterKey.NONE, portId, CounterKey.NONE, CounterLabels.port(type, portId));
    }

    /**
     * Allocates a process-wide counter, e.g. {@code control commands applied}.
     *
     * @param type a type of scope {@link CounterType.Scope#PROCESS}.
     * @return the counter id.
     */
    public int processCounter(final CounterType type)
    {
        checkScope(type, CounterType.Scope.PROCESS);
        return allocate(type, CounterKey.NONE, CounterKey.NONE, CounterKey.NONE, CounterLabels.process(type));
    }

    /**
     * Wraps an allocated counter in an {@link AtomicCounter}, for a writer that prefers it to a
     * {@link CounterWriter} (the control thread's counters, say). Closing the returned counter frees it.
     *
     * @param id the counter id.
     * @return the counter.
     */
    public AtomicCounter atomicCounter(final int id)
    {
        return new AtomicCounter(manager.valuesBuffer(), id, manager);
    }

    /**
     * Returns a writer over the manager's values.
     *
     * @return a new writer.
     */
    public CounterWriter writer()
    {
        return CounterWriter.of(manager);
    }

    /**
     * Frees a counter; its id goes to the next allocation.
     *
     * @param id the counter id.
     */
    public void free(final int id)
    {
        manager.free(id);
    }

    /**
     * Returns how many more counters fit.
     *
     * @return counters left.
     */
    public int available()
    {
        return manager.available();
    }

    private int allocate(final CounterType type, final int worker, final int index1, final int index2,
        final String label)
    {
        CounterKey.write(key, 0, worker, index1, index2);
        try
        {
            return manager.allocate(label, type.typeId(), buffer -> buffer.putBytes(0, key, 0, CounterKey.LENGTH));
        }
        catch (final IllegalStateException ex)
        {
            throw new IllegalStateException("counters file is full (" + (manager.maxCounterId() + 1) +
                " counters) allocating '" + label + "': raise the counter capacity", ex);
        }
    }

    private static void checkScope(final CounterType type, final CounterType.Scope scope)
    {
        if (type.scope() != scope)
        {
            throw new IllegalArgumentException(type + " is a " + type.scope() + " counter, not " + scope);
        }
    }

    private static void checkIndex(final String name, final int value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
    }
}
