package io.sluice.forwarder.agent;

import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.dpdk.MbufArray;
import io.sluice.forwarder.dpdk.ShimLayout;
import io.sluice.forwarder.dpdk.ShimLibrary;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.Verdict;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One busy-polling worker: owns one or more RX queues (several ports on one core, as DPDK's l3fwd polls) and one
 * TX queue, its pipeline (with its own connection table and counters), and nothing shared but the published
 * forwarding snapshot.
 * <p>
 * Duty cycle: read the clock once, then for each of its RX queues in turn RX a burst of up to 32 frames, process
 * it in place (the pipeline picks up a newly published snapshot at the top of the burst), TX the forwarded frames
 * in one call, free the rest in one call; every {@link #FLUSH_INTERVAL_NS} publish counters. Native calls happen
 * per burst, never per packet. A cycle that did work is timed from its start to the next cycle's start (so a busy
 * worker reads the clock once per cycle); an idle one to its own end, before the idle strategy may park.
 * <p>
 * The pipeline is built by the worker's own thread in {@link #onStart()}, after it is pinned: the connection
 * table's memory is first touched there, so the kernel places its pages on the worker's NUMA node. The thread
 * reserves its core first ({@link WorkerCores}: another process that asks for it is refused), then registers with
 * DPDK; {@link #onClose()} gives both back. {@link #started()} tells the starting thread how that went.
 * <p>
 * Frames the pipeline passes (not for a VIP: ARP, BGP, SSH to the node) go to the receive port's kernel port when
 * it has one (a DPDK {@code net_tap}: the kernel sees them on its TAP interface), in one call per burst; without one
 * they are freed and counted. Every {@link #KERNEL_POLL_INTERVAL_NS} the worker also reads what the kernel sent
 * through its queue of the kernel port and transmits it on the data port that kernel port belongs to (its own TX
 * queue when it transmits there, else a relay queue of its own on that port): the kernel answers ARP and keeps its
 * BGP sessions on the data port, also on a two-armed node whose worker sends encapsulated traffic out of the other
 * arm. Reading a TAP is a system call, hence not every cycle.
 * <p>
 * ICMP replies the pipeline writes (echo replies, too-big errors: verdict {@link Verdict#REPLY}, addressed to the MAC
 * the packet came from) leave by the port the burst came in on, on the worker's return queue there (its own TX
 * queue when it transmits on that port, else a queue of its own on it: {@code ForwarderConfig.returnQueue}). On the
 * worker's own TX queue they keep their place among the forwarded frames (one call); on another port they leave in
 * one more call per burst that has any. On a two-armed node they so go back towards the client while the
 * encapsulated traffic leaves by the backend-facing port.
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
    private final WorkerCores cores;
    private final ShimLibrary shim;
    private final int[] rxPorts;
    private final int[] rxQueues;
    private final int txPort;
    private final int txQueue;
    private final int[] kernelPorts;
    private final int[] kernelQueues;
    // per RX queue: the queue on its port by which replies and the kernel port's frames leave, -1 when none
    private final int[] returnQueues;
    private final Supplier<PacketPipeline> pipelineFactory;
    private PacketPipeline pipeline;
    private final WorkerCounters counters;
    private final NanoClock clock;
    private final CaptureTap tap;
    private final MbufArray rx = new MbufArray(ShimLayout.BURST_MAX);
    // room for every outer fragment of every frame (PacketPipeline.fragmentOuter)
    private final MbufArray tx =
        new MbufArray(PacketPipeline.MAX_OUTER_FRAGMENTS * ShimLayout.BURST_MAX);
    private final MbufArray fragments =
        new MbufArray((PacketPipeline.MAX_OUTER_FRAGMENTS - 1) * ShimLayout.BURST_MAX);
    private final UnsafeBuffer fragmentBuffer = new UnsafeBuffer(0, 0);
    // per fragmented frame whose later fragments were written: its burst slot and where they start in fragments
    private final int[] fragmentedSlots = new int[ShimLayout.BURST_MAX];
    private final int[] fragmentedFirst = new int[ShimLayout.BURST_MAX + 1];
    // the pool later outer fragments come from; 0: the pipeline drops packets too big for the tunnel instead
    private long fragmentPool;
    private final MbufArray dropped = new MbufArray(ShimLayout.BURST_MAX);
    private final MbufArray replies = new MbufArray(ShimLayout.BURST_MAX);
    // where in tx the replies of a burst on the worker's own TX port are (they keep their place among the frames)
    private final int[] replyAt = new int[ShimLayout.BURST_MAX];
    // The lengths of the frames in tx and in replies: once sent, an mbuf may already be freed, so a partly sent
    // burst's bytes are counted from these, never from the mbufs.
    private final int[] txLengths = new int[PacketPipeline.MAX_OUTER_FRAGMENTS * ShimLayout.BURST_MAX];
    private final int[] replyLengths = new int[ShimLayout.BURST_MAX];
    private final MbufArray toKernel = new MbufArray(ShimLayout.BURST_MAX);
    private final MbufArray fromKernel = new MbufArray(ShimLayout.BURST_MAX);
    private final FrameBurst burst = new FrameBurst();
    private final String roleName;
    private long nextFlushNs;
    private long nextKernelPollNs;
    // The last cycle's start and work, for its duty-cycle time (doWork).
    private long lastStartNs;
    private int lastWork;
    private WorkerCores.Reservation reservation;
    private final CompletableFuture<Integer> started = new CompletableFuture<>();

    /**
     * Creates a worker of one RX queue; nothing runs until an {@code AgentRunner} starts it.
     *
     * @param id          worker number.
     * @param cpu         core to reserve and pin to, or -1 to leave the thread unpinned.
     * @param cores       how the core is reserved.
     * @param shim        the DPDK binding.
     * @param rxPort      port to receive from.
     * @param rxQueue     its queue.
     * @param txPort      port to transmit on.
     * @param txQueue     its queue.
     * @param kernelPort  the receive port's kernel port, or {@link #NO_KERNEL_PORT}.
     * @param kernelQueue this worker's queue (RX and TX) on the kernel port.
     * @param relayQueue  the queue on the receive port by which ICMP replies and what the kernel sends leave, or -1.
     * @param pipeline    builds this worker's pipeline, on the worker's thread once it is pinned.
     * @param counters    this worker's counters.
     * @param clock       time source.
     * @param tap         this worker's side of live captures.
     */
    public ForwarderWorker(
        final int id,
        final int cpu,
        final WorkerCores cores,
        final ShimLibrary shim,
        final int rxPort,
        final int rxQueue,
        final int txPort,
        final int txQueue,
        final int kernelPort,
        final int kernelQueue,
        final int relayQueue,
        final Supplier<PacketPipeline> pipeline,
        final WorkerCounters counters,
        final NanoClock clock,
        final CaptureTap tap)
    {
        this(id, cpu, cores, shim, new int[]{rxPort}, new int[]{rxQueue}, txPort, txQueue, new int[]{kernelPort},
            new int[]{kernelQueue}, new int[]{relayQueue}, pipeline, counters, clock, tap);
    }

    /**
     * Creates a worker polling several RX queues (index i of each array describes RX queue i); nothing runs until
     * an {@code AgentRunner} starts it.
     *
     * @param id           worker number.
     * @param cpu          core to reserve and pin to, or -1 to leave the thread unpinned.
     * @param cores        how the core is reserved.
     * @param shim         the DPDK binding.
     * @param rxPorts      the ports it receives from, one entry per RX queue.
     * @param rxQueues     the queue on each.
     * @param txPort       port to transmit on.
     * @param txQueue      its queue.
     * @param kernelPorts  each receive port's kernel port, or {@link #NO_KERNEL_PORT}.
     * @param kernelQueues this worker's queue (RX and TX) on each kernel port.
     * @param relayQueues  the queue on each receive port by which ICMP replies and what its kernel port sends
     *                     leave (ForwarderConfig.returnQueue), or -1 when nothing goes back out of it.
     * @param pipeline     builds this worker's pipeline, on the worker's thread once it is pinned.
     * @param counters     this worker's counters.
     * @param clock        time source.
     * @param tap          this worker's side of live captures.
     */
    public ForwarderWorker(
        final int id,
        final int cpu,
        final WorkerCores cores,
        final ShimLibrary shim,
        final int[] rxPorts,
        final int[] rxQueues,
        final int txPort,
        final int txQueue,
        final int[] kernelPorts,
        final int[] kernelQueues,
        final int[] relayQueues,
        final Supplier<PacketPipeline> pipeline,
        final WorkerCounters counters,
        final NanoClock clock,
        final CaptureTap tap)
    {
        final int n = rxPorts.length;
        if (n == 0 || rxQueues.length != n || kernelPorts.length != n || kernelQueues.length != n ||
            relayQueues.length != n)
        {
            throw new IllegalArgumentException("one rx port, rx queue, kernel port, kernel queue and relay queue " +
                "per RX queue, got " + n + "/" + rxQueues.length + "/" + kernelPorts.length + "/" +
                kernelQueues.length + "/" + relayQueues.length);
        }
        this.id = id;
        this.cpu = cpu;
        this.cores = cores;
        this.shim = shim;
        this.rxPorts = rxPorts.clone();
        this.rxQueues = rxQueues.clone();
        this.txPort = txPort;
        this.txQueue = txQueue;
        this.kernelPorts = kernelPorts.clone();
        this.kernelQueues = kernelQueues.clone();
        this.returnQueues = relayQueues.clone();
        this.pipelineFactory = pipeline;
        this.counters = counters;
        this.clock = clock;
        this.tap = tap;
        this.roleName = "rx-worker-" + id;
    }

    /**
     * Lets the worker send IPv4 packets without DF that are too big for the tunnel as outer fragments
     * ({@link PacketPipeline#fragmentOuter}), the first in the frame's mbuf and each later one in an mbuf from this
     * pool. Set before the worker starts.
     *
     * @param pool the transmit port's mempool, or 0 to keep dropping such packets.
     * @return this.
     */
    public ForwarderWorker fragmentPool(final long pool)
    {
        this.fragmentPool = pool;
        return this;
    }

    @Override
    public void onStart()
    {
        try
        {
            started.complete(start());
        }
        catch (final RuntimeException ex)
        {
            started.completeExceptionally(ex);
            throw ex;
        }
    }

    // Reserve and pin, register, build: the lcore id DPDK gave this thread.
    private int start()
    {
        if (cpu >= 0)
        {
            reservation = cores.reserve(cpu);
        }
        // Registration gives this thread an lcore id, and with it the mempool's per-lcore cache. EAL records the
        // thread's CPU set here, so the thread is pinned first.
        final int lcore = shim.sluice_thread_register();
        if (lcore < 0)
        {
            throw new IllegalStateException(roleName + ": cannot register with DPDK: " + shim.sluice_strerror(lcore));
        }
        // Built here, pinned: the connection table is allocated and zeroed (first touched) by this thread.
        pipeline = pipelineFactory.get();
        if (fragmentPool != 0)
        {
            pipeline.fragmentOuter(true);
        }
        nextFlushNs = clock.nanoTime();
        return lcore;
    }

    /**
     * Completes with the worker's DPDK lcore id once {@link #onStart()} has reserved its core, registered with
     * DPDK and built the pipeline, or exceptionally with what stopped it ({@link CoreHeldException} when another
     * process holds the core).
     *
     * @return the start's outcome.
     */
    public CompletableFuture<Integer> started()
    {
        return started;
    }

    @Override
    public int doWork()
    {
        final long startNs = clock.nanoTime();
        if (lastWork > 0)
        {
            // The previous cycle did work, so the idle strategy returned at once (every Agrona strategy does when
            // given work): it lasted until this reading. One clock read per busy cycle instead of two.
            counters.onDutyCycle(startNs - lastStartNs);
        }
        // The one look at live capture while none runs: an acquire load of the session word.
        final boolean capturing = tap.poll(startNs);
        final boolean pollKernel = startNs - nextKernelPollNs >= 0;
        if (pollKernel)
        {
            nextKernelPollNs = startNs + KERNEL_POLL_INTERVAL_NS;
        }
        int work = 0;
        for (int q = 0; q < rxPorts.length; q++)
        {
            final int received = shim.sluice_rx_burst(rxPorts[q], rxQueues[q], rx.address(),
                ShimLayout.BURST_MAX);
            work += received;
            if (received > 0)
            {
                processBurst(q, received, startNs, capturing);
            }
            if (pollKernel && kernelPorts[q] != NO_KERNEL_PORT)
            {
                work += relayFromKernel(q);
            }
        }
        if (work == 0)
        {
            // An idle cycle ends here, before the idle strategy may park the thread.
            counters.onDutyCycle(clock.nanoTime() - startNs);
        }
        lastStartNs = startNs;
        lastWork = work;
        if (startNs - nextFlushNs >= 0)
        {
            nextFlushNs = startNs + FLUSH_INTERVAL_NS;
            flushCounters();
        }
        return work;
    }

    private int relayFromKernel(final int q)
    {
        final int read =
            shim.sluice_rx_burst(kernelPorts[q], kernelQueues[q], fromKernel.address(), ShimLayout.BURST_MAX);
        if (read > 0)
        {
            // Out of the data port the kernel port belongs to. The shim frees what the wire does not take.
            final int sent = shim.sluice_tx_burst(rxPorts[q], returnQueues[q], fromKernel.address(), read);
            counters.onKernelRx(sent, read - sent);
        }
        return read;
    }

    private void processBurst(final int q, final int received, final long nowNs, final boolean capturing)
    {
        final MbufArray rx = this.rx;
        final FrameBurst burst = this.burst;
        long rxBytes = 0;
        int frames = 0;
        int droppedCount = 0;
        for (int i = 0; i < received; i++)
        {
            // the mbuf's fields, read where the driver just wrote them: its first cache line
            final long mbuf = rx.mbuf(i);
            final int length = MbufArray.dataLenOf(mbuf);
            if (MbufArray.isChain(mbuf))
            {
                rxBytes += rx.pktLen(i);
                pipeline.counters().recordDrop(DropReason.FRAME_CHAINED);
                dropped.mbuf(droppedCount++, mbuf);
                continue;
            }
            rxBytes += length;
            if (frames != i)
            {
                rx.mbuf(frames, mbuf);
            }
            burst.buffer(frames).wrap(MbufArray.bufAddrOf(mbuf), MbufArray.bufLenOf(mbuf));
            burst.frame(frames, MbufArray.dataOffOf(mbuf), length);
            frames++;
        }
        burst.count(frames);
        if (capturing)
        {
            tap.onReceived(rxPorts[q], burst, frames, nowNs);
        }
        final int forwarded = pipeline.processBurst(burst, nowNs);
        if (capturing)
        {
            tap.onProcessed(burst, frames, nowNs);
        }

        final int fragmentCount = pipeline.fragmentCount() > 0 ? allocateFragments(pipeline.fragmentCount()) : 0;

        int toSend = 0;
        int replyCount = 0;
        int kernelCount = 0;
        long txBytes = 0;
        int nextFragment = 0;
        final int kernelPort = kernelPorts[q];
        final boolean kernel = kernelPort != NO_KERNEL_PORT;
        final boolean repliesWithTx = rxPorts[q] == txPort && returnQueues[q] == txQueue;
        // The common burst, every frame forwarded and none split into fragments, leaves from the receive
        // array itself, its mbufs rewritten in place: no copy into the TX array.
        final boolean inPlace = forwarded == frames && fragmentCount == 0;
        final MbufArray out = inPlace ? rx : tx;
        if (inPlace)
        {
            for (int i = 0; i < frames; i++)
            {
                final int length = burst.length(i);
                rx.frame(i, burst.offset(i), length);
                txLengths[i] = length;
                txBytes += length;
            }
            toSend = frames;
        }
        else
        {
            for (int i = 0; i < frames; i++)
            {
                final int verdict = burst.verdict(i);
                if (verdict == Verdict.FORWARD)
                {
                    tx.copyFrom(rx, i, toSend);
                    tx.frame(toSend, burst.offset(i), burst.length(i));
                    txLengths[toSend++] = burst.length(i);
                    txBytes += burst.length(i);
                    // the later outer fragments (allocateFragments wrote them) leave right after the first
                    if (nextFragment < fragmentCount && fragmentedSlots[nextFragment] == i)
                    {
                        final int end = fragmentedFirst[++nextFragment];
                        for (int f = fragmentedFirst[nextFragment - 1]; f < end; f++)
                        {
                            tx.copyFrom(fragments, f, toSend);
                            txLengths[toSend++] = fragments.dataLen(f);
                            txBytes += fragments.dataLen(f);
                        }
                    }
                }
                else if (verdict == Verdict.REPLY)
                {
                    // back out of the port it came in on (Forwarder gives a REPLY-writing pipeline a return queue
                    // there): in burst order with the forwarded frames when that is the worker's own TX queue, else on
                    // its own
                    if (repliesWithTx)
                    {
                        replyAt[replyCount++] = toSend;
                        tx.copyFrom(rx, i, toSend);
                        tx.frame(toSend, burst.offset(i), burst.length(i));
                        txLengths[toSend++] = burst.length(i);
                        txBytes += burst.length(i);
                    }
                    else
                    {
                        replies.copyFrom(rx, i, replyCount);
                        replies.frame(replyCount, burst.offset(i), burst.length(i));
                        replyLengths[replyCount++] = burst.length(i);
                    }
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
        }
        if (kernelCount > 0)
        {
            final int handed = shim.sluice_tx_burst(kernelPort, kernelQueues[q], toKernel.address(), kernelCount);
            counters.onKernelTx(handed, kernelCount - handed);
        }
        int sent = 0;
        int rejected = 0;
        if (toSend > 0)
        {
            sent = shim.sluice_tx_burst(txPort, txQueue, out.address(), toSend);
            if (sent < toSend)
            {
                rejected = countRejected(out, toSend);
            }
        }
        if (droppedCount > 0)
        {
            shim.sluice_free_burst(dropped.address(), droppedCount);
        }
        if (sent < toSend)
        {
            txBytes = sentBytes(out, txLengths, toSend, sent);
        }
        counters.onBurst(received, rxBytes, sent, txBytes, toSend - sent - rejected, rejected);
        if (replyCount > 0)
        {
            if (repliesWithTx)
            {
                countRepliesSent(replyCount, sent);
            }
            else
            {
                sendReplies(q, replyCount);
            }
        }
    }

    // The replies that went out with the forwarded frames: those before the first frame the queue did not take.
    private void countRepliesSent(final int count, final int sent)
    {
        int repliesSent = 0;
        for (int k = 0; k < count; k++)
        {
            if (replyAt[k] < sent)
            {
                repliesSent++;
            }
        }
        counters.onReplies(repliesSent, count - repliesSent);
    }

    // Out of line: most bursts have no reply. The replies count as TX packets (and a full queue's as TX-full
    // drops) like the forwarded frames, and have their own counters besides.
    private void sendReplies(final int q, final int count)
    {
        final MbufArray replies = this.replies;
        final int queue = returnQueues[q];
        if (queue < 0)
        {
            // not reached: Forwarder gives a pipeline responders only when each of its receive ports has a queue
            shim.sluice_free_burst(replies.address(), count);
            counters.onReplies(0, count);
            return;
        }
        long bytes = 0;
        for (int i = 0; i < count; i++)
        {
            bytes += replyLengths[i];
        }
        final int sent = shim.sluice_tx_burst(rxPorts[q], queue, replies.address(), count);
        final int rejected = sent < count ? countRejected(replies, count) : 0;
        if (sent < count)
        {
            bytes = sentBytes(replies, replyLengths, count, sent);
        }
        counters.onBurst(0, 0, sent, bytes, count - sent - rejected, rejected);
        counters.onReplies(sent, count - sent);
    }

    // Takes mbufs for the later outer fragments of each fragmented frame of the burst, in one call per frame, and
    // writes them; returns how many frames have them (their slots in fragmentedSlots, where their fragments start
    // in fragmentedFirst, which has one more entry: where the last frame's end). A frame whose mbufs the pool cannot
    // give, all of them (sluice_alloc_burst is all or nothing), is taken back whole: dropped as FRAGMENT_NO_BUFFER,
    // its first fragment freed with the drops, none of its fragments sent. Later frames may still get theirs.
    private int allocateFragments(final int count)
    {
        final MbufArray fragments = this.fragments;
        final PacketPipeline pipeline = this.pipeline;
        final FrameBurst burst = this.burst;
        final UnsafeBuffer target = fragmentBuffer;
        int written = 0;
        int used = 0;
        for (int k = 0; k < count; k++)
        {
            final int slot = pipeline.fragmentSlot(k);
            final int later = pipeline.fragmentsOf(k) - 1;
            if (shim.sluice_alloc_burst(fragmentPool, fragments.address(used), later) < 0)
            {
                pipeline.fragmentUnsent(k);
                burst.drop(slot, DropReason.FRAGMENT_NO_BUFFER);
                continue;
            }
            fragmentedSlots[written] = slot;
            fragmentedFirst[written++] = used;
            for (int j = 1; j <= later; j++, used++)
            {
                target.wrap(fragments.bufAddr(used), fragments.bufLen(used));
                final int at = fragments.dataOff(used);
                fragments.frame(used, at, pipeline.writeFragment(k, j, burst.buffer(slot), target, at));
            }
        }
        fragmentedFirst[written] = used;
        return written;
    }

    // The frames sluice_tx_burst refused: it zeroed their entries (every entry it was given was an mbuf).
    private static int countRejected(final MbufArray sent, final int count)
    {
        int rejected = 0;
        for (int i = 0; i < count; i++)
        {
            if (sent.mbuf(i) == 0)
            {
                rejected++;
            }
        }
        return rejected;
    }

    // The bytes of a partly sent burst: of the first {@code sent} frames the shim did not refuse, from the lengths
    // the worker wrote (the sent mbufs may be freed already). As before, the queue is taken to have sent a prefix.
    private static long sentBytes(final MbufArray out, final int[] lengths, final int count, final int sent)
    {
        long bytes = 0;
        int taken = 0;
        for (int i = 0; i < count && taken < sent; i++)
        {
            if (out.mbuf(i) != 0)
            {
                bytes += lengths[i];
                taken++;
            }
        }
        return bytes;
    }

    @Override
    public void onClose()
    {
        if (pipeline != null)
        {
            flushCounters();
        }
        shim.sluice_thread_unregister();
        started.completeExceptionally(new IllegalStateException(roleName + ": closed before it started"));
        if (reservation != null)
        {
            reservation.release();
            reservation = null;
        }
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
