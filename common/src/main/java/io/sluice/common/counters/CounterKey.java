package io.sluice.common.counters;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The key Sluice writes into each counter's key area (Agrona allows {@code MAX_KEY_LENGTH} = 112 bytes; Sluice
 * uses the first 12), little-endian:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              Worker (-1 for per-port and process-wide)        |  0
 *  +---------------------------------------------------------------+
 *  |   Index 1: reason ordinal, VIP index or port id (-1 unused)   |  4
 *  +---------------------------------------------------------------+
 *  |          Index 2: backend slot (-1 unused)                    |  8
 *  +---------------------------------------------------------------+
 * </pre>
 * By scope ({@link CounterType.Scope}): worker (w, -1, -1); worker reason (w, ordinal, -1); VIP (w, vip, -1);
 * backend (w, vip, slot); port (-1, port, -1); process (-1, -1, -1). Readers group and sum by key, never by label.
 */
public final class CounterKey
{
    public static final int WORKER_OFFSET = 0;
    public static final int INDEX1_OFFSET = 4;
    public static final int INDEX2_OFFSET = 8;
    public static final int LENGTH = 12;
    public static final int NONE = -1;
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private CounterKey()
    {
    }

    /**
     * Writes a key.
     *
     * @param buffer where to write.
     * @param offset start of the key.
     * @param worker worker id, or {@link #NONE}.
     * @param index1 first index, or {@link #NONE}.
     * @param index2 second index, or {@link #NONE}.
     */
    public static void write(
        final MutableDirectBuffer buffer, final int offset, final int worker, final int index1, final int index2)
    {
        buffer.putInt(offset + WORKER_OFFSET, worker, BYTE_ORDER);
        buffer.putInt(offset + INDEX1_OFFSET, index1, BYTE_ORDER);
        buffer.putInt(offset + INDEX2_OFFSET, index2, BYTE_ORDER);
    }

    /**
     * Returns the worker of a key.
     *
     * @param buffer the key buffer.
     * @param offset start of the key.
     * @return the worker, or {@link #NONE}.
     */
    public static int worker(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + WORKER_OFFSET, BYTE_ORDER);
    }

    /**
     * Returns the first index of a key.
     *
     * @param buffer the key buffer.
     * @param offset start of the key.
     * @return the index, or {@link #NONE}.
     */
    public static int index1(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + INDEX1_OFFSET, BYTE_ORDER);
    }

    /**
     * Returns the second index of a key.
     *
     * @param buffer the key buffer.
     * @param offset start of the key.
     * @return the index, or {@link #NONE}.
     */
    public static int index2(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + INDEX2_OFFSET, BYTE_ORDER);
    }
}
