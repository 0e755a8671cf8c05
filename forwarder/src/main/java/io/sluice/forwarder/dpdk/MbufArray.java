package io.sluice.forwarder.dpdk;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

import java.nio.ByteBuffer;

/**
 * An off-heap, cache-line aligned array of mbuf addresses ({@code struct rte_mbuf *}) that the driver fills on RX
 * and reads on TX, with flyweight accessors that read and write the mbufs' own fields ({@link ShimLayout}). One per
 * queue direction per worker, reused every burst: nothing about a frame is copied between C and Java.
 * <p>
 * The accessors read and write by address (Unsafe's raw-address form; through an {@code UnsafeBuffer} C2 would
 * put memory barriers around every access, see docs/architecture.md) and do not check {@code i}: callers index
 * below the count the shim returned, which is at most the capacity. An mbuf the shim took back (sent or freed)
 * must not be read again: a driver may free a sent mbuf before {@code sluice_tx_burst} returns.
 */
public final class MbufArray
{
    /** Bytes per entry: one address. */
    public static final int ENTRY_LENGTH = 8;

    private final ByteBuffer memory;
    private final long address;
    private final int capacity;

    /**
     * Allocates an array.
     *
     * @param capacity number of mbufs.
     */
    public MbufArray(final int capacity)
    {
        this.capacity = capacity;
        memory = BufferUtil.allocateDirectAligned(
            BitUtil.align(capacity * ENTRY_LENGTH, BitUtil.CACHE_LINE_LENGTH), BitUtil.CACHE_LINE_LENGTH);
        address = BufferUtil.address(memory);
    }

    /**
     * Returns the native address to pass to the shim.
     *
     * @return address of entry 0.
     */
    public long address()
    {
        return address;
    }

    /**
     * Returns the native address of entry {@code i}.
     *
     * @param i index.
     * @return address of entry i.
     */
    public long address(final int i)
    {
        return address + (long)i * ENTRY_LENGTH;
    }

    /**
     * Returns the capacity.
     *
     * @return number of entries.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Returns the mbuf's address (0 for an entry {@code sluice_tx_burst} refused).
     *
     * @param i index.
     * @return {@code struct rte_mbuf *}.
     */
    public long mbuf(final int i)
    {
        return UnsafeApi.getLong(address(i));
    }

    /**
     * Sets entry {@code i} to an mbuf's address.
     *
     * @param i    index.
     * @param mbuf {@code struct rte_mbuf *}.
     */
    public void mbuf(final int i, final long mbuf)
    {
        UnsafeApi.putLong(address(i), mbuf);
    }

    /**
     * Returns the address of the mbuf's data buffer.
     *
     * @param i index.
     * @return {@code buf_addr}.
     */
    public long bufAddr(final int i)
    {
        return bufAddrOf(mbuf(i));
    }

    /**
     * Returns where the frame starts in the data buffer.
     *
     * @param i index.
     * @return {@code data_off}.
     */
    public int dataOff(final int i)
    {
        return dataOffOf(mbuf(i));
    }

    /**
     * Returns the frame's length (of its first segment when chained).
     *
     * @param i index.
     * @return {@code data_len}.
     */
    public int dataLen(final int i)
    {
        return dataLenOf(mbuf(i));
    }

    /**
     * Returns the whole frame's length over all its segments.
     *
     * @param i index.
     * @return {@code pkt_len}.
     */
    public int pktLen(final int i)
    {
        return UnsafeApi.getInt(mbuf(i) + ShimLayout.MBUF_PKT_LEN_OFFSET);
    }

    /**
     * Returns the capacity of the mbuf's data buffer.
     *
     * @param i index.
     * @return {@code buf_len}.
     */
    public int bufLen(final int i)
    {
        return bufLenOf(mbuf(i));
    }

    /**
     * Tells whether the received frame is a chain of mbufs (dropped: the pipeline reads single segments only).
     *
     * @param i index.
     * @return true when {@code nb_segs} is not 1.
     */
    public boolean chained(final int i)
    {
        return isChain(mbuf(i));
    }

    /**
     * Returns the NIC's RSS hash of the received frame, or 0 when the NIC gave none.
     *
     * @param i index.
     * @return {@code hash.rss} when {@code ol_flags} has {@code RTE_MBUF_F_RX_RSS_HASH}, else 0.
     */
    public int rssHash(final int i)
    {
        final long mbuf = mbuf(i);
        return (UnsafeApi.getLong(mbuf + ShimLayout.MBUF_OL_FLAGS_OFFSET) & ShimLayout.MBUF_F_RX_RSS_HASH) != 0 ?
            UnsafeApi.getInt(mbuf + ShimLayout.MBUF_HASH_RSS_OFFSET) : 0;
    }

    /**
     * Sets where the frame starts and how long it is, after a header was prepended or the frame rewritten;
     * {@code sluice_tx_burst} sets {@code pkt_len} from {@code data_len}.
     *
     * @param i       index.
     * @param dataOff new {@code data_off}.
     * @param dataLen new {@code data_len}.
     */
    public void frame(final int i, final int dataOff, final int dataLen)
    {
        final long mbuf = mbuf(i);
        UnsafeApi.putShort(mbuf + ShimLayout.MBUF_DATA_OFF_OFFSET, (short)dataOff);
        UnsafeApi.putShort(mbuf + ShimLayout.MBUF_DATA_LEN_OFFSET, (short)dataLen);
    }

    /**
     * Returns the address of the mbuf's data buffer, given the mbuf's address.
     *
     * @param mbuf {@code struct rte_mbuf *}.
     * @return {@code buf_addr}.
     */
    public static long bufAddrOf(final long mbuf)
    {
        return UnsafeApi.getLong(mbuf + ShimLayout.MBUF_BUF_ADDR_OFFSET);
    }

    /**
     * Returns where the frame starts in the data buffer, given the mbuf's address.
     *
     * @param mbuf {@code struct rte_mbuf *}.
     * @return {@code data_off}.
     */
    public static int dataOffOf(final long mbuf)
    {
        return UnsafeApi.getShort(mbuf + ShimLayout.MBUF_DATA_OFF_OFFSET) & 0xFFFF;
    }

    /**
     * Returns the frame's length (of its first segment when chained), given the mbuf's address.
     *
     * @param mbuf {@code struct rte_mbuf *}.
     * @return {@code data_len}.
     */
    public static int dataLenOf(final long mbuf)
    {
        return UnsafeApi.getShort(mbuf + ShimLayout.MBUF_DATA_LEN_OFFSET) & 0xFFFF;
    }

    /**
     * Returns the capacity of the mbuf's data buffer, given the mbuf's address.
     *
     * @param mbuf {@code struct rte_mbuf *}.
     * @return {@code buf_len}.
     */
    public static int bufLenOf(final long mbuf)
    {
        return UnsafeApi.getShort(mbuf + ShimLayout.MBUF_BUF_LEN_OFFSET) & 0xFFFF;
    }

    /**
     * Tells whether the received frame is a chain of mbufs, given the first mbuf's address.
     *
     * @param mbuf {@code struct rte_mbuf *}.
     * @return true when {@code nb_segs} is not 1.
     */
    public static boolean isChain(final long mbuf)
    {
        return UnsafeApi.getShort(mbuf + ShimLayout.MBUF_NB_SEGS_OFFSET) != 1;
    }

    /**
     * Copies entry {@code from} of {@code source} into entry {@code to} of this array: the mbuf, not its bytes.
     *
     * @param source array to copy from (may be this one).
     * @param from   index in source.
     * @param to     index in this array.
     */
    public void copyFrom(final MbufArray source, final int from, final int to)
    {
        UnsafeApi.putLong(address(to), UnsafeApi.getLong(source.address(from)));
    }
}
