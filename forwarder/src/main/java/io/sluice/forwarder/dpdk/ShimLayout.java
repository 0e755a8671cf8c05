package io.sluice.forwarder.dpdk;

/**
 * The shim's constants, the offsets of the {@code struct rte_mbuf} fields Java reads and writes, and the layout of
 * {@code struct sluice_port_stats}, mirroring {@code native/shim/sluice_shim.h}. {@link Dpdk} compares every value
 * with what the loaded shim reports ({@code sluice_layout}, computed by the compiler from the DPDK it was built
 * against) and refuses to start on any difference.
 * <pre>
 *   rte_mbuf (first cache line)
 *   0 buf_addr (8)  16 data_off (2)  20 nb_segs (2)  24 ol_flags (8)  36 pkt_len (4)  40 data_len (2)
 *   44 hash.rss (4)  54 buf_len (2)
 * </pre>
 */
public final class ShimLayout
{
    public static final int ABI_VERSION = 4;
    public static final int BURST_MAX = 32;
    public static final int MBUF_HEADROOM = 128;

    public static final int MBUF_BUF_ADDR_OFFSET = 0;
    public static final int MBUF_DATA_OFF_OFFSET = 16;
    public static final int MBUF_NB_SEGS_OFFSET = 20;
    public static final int MBUF_OL_FLAGS_OFFSET = 24;
    public static final int MBUF_PKT_LEN_OFFSET = 36;
    public static final int MBUF_DATA_LEN_OFFSET = 40;
    public static final int MBUF_HASH_RSS_OFFSET = 44;
    public static final int MBUF_BUF_LEN_OFFSET = 54;
    /** {@code RTE_MBUF_F_RX_RSS_HASH}: the mbuf's {@code hash.rss} holds the NIC's RSS hash. */
    public static final long MBUF_F_RX_RSS_HASH = 1L << 1;

    public static final int STATS_LENGTH = 64;
    public static final int STATS_IPACKETS_OFFSET = 0;
    public static final int STATS_OPACKETS_OFFSET = 8;
    public static final int STATS_IBYTES_OFFSET = 16;
    public static final int STATS_OBYTES_OFFSET = 24;
    public static final int STATS_IMISSED_OFFSET = 32;
    public static final int STATS_IERRORS_OFFSET = 40;
    public static final int STATS_OERRORS_OFFSET = 48;
    public static final int STATS_RX_NOMBUF_OFFSET = 56;

    /**
     * The values in {@code enum sluice_layout_index} order.
     */
    static final int[] EXPECTED = {
        ABI_VERSION, BURST_MAX, MBUF_HEADROOM,
        MBUF_BUF_ADDR_OFFSET, MBUF_DATA_OFF_OFFSET, MBUF_NB_SEGS_OFFSET, MBUF_OL_FLAGS_OFFSET, MBUF_PKT_LEN_OFFSET,
        MBUF_DATA_LEN_OFFSET, MBUF_HASH_RSS_OFFSET, MBUF_BUF_LEN_OFFSET, (int)MBUF_F_RX_RSS_HASH,
        STATS_LENGTH, STATS_IPACKETS_OFFSET, STATS_OPACKETS_OFFSET, STATS_IBYTES_OFFSET, STATS_OBYTES_OFFSET,
        STATS_IMISSED_OFFSET, STATS_IERRORS_OFFSET, STATS_OERRORS_OFFSET, STATS_RX_NOMBUF_OFFSET,
    };

    static final String[] NAMES = {
        "ABI_VERSION", "BURST_MAX", "MBUF_HEADROOM",
        "MBUF_BUF_ADDR", "MBUF_DATA_OFF", "MBUF_NB_SEGS", "MBUF_OL_FLAGS", "MBUF_PKT_LEN",
        "MBUF_DATA_LEN", "MBUF_HASH_RSS", "MBUF_BUF_LEN", "MBUF_F_RX_RSS_HASH",
        "STATS_SIZE", "STATS_IPACKETS", "STATS_OPACKETS", "STATS_IBYTES", "STATS_OBYTES",
        "STATS_IMISSED", "STATS_IERRORS", "STATS_OERRORS", "STATS_RX_NOMBUF",
    };

    private ShimLayout()
    {
    }

    /**
     * Compares the shim's reported layout with Java's.
     *
     * @param reported values from {@code sluice_layout}.
     * @param count    how many entries the shim has.
     * @return null when they agree, else a description of the first difference.
     */
    static String mismatch(final int[] reported, final int count)
    {
        if (count < EXPECTED.length)
        {
            return "shim reports " + count + " layout entries, Java expects " + EXPECTED.length;
        }
        for (int i = 0; i < EXPECTED.length; i++)
        {
            if (reported[i] != EXPECTED[i])
            {
                return "layout " + NAMES[i] + ": shim " + reported[i] + ", Java " + EXPECTED[i];
            }
        }
        return null;
    }
}
