package io.sluice.forwarder.agent;

import io.sluice.common.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CounterWriter;
import io.sluice.forwarder.dpdk.DescriptorLayout;
import io.sluice.forwarder.dpdk.ShimLibrary;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Copies each DPDK port's statistics (rte_eth_stats) into the counters file, on the control thread.
 */
public final class PortStatsSampler
{
    private static final CounterType[] TYPES = {
        CounterType.PORT_RX_PACKETS, CounterType.PORT_TX_PACKETS, CounterType.PORT_RX_MISSED,
        CounterType.PORT_RX_ERRORS, CounterType.PORT_TX_ERRORS, CounterType.PORT_RX_NOMBUF,
    };
    private static final int[] OFFSETS = {
        DescriptorLayout.STATS_IPACKETS_OFFSET, DescriptorLayout.STATS_OPACKETS_OFFSET,
        DescriptorLayout.STATS_IMISSED_OFFSET, DescriptorLayout.STATS_IERRORS_OFFSET,
        DescriptorLayout.STATS_OERRORS_OFFSET, DescriptorLayout.STATS_RX_NOMBUF_OFFSET,
    };

    private final ShimLibrary shim;
    private final int[] ports;
    private final int[][] ids;
    private final CounterWriter writer;
    private final UnsafeBuffer stats = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));

    /**
     * Allocates the counters of each port.
     *
     * @param shim      the DPDK binding.
     * @param ports     port ids.
     * @param allocator the counters file's allocator.
     */
    public PortStatsSampler(final ShimLibrary shim, final int[] ports, final CounterAllocator allocator)
    {
        this.shim = shim;
        this.ports = ports.clone();
        this.writer = allocator.writer();
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
        }
        return ports.length;
    }
}
