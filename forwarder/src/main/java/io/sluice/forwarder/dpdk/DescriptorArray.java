package io.sluice.forwarder.dpdk;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

import java.nio.ByteBuffer;

/**
 * An off-heap, cache-line aligned array of {@code struct sluice_desc} that the shim fills on RX and reads on TX,
 * with flyweight accessors. One per queue direction per worker, reused every burst.
 * <p>
 * The accessors read and write by address (Unsafe's raw-address form; through an {@code UnsafeBuffer} C2 would
 * put memory barriers around every access, see docs/architecture.md) and do not check {@code i}: callers index
 * below the count the shim returned, which is at most the capacity.
 */
public final class DescriptorArray
{
    private final ByteBuffer memory;
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
        address = BufferUtil.address(memory);
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
        return UnsafeApi.getLong(address(i) + DescriptorLayout.MBUF_OFFSET);
    }

    public long bufAddr(final int i)
    {
        return UnsafeApi.getLong(address(i) + DescriptorLayout.BUF_ADDR_OFFSET);
    }

    public int dataOff(final int i)
    {
        return UnsafeApi.getShort(address(i) + DescriptorLayout.DATA_OFF_OFFSET) & 0xFFFF;
    }

    public int dataLen(final int i)
    {
        return UnsafeApi.getShort(address(i) + DescriptorLayout.DATA_LEN_OFFSET) & 0xFFFF;
    }

    /**
     * Returns the whole frame's length over all segments (RX), capped at 65535.
     *
     * @param i descriptor index.
     * @return packet length.
     */
    public int pktLen(final int i)
    {
        return UnsafeApi.getShort(address(i) + DescriptorLayout.PKT_LEN_OFFSET) & 0xFFFF;
    }

    public int bufLen(final int i)
    {
        return UnsafeApi.getShort(address(i) + DescriptorLayout.BUF_LEN_OFFSET) & 0xFFFF;
    }

    public int flags(final int i)
    {
        return UnsafeApi.getInt(address(i) + DescriptorLayout.FLAGS_OFFSET);
    }

    public int rssHash(final int i)
    {
        return UnsafeApi.getInt(address(i) + DescriptorLayout.RSS_HASH_OFFSET);
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
        final long at = address(i);
        UnsafeApi.putShort(at + DescriptorLayout.DATA_OFF_OFFSET, (short)dataOff);
        UnsafeApi.putShort(at + DescriptorLayout.DATA_LEN_OFFSET, (short)dataLen);
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
        final long src = source.address(from);
        final long dst = address(to);
        UnsafeApi.putLong(dst, UnsafeApi.getLong(src));
        UnsafeApi.putLong(dst + 8, UnsafeApi.getLong(src + 8));
        UnsafeApi.putLong(dst + 16, UnsafeApi.getLong(src + 16));
        UnsafeApi.putLong(dst + 24, UnsafeApi.getLong(src + 24));
    }
}
