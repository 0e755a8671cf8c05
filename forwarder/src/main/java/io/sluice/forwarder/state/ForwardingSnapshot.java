package io.sluice.forwarder.state;

import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.lb.VipTable;

/**
 * Everything a worker needs to choose a backend, frozen: the VIP map, one Maglev table per VIP, and the state
 * and tunnel address of every backend slot. Built by {@link LoadBalancerState} on the control thread and
 * published with one release store; a worker reads the reference once per burst. Nothing here changes after
 * publication, so workers read it without synchronisation.
 * <p>
 * Backend slots are indices into the arrays below. A slot that is freed and reused gets a new generation, so a
 * connection-table entry made for the old backend never matches the new one.
 */
public final class ForwardingSnapshot
{
    /**
     * Backend slot not in use.
     */
    public static final byte BACKEND_FREE = 0;
    /**
     * Backend healthy: keeps its connections; takes new flows when its weight is above 0.
     */
    public static final byte BACKEND_UP = 1;
    /**
     * Backend unhealthy: its connections are re-picked, it takes no new flows.
     */
    public static final byte BACKEND_DOWN = 2;

    final long version;
    final VipTable vips;
    final MaglevTable[] maglev;
    final boolean[] vipInUse;
    final int[] vipGeneration;
    final byte[] backendState;
    final int[] backendGeneration;
    final int[] backendVip;
    final boolean[] backendIpv6;
    final long[] backendAddressHigh;
    final long[] backendAddressLow;

    ForwardingSnapshot(
        final long version,
        final VipTable vips,
        final MaglevTable[] maglev,
        final boolean[] vipInUse,
        final int[] vipGeneration,
        final byte[] backendState,
        final int[] backendGeneration,
        final int[] backendVip,
        final boolean[] backendIpv6,
        final long[] backendAddressHigh,
        final long[] backendAddressLow)
    {
        this.version = version;
        this.vips = vips;
        this.maglev = maglev;
        this.vipInUse = vipInUse;
        this.vipGeneration = vipGeneration;
        this.backendState = backendState;
        this.backendGeneration = backendGeneration;
        this.backendVip = backendVip;
        this.backendIpv6 = backendIpv6;
        this.backendAddressHigh = backendAddressHigh;
        this.backendAddressLow = backendAddressLow;
    }

    /**
     * Returns the version, which grows with every publication.
     *
     * @return version.
     */
    public long version()
    {
        return version;
    }

    /**
     * Returns the VIP map.
     *
     * @return VIP table.
     */
    public VipTable vips()
    {
        return vips;
    }

    /**
     * Returns a VIP's Maglev table.
     *
     * @param vip VIP index.
     * @return its table (empty when it has no eligible backend).
     */
    public MaglevTable maglev(final int vip)
    {
        return maglev[vip];
    }

    /**
     * Tells whether a connection-table entry's backend may still carry its flow: same slot generation, healthy.
     * Draining backends (weight 0) qualify; removed and unhealthy ones do not.
     *
     * @param backend    slot.
     * @param generation generation stored in the entry.
     * @return true when the entry can be used.
     */
    public boolean isUsable(final int backend, final int generation)
    {
        return backendGeneration[backend] == generation && backendState[backend] == BACKEND_UP;
    }

    /**
     * Returns the number of VIP slots.
     *
     * @return VIP capacity.
     */
    public int vipCapacity()
    {
        return vipInUse.length;
    }

    /**
     * Returns the number of backend slots.
     *
     * @return backend capacity.
     */
    public int backendCapacity()
    {
        return backendState.length;
    }

    /**
     * Tells whether a VIP slot holds a VIP.
     *
     * @param vip VIP index.
     * @return true when in use.
     */
    public boolean isVipInUse(final int vip)
    {
        return vipInUse[vip];
    }

    /**
     * Returns how many times a VIP slot has been taken; a reused slot has a new generation.
     *
     * @param vip VIP index.
     * @return generation.
     */
    public int vipGeneration(final int vip)
    {
        return vipGeneration[vip];
    }

    /**
     * Tells whether a backend slot holds a backend (up or down).
     *
     * @param backend slot.
     * @return true when in use.
     */
    public boolean isBackendInUse(final int backend)
    {
        return backendState[backend] != BACKEND_FREE;
    }

    /**
     * Returns the current generation of a backend slot.
     *
     * @param backend slot.
     * @return generation.
     */
    public int generation(final int backend)
    {
        return backendGeneration[backend];
    }

    /**
     * Returns the VIP a backend slot serves.
     *
     * @param backend slot.
     * @return VIP index.
     */
    public int backendVip(final int backend)
    {
        return backendVip[backend];
    }

    /**
     * Tells whether a backend is reached over IPv6.
     *
     * @param backend slot.
     * @return true for an IPv6 backend.
     */
    public boolean isBackendIpv6(final int backend)
    {
        return backendIpv6[backend];
    }

    /**
     * Returns a backend's address, octets 0..7 big-endian (an IPv4 address in the low 32 bits).
     *
     * @param backend slot.
     * @return address word.
     */
    public long backendAddressHigh(final int backend)
    {
        return backendAddressHigh[backend];
    }

    /**
     * Returns a backend's IPv6 address octets 8..15, big-endian.
     *
     * @param backend slot.
     * @return address word.
     */
    public long backendAddressLow(final int backend)
    {
        return backendAddressLow[backend];
    }
}
