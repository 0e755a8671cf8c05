package io.sluice.forwarder.agent;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.ForwarderState;

/**
 * Process-wide counters, written by the control thread only: commands applied and rejected, the forwarding state
 * version, the last Maglev rebuild time and the forwarder's lifecycle state.
 */
public final class ProcessCounters
{
    private final CounterWriter writer;
    private final int applied;
    private final int rejected;
    private final int version;
    private final int buildNs;
    private final int lifecycle;

    /**
     * Allocates the counters.
     *
     * @param allocator the counters file's allocator.
     */
    public ProcessCounters(final CounterAllocator allocator)
    {
        writer = allocator.writer();
        applied = allocator.processCounter(CounterType.CONTROL_COMMANDS_APPLIED);
        rejected = allocator.processCounter(CounterType.CONTROL_COMMANDS_REJECTED);
        version = allocator.processCounter(CounterType.FORWARDING_STATE_VERSION);
        buildNs = allocator.processCounter(CounterType.MAGLEV_BUILD_NS_LAST);
        lifecycle = allocator.processCounter(CounterType.FORWARDER_STATE);
    }

    void commands(final long accepted, final long refused)
    {
        writer.set(applied, accepted);
        writer.set(rejected, refused);
    }

    void published(final long snapshotVersion, final long rebuildNs)
    {
        writer.set(version, snapshotVersion);
        writer.set(buildNs, rebuildNs);
    }

    /**
     * Records the forwarder's lifecycle state.
     *
     * @param state starting, running or stopping.
     */
    public void state(final ForwarderState state)
    {
        writer.set(lifecycle, state.value());
    }
}
