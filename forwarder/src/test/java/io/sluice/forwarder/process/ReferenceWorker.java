package io.sluice.forwarder.process;

import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.DropReason;
import io.sluice.common.config.IcmpEchoConfig;
import io.sluice.common.config.IcmpTooBigConfig;
import io.sluice.forwarder.pipeline.IcmpEchoResponder;
import io.sluice.forwarder.pipeline.IcmpTooBigResponder;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.pipeline.TunnelOptions;
import io.sluice.forwarder.pipeline.Verdict;
import io.sluice.forwarder.state.SnapshotPublisher;
import io.sluice.forwarder.testing.OffHeapFrames;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * What one forwarder worker should do with a sequence of frames, computed in this JVM with a real
 * {@link PacketPipeline} over the same settings and forwarding state: each frame sits in an mbuf-like buffer
 * ({@link #MBUF_HEADROOM} bytes of headroom, {@link #MBUF_DATA_ROOM} of data room), and a frame larger than the data
 * room is dropped as chained before the pipeline sees it, as the worker does.
 */
final class ReferenceWorker
{
    static final int MBUF_HEADROOM = 128;
    static final int MBUF_DATA_ROOM = 2048;
    private static final long NOW_NS = 1_000_000_000L;

    /**
     * A frame the worker sends.
     *
     * @param inputIndex which input frame it came from.
     * @param bytes      the encapsulated frame.
     */
    record Output(int inputIndex, byte[] bytes)
    {
    }

    private final PacketPipeline pipeline;
    private final PipelineCounters counters;
    private final ConnectionTable connections;
    private final List<Output> output = new ArrayList<>();
    private final List<Integer> verdicts = new ArrayList<>();
    private final List<Integer> dropReasons = new ArrayList<>();
    private long rxPackets;
    private long rxBytes;
    private long txBytes;
    private int dataRoom = MBUF_DATA_ROOM;

    ReferenceWorker(final PipelineConfig config, final SnapshotPublisher publisher, final boolean echoReplies)
    {
        this(config, TunnelOptions.NONE, publisher, echoReplies);
    }

    ReferenceWorker(final PipelineConfig config, final TunnelOptions tunnel, final SnapshotPublisher publisher,
        final boolean echoReplies)
    {
        counters = new PipelineCounters(config.maxVips(), config.maxBackends());
        connections = new ConnectionTable(config.connectionTableCapacity(), config.tcpIdleTimeoutNs(),
            config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs());
        pipeline = new PacketPipeline(config, tunnel, publisher, connections, counters);
        if (echoReplies)
        {
            // The forwarder's defaults (icmp_echo: reply, 1000/s, burst 50); the reference's clock stands still, so
            // its bucket holds 50 replies.
            pipeline.echoResponder(new IcmpEchoResponder(IcmpEchoConfig.DEFAULT_RATE_PER_SECOND,
                IcmpEchoConfig.DEFAULT_BURST));
        }
        // The forwarder's default icmp_too_big: send, 1000/s, burst 50.
        pipeline.tooBigResponder(new IcmpTooBigResponder(IcmpTooBigConfig.DEFAULT_RATE_PER_SECOND,
            IcmpTooBigConfig.DEFAULT_BURST));
        // The forwarder's workers fragment the outer packet of IPv4 without DF too big for the tunnel.
        pipeline.fragmentOuter(true);
    }

    /**
     * Builds one reference worker for a node's initial state.
     */
    static ReferenceWorker forNode(final NodeSpec spec)
    {
        final ReferenceWorker worker = new ReferenceWorker(spec.pipelineConfig(), spec.tunnelOptions(),
            new SnapshotPublisher(spec.newState().snapshot()), spec.echoReplies());
        worker.dataRoom = spec.frameRoom();
        return worker;
    }

    /**
     * Processes frames in order.
     */
    ReferenceWorker process(final List<byte[]> frames)
    {
        for (final byte[] frame : frames)
        {
            process(frame);
        }
        return this;
    }

    private void process(final byte[] frame)
    {
        final int index = verdicts.size();
        rxPackets++;
        if (frame.length > dataRoom)
        {
            rxBytes += frame.length;
            counters.recordDrop(DropReason.FRAME_CHAINED);
            verdicts.add(Verdict.DROP);
            dropReasons.add(DropReason.FRAME_CHAINED.ordinal());
            return;
        }
        rxBytes += frame.length;
        final UnsafeBuffer mbuf = OffHeapFrames.allocate(MBUF_HEADROOM + dataRoom);
        mbuf.putBytes(MBUF_HEADROOM, frame);
        pipeline.beginBurst(NOW_NS);
        final int verdict = pipeline.process(mbuf, MBUF_HEADROOM, frame.length);
        verdicts.add(verdict);
        dropReasons.add(verdict == Verdict.DROP ? pipeline.dropReason() : -1);
        if (verdict == Verdict.FORWARD || verdict == Verdict.REPLY)
        {
            final int offset = pipeline.outOffset();
            output.add(new Output(index, OffHeapFrames.copy(mbuf, offset, offset + pipeline.outLength())));
            txBytes += pipeline.outLength();
            // the later outer fragments, which the worker sends right after the first
            for (int j = 1; pipeline.fragmentCount() > 0 && j < pipeline.fragmentsOf(0); j++)
            {
                final UnsafeBuffer later = OffHeapFrames.allocate(MBUF_HEADROOM + dataRoom);
                final int length = pipeline.writeFragment(0, j, mbuf, later, MBUF_HEADROOM);
                output.add(new Output(index, OffHeapFrames.copy(later, MBUF_HEADROOM, MBUF_HEADROOM + length)));
                txBytes += length;
            }
        }
    }

    List<Output> output()
    {
        return output;
    }

    int verdict(final int inputIndex)
    {
        return verdicts.get(inputIndex);
    }

    /**
     * Returns the drop reason of a dropped input frame, or null.
     */
    DropReason dropReason(final int inputIndex)
    {
        final int reason = dropReasons.get(inputIndex);
        return reason < 0 ? null : DropReason.get(reason);
    }

    PipelineCounters counters()
    {
        return counters;
    }

    ConnectionTable connections()
    {
        return connections;
    }

    long rxPackets()
    {
        return rxPackets;
    }

    long rxBytes()
    {
        return rxBytes;
    }

    long txBytes()
    {
        return txBytes;
    }
}
