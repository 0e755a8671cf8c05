package io.sluice.forwarder.capture;

import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capture tool's last drain reads a worker's ring to its end, also when the records left sit behind padding:
 * the end of the buffer before a wrap, or a claim the worker gave back (a frame the backend filter refused).
 */
class CaptureDrainTest
{
    private static final int CAPACITY = 4096;
    private static final int RECORD = 400;

    private final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(
        ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[RECORD]);
    private final MessageHandler ignore = (type, buffer, index, length) -> { };

    @Test
    void readsRecordsBehindTheWrapPadding()
    {
        // Ten records of 408 bytes (with their headers) end at 4080; the next does not fit before 4096, so the
        // ring pads the tail and writes it at 0.
        for (int i = 0; i < 10; i++)
        {
            assertTrue(ring.write(1, frame, 0, RECORD));
        }
        assertEquals(10, ring.read(ignore));
        assertTrue(ring.write(1, frame, 0, RECORD));

        // What the old loop ("read until a read returns 0") would see: the padding alone, nothing read.
        final OneToOneRingBuffer copy = new OneToOneRingBuffer(ring.buffer());
        assertEquals(0, copy.read(ignore, 4096), "the first read meets only the padding");
        // The read above consumed the padding of this shared buffer; write the scene again on a fresh ring.
        final OneToOneRingBuffer fresh = scene();
        assertEquals(1, CaptureTool.drainToEnd(fresh, ignore, deadline()), "the record behind the padding");
        assertEquals(fresh.producerPosition(), fresh.consumerPosition());
    }

    @Test
    void readsRecordsBehindAClaimGivenBack()
    {
        final OneToOneRingBuffer scene = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
        for (int i = 0; i < 9; i++)
        {
            assertTrue(scene.write(1, frame, 0, RECORD));
        }
        assertEquals(9, scene.read(ignore));
        // A claim at the tail (3672..3984) is given back, as CaptureTap does for a frame the backend filter refuses,
        // then the next frame does not fit the 112 bytes left and wraps to the start of the buffer.
        final int claimed = scene.tryClaim(1, 300);
        assertTrue(claimed > 0);
        scene.abort(claimed);
        assertTrue(scene.write(1, frame, 0, RECORD));
        final OneToOneRingBuffer copy = new OneToOneRingBuffer(scene.buffer());
        final long head = scene.consumerPosition();
        assertEquals(0, copy.read(ignore, 4096), "a read meets only padding: the given-back claim and the wrap's");
        scene.buffer().putLongOrdered(CAPACITY + RingBufferDescriptor.HEAD_POSITION_OFFSET, head);
        assertEquals(1, CaptureTool.drainToEnd(scene, ignore, deadline()));
        assertEquals(scene.producerPosition(), scene.consumerPosition());
    }

    @Test
    void givesUpAtTheDeadlineWhenAClaimStaysOpen()
    {
        final OneToOneRingBuffer scene = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
        final int claimed = scene.tryClaim(1, 100);
        assertTrue(claimed > 0);
        assertEquals(0, CaptureTool.drainToEnd(scene, ignore, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)));
    }

    private OneToOneRingBuffer scene()
    {
        final OneToOneRingBuffer scene = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
        for (int i = 0; i < 10; i++)
        {
            assertTrue(scene.write(1, frame, 0, RECORD));
        }
        assertEquals(10, scene.read(ignore));
        assertTrue(scene.write(1, frame, 0, RECORD));
        return scene;
    }

    private static long deadline()
    {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    }
}
