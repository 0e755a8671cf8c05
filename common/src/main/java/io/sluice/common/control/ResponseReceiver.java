package io.sluice.common.control;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastReceiver;
import org.agrona.concurrent.broadcast.RecordDescriptor;

import java.nio.ByteBuffer;

/**
 * Copies each response off the broadcast buffer before handing it on, like Agrona's {@code CopyBroadcastReceiver},
 * but survives being lapped. {@code CopyBroadcastReceiver} throws when the transmitter has lapped it and drops the
 * record it jumped to; this receiver counts the lap and delivers that record, the latest one, which after a burst of
 * answers is often the one its client waits for. A record overwritten while being copied is counted and skipped.
 * Single-threaded.
 */
final class ResponseReceiver
{
    private final BroadcastReceiver receiver;
    private final UnsafeBuffer scratch;
    private long lapsSeen;
    private long lostCount;

    ResponseReceiver(final AtomicBuffer responseBuffer)
    {
        receiver = new BroadcastReceiver(responseBuffer);
        scratch = new UnsafeBuffer(
            ByteBuffer.allocateDirect(RecordDescriptor.calculateMaxMessageLength(receiver.capacity())));
        lapsSeen = receiver.lappedCount();
    }

    /**
     * Receives the next response, if there is one.
     *
     * @param handler given the copy.
     * @return 1 when a response was delivered, else 0.
     */
    int receive(final MessageHandler handler)
    {
        if (!receiver.receiveNext())
        {
            return 0;
        }
        final long laps = receiver.lappedCount();
        if (laps != lapsSeen)
        {
            lostCount += laps - lapsSeen;
            lapsSeen = laps;
        }
        final int length = receiver.length();
        final int msgTypeId = receiver.typeId();
        if (length < 0 || length > scratch.capacity())
        {
            lostCount++; // only a record torn by the transmitter reads like this
            return 0;
        }
        scratch.putBytes(0, receiver.buffer(), receiver.offset(), length);
        if (!receiver.validate())
        {
            lostCount++; // overwritten while we copied it
            return 0;
        }
        handler.onMessage(msgTypeId, scratch, 0, length);
        return 1;
    }

    /**
     * Returns how often responses may have been lost: laps plus records overwritten while copied.
     *
     * @return count since creation.
     */
    long lostCount()
    {
        return lostCount;
    }
}
