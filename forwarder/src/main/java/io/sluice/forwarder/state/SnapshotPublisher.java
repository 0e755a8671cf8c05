package io.sluice.forwarder.state;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The one place a new {@link ForwardingSnapshot} passes from the control thread to the workers: a release
 * store on publish, an acquire load when a worker starts a burst. The snapshot is immutable, so the fence
 * pair is all the synchronisation there is.
 */
public final class SnapshotPublisher
{
    private final AtomicReference<ForwardingSnapshot> current;

    /**
     * Creates a publisher with an initial snapshot.
     *
     * @param initial first snapshot.
     */
    public SnapshotPublisher(final ForwardingSnapshot initial)
    {
        current = new AtomicReference<>(initial);
    }

    /**
     * Publishes a snapshot (release store).
     *
     * @param snapshot the new state.
     */
    public void publish(final ForwardingSnapshot snapshot)
    {
        current.setRelease(snapshot);
    }

    /**
     * Returns the latest snapshot (acquire load).
     *
     * @return the snapshot workers should use.
     */
    public ForwardingSnapshot current()
    {
        return current.getAcquire();
    }
}
