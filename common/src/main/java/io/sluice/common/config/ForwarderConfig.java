package io.sluice.common.config;

import io.sluice.common.counters.DutyCycleBuckets;


import java.net.Inet4Address;
import java.net.Inet6Address;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code forwarder} section, validated and with every default applied. The forwarder maps it onto its own
 * settings (DPDK EAL, ports, workers, {@code PipelineConfig}); the controller reads the shared-memory locations.
 *
 * @param ealArgs         DPDK EAL arguments as written, without argv[0] (see {@link NodeConfig#ealArgv(String)}).
 * @param ports           the DPDK ports, at least one, names unique.
 * @param workers         the workers, at least one, cores unique, queues resolved.
 * @param mbufsPerWorker  packet buffers in each worker's pool.
 * @param idleStrategy    how a worker waits when it found no work.
 * @param countersDir     the absolute directory under which each node keeps its shared-memory files, in
 *                        {@code <countersDir>/<node name>/}.
 * @param ownMac          the source MAC of encapsulated frames, or null for "auto" (the transmit port's MAC).
 * @param nextHopMac      the unicast MAC encapsulated frames are sent to unless their port names its own (see
 *                        {@link #nextHopMacOf(String)}); null when every transmitting port names its own.
 * @param tunnelSourceV4  outer source address for IPv4 backends, or null when there is none.
 * @param tunnelSourceV6  outer source address for IPv6 backends, or null when there is none.
 * @param hashSeed        the flow hash seed as 64 bits (0xffffffffffffffff in the file is -1 here); the same on every
 *                        forwarder behind one router.
 * @param maglevTableSize Maglev table size M, a prime.
 * @param tunnelMtu       the largest outer IP packet the path to the backends carries, 576..65535.
 * @param maxVips         VIP capacity, fixed at start.
 * @param maxBackends     backend capacity over all VIPs, fixed at start.
 * @param connectionTable the per-worker connection table.
 * @param control         the command channel from the controller.
 * @param icmpEcho        how ICMP echo requests to a VIP are answered.
 * @param icmpTooBig      whether packets too big for the tunnel are answered with ICMP, and how fast.
 * @param tunnelEntropy   what varies per flow in the outer headers (GRE key, outer source prefix).
 */
public record ForwarderConfig(
    List<String> ealArgs,
    List<PortConfig> ports,
    List<WorkerConfig> workers,
    int mbufsPerWorker,
    IdleStrategyKind idleStrategy,
    Path countersDir,
    MacAddress ownMac,
    MacAddress nextHopMac,
    Inet4Address tunnelSourceV4,
    Inet6Address tunnelSourceV6,
    long hashSeed,
    int maglevTableSize,
    int tunnelMtu,
    int maxVips,
    int maxBackends,
    ConnectionTableConfig connectionTable,
    ControlChannelConfig control,
    IcmpEchoConfig icmpEcho,
    IcmpTooBigConfig icmpTooBig,
    TunnelEntropyConfig tunnelEntropy)
{
    public static final int DEFAULT_MBUFS_PER_WORKER = 8191;
    public static final int MIN_MBUFS_PER_WORKER = 1023;
    public static final IdleStrategyKind DEFAULT_IDLE_STRATEGY = IdleStrategyKind.BUSY_SPIN;
    /** The counters and control directory as text, a constant for the tools' {@code --help}. */
    public static final String DEFAULT_COUNTERS_DIRECTORY = "/dev/shm/sluice";
    public static final Path DEFAULT_COUNTERS_DIR = Path.of(DEFAULT_COUNTERS_DIRECTORY);
    public static final long DEFAULT_HASH_SEED = 0;
    public static final int DEFAULT_MAGLEV_TABLE_SIZE = MaglevTableSize.DEFAULT;
    public static final int DEFAULT_TUNNEL_MTU = 9000;
    public static final int MIN_TUNNEL_MTU = 576;
    public static final int MAX_TUNNEL_MTU = 65535;
    public static final int DEFAULT_MAX_VIPS = 256;
    public static final int MAX_MAX_VIPS = 65536;
    public static final int DEFAULT_MAX_BACKENDS = 4096;
    public static final int MAX_MAX_BACKENDS = 1 << 20;
    /** The per-lcore cache a forwarder gives its mbuf pools (Forwarder.MBUF_CACHE), for pool sizes. */
    public static final int TRANSMIT_ONLY_POOL_CACHE = 256;

    /**
     * Creates the section with fixed outer headers (no tunnel entropy).
     *
     * @param ealArgs         DPDK EAL arguments.
     * @param ports           the DPDK ports.
     * @param workers         the workers.
     * @param mbufsPerWorker  packet buffers in each worker's pool.
     * @param idleStrategy    how a worker waits.
     * @param countersDir     the shared-memory directory.
     * @param ownMac          the source MAC, or null for auto.
     * @param nextHopMac      the next hop's MAC.
     * @param tunnelSourceV4  outer IPv4 source, or null.
     * @param tunnelSourceV6  outer IPv6 source, or null.
     * @param hashSeed        the flow hash seed.
     * @param maglevTableSize Maglev table size.
     * @param tunnelMtu       the tunnel MTU.
     * @param maxVips         VIP capacity.
     * @param maxBackends     backend capacity.
     * @param connectionTable the connection table.
     * @param control         the command channel.
     * @param icmpEcho        ICMP echo handling.
     * @param icmpTooBig      ICMP too-big handling.
     */
    public ForwarderConfig(
        final List<String> ealArgs,
        final List<PortConfig> ports,
        final List<WorkerConfig> workers,
        final int mbufsPerWorker,
        final IdleStrategyKind idleStrategy,
        final Path countersDir,
        final MacAddress ownMac,
        final MacAddress nextHopMac,
        final Inet4Address tunnelSourceV4,
        final Inet6Address tunnelSourceV6,
        final long hashSeed,
        final int maglevTableSize,
        final int tunnelMtu,
        final int maxVips,
        final int maxBackends,
        final ConnectionTableConfig connectionTable,
        final ControlChannelConfig control,
        final IcmpEchoConfig icmpEcho,
        final IcmpTooBigConfig icmpTooBig)
    {
        this(ealArgs, ports, workers, mbufsPerWorker, idleStrategy, countersDir, ownMac, nextHopMac, tunnelSourceV4,
            tunnelSourceV6, hashSeed, maglevTableSize, tunnelMtu, maxVips, maxBackends, connectionTable, control,
            icmpEcho, icmpTooBig, TunnelEntropyConfig.NONE);
    }

    /**
     * Copies the lists, so the record is immutable.
     */
    public ForwarderConfig
    {
        ealArgs = List.copyOf(ealArgs);
        ports = List.copyOf(ports);
        workers = List.copyOf(workers);
    }

    /**
     * Returns how many counters the forwarder's counters file holds: per worker its own counters plus one packet and
     * one byte counter per VIP and per backend slot, per port a few, a quarter more because freed ids wait before
     * reuse. Computed in {@code long}: the reader refuses a config for which it exceeds the file's limit.
     *
     * @return the counter capacity.
     */
    public long maxCounters()
    {
        // 64 of its own, the duty-cycle histogram's buckets and sum.
        final long perWorker = 64 + DutyCycleBuckets.COUNT + 1 + 2L * (maxVips + maxBackends);
        // Per port its 8 counters; per VIP its Maglev fingerprint.
        return (workers.size() * perWorker + 8L * ports.size() + maxVips + 16) * 5 / 4;
    }

    /**
     * Returns the capacity of the control channel's response buffer: a GET_STATE answer (about 256 bytes a backend)
     * must fit half of it, and it is never smaller than the command ring.
     *
     * @return bytes, a power of two.
     */
    public long responseCapacity()
    {
        final long forState = Long.highestOneBit(Math.max(1L, maxBackends * 512L - 1)) << 1;
        return Math.max(control.ringCapacity(), forState);
    }

    /**
     * Tells whether the source MAC is the transmit port's own ({@code own_mac: auto}).
     *
     * @return true when {@link #ownMac()} is null.
     */
    public boolean ownMacAuto()
    {
        return ownMac == null;
    }

    /**
     * Returns the MAC frames sent on a port go to: the port's own {@code next_hop_mac}, else the forwarder's.
     *
     * @param portName the DPDK device name of a configured port.
     * @return the next hop's MAC, or null when neither is set (the reader allows that only for ports no worker
     *         transmits on).
     */
    public MacAddress nextHopMacOf(final String portName)
    {
        final PortConfig port = port(portName);
        return port != null && port.nextHopMac() != null ? port.nextHopMac() : nextHopMac;
    }

    /**
     * Finds a port by name.
     *
     * @param name the DPDK device name.
     * @return the port, or null when none has that name.
     */
    public PortConfig port(final String name)
    {
        for (final PortConfig port : ports)
        {
            if (port.name().equals(name))
            {
                return port;
            }
        }
        return null;
    }

    /**
     * Returns how many receive queues a port needs: one more than the highest queue a worker polls. The loader makes
     * sure the queues in use are exactly 0..n-1, because RSS spreads packets over every configured queue and a queue
     * that no worker polls would lose its packets silently.
     *
     * @param portName the DPDK device name.
     * @return the number of receive queues, 0 when no worker receives from the port.
     */
    public int rxQueueCount(final String portName)
    {
        final String served = servedBy(portName);
        if (served != null)
        {
            return rxQueueCount(served); // worker on rx queue q of the data port uses queue q of its kernel port
        }
        int count = 0;
        for (final WorkerConfig worker : workers)
        {
            for (final WorkerConfig.RxQueue rx : worker.rx())
            {
                if (rx.port().equals(portName))
                {
                    count = Math.max(count, rx.queue() + 1);
                }
            }
        }
        return count;
    }

    /**
     * Returns how many transmit queues a port needs: one more than the highest queue a worker sends on.
     *
     * @param portName the DPDK device name.
     * @return the number of transmit queues, 0 when no worker transmits on the port.
     */
    public int txQueueCount(final String portName)
    {
        final String served = servedBy(portName);
        if (served != null)
        {
            return rxQueueCount(served);
        }
        return workerTxQueueCount(portName) + kernelRelayQueueCount(portName, workers.size());
    }

    // One more than the highest queue a worker transmits on (its tx_queue).
    private int workerTxQueueCount(final String portName)
    {
        int count = 0;
        for (final WorkerConfig worker : workers)
        {
            if (worker.txPort().equals(portName))
            {
                count = Math.max(count, worker.txQueue() + 1);
            }
        }
        return count;
    }

    // The return queues of the workers before `end` that receive from a port but transmit elsewhere (see
    // returnQueue): none when nothing goes back out of the port (no kernel port, no ICMP replies).
    private int kernelRelayQueueCount(final String portName, final int end)
    {
        if (!needsReturnQueues(portName))
        {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < end; i++)
        {
            final WorkerConfig worker = workers.get(i);
            if (worker.receivesFrom(portName) && !worker.txPort().equals(portName))
            {
                count++;
            }
        }
        return count;
    }

    /**
     * Returns the transmit queue on which a worker sends what the kernel wrote to its queue of the kernel port of
     * its first receive port (see {@link #kernelRelayQueue(int, String)}).
     *
     * @param worker the worker's index in {@link #workers()}.
     * @return the queue on the worker's first receive port, or -1 when that port has no kernel port.
     */
    public int kernelRelayQueue(final int worker)
    {
        return kernelRelayQueue(worker, workers.get(worker).rxPort());
    }

    /**
     * Returns the transmit queue on which a worker sends what the kernel wrote to its queue of a data port's kernel
     * port. The kernel's frames (ARP replies, BGP) belong to the data port the kernel port is attached to: a
     * worker that also transmits there uses its own transmit queue; one that transmits on another port (a
     * two-armed node: clients on one side, backends on the other) gets a queue of its own on the data port,
     * numbered after the workers' transmit queues there (queues are not thread-safe, so none is shared). A worker
     * polling several queues of one port relays that port's kernel frames on one queue.
     *
     * @param worker the worker's index in {@link #workers()}.
     * @param port   one of the worker's receive ports.
     * @return the queue on that port, or -1 when the port has no kernel port.
     */
    public int kernelRelayQueue(final int worker, final String port)
    {
        return kernelPortOf(port) == null ? -1 : returnQueue(worker, port);
    }

    /**
     * Returns the transmit queue on which a worker sends what goes back out of one of its receive ports: the ICMP
     * replies it writes (echo replies, too-big errors: to the MAC the packet came from, out of the port it came in
     * on) and what the kernel wrote to its queue of the port's kernel port. A worker that also transmits on the port
     * uses its own transmit queue; one that transmits on another port (a two-armed node) gets a queue of its own on
     * the receive port, numbered after the workers' transmit queues there (queues are not thread-safe, so none is
     * shared). A worker polling several queues of one port has one return queue there.
     *
     * @param worker the worker's index in {@link #workers()}.
     * @param port   one of the worker's receive ports.
     * @return the queue on that port, or -1 when nothing goes back out of it (no kernel port, and neither
     *         {@code icmp_echo} replies nor {@code icmp_too_big} errors are sent).
     */
    public int returnQueue(final int worker, final String port)
    {
        final WorkerConfig w = workers.get(worker);
        if (w.txPort().equals(port))
        {
            return w.txQueue();
        }
        if (!needsReturnQueues(port))
        {
            return -1;
        }
        return workerTxQueueCount(port) + kernelRelayQueueCount(port, worker);
    }

    // Whether frames go back out of a receive port: the kernel port's, or the workers' ICMP replies.
    private boolean needsReturnQueues(final String portName)
    {
        return kernelPortOf(portName) != null || icmpEcho.reply() || icmpTooBig.send();
    }

    /**
     * Returns how many mbufs a port's pool holds. A port workers receive from (or a kernel port) holds
     * {@code mbufs_per_worker} per receive queue; a port that only transmits never hands out an mbuf but DPDK
     * still fills the one receive queue every port is configured with, so its pool holds that ring and two
     * per-lcore caches, not {@code mbufs_per_worker}.
     *
     * @param portName the DPDK device name.
     * @return the pool size, 2^n - 1 for a transmit-only port (DPDK's best size); a long, as the memory check
     *         compares it before anything says it fits an int.
     */
    public long poolMbufs(final String portName)
    {
        final int rxQueues = rxQueueCount(portName);
        if (rxQueues > 0)
        {
            return (long)mbufsPerWorker * rxQueues;
        }
        final PortConfig port = port(portName);
        final int ring = port == null ? PortConfig.DEFAULT_RING_SIZE : port.rxRing();
        final int needed = ring + 2 * TRANSMIT_ONLY_POOL_CACHE;
        return Math.min(mbufsPerWorker, (Integer.highestOneBit(needed) << 1) - 1);
    }

    /**
     * Returns the kernel port of a data port.
     *
     * @param portName the data port.
     * @return the kernel port's name, or null when the port has none.
     */
    public String kernelPortOf(final String portName)
    {
        for (final PortConfig port : ports)
        {
            if (port.name().equals(portName))
            {
                return port.kernelPort();
            }
        }
        return null;
    }

    /**
     * Returns the data port a kernel port serves.
     *
     * @param portName a port.
     * @return the data port's name, or null when the port is no kernel port.
     */
    public String servedBy(final String portName)
    {
        for (final PortConfig port : ports)
        {
            if (portName.equals(port.kernelPort()))
            {
                return port.name();
            }
        }
        return null;
    }
}
