package io.sluice.forwarder.protocol;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Reads and writes the bytes of an off-heap frame buffer by address, for the pipeline's hot path.
 * <p>
 * Why not the buffer's own accessors: an {@link UnsafeBuffer} may wrap a byte array or raw memory, so C2 compiles
 * each of its accesses as a "mixed" Unsafe access, with memory barriers around it that make the code reload
 * every field and spilled value near the access. These accessors use Unsafe's raw-address form, which has none;
 * they require the buffer to be off-heap (DPDK mbufs always are), which the pipeline checks once per frame with
 * {@link #isOffHeap}.
 * <p>
 * Bounds checks follow Agrona's setting ({@link UnsafeBuffer#SHOULD_BOUNDS_CHECK}): on by default, so tests catch
 * any read past the frame's buffer; off in the forwarder, where the parser checks every length against the frame.
 * Big-endian accessors return network-order fields; little-endian ones return the bytes as laid out in memory
 * (addresses and ports kept as raw octets), as the same calls on the buffer with that byte order would.
 */
public final class FrameBytes
{
    private static final boolean BOUNDS_CHECKS = UnsafeBuffer.SHOULD_BOUNDS_CHECK;
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private FrameBytes()
    {
    }

    /**
     * Tells whether these accessors may be used on a buffer: it wraps raw memory, not a byte array.
     *
     * @param buffer the frame's buffer.
     * @return true when the buffer is off-heap.
     */
    public static boolean isOffHeap(final DirectBuffer buffer)
    {
        return buffer.byteArray() == null;
    }

    public static int getUnsignedByte(final DirectBuffer buffer, final int index)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 1);
        }
        return UnsafeApi.getByte(buffer.addressOffset() + index) & 0xFF;
    }

    public static int getUnsignedShortBigEndian(final DirectBuffer buffer, final int index)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 2);
        }
        final short value = UnsafeApi.getShort(buffer.addressOffset() + index);
        return (NATIVE_LITTLE_ENDIAN ? Short.reverseBytes(value) : value) & 0xFFFF;
    }

    public static int getIntBigEndian(final DirectBuffer buffer, final int index)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 4);
        }
        final int value = UnsafeApi.getInt(buffer.addressOffset() + index);
        return NATIVE_LITTLE_ENDIAN ? Integer.reverseBytes(value) : value;
    }

    public static int getIntLittleEndian(final DirectBuffer buffer, final int index)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 4);
        }
        final int value = UnsafeApi.getInt(buffer.addressOffset() + index);
        return NATIVE_LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }

    public static long getLongLittleEndian(final DirectBuffer buffer, final int index)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 8);
        }
        final long value = UnsafeApi.getLong(buffer.addressOffset() + index);
        return NATIVE_LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }

    public static void putShortBigEndian(final DirectBuffer buffer, final int index, final int value)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 2);
        }
        UnsafeApi.putShort(buffer.addressOffset() + index,
            NATIVE_LITTLE_ENDIAN ? Short.reverseBytes((short)value) : (short)value);
    }

    public static void putIntBigEndian(final DirectBuffer buffer, final int index, final int value)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 4);
        }
        UnsafeApi.putInt(buffer.addressOffset() + index, NATIVE_LITTLE_ENDIAN ? Integer.reverseBytes(value) : value);
    }

    public static void putLongBigEndian(final DirectBuffer buffer, final int index, final long value)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 8);
        }
        UnsafeApi.putLong(buffer.addressOffset() + index, NATIVE_LITTLE_ENDIAN ? Long.reverseBytes(value) : value);
    }

    public static void putLongLittleEndian(final DirectBuffer buffer, final int index, final long value)
    {
        if (BOUNDS_CHECKS)
        {
            buffer.boundsCheck(index, 8);
        }
        UnsafeApi.putLong(buffer.addressOffset() + index, NATIVE_LITTLE_ENDIAN ? value : Long.reverseBytes(value));
    }
}
