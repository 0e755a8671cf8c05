package io.sluice.forwarder.capture;

import io.sluice.forwarder.pipeline.Verdict;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.forwarder.capture.CaptureTestbed.CLIENT;
import static io.sluice.forwarder.capture.CaptureTestbed.inet;
import static io.sluice.forwarder.capture.CaptureTestbed.toVip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worker's side of a capture against a real pipeline: what lands in the ring, before and after encapsulation,
 * the backend decided after processing, capture drops when the ring is full, the end of a session and the lease.
 */
class CaptureTapTest
{
    private static final byte[] TO_WEB = toVip(CLIENT, "10.0.0.1").tcp(40_000, 80).build();
    private static final byte[] TO_DNS = toVip(CLIENT, "10.0.0.2").udp(40_001, 53).payload(20).build();
    private static final byte[] PING_WEB = toVip(CLIENT, "10.0.0.1").icmpv4(8, 0, 0x0001_0001, new byte[16]).build();
    private static final long NOW_NS = 1_000_000_000L;

    @TempDir
    Path dir;

    private CaptureFile file;
    private final CaptureTestbed bed = new CaptureTestbed();

    private record Record(int type, int port, int originalLength, byte[] bytes)
    {
    }

    @AfterEach
    void close()
    {
        if (file != null)
        {
            file.close();
        }
    }

    private CaptureTap tap(final int ringCapacity)
    {
        file = CaptureFile.create(dir.resolve(CaptureFile.FILE_NAME), ringCapacity, List.of("in", "out"),
            new int[] {0}, new int[] {1});
        return new CaptureTap(file, 0, 0, 1);
    }

    private void start(final CaptureFilter filter, final long session)
    {
        file.writeFilter(filter);
        file.session(session);
    }

    // One duty cycle of the worker: poll, then the burst as ForwarderWorker runs it.
    private List<byte[]> cycle(final CaptureTap tap, final long nowNs, final byte[]... frames)
    {
        final boolean capturing = tap.poll(nowNs);
        bed.load(List.of(frames));
        if (capturing)
        {
            tap.onReceived(bed.burst, frames.length, nowNs);
        }
        bed.pipeline.processBurst(bed.burst, nowNs);
        if (capturing)
        {
            tap.onProcessed(bed.burst, frames.length, nowNs);
        }
        final List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < frames.length; i++)
        {
            out.add(bed.frame(i));
        }
        return out;
    }

    private List<Record> drain()
    {
        final List<Record> records = new ArrayList<>();
        final OneToOneRingBuffer ring = file.ring(0);
        ring.read((type, buffer, index, length) ->
        {
            final byte[] bytes = new byte[length - CaptureTap.RECORD_HEADER_LENGTH];
            buffer.getBytes(index + CaptureTap.RECORD_HEADER_LENGTH, bytes);
            records.add(new Record(type, buffer.getInt(index + 12), buffer.getInt(index + 8), bytes));
        }, 1_000_000);
        return records;
    }

    @Test
    void copiesNothingWhileNoCaptureRuns()
    {
        final CaptureTap tap = tap(1 << 16);
        assertFalse(tap.poll(NOW_NS));
        cycle(tap, NOW_NS, TO_WEB, TO_DNS);
        assertEquals(List.of(), drain());
        assertEquals(0, tap.capturedTotal());
    }

    @Test
    void copiesTheVipsFramesAsReceivedAndAsTransmitted()
    {
        final CaptureTap tap = tap(1 << 16);
        start(new CaptureFilter().vip(inet("10.0.0.1"), CaptureFilter.ANY), 7);
        final List<byte[]> out = cycle(tap, NOW_NS, TO_WEB, TO_DNS, PING_WEB);
        assertEquals(Verdict.FORWARD, bed.burst.verdict(0));
        assertEquals(Verdict.REPLY, bed.burst.verdict(2));
        final List<Record> records = drain();
        assertEquals(4, records.size(), "rx web, rx ping, tx web (GRE), tx echo reply");
        assertRecord(records.get(0), CaptureFilter.RX, 0, TO_WEB);
        assertRecord(records.get(1), CaptureFilter.RX, 0, PING_WEB);
        assertRecord(records.get(2), CaptureFilter.TX, 1, out.get(0));
        assertRecord(records.get(3), CaptureFilter.TX, 1, out.get(2));
        assertEquals(7, file.servedSession(0));
        tap.publish();
        assertEquals(4, file.matched(0));
        assertEquals(4, file.captured(0));
        assertEquals(0, file.dropped(0));
        assertEquals(4, tap.capturedTotal());
    }

    @Test
    void cutsFramesToTheSnapLength()
    {
        final CaptureTap tap = tap(1 << 16);
        start(new CaptureFilter().snapLength(64).directions(CaptureFilter.RX), 1);
        final byte[] big = toVip(CLIENT, "10.0.0.2").udp(40_001, 53).payload(400).build();
        cycle(tap, NOW_NS, big);
        final Record record = drain().get(0);
        assertEquals(big.length, record.originalLength());
        assertArrayEquals(Arrays.copyOf(big, 64), record.bytes());
    }

    @Test
    void keepsReceivedFramesForTheFilteredBackendOnly()
    {
        final CaptureTap tap = tap(1 << 16);
        start(new CaptureFilter().backend(inet("192.168.2.10")), 1);
        final List<byte[]> out = cycle(tap, NOW_NS, TO_WEB, TO_DNS, TO_WEB);
        final List<Record> records = drain();
        assertEquals(2, records.size());
        assertRecord(records.get(0), CaptureFilter.RX, 0, TO_DNS);
        assertRecord(records.get(1), CaptureFilter.TX, 1, out.get(1));
        tap.publish();
        assertEquals(2, file.matched(0));
    }

    @Test
    void countsWhatDoesNotFitAsCaptureDropsWithoutWaiting()
    {
        final CaptureTap tap = tap(4096);
        start(new CaptureFilter(), 1);
        for (int i = 0; i < 20; i++)
        {
            cycle(tap, NOW_NS + i, TO_WEB, TO_DNS, TO_WEB, TO_DNS);
        }
        final List<Record> records = drain();
        tap.publish();
        assertEquals(160, file.matched(0), "20 bursts x 4 frames x rx and tx");
        assertTrue(file.dropped(0) > 0, "a 4 KiB ring holds fewer");
        assertEquals(file.matched(0), file.captured(0) + file.dropped(0));
        assertEquals(file.captured(0), records.size());
        assertEquals(file.dropped(0), tap.droppedTotal());
    }

    @Test
    void stopsWhenTheSessionEndsOrTheToolsHeartbeatStops()
    {
        final CaptureTap tap = tap(1 << 16);
        start(new CaptureFilter(), 3);
        assertTrue(tap.poll(NOW_NS));
        file.session(0);
        assertFalse(tap.poll(NOW_NS + 1));
        assertEquals(0, file.servedSession(0), "acknowledged");

        start(new CaptureFilter(), 4);
        assertTrue(tap.poll(NOW_NS));
        file.beat();
        assertTrue(tap.poll(NOW_NS + 600_000_000L), "the heartbeat moved");
        assertTrue(tap.poll(NOW_NS + 2_000_000_000L), "still within the lease");
        assertFalse(tap.poll(NOW_NS + 2_700_000_000L), "2 s without a beat: the tool is gone");
        assertEquals(0, file.servedSession(0));
        cycle(tap, NOW_NS + 2_800_000_000L, TO_WEB);
        drain();
        assertEquals(0, drain().size());
    }

    private static void assertRecord(final Record record, final int type, final int port, final byte[] frame)
    {
        assertEquals(type, record.type(), "direction");
        assertEquals(port, record.port(), "port");
        assertEquals(frame.length, record.originalLength());
        assertArrayEquals(frame, record.bytes());
    }
}
