package io.sluice.forwarder.pipeline;

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
}
