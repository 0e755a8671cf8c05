package io.sluice.forwarder.dpdk;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * An off-heap, cache-line aligned array of {@code struct sluice_desc} that the shim fills on RX and reads on TX,
 * with flyweight accessors. One per queue direction per worker, reused every burst.
 */
public final class DescriptorArray
{
    private final ByteBuffer memory;
    private final UnsafeBuffer buffer;
    private final long address;
    private final int capacity;

    /**
     * Allocates an array.
     *
     * @param capacity number of descriptors.
     */
    public DescriptorArray(final int capacity)
    {
        this.capacity = capacity;
        memory = BufferUtil.allocateDirectAligned(
            BitUtil.align(capacity * DescriptorLayout.DESC_LENGTH, BitUtil.CACHE_LINE_LENGTH),
            BitUtil.CACHE_LINE_LENGTH);
        buffer = new UnsafeBuffer(memory);
        address = buffer.addressOffset();
    }

    /**
     * Returns the native address to pass to the shim.
     *
     * @return address of descriptor 0.
     */
    public long address()
    {
        return address;
    }

    /**
     * Returns the address of descriptor {@code i}, to pass a sub-range to the shim.
     *
     * @param i descriptor index.
     * @return its address.
     */
    public long address(final int i)
    {
        return address + (long)i * DescriptorLayout.DESC_LENGTH;
    }

    /**
     * Returns the number of descriptors.
     *
     * @return capacity.
     */
    public int capacity()
    {
        return capacity;
    }

    public long mbuf(final int i)
    {
        return buffer.getLong(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.MBUF_OFFSET);
    }

    public long bufAddr(final int i)
    {
        return buffer.getLong(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.BUF_ADDR_OFFSET);
    }

    public int dataOff(final int i)
    {
        return buffer.getShort(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.DATA_OFF_OFFSET) & 0xFFFF;
    }

    public int dataLen(final int i)
    {
        return buffer.getShort(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.DATA_LEN_OFFSET) & 0xFFFF;
    }

    /**
     * Returns the whole frame's length over all segments (RX), capped at 65535.
     *
     * @param i descriptor index.
     * @return packet length.
     */
    public int pktLen(final int i)
    {
        return buffer.getShort(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.PKT_LEN_OFFSET) & 0xFFFF;
    }

    public int bufLen(final int i)
    {
        return buffer.getShort(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.BUF_LEN_OFFSET) & 0xFFFF;
    }

    public int flags(final int i)
    {
        return buffer.getInt(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.FLAGS_OFFSET);
    }

    public int rssHash(final int i)
    {
        return buffer.getInt(i * DescriptorLayout.DESC_LENGTH + DescriptorLayout.RSS_HASH_OFFSET);
    }

    /**
     * Sets where a frame starts and how long it is, before TX.
     *
     * @param i       descriptor index.
     * @param dataOff frame start from the buffer start.
     * @param dataLen frame length.
     */
    public void frame(final int i, final int dataOff, final int dataLen)
    {
        final int at = i * DescriptorLayout.DESC_LENGTH;
        buffer.putShort(at + DescriptorLayout.DATA_OFF_OFFSET, (short)dataOff);
        buffer.putShort(at + DescriptorLayout.DATA_LEN_OFFSET, (short)dataLen);
    }

    /**
     * Copies descriptor {@code from} of another array into slot {@code to} of this one (32 bytes).
     *
     * @param source the other array.
     * @param from   index there.
     * @param to     index here.
     */
    public void copyFrom(final DescriptorArray source, final int from, final int to)
    {
        final int src = from * DescriptorLayout.DESC_LENGTH;
        final int dst = to * DescriptorLayout.DESC_LENGTH;
        final UnsafeBuffer other = source.buffer;
        buffer.putLong(dst, other.getLong(src));
        buffer.putLong(dst + 8, other.getLong(src + 8));
        buffer.putLong(dst + 16, other.getLong(src + 16));
        buffer.putLong(dst + 24, other.getLong(src + 24));
    }
}
