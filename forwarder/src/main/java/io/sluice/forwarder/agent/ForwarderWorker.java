package io.sluice.forwarder.agent;

import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.dpdk.DescriptorArray;
import io.sluice.forwarder.dpdk.DescriptorLayout;
import io.sluice.forwarder.dpdk.ShimLibrary;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.Verdict;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * One busy-polling worker: owns one RX queue and one TX queue, its pipeline (with its own connection table and
 * counters), and nothing shared but the published forwarding snapshot.
 * <p>
 * Duty cycle: read the clock once, RX a burst of up to 32 frames, process it in place (the pipeline picks up a
 * newly published snapshot at the top of the burst), TX the forwarded frames in one call, free the rest in one
 * call, and every {@link #FLUSH_INTERVAL_NS} publish counters. Native calls happen per burst, never per packet.
 * <p>
 * Frames the pipeline passes (not for a VIP: ARP, BGP, SSH to the node) go to the receive port's kernel port when
 * it has one (a DPDK {@code net_tap}: the kernel sees them on its TAP interface), in one call per burst; without one
 * they are freed and counted. Every {@link #KERNEL_POLL_INTERVAL_NS} the worker also reads what the kernel sent
 * through its queue of the kernel port and transmits it on its own TX queue: the kernel answers ARP and keeps its
 * BGP sessions on the data port. Reading a TAP is a system call, hence not every cycle.
 */
public final class ForwarderWorker implements Agent
{
    /**
     * How often counters are copied to shared memory: often enough for live stats, rarely enough to cost nothing.
     */
    public static final long FLUSH_INTERVAL_NS = 1_000_000L;
    /**
     * How often the kernel port is read: often enough for ARP and BGP, rarely enough that its system call costs
     * nothing at line rate.
     */
    public static final long KERNEL_POLL_INTERVAL_NS = 50_000L;
    /** The kernel port of a worker without one. */
    public static final int NO_KERNEL_PORT = -1;

    private final int id;
    private final int cpu;
    private final ShimLibrary shim;
    private final int rxPort;
    private final int rxQueue;
    private final int txPort;
    private final int txQueue;
    private final int kernelPort;
    private final int kernelQueue;
    private final PacketPipeline pipeline;
    private final WorkerCounters counters;
    private final NanoClock clock;
    private final CaptureTap tap;
    private final DescriptorArray rx = new DescriptorArray(DescriptorLayout.BURST_MAX);
    private final DescriptorArray tx = new DescriptorArray(DescriptorLayout.BURST_MAX);
    private final DescriptorArray dropped = new DescriptorArray(DescriptorLayout.BURST_MAX);
    private final DescriptorArray toKernel = new DescriptorArray(DescriptorLayout.BURST_MAX);
    private final DescriptorArray fromKernel = new DescriptorArray(DescriptorLayout.BURST_MAX);
    private final FrameBurst burst = new FrameBurst();
    private final String roleName;
    private long nextFlushNs;
    private long nextKernelPollNs;

    /**
     * Creates a worker; nothing runs until an {@code AgentRunner} starts it.
     *
     * @param id       worker number.
     * @param cpu      core to pin to, or -1 to leave the thread unpinned.
     * @param shim     the DPDK binding.
     * @param rxPort   port to receive from.
     * @param rxQueue  its queue.
     * @param txPort   port to transmit on.
     * @param txQueue  its queue.
     * @param kernelPort  the receive port's kernel port, or {@link #NO_KERNEL_PORT}.
     * @param kernelQueue this worker's queue (RX and TX) on the kernel port.
     * @param pipeline this worker's pipeline.
     * @param counters this worker's counters.
     * @param clock    time source.
     * @param tap      this worker's side of live captures.
     */
    public ForwarderWorker(
        final int id,
        final int cpu,
        final ShimLibrary shim,
        final int rxPort,
        final int rxQueue,
        final int txPort,
        final int txQueue,
        final int kernelPort,
        final int kernelQueue,
        final PacketPipeline pipeline,
        final WorkerCounters counters,
        final NanoClock clock,
        final CaptureTap tap)
    {
        this.id = id;
        this.cpu = cpu;
        this.shim = shim;
        this.rxPort = rxPort;
        this.rxQueue = rxQueue;
        this.txPort = txPort;
        this.txQueue = txQueue;
        this.kernelPort = kernelPort;
        this.kernelQueue = kernelQueue;
        this.pipeline = pipeline;
        this.counters = counters;
        this.clock = clock;
        this.tap = tap;
        this.roleName = "rx-worker-" + id;
    }

    @Override
    public void onStart()
    {
        if (cpu >= 0)
        {
            final int pinned = shim.sluice_pin_thread(cpu);
            if (pinned < 0)
            {
                throw new IllegalStateException(roleName + ": cannot pin to cpu " + cpu + ": " +
                    shim.sluice_strerror(pinned));
            }
        }
        // Registration gives this thread an lcore id, and with it the mempool's per-lcore cache.
        final int lcore = shim.sluice_thread_register();
        if (lcore < 0)
        {
            throw new IllegalStateException(roleName + ": cannot register with DPDK: " + shim.sluice_strerror(lcore));
        }
        nextFlushNs = clock.nanoTime();
    }

    @Override
    public int doWork()
    {
        final long startNs = clock.nanoTime();
        // The one look at live capture while none runs: an acquire load of the session word.
        final boolean capturing = tap.poll(startNs);
        final int received = shim.sluice_rx_burst(rxPort, rxQueue, rx.address(), DescriptorLayout.BURST_MAX);
        int work = received;
        if (received > 0)
        {
            processBurst(received, startNs, capturing);
        }
        if (kernelPort != NO_KERNEL_PORT && startNs - nextKernelPollNs >= 0)
        {
            nextKernelPollNs = startNs + KERNEL_POLL_INTERVAL_NS;
            work += relayFromKernel();
        }
        counters.onDutyCycle(clock.nanoTime() - startNs);
        if (startNs - nextFlushNs >= 0)
        {
            nextFlushNs = startNs + FLUSH_INTERVAL_NS;
            flushCounters();
        }
        return work;
    }

    private int relayFromKernel()
    {
        final int read = shim.sluice_rx_burst(kernelPort, kernelQueue, fromKernel.address(), DescriptorLayout.BURST_MAX);
        if (read > 0)
        {
            // The shim frees what the wire does not take.
            final int sent = shim.sluice_tx_burst(txPort, txQueue, fromKernel.address(), read);
            counters.onKernelRx(sent, read - sent);
        }
        return read;
    }

    private void processBurst(final int received, final long nowNs, final boolean capturing)
    {
        final DescriptorArray rx = this.rx;
        final FrameBurst burst = this.burst;
        long rxBytes = 0;
        int frames = 0;
        int droppedCount = 0;
        for (int i = 0; i < received; i++)
        {
            final int length = rx.dataLen(i);
            if ((rx.flags(i) & DescriptorLayout.FLAG_MULTISEG) != 0)
            {
                rxBytes += rx.pktLen(i);
                pipeline.counters().recordDrop(DropReason.FRAME_CHAINED);
                dropped.copyFrom(rx, i, droppedCount++);
                continue;
            }
            rxBytes += length;
            if (frames != i)
            {
                rx.copyFrom(rx, i, frames);
            }
            burst.buffer(frames).wrap(rx.bufAddr(frames), rx.bufLen(frames));
            burst.frame(frames, rx.dataOff(frames), length);
            frames++;
        }
        burst.count(frames);
        if (capturing)
        {
            tap.onReceived(burst, frames, nowNs);
        }
        pipeline.processBurst(burst, nowNs);
        if (capturing)
        {
            tap.onProcessed(burst, frames, nowNs);
        }

        int toSend = 0;
        int kernelCount = 0;
        long txBytes = 0;
        final boolean kernel = kernelPort != NO_KERNEL_PORT;
        for (int i = 0; i < frames; i++)
        {
            final int verdict = burst.verdict(i);
            // REPLY only comes from a pipeline whose worker sends on the port it receives from (Forwarder)
            if (verdict == Verdict.FORWARD || verdict == Verdict.REPLY)
            {
                tx.copyFrom(rx, i, toSend);
                tx.frame(toSend++, burst.offset(i), burst.length(i));
                txBytes += burst.length(i);
            }
            else if (verdict == Verdict.PASS && kernel)
            {
                toKernel.copyFrom(rx, i, kernelCount++);
            }
            else
            {
                dropped.copyFrom(rx, i, droppedCount++);
            }
        }
        if (kernelCount > 0)
        {
            final int handed = shim.sluice_tx_burst(kernelPort, kernelQueue, toKernel.address(), kernelCount);
            counters.onKernelTx(handed, kernelCount - handed);
        }
        int sent = 0;
        int rejected = 0;
        if (toSend > 0)
        {
            sent = shim.sluice_tx_burst(txPort, txQueue, tx.address(), toSend);
            if (sent < toSend)
            {
                rejected = countRejected(toSend);
            }
        }
        if (droppedCount > 0)
        {
            shim.sluice_free_burst(dropped.address(), droppedCount);
        }
        if (sent < toSend)
        {
            txBytes = 0;
            for (int i = 0; i < sent; i++)
            {
                txBytes += tx.dataLen(i);
            }
        }
        counters.onBurst(received, rxBytes, sent, txBytes, toSend - sent - rejected, rejected);
    }

    private int countRejected(final int count)
    {
        int rejected = 0;
        for (int i = 0; i < count; i++)
        {
            if ((tx.flags(i) & DescriptorLayout.FLAG_TX_REJECTED) != 0)
            {
                rejected++;
            }
        }
        return rejected;
    }

    @Override
    public void onClose()
    {
        flushCounters();
        shim.sluice_thread_unregister();
    }

    // The capture tap's and the pipeline's counters into the counters file: every flush interval, and at close.
    private void flushCounters()
    {
        tap.publish();
        counters.onCapture(tap.capturedTotal(), tap.droppedTotal());
        counters.flush(pipeline);
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /**
     * Returns the worker's number.
     *
     * @return id.
     */
    public int id()
    {
        return id;
    }
}
