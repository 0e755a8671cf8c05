package io.sluice.forwarder.pipeline;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A burst of up to {@link #MAX_BURST} frames, each a buffer with the frame at {@code offset} for {@code length}
 * bytes and headroom in front. The I/O layer re-wraps the buffers each burst (DPDK mbufs); the pipeline writes
 * back each frame's verdict and, for forwarded frames, its new offset and length. Allocated once per worker.
 */
public final class FrameBurst
{
    /**
     * Frames per burst, DPDK's customary 32.
     */
    public static final int MAX_BURST = 32;

    final UnsafeBuffer[] buffers = new UnsafeBuffer[MAX_BURST];
    final int[] offsets = new int[MAX_BURST];
    final int[] lengths = new int[MAX_BURST];
    final int[] verdicts = new int[MAX_BURST];
    final int[] dropReasons = new int[MAX_BURST];
    int count;

    /**
     * Creates a burst of unwrapped buffers.
     */
    public FrameBurst()
    {
        for (int i = 0; i < MAX_BURST; i++)
        {
            buffers[i] = new UnsafeBuffer(0, 0);
        }
    }

    /**
     * Returns the buffer of frame {@code i}, to wrap native or heap memory.
     *
     * @param i frame index.
     * @return its buffer.
     */
    public UnsafeBuffer buffer(final int i)
    {
        return buffers[i];
    }

    /**
     * Sets frame {@code i}'s position in its buffer.
     *
     * @param i      frame index.
     * @param offset first byte of the frame.
     * @param length frame length.
     */
    public void frame(final int i, final int offset, final int length)
    {
        offsets[i] = offset;
        lengths[i] = length;
    }

    /**
     * Sets the number of frames.
     *
     * @param count frames in this burst, at most {@link #MAX_BURST}.
     */
    public void count(final int count)
    {
        if (count < 0 || count > MAX_BURST)
        {
            throw new IllegalArgumentException("burst count must be 0.." + MAX_BURST + ", got " + count);
        }
        this.count = count;
    }

    /**
     * Returns the number of frames.
     *
     * @return count.
     */
    public int count()
    {
        return count;
    }

    /**
     * Returns frame {@code i}'s offset (after processing, where the encapsulated frame starts).
     *
     * @param i frame index.
     * @return offset.
     */
    public int offset(final int i)
    {
        return offsets[i];
    }

    /**
     * Returns frame {@code i}'s length (after processing, the encapsulated length).
     *
     * @param i frame index.
     * @return length.
     */
    public int length(final int i)
    {
        return lengths[i];
    }

    /**
     * Returns frame {@code i}'s verdict.
     *
     * @param i frame index.
     * @return a {@link Verdict} code.
     */
    public int verdict(final int i)
    {
        return verdicts[i];
    }

    /**
     * Returns frame {@code i}'s drop reason ordinal, meaningful when its verdict is DROP.
     *
     * @param i frame index.
     * @return {@link DropReason} ordinal.
     */
    public int dropReason(final int i)
    {
        return dropReasons[i];
    }

    /**
     * Turns frame {@code i}'s verdict into DROP after the pipeline ran (the worker could not send it whole).
     *
     * @param i      frame index.
     * @param reason why.
     */
    public void drop(final int i, final DropReason reason)
    {
        verdicts[i] = Verdict.DROP;
        dropReasons[i] = reason.ordinal();
    }
}
