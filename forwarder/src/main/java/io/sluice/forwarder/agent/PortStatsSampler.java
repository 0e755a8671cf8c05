package io.sluice.forwarder.agent;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.forwarder.dpdk.ShimLayout;
import io.sluice.forwarder.dpdk.ShimLibrary;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Copies each DPDK port's statistics (rte_eth_stats) and the fill level of its mbuf pool into the counters file,
 * on the control thread.
 */
public final class PortStatsSampler
{
    private static final CounterType[] TYPES = {
        CounterType.PORT_RX_PACKETS, CounterType.PORT_TX_PACKETS, CounterType.PORT_RX_MISSED,
        CounterType.PORT_RX_ERRORS, CounterType.PORT_TX_ERRORS, CounterType.PORT_RX_NOMBUF,
    };
    private static final int[] OFFSETS = {
        ShimLayout.STATS_IPACKETS_OFFSET, ShimLayout.STATS_OPACKETS_OFFSET,
        ShimLayout.STATS_IMISSED_OFFSET, ShimLayout.STATS_IERRORS_OFFSET,
        ShimLayout.STATS_OERRORS_OFFSET, ShimLayout.STATS_RX_NOMBUF_OFFSET,
    };

    private final ShimLibrary shim;
    private final int[] ports;
    private final int[][] ids;
    private final CounterWriter writer;
    private final UnsafeBuffer stats = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final long[] pools;
    private final int[][] poolIds;

    /**
     * Allocates the counters of each port.
     *
     * @param shim      the DPDK binding.
     * @param ports     port ids.
     * @param allocator the counters file's allocator.
     */
    public PortStatsSampler(final ShimLibrary shim, final int[] ports, final CounterAllocator allocator)
    {
        this(shim, ports, new long[ports.length], allocator);
    }

    /**
     * Allocates the counters of each port and of its mbuf pool.
     *
     * @param shim      the DPDK binding.
     * @param ports     port ids.
     * @param pools     the mbuf pool each port receives into (same order as ports), 0 for none.
     * @param allocator the counters file's allocator.
     */
    public PortStatsSampler(
        final ShimLibrary shim, final int[] ports, final long[] pools, final CounterAllocator allocator)
    {
        if (pools.length != ports.length)
        {
            throw new IllegalArgumentException(ports.length + " ports but " + pools.length + " pools");
        }
        this.shim = shim;
        this.ports = ports.clone();
        this.pools = pools.clone();
        this.writer = allocator.writer();
        poolIds = new int[ports.length][];
        for (int p = 0; p < ports.length; p++)
        {
            if (pools[p] != 0)
            {
                poolIds[p] = new int[]{allocator.portCounter(CounterType.PORT_MBUFS_AVAILABLE, ports[p]),
                    allocator.portCounter(CounterType.PORT_MBUFS_TOTAL, ports[p])};
            }
        }
        ids = new int[ports.length][TYPES.length];
        for (int p = 0; p < ports.length; p++)
        {
            for (int t = 0; t < TYPES.length; t++)
            {
                ids[p][t] = allocator.portCounter(TYPES[t], ports[p]);
            }
        }
    }

    int sample()
    {
        for (int p = 0; p < ports.length; p++)
        {
            if (shim.sluice_port_stats(ports[p], stats.addressOffset()) == 0)
            {
                for (int t = 0; t < TYPES.length; t++)
                {
                    writer.set(ids[p][t], stats.getLong(OFFSETS[t]));
                }
            }
            if (poolIds[p] != null)
            {
                // rte_mempool_avail_count walks the per-lcore caches: cheap, but kept off the workers' path.
                writer.set(poolIds[p][0], shim.sluice_mempool_avail(pools[p]) & 0xFFFF_FFFFL);
                writer.set(poolIds[p][1], shim.sluice_mempool_size(pools[p]) & 0xFFFF_FFFFL);
            }
        }
        return ports.length;
    }
}
