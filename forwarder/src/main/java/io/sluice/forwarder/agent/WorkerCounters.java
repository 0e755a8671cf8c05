package io.sluice.forwarder.agent;

import io.sluice.forwarder.pipeline.PacketPipeline;

/**
 * A worker's I/O counters (RX, TX, TX-full drops, duty cycles and their {@link DutyCycleHistogram times}) kept
 * as plain fields on the worker's thread, and the hook that publishes them with the pipeline's counters to shared
 * memory every flush interval.
 */
public final class WorkerCounters
{
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

    private final Publisher publisher;
    long rxPackets;
    long rxBytes;
    long txPackets;
    long txBytes;
    long txFullDrops;
    long txRejected;
    long dutyCycles;
    long maxDutyCycleNs;
    long kernelTxPackets;
    long kernelTxDrops;
    long kernelRxPackets;
    long kernelRxDrops;
    long captureFrames;
    long captureDrops;
    final DutyCycleHistogram dutyCycleTimes = new DutyCycleHistogram();

    /**
     * Creates counters.
     *
     * @param publisher where flushes go.
     */
    public WorkerCounters(final Publisher publisher)
    {
        this.publisher = publisher;
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

    public long captureFrames()
    {
        return captureFrames;
    }

    public long captureDrops()
    {
        return captureDrops;
    }
}
