package io.sluice.forwarder.agent;

import io.sluice.forwarder.pipeline.PacketPipeline;

/**
 * A worker's I/O counters (RX, TX, TX-full drops, duty cycles and their {@link DutyCycleHistogram times}) kept
 * as plain fields on the worker's thread, and the hook that publishes them with the pipeline's counters to shared memory every flush interval.
 * <p>
 * The fields sit between 64 bytes of padding on either side (Agrona's {@code *Padding} classes): one worker writes
 * them every burst, and another worker's object next to them on the heap must not share their cache lines.
 */
public final class WorkerCounters extends WorkerCountersValues
{
    byte p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079;
    byte p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095;
    byte p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111;
    byte p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
    // 16 more: fields of this class may fill gaps the superclass's fields leave.
    byte p128, p129, p130, p131, p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143;

    /**
     * Where a worker's counters go at each flush; called on the worker thread.
     */
    @FunctionalInterface
    public interface Publisher
    {
        /**
         * Publishes the current values.
         *
         * @param io       the worker's I/O counters.
         * @param pipeline the worker's pipeline (its counters and connection table).
         */
        void publish(WorkerCounters io, PacketPipeline pipeline);
    }

    /**
     * Creates counters.
     *
     * @param publisher where flushes go.
     */
    public WorkerCounters(final Publisher publisher)
    {
        super(publisher);
    }

    void onBurst(final int received, final long receivedBytes, final int sent, final long sentBytes,
        final int txFull, final int rejected)
    {
        rxPackets += received;
        rxBytes += receivedBytes;
        txPackets += sent;
        txBytes += sentBytes;
        txFullDrops += txFull;
        txRejected += rejected;
    }

    void onKernelTx(final int sent, final int dropped)
    {
        kernelTxPackets += sent;
        kernelTxDrops += dropped;
    }

    void onKernelRx(final int sent, final int dropped)
    {
        kernelRxPackets += sent;
        kernelRxDrops += dropped;
    }

    void onReplies(final int sent, final int dropped)
    {
        repliesSent += sent;
        replyDrops += dropped;
    }

    void onCapture(final long frames, final long drops)
    {
        captureFrames = frames;
        captureDrops = drops;
    }

    void onDutyCycle(final long durationNs)
    {
        dutyCycles++;
        dutyCycleTimes.record(durationNs);
        if (durationNs > maxDutyCycleNs)
        {
            maxDutyCycleNs = durationNs;
        }
    }

    void flush(final PacketPipeline pipeline)
    {
        publisher.publish(this, pipeline);
    }

    public long rxPackets()
    {
        return rxPackets;
    }

    public long rxBytes()
    {
        return rxBytes;
    }

    public long txPackets()
    {
        return txPackets;
    }

    public long txBytes()
    {
        return txBytes;
    }

    public long txFullDrops()
    {
        return txFullDrops;
    }

    public long txRejected()
    {
        return txRejected;
    }

    public long dutyCycles()
    {
        return dutyCycles;
    }

    public long maxDutyCycleNs()
    {
        return maxDutyCycleNs;
    }

    public DutyCycleHistogram dutyCycleTimes()
    {
        return dutyCycleTimes;
    }

    public long kernelTxPackets()
    {
        return kernelTxPackets;
    }

    public long kernelTxDrops()
    {
        return kernelTxDrops;
    }

    public long kernelRxPackets()
    {
        return kernelRxPackets;
    }

    public long kernelRxDrops()
    {
        return kernelRxDrops;
    }

    public long repliesSent()
    {
        return repliesSent;
    }

    public long replyDrops()
    {
        return replyDrops;
    }

    public long captureFrames()
    {
        return captureFrames;
    }

    public long captureDrops()
    {
        return captureDrops;
    }
}
