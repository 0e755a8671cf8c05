package io.sluice.forwarder.capture;

import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.Verdict;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * One worker's side of a live capture. {@link #poll} is the only call while no capture runs: one acquire load of the
 * capture file's session word per duty cycle. While one runs, the worker hands each burst to {@link #onReceived}
 * before the pipeline (frames as received) and to {@link #onProcessed} after it (frames as transmitted, and the
 * backend decision for received frames), and this copies the frames that pass the filter into the worker's ring: at
 * most the snap length of each, with a 16-byte header. A frame that does not fit is counted as a capture drop;
 * forwarding never waits for the tool. Nothing allocates.
 * <p>
 * Record (message type {@link CaptureFilter#RX} or {@link CaptureFilter#TX}): epoch time in ns (long), the
 * frame's original length (int), the port id (int), then the captured bytes.
 */
public final class CaptureTap
{
    public static final int RECORD_HEADER_LENGTH = 16;
    /** A capture whose tool has not beaten its heartbeat for this long is abandoned by the workers. */
    static final long LEASE_NS = 2_000_000_000L;
    private static final long LEASE_CHECK_NS = 500_000_000L;
    private static final int NOT_CLAIMED = -1;
    private static final int CLAIM_FAILED = -2;

    private final CaptureFile file;
    private final int worker;
    private final int rxPort;
    private final int txPort;
    private final OneToOneRingBuffer ring;
    private final AtomicBuffer ringBuffer;
    private final CaptureFilter filter = new CaptureFilter();
    private final int[] pending = new int[FrameBurst.MAX_BURST];

    private long session;
    private boolean active;
    private long epochOffsetNs;
    private long lastHeartbeat;
    private long nextLeaseCheckNs;
    private long staleSinceNs;
    // this session's
    private long matched;
    private long captured;
    private long dropped;
    // since the forwarder started
    private long capturedTotal;
    private long droppedTotal;

    /**
     * Creates a worker's tap.
     *
     * @param file   the forwarder's capture file.
     * @param worker worker id.
     * @param rxPort the port the worker receives from.
     * @param txPort the port it transmits on.
     */
    public CaptureTap(final CaptureFile file, final int worker, final int rxPort, final int txPort)
    {
        this.file = file;
        this.worker = worker;
        this.rxPort = rxPort;
        this.txPort = txPort;
        this.ring = file.ring(worker);
        this.ringBuffer = ring.buffer();
    }

    /**
     * Looks whether a capture runs: called once per duty cycle.
     *
     * @param nowNs the duty cycle's clock.
     * @return true while this worker captures.
     */
    public boolean poll(final long nowNs)
    {
        final long current = file.session();
        if (current != session)
        {
            onSessionChange(current, nowNs);
        }
        if (active && nowNs - nextLeaseCheckNs >= 0)
        {
            checkLease(nowNs);
        }
        return active;
    }

    private void onSessionChange(final long next, final long nowNs)
    {
        if (active)
        {
            finish();
        }
        session = next;
        if (next == 0)
        {
            file.servedSession(worker, 0);
            return;
        }
        file.readFilter(filter);
        matched = 0;
        captured = 0;
        dropped = 0;
        epochOffsetNs = System.currentTimeMillis() * 1_000_000L - nowNs;
        lastHeartbeat = file.toolHeartbeat();
        staleSinceNs = nowNs;
        nextLeaseCheckNs = nowNs + LEASE_CHECK_NS;
        active = true;
        publish();
        file.servedSession(worker, next);
    }

    private void finish()
    {
        active = false;
        publish();
        file.servedSession(worker, 0);
    }

    // A tool that died (kill -9) never clears the session: stop copying once its heartbeat stands still.
    private void checkLease(final long nowNs)
    {
        nextLeaseCheckNs = nowNs + LEASE_CHECK_NS;
        final long heartbeat = file.toolHeartbeat();
        if (heartbeat != lastHeartbeat)
        {
            lastHeartbeat = heartbeat;
            staleSinceNs = nowNs;
        }
        else if (nowNs - staleSinceNs >= LEASE_NS)
        {
            finish();
        }
    }

    /**
     * Copies the received frames that pass the filter (all criteria but the backend, which only
     * {@link #onProcessed} can judge: those frames are claimed in the ring now and committed or given back then).
     *
     * @param burst  the frames, before the pipeline touches them.
     * @param frames how many.
     * @param nowNs  the burst's clock.
     */
    public void onReceived(final FrameBurst burst, final int frames, final long nowNs)
    {
        onReceived(rxPort, burst, frames, nowNs);
    }

    /**
     * Hands a burst received from one of the worker's receive ports to the capture, before the pipeline (a worker
     * polling queues of several ports says which one).
     *
     * @param rxPort the port the burst came from.
     * @param burst  the frames.
     * @param frames how many.
     * @param nowNs  the burst's clock.
     */
    public void onReceived(final int rxPort, final FrameBurst burst, final int frames, final long nowNs)
    {
        final boolean deferred = filter.hasBackend();
        for (int i = 0; i < frames; i++)
        {
            pending[i] = NOT_CLAIMED;
            final DirectBuffer buffer = burst.buffer(i);
            final int offset = burst.offset(i);
            final int length = burst.length(i);
            if (filter.matchesIgnoringBackend(buffer, offset, length, CaptureFilter.RX, rxPort))
            {
                if (deferred)
                {
                    pending[i] = claim(buffer, offset, length, CaptureFilter.RX, rxPort, nowNs);
                }
                else
                {
                    matched++;
                    final int index = claim(buffer, offset, length, CaptureFilter.RX, rxPort, nowNs);
                    commit(index);
                }
            }
        }
    }

    /**
     * Settles the received frames that waited for the backend decision and copies the frames about to be
     * transmitted (forwarded or replies) that pass the filter. Called after the pipeline, before the TX call.
     *
     * @param burst  the frames, processed.
     * @param frames how many.
     * @param nowNs  the burst's clock.
     */
    public void onProcessed(final FrameBurst burst, final int frames, final long nowNs)
    {
        final boolean deferred = filter.hasBackend();
        for (int i = 0; i < frames; i++)
        {
            final int verdict = burst.verdict(i);
            final boolean sent = verdict == Verdict.FORWARD || verdict == Verdict.REPLY;
            final DirectBuffer buffer = burst.buffer(i);
            final int offset = burst.offset(i);
            final int length = burst.length(i);
            if (deferred && pending[i] != NOT_CLAIMED)
            {
                if (verdict == Verdict.FORWARD && filter.matchesBackend(buffer, offset, length))
                {
                    matched++;
                    commit(pending[i]);
                }
                else if (pending[i] >= 0)
                {
                    ring.abort(pending[i]);
                }
            }
            if (sent && filter.matches(buffer, offset, length, CaptureFilter.TX, txPort))
            {
                matched++;
                commit(claim(buffer, offset, length, CaptureFilter.TX, txPort, nowNs));
            }
        }
    }

    private int claim(final DirectBuffer frame, final int offset, final int length, final int direction,
        final int port, final long nowNs)
    {
        final int snap = Math.min(length, filter.snapLength());
        final int index = ring.tryClaim(direction, RECORD_HEADER_LENGTH + snap);
        if (index == RingBuffer.INSUFFICIENT_CAPACITY)
        {
            return CLAIM_FAILED;
        }
        final AtomicBuffer out = ringBuffer;
        out.putLong(index, epochOffsetNs + nowNs);
        out.putInt(index + 8, length);
        out.putInt(index + 12, port);
        out.putBytes(index + RECORD_HEADER_LENGTH, frame, offset, snap);
        return index;
    }

    private void commit(final int index)
    {
        if (index == CLAIM_FAILED)
        {
            dropped++;
            droppedTotal++;
            return;
        }
        ring.commit(index);
        captured++;
        capturedTotal++;
    }

    /**
     * Publishes this session's counts to the worker's slot in the capture file; called every flush interval.
     */
    public void publish()
    {
        if (session != 0)
        {
            file.sessionCounts(worker, matched, captured, dropped);
        }
    }

    /**
     * Returns frames captured since the forwarder started.
     *
     * @return frames.
     */
    public long capturedTotal()
    {
        return capturedTotal;
    }

    /**
     * Returns capture drops (ring full) since the forwarder started.
     *
     * @return frames.
     */
    public long droppedTotal()
    {
        return droppedTotal;
    }
}
