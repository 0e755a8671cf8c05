package io.sluice.forwarder.pipeline;

import io.sluice.forwarder.lb.ForwardingSnapshot;

/**
 * One worker's counters: verdicts, every drop and pass reason, per-VIP and per-backend packets and bytes, and
 * connection-table outcomes. Plain fields written only by the owning worker; the forwarder process later mirrors
 * them into a shared-memory counters file for other processes to read.
 */
public final class PipelineCounters
{
    final long[] verdicts = new long[Verdict.COUNT];
    final long[] drops = new long[DropReason.count()];
    final long[] passes = new long[PassReason.values().length];
    final long[] vipPackets;
    final long[] vipBytes;
    final long[] backendPackets;
    final long[] backendBytes;
    long connectionHits;
    long connectionMisses;
    long connectionRebinds;
    long icmpEchoRepliesV4;
    long icmpEchoRepliesV6;
    long icmpTooBigSentV4;
    long icmpTooBigSentV6;
    long icmpTooBigSuppressed;

    /**
     * Creates zeroed counters.
     *
     * @param maxVips     VIP capacity.
     * @param maxBackends backend slot capacity.
     */
    public PipelineCounters(final int maxVips, final int maxBackends)
    {
        vipPackets = new long[maxVips];
        vipBytes = new long[maxVips];
        backendPackets = new long[maxBackends];
        backendBytes = new long[maxBackends];
    }

    /**
     * Zeroes the per-VIP and per-backend counters of slots that were given to a new VIP or backend, so each
     * (slot, generation) counts from zero. Called on the worker thread when it picks up a new snapshot, before
     * any frame is processed with it.
     *
     * @param previous the snapshot used so far.
     * @param next     the snapshot about to be used.
     */
    public void onSnapshotChange(final ForwardingSnapshot previous, final ForwardingSnapshot next)
    {
        for (int vip = 0, n = Math.min(vipPackets.length, next.vipCapacity()); vip < n; vip++)
        {
            if (previous.vipGeneration(vip) != next.vipGeneration(vip))
            {
                vipPackets[vip] = 0;
                vipBytes[vip] = 0;
            }
        }
        for (int slot = 0, n = Math.min(backendPackets.length, next.backendCapacity()); slot < n; slot++)
        {
            if (previous.generation(slot) != next.generation(slot))
            {
                backendPackets[slot] = 0;
                backendBytes[slot] = 0;
            }
        }
    }

    /**
     * Counts a frame dropped before it reached the pipeline (by the I/O layer).
     *
     * @param reason why.
     */
    public void recordDrop(final DropReason reason)
    {
        verdicts[Verdict.DROP]++;
        drops[reason.ordinal()]++;
    }

    /**
     * Returns frames passed to the kernel for a reason.
     *
     * @param reasonOrdinal {@link PassReason} ordinal.
     * @return count.
     */
    public long passed(final int reasonOrdinal)
    {
        return passes[reasonOrdinal];
    }

    /**
     * Returns frames given a verdict.
     *
     * @param verdict a {@link Verdict} code.
     * @return count.
     */
    public long verdict(final int verdict)
    {
        return verdicts[verdict];
    }

    /**
     * Returns frames dropped for a reason.
     *
     * @param reason drop reason.
     * @return count.
     */
    public long dropped(final DropReason reason)
    {
        return drops[reason.ordinal()];
    }

    /**
     * Returns frames passed to the kernel for a reason.
     *
     * @param reason pass reason.
     * @return count.
     */
    public long passed(final PassReason reason)
    {
        return passes[reason.ordinal()];
    }

    /**
     * Returns frames forwarded for a VIP.
     *
     * @param vip VIP index.
     * @return count.
     */
    public long vipPackets(final int vip)
    {
        return vipPackets[vip];
    }

    /**
     * Returns bytes (received frame lengths) forwarded for a VIP.
     *
     * @param vip VIP index.
     * @return bytes.
     */
    public long vipBytes(final int vip)
    {
        return vipBytes[vip];
    }

    /**
     * Returns frames forwarded to a backend slot.
     *
     * @param backend slot.
     * @return count.
     */
    public long backendPackets(final int backend)
    {
        return backendPackets[backend];
    }

    /**
     * Returns bytes (received frame lengths) forwarded to a backend slot.
     *
     * @param backend slot.
     * @return bytes.
     */
    public long backendBytes(final int backend)
    {
        return backendBytes[backend];
    }

    /**
     * Returns lookups that found a live connection entry whose backend could still be used.
     *
     * @return hits.
     */
    public long connectionHits()
    {
        return connectionHits;
    }

    /**
     * Returns lookups that found no live entry (a new flow, or an expired one).
     *
     * @return misses.
     */
    public long connectionMisses()
    {
        return connectionMisses;
    }

    /**
     * Returns entries re-pointed because their backend was removed or went down.
     *
     * @return rebinds.
     */
    public long connectionRebinds()
    {
        return connectionRebinds;
    }

    /**
     * Returns ICMP echo replies sent for IPv4 VIPs.
     *
     * @return replies.
     */
    public long icmpEchoRepliesV4()
    {
        return icmpEchoRepliesV4;
    }

    /**
     * Returns ICMPv6 echo replies sent for IPv6 VIPs.
     *
     * @return replies.
     */
    public long icmpEchoRepliesV6()
    {
        return icmpEchoRepliesV6;
    }

    /**
     * Returns ICMP fragmentation-needed errors sent for IPv4 packets too big for the tunnel.
     *
     * @return errors sent.
     */
    public long icmpTooBigSentV4()
    {
        return icmpTooBigSentV4;
    }

    /**
     * Returns ICMPv6 packet-too-big errors sent for IPv6 packets too big for the tunnel.
     *
     * @return errors sent.
     */
    public long icmpTooBigSentV6()
    {
        return icmpTooBigSentV6;
    }

    /**
     * Returns packets too big for the tunnel that would have been answered with ICMP but met an empty token bucket
     * (dropped as ENCAPSULATED_TOO_BIG).
     *
     * @return errors not sent.
     */
    public long icmpTooBigSuppressed()
    {
        return icmpTooBigSuppressed;
    }
}
