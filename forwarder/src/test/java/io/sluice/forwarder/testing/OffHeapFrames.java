package io.sluice.forwarder.testing;

import io.sluice.forwarder.pipeline.FrameBurst;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Off-heap buffers for frames handed to the pipeline, which reads and writes frames by address and so takes only
 * buffers that wrap raw memory (as DPDK mbufs do), never byte arrays. Each buffer's capacity is exactly what is
 * asked for, so with Agrona's bounds checks on (the tests' default) an access past the frame's end still throws.
 * The memory is a direct {@link ByteBuffer}, freed when the buffer is collected.
 */
public final class OffHeapFrames
{
    private OffHeapFrames()
    {
    }

    /**
     * Allocates zeroed off-heap memory.
     *
     * @param capacity bytes.
     * @return a buffer of exactly {@code capacity} bytes.
     */
    public static UnsafeBuffer allocate(final int capacity)
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
    }

    /**
     * Copies a frame into off-heap memory behind {@code headroom} zero bytes; the buffer ends where the frame ends.
     *
     * @param frame    the frame.
     * @param headroom bytes in front of it.
     * @return a buffer of {@code headroom + frame.length} bytes.
     */
    public static UnsafeBuffer behindHeadroom(final byte[] frame, final int headroom)
    {
        final UnsafeBuffer buffer = allocate(headroom + frame.length);
        buffer.putBytes(headroom, frame);
        return buffer;
    }

    /**
     * Fills a burst with frames, each copied behind {@code headroom} bytes ({@link #behindHeadroom}) and wrapped in
     * its slot's buffer.
     *
     * @param burst    the burst; its count becomes {@code frames.length}.
     * @param frames   the frames, at most {@link FrameBurst#MAX_BURST}.
     * @param headroom bytes in front of each frame.
     * @return each slot's memory, to read the frame back after processing.
     */
    public static UnsafeBuffer[] fillBurst(final FrameBurst burst, final byte[][] frames, final int headroom)
    {
        final UnsafeBuffer[] memory = new UnsafeBuffer[frames.length];
        for (int i = 0; i < frames.length; i++)
        {
            memory[i] = behindHeadroom(frames[i], headroom);
            burst.buffer(i).wrap(memory[i]);
            burst.frame(i, headroom, frames[i].length);
        }
        burst.count(frames.length);
        return memory;
    }

    /**
     * Copies a buffer's whole content.
     *
     * @param buffer the buffer.
     * @return its {@code capacity()} bytes.
     */
    public static byte[] toArray(final DirectBuffer buffer)
    {
        return copy(buffer, 0, buffer.capacity());
    }

    /**
     * Copies bytes {@code from} (inclusive) to {@code to} (exclusive) of a buffer.
     *
     * @param buffer the buffer.
     * @param from   first byte.
     * @param to     end.
     * @return the bytes.
     */
    public static byte[] copy(final DirectBuffer buffer, final int from, final int to)
    {
        final byte[] bytes = new byte[to - from];
        buffer.getBytes(from, bytes);
        return bytes;
    }
}
