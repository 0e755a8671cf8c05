package io.sluice.common.config;

import io.sluice.common.control.ControlFileDescriptor;
import io.sluice.common.counters.CountersFileHeader;

import java.util.Locale;

/**
 * The memory a forwarder of a config needs, and whether a machine has it: every size in {@code long}, so no
 * capacity the reader accepts overflows, and checked before anything starts, so a config that cannot fit ends with
 * exit 2 naming the field instead of an allocation failure half-way through the start.
 * <p>
 * The figures are lower bounds (an mbuf is counted as its header and data room only, DPDK's own structures and
 * the JVM not at all): a config is refused only when it surely cannot fit.
 * <ul>
 *   <li>connection tables: {@code workers x capacity x 64} bytes of ordinary memory (transparent huge pages);</li>
 *   <li>mbuf pools: {@code mbufs_per_worker x receive queues} per port (a transmit-only port's pool holds only its
 *       one receive ring, see {@link ForwarderConfig#poolMbufs}), {@link #MBUF_BYTES} each, inside EAL's
 *       memory: {@code -m}/{@code --socket-mem} if given, else 64 MiB with {@code --no-huge}, else the free
 *       hugepages;</li>
 *   <li>shared files in {@code counters_dir}: the counters file and the control channel;</li>
 *   <li>RAM: the tables, the shared files (a tmpfs) and, with {@code --no-huge}, EAL's memory, against
 *       {@code MemAvailable};</li>
 *   <li>Java heap: the Maglev tables, the only on-heap structure that grows with the config (connection tables,
 *       pools and shared files are off-heap): {@code max_vips} tables of {@code maglev_table_size} {@code int}
 *       slots, {@link #MAGLEV_COPIES} times (the tables the workers' snapshot uses while the control thread builds
 *       their replacements: a resync or a reload rebuilds every VIP at once), one empty table, plus
 *       {@link #HEAP_MARGIN_BYTES} for the rest of the forwarder, against the JVM's maximum heap.</li>
 * </ul>
 *
 * @param tableBytes  the connection tables of all workers.
 * @param poolBytes   the mbuf pools of all ports.
 * @param sharedBytes the counters file and the control file.
 * @param ealBytes    the memory EAL takes at start (-m, or 64 MiB under --no-huge); -1 when it grows on demand
 *                    from free hugepages.
 * @param noHuge      EAL memory comes from ordinary pages.
 * @param heapBytes   the Java heap the forwarder needs at most: Maglev tables and the margin.
 */
public record NodeResources(long tableBytes, long poolBytes, long sharedBytes, long ealBytes, boolean noHuge,
    long heapBytes)
{
    /** A {@code struct rte_mbuf} (128 bytes) and the forwarder's data room (2048 + 128 bytes of headroom). */
    public static final long MBUF_BYTES = 128 + 2048 + 128;
    /** One connection-table entry: a cache line. */
    public static final long TABLE_ENTRY_BYTES = 64;

    /** One Maglev slot: an {@code int} backend id. */
    public static final long MAGLEV_SLOT_BYTES = Integer.BYTES;
    /** Maglev tables of every VIP alive at once: the published snapshot's and the ones being built. */
    public static final long MAGLEV_COPIES = 2;
    /** The forwarder's heap beside its Maglev tables (config, snapshots' small arrays, counters maps, JIT'd code's
     * objects), a floor: a forwarder with one small VIP runs in less. */
    public static final long HEAP_MARGIN_BYTES = 32L << 20;

    private static final long MIB = 1L << 20;

    /**
     * Computes what a forwarder of this config needs.
     *
     * @param forwarder the forwarder section.
     * @return the sizes.
     */
    public static NodeResources of(final ForwarderConfig forwarder)
    {
        final long tables =
            (long)forwarder.workers().size() * forwarder.connectionTable().capacity() * TABLE_ENTRY_BYTES;
        long mbufs = 0;
        for (final PortConfig port : forwarder.ports())
        {
            mbufs += forwarder.poolMbufs(port.name()) *
                (MBUF_BYTES - PortConfig.STANDARD_FRAME_ROOM + port.frameRoom());
        }
        final long shared = CountersFileHeader.fileLength((int)Math.min(forwarder.maxCounters(), Integer.MAX_VALUE)) +
            ControlFileDescriptor.fileLength(forwarder.control().ringCapacity(),
                (int)Math.min(forwarder.responseCapacity(), ControlFileDescriptor.MAX_CAPACITY));
        final EalArguments eal = EalArguments.parse(forwarder.ealArgs());
        final long ealBytes = eal.memoryMb() >= 0 ? eal.memoryMb() * MIB :
            eal.noHuge() ? EalArguments.NO_HUGE_DEFAULT_MEMORY_MB * MIB : -1;
        return new NodeResources(tables, mbufs, shared, ealBytes, eal.noHuge(),
            maglevBytes(forwarder.maxVips(), forwarder.maglevTableSize()) + HEAP_MARGIN_BYTES);
    }

    // Every VIP's table twice, one empty table.
    private static long maglevBytes(final long vips, final long tableSize)
    {
        return (vips * MAGLEV_COPIES + 1) * tableSize * MAGLEV_SLOT_BYTES;
    }

    /**
     * Checks a config against a machine's memory.
     *
     * @param file      the config file, for the message.
     * @param forwarder the forwarder section.
     * @param memory    the machine's memory.
     * @return the sizes, when they fit.
     * @throws ConfigException naming the field to change when they do not.
     */
    public static NodeResources check(final String file, final ForwarderConfig forwarder, final MachineMemory memory)
        throws ConfigException
    {
        final NodeResources needs = of(forwarder);
        needs.checkEal(file, memory);
        needs.checkRam(file, forwarder, memory);
        needs.checkHeap(file, forwarder, memory);
        if (needs.sharedBytes > memory.sharedFreeBytes())
        {
            throw new ConfigException(file, "forwarder.counters_dir", "the counters and control files need " +
                size(needs.sharedBytes) + " but its filesystem has " + size(memory.sharedFreeBytes()) + " free " +
                "(lower max_backends or max_vips, or give /dev/shm more room)");
        }
        return needs;
    }

    private void checkEal(final String file, final MachineMemory memory) throws ConfigException
    {
        if (!noHuge && memory.freeHugePageBytes() != MachineMemory.UNKNOWN)
        {
            final long free = memory.freeHugePageBytes();
            if (free == 0)
            {
                throw new ConfigException(file, "forwarder.eal_args", "EAL would use hugepages (no --no-huge) but " +
                    "this machine has no free hugepages: reserve some (echo 1024 > /proc/sys/vm/nr_hugepages, see " +
                    "docs/operations.md) or add --no-huge and -m");
            }
            if (ealBytes > free)
            {
                throw new ConfigException(file, "forwarder.eal_args", "-m/--socket-mem asks for " + size(ealBytes) +
                    " of hugepages but only " + size(free) + " are free: lower it or reserve more hugepages");
            }
            if (ealBytes < 0 && poolBytes > free)
            {
                throw poolsTooBig(file, "the " + size(free) + " of free hugepages");
            }
        }
        if (ealBytes >= 0 && poolBytes > ealBytes)
        {
            throw poolsTooBig(file, "EAL's " + size(ealBytes) + " (" +
                (noHuge ? "-m in eal_args, 64 MiB without it under --no-huge" : "-m in eal_args") + ")");
        }
    }

    private ConfigException poolsTooBig(final String file, final String room)
    {
        return new ConfigException(file, "forwarder.mbufs_per_worker", "the mbuf pools need at least " +
            size(poolBytes) + " (mbufs_per_worker x receive queues, per port, " + MBUF_BYTES + " bytes each up to " +
            "an MTU of 2026, a whole frame more on jumbo ports), more than " + room +
            ": lower mbufs_per_worker or give EAL more memory");
    }

    private void checkRam(final String file, final ForwarderConfig forwarder, final MachineMemory memory)
        throws ConfigException
    {
        final long eal = noHuge ? Math.max(0, ealBytes) : 0;
        final long total = tableBytes + eal + sharedBytes;
        if (total <= memory.availableBytes())
        {
            return;
        }
        final String parts = "connection tables " + size(tableBytes) + " (" + forwarder.workers().size() +
            " worker(s) x " + forwarder.connectionTable().capacity() + " entries x 64 bytes), " +
            (noHuge ? "EAL memory " + size(eal) + " (--no-huge), " : "") + "shared files " + size(sharedBytes) +
            ": " + size(total) + " in all, but this machine has " + size(memory.availableBytes()) +
            " available (MemAvailable)";
        if (tableBytes >= eal && tableBytes >= sharedBytes)
        {
            final long room = memory.availableBytes() - eal - sharedBytes;
            final long perWorker = room / forwarder.workers().size() / TABLE_ENTRY_BYTES;
            final String hint = perWorker >= ConnectionTableConfig.MIN_CAPACITY ?
                ": use a capacity of at most " + Long.highestOneBit(perWorker) : "";
            throw new ConfigException(file, "forwarder.connection_table.capacity", parts + hint);
        }
        throw new ConfigException(file, eal >= sharedBytes ? "forwarder.eal_args" : "forwarder.max_backends", parts);
    }

    private void checkHeap(final String file, final ForwarderConfig forwarder, final MachineMemory memory)
        throws ConfigException
    {
        final long heap = memory.maxHeapBytes();
        if (heap == MachineMemory.UNKNOWN || heapBytes <= heap)
        {
            return;
        }
        final long tableSize = forwarder.maglevTableSize();
        final String parts = "the Maglev tables need up to " + size(heapBytes - HEAP_MARGIN_BYTES) + " of Java heap (" +
            forwarder.maxVips() + " VIP(s) x " + tableSize + " slots x " + MAGLEV_SLOT_BYTES + " bytes x " +
            MAGLEV_COPIES + " copies while a snapshot is rebuilt), " + size(heapBytes) + " with the forwarder's " +
            size(HEAP_MARGIN_BYTES) + " beside them, but the JVM's maximum heap is " + size(heap) +
            " (-Xmx in SLUICE_JAVA_OPTS, else the JVM's default share of RAM)";
        final long room = heap - HEAP_MARGIN_BYTES - tableSize * MAGLEV_SLOT_BYTES;
        final long vips = room <= 0 ? 0 : room / (MAGLEV_COPIES * tableSize * MAGLEV_SLOT_BYTES);
        if (vips >= 1)
        {
            throw new ConfigException(file, "forwarder.max_vips", parts + ": use max_vips of at most " +
                Math.min(vips, forwarder.maxVips()) + ", a smaller maglev_table_size or a larger -Xmx");
        }
        throw new ConfigException(file, "forwarder.maglev_table_size", parts + ": not even one VIP fits, use a " +
            "smaller maglev_table_size or a larger -Xmx");
    }

    /**
     * Describes the sizes for check-config's summary.
     *
     * @return e.g. {@code memory: connection tables 128 MiB, mbuf pools >= 36 MiB in EAL's 256 MiB, shared files 2 MiB,
     *     java heap up to 160 MiB}.
     */
    public String describe()
    {
        final String room = ealBytes >= 0 ? "EAL's " + size(ealBytes) + (noHuge ? " (--no-huge)" : " of hugepages") :
            "free hugepages";
        return "memory: connection tables " + size(tableBytes) + ", mbuf pools >= " + size(poolBytes) + " in " + room +
            ", shared files " + size(sharedBytes) + ", java heap up to " + size(heapBytes);
    }

    static String size(final long bytes)
    {
        if (bytes == MachineMemory.UNKNOWN)
        {
            return "unknown";
        }
        if (bytes >= 10L << 30)
        {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double)(1L << 30));
        }
        return (bytes + MIB - 1) / MIB + " MiB";
    }
}
