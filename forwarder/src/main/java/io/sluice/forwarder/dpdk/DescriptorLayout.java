package io.sluice.forwarder.dpdk;

/**
 * The layout of {@code struct sluice_desc} and {@code struct sluice_port_stats} as Java reads them, mirroring
 * {@code native/shim/sluice_shim.h}. {@link Dpdk} compares every value with what the loaded shim reports
 * ({@code sluice_layout}) and refuses to start on any difference.
 * <pre>
 *   sluice_desc (32 bytes)
 *   0 mbuf (8)  8 buf_addr (8)  16 data_off (2)  18 data_len (2)  20 buf_len (2)  22 pkt_len (2)
 *   24 rss_hash (4)  28 flags (4)
 * </pre>
 */
public final class DescriptorLayout
{
    public static final int ABI_VERSION = 3;
    public static final int BURST_MAX = 32;
    public static final int MBUF_HEADROOM = 128;

    public static final int DESC_LENGTH = 32;
    public static final int MBUF_OFFSET = 0;
    public static final int BUF_ADDR_OFFSET = 8;
    public static final int DATA_OFF_OFFSET = 16;
    public static final int DATA_LEN_OFFSET = 18;
    public static final int BUF_LEN_OFFSET = 20;
    public static final int PKT_LEN_OFFSET = 22;
    public static final int RSS_HASH_OFFSET = 24;
    public static final int FLAGS_OFFSET = 28;

    public static final int FLAG_MULTISEG = 1;
    public static final int FLAG_RSS_HASH = 1 << 1;
    public static final int FLAG_TX_REJECTED = 1 << 15;

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
        DESC_LENGTH, MBUF_OFFSET, BUF_ADDR_OFFSET, DATA_OFF_OFFSET, DATA_LEN_OFFSET, BUF_LEN_OFFSET,
        PKT_LEN_OFFSET, RSS_HASH_OFFSET, FLAGS_OFFSET,
        FLAG_MULTISEG, FLAG_RSS_HASH, FLAG_TX_REJECTED,
        STATS_LENGTH, STATS_IPACKETS_OFFSET, STATS_OPACKETS_OFFSET, STATS_IBYTES_OFFSET, STATS_OBYTES_OFFSET,
        STATS_IMISSED_OFFSET, STATS_IERRORS_OFFSET, STATS_OERRORS_OFFSET, STATS_RX_NOMBUF_OFFSET,
    };

    static final String[] NAMES = {
        "ABI_VERSION", "BURST_MAX", "MBUF_HEADROOM",
        "DESC_SIZE", "DESC_MBUF", "DESC_BUF_ADDR", "DESC_DATA_OFF", "DESC_DATA_LEN", "DESC_BUF_LEN",
        "DESC_PKT_LEN", "DESC_RSS_HASH", "DESC_FLAGS",
        "DESC_F_MULTISEG", "DESC_F_RSS_HASH", "DESC_F_TX_REJECTED",
        "STATS_SIZE", "STATS_IPACKETS", "STATS_OPACKETS", "STATS_IBYTES", "STATS_OBYTES",
        "STATS_IMISSED", "STATS_IERRORS", "STATS_OERRORS", "STATS_RX_NOMBUF",
    };

    private DescriptorLayout()
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
