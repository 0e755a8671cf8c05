package io.sluice.common.control;

import org.agrona.BitUtil;
import org.agrona.concurrent.broadcast.BroadcastBufferDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Layout of the control file, after Aeron's CnC file: a 128-byte header, the command ring (an Agrona
 * {@code ManyToOneRingBuffer}: any number of client processes to the forwarder) and the response buffer (an Agrona
 * broadcast buffer: the forwarder to every client).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               Magic "SLCT" (0x534C4354, big-endian)           |  0
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Layout version (i32 LE)                    |  4, written last
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Owner PID (i64 LE)                        |  8
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |            Owner process start time, epoch ms (i64 LE)        |  16
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Command ring capacity (i32 LE)                |  24
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               Response buffer capacity (i32 LE)               |  28
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Reserved, zero, to 128                    |  32..127
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Command ring: capacity + RingBufferDescriptor trailer  |  128
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Response buffer: capacity + BroadcastBufferDescriptor trailer|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The magic is big-endian so the file starts with the ASCII text {@code SLCT}. The layout version is written last,
 * after a release fence, so a client that reads a non-zero version (then an acquire fence) sees a complete header,
 * as Aeron's CnC version field does. Capacities are powers of two; both buffers start on 128-byte boundaries.
 */
public final class ControlFileDescriptor
{
    public static final int MAGIC = 0x534C_4354;
    public static final int LAYOUT_VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET = 4;
    public static final int OWNER_PID_OFFSET = 8;
    public static final int OWNER_START_TIME_MS_OFFSET = 16;
    public static final int COMMAND_CAPACITY_OFFSET = 24;
    public static final int RESPONSE_CAPACITY_OFFSET = 28;
    public static final int HEADER_LENGTH = 128;

    /** Smallest capacity: the longest message (about 320 bytes) must fit an eighth of it, Agrona's limit. */
    public static final int MIN_CAPACITY = 4096;
    /** Largest capacity, so the whole file maps as one buffer. */
    public static final int MAX_CAPACITY = 1 << 28;
    /** Capacity of each buffer unless configured ({@code forwarder.control.ring_capacity}). */
    public static final int DEFAULT_CAPACITY = 65536;

    private ControlFileDescriptor()
    {
    }

    /**
     * Checks a capacity.
     *
     * @param capacity the capacity in bytes.
     * @param what     which buffer, for the message.
     * @return null when usable, else why not.
     */
    public static String checkCapacity(final int capacity, final String what)
    {
        if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY || !BitUtil.isPowerOfTwo(capacity))
        {
            return what + " capacity must be a power of two in [" + MIN_CAPACITY + ", " + MAX_CAPACITY +
                "], got " + capacity;
        }
        return null;
    }

    /**
     * Returns where the command ring starts.
     *
     * @return the offset in the file.
     */
    public static int commandRingOffset()
    {
        return HEADER_LENGTH;
    }

    /**
     * Returns the length of the command ring, trailer included.
     *
     * @param commandCapacity its capacity.
     * @return bytes.
     */
    public static int commandRingLength(final int commandCapacity)
    {
        return commandCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Returns where the response buffer starts.
     *
     * @param commandCapacity the command ring's capacity.
     * @return the offset in the file.
     */
    public static int responseBufferOffset(final int commandCapacity)
    {
        return HEADER_LENGTH + commandRingLength(commandCapacity);
    }

    /**
     * Returns the length of the response buffer, trailer included.
     *
     * @param responseCapacity its capacity.
     * @return bytes.
     */
    public static int responseBufferLength(final int responseCapacity)
    {
        return responseCapacity + BroadcastBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Returns the file length for two capacities.
     *
     * @param commandCapacity  the command ring's capacity.
     * @param responseCapacity the response buffer's capacity.
     * @return bytes.
     */
    public static int fileLength(final int commandCapacity, final int responseCapacity)
    {
        return responseBufferOffset(commandCapacity) + responseBufferLength(responseCapacity);
    }
}
