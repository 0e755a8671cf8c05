package io.sluice.forwarder.pipeline;

import io.sluice.common.config.ConnectionTableConfig;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;

import java.net.Inet4Address;
import java.net.Inet6Address;

/**
 * What a worker's pipeline needs to know about its node. The YAML node config maps onto this.
 *
 * @param ownMac            this forwarder's MAC, the source of encapsulated frames (low 48 bits).
 * @param nextHopMac        the MAC encapsulated frames are sent to (low 48 bits).
 * @param tunnelSourceV4    outer source for IPv4 backends, or null if there are none.
 * @param tunnelSourceV6    outer source for IPv6 backends, or null if there are none.
 * @param hashSeed          flow hash seed: the same on every forwarder behind one router.
 * @param maglevTableSize   Maglev table size M, a prime.
 * @param connectionTableCapacity entries per worker, a power of two.
 * @param tcpIdleTimeoutNs  idle time after which a TCP connection entry expires.
 * @param udpIdleTimeoutNs  idle time after which a UDP entry expires.
 * @param otherIdleTimeoutNs idle time for fragments and other protocols.
 * @param tunnelMtu         largest outer IP packet the path to the backends carries.
 * @param maxVips           VIP capacity.
 * @param maxBackends       backend slot capacity over all VIPs.
 */
public record PipelineConfig(
    long ownMac,
    long nextHopMac,
    Inet4Address tunnelSourceV4,
    Inet6Address tunnelSourceV6,
    long hashSeed,
    int maglevTableSize,
    int connectionTableCapacity,
    long tcpIdleTimeoutNs,
    long udpIdleTimeoutNs,
    long otherIdleTimeoutNs,
    int tunnelMtu,
    int maxVips,
    int maxBackends)
{
    // The node config's defaults: one source for the YAML reader and for code that builds a pipeline directly.
    public static final long DEFAULT_TCP_IDLE_TIMEOUT_NS = ConnectionTableConfig.DEFAULT_TCP_IDLE_TIMEOUT_NS;
    public static final long DEFAULT_UDP_IDLE_TIMEOUT_NS = ConnectionTableConfig.DEFAULT_UDP_IDLE_TIMEOUT_NS;
    public static final long DEFAULT_OTHER_IDLE_TIMEOUT_NS = ConnectionTableConfig.DEFAULT_OTHER_IDLE_TIMEOUT_NS;
    public static final int DEFAULT_TUNNEL_MTU = ForwarderConfig.DEFAULT_TUNNEL_MTU;
    public static final int DEFAULT_MAX_VIPS = ForwarderConfig.DEFAULT_MAX_VIPS;
    public static final int DEFAULT_MAX_BACKENDS = ForwarderConfig.DEFAULT_MAX_BACKENDS;

    /**
     * Checks the fields.
     */
    public PipelineConfig
    {
        if (tunnelSourceV4 == null && tunnelSourceV6 == null)
        {
            throw new IllegalArgumentException("at least one tunnel source address (IPv4 or IPv6) is required");
        }
        final String tableProblem = MaglevTableBuilder.checkTableSize(maglevTableSize);
        if (tableProblem != null)
        {
            throw new IllegalArgumentException(tableProblem);
        }
        if (connectionTableCapacity < ConnectionTable.BUCKET_SIZE || Integer.bitCount(connectionTableCapacity) != 1)
        {
            throw new IllegalArgumentException("connection table capacity must be a power of two >= " +
                ConnectionTable.BUCKET_SIZE + ", got " + connectionTableCapacity);
        }
        if (tcpIdleTimeoutNs <= 0 || udpIdleTimeoutNs <= 0 || otherIdleTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("idle timeouts must be > 0");
        }
        if (tunnelMtu < 576 || tunnelMtu > 65_535)
        {
            throw new IllegalArgumentException("tunnel MTU must be 576..65535, got " + tunnelMtu);
        }
        if (maxVips < 1 || maxBackends < 1)
        {
            throw new IllegalArgumentException("maxVips and maxBackends must be >= 1");
        }
    }

    /**
     * Returns a config with the defaults for everything but the addresses.
     *
     * @param ownMac         this forwarder's MAC.
     * @param nextHopMac     the next hop's MAC.
     * @param tunnelSourceV4 outer IPv4 source, or null.
     * @param tunnelSourceV6 outer IPv6 source, or null.
     * @param hashSeed       flow hash seed.
     * @return the config.
     */
    public static PipelineConfig withDefaults(
        final long ownMac,
        final long nextHopMac,
        final Inet4Address tunnelSourceV4,
        final Inet6Address tunnelSourceV6,
        final long hashSeed)
    {
        return new PipelineConfig(ownMac, nextHopMac, tunnelSourceV4, tunnelSourceV6, hashSeed,
            ForwarderConfig.DEFAULT_MAGLEV_TABLE_SIZE, ConnectionTableConfig.DEFAULT_CAPACITY,
            DEFAULT_TCP_IDLE_TIMEOUT_NS,
            DEFAULT_UDP_IDLE_TIMEOUT_NS, DEFAULT_OTHER_IDLE_TIMEOUT_NS, DEFAULT_TUNNEL_MTU, DEFAULT_MAX_VIPS,
            DEFAULT_MAX_BACKENDS);
    }

    /**
     * Returns the seed of a worker's connection-table hash: the flow hash seed mixed with a constant, so that where a
     * flow sits in the table is not where its flow hash would put it.
     *
     * @return the table hash's seed.
     */
    public long connectionTableSeed()
    {
        return hashSeed ^ ConnectionTable.DEFAULT_HASH_SEED;
    }

    /**
     * Creates a worker's connection table as the forwarder runs it: {@link #connectionTableCapacity} entries at
     * most, growing from {@link ConnectionTable#GROWTH_START} ({@link ConnectionTable#growing}), this config's
     * table seed and idle timeouts.
     *
     * @return a new table.
     */
    public ConnectionTable newConnectionTable()
    {
        return ConnectionTable.growing(connectionTableCapacity, connectionTableSeed(), tcpIdleTimeoutNs,
            udpIdleTimeoutNs, otherIdleTimeoutNs);
    }

    /**
     * Returns a copy with another connection table capacity.
     *
     * @param capacity entries, a power of two.
     * @return the new config.
     */
    public PipelineConfig withConnectionTableCapacity(final int capacity)
    {
        return new PipelineConfig(ownMac, nextHopMac, tunnelSourceV4, tunnelSourceV6, hashSeed, maglevTableSize,
            capacity, tcpIdleTimeoutNs, udpIdleTimeoutNs, otherIdleTimeoutNs, tunnelMtu, maxVips, maxBackends);
    }
}
