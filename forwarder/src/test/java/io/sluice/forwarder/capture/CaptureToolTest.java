package io.sluice.forwarder.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.forwarder.capture.CaptureTestbed.CLIENT;
import static io.sluice.forwarder.capture.CaptureTestbed.toVip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tool against a worker running on another thread (this JVM plays the forwarder): the file holds exactly what
 * the worker counted as captured, whatever the worker did while the session started and ended.
 */
class CaptureToolTest
{
    private static final byte[] TO_WEB = toVip(CLIENT, "10.0.0.1").tcp(40_000, 80).build();
    private static final byte[] TO_DNS = toVip(CLIENT, "10.0.0.2").udp(40_001, 53).payload(20).build();

    @TempDir
    Path dir;

    private static CaptureTool.Summary run(final String... args) throws Exception
    {
        final CaptureArguments arguments = CaptureArguments.parse(args);
        try (CaptureFile file = CaptureFile.open(arguments.file()))
        {
            return newTool().capture(file, arguments, System.err);
        }
    }

    private static CaptureTool newTool() throws Exception
    {
        final var constructor = CaptureTool.class.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    @Test
    void fileHoldsExactlyTheFramesTheWorkerCaptured() throws Exception
    {
        final Path node = dir.resolve("n1");
        try (CaptureFile file = CaptureFile.create(node.resolve(CaptureFile.FILE_NAME), 1 << 20,
            List.of("net_pcap0"), new int[] {0}, new int[] {0}))
        {
            final CaptureTap tap = new CaptureTap(file, 0, 0, 0);
            final CaptureTestbed bed = new CaptureTestbed();
            final AtomicBoolean running = new AtomicBoolean(true);
            final AtomicLong bursts = new AtomicLong();
            final Thread worker = new Thread(() ->
            {
                while (running.get())
                {
                    final long now = System.nanoTime();
                    final boolean capturing = tap.poll(now);
                    bed.load(List.of(TO_WEB, TO_DNS, TO_WEB));
                    if (capturing)
                    {
                        tap.onReceived(bed.burst, 3, now);
                    }
                    bed.pipeline.processBurst(bed.burst, now);
                    if (capturing)
                    {
                        tap.onProcessed(bed.burst, 3, now);
                    }
                    bursts.incrementAndGet();
                    tap.publish();
                    Thread.onSpinWait();
                }
            }, "worker");
            worker.start();
            try
            {
                final Path out = dir.resolve("web.pcapng");
                final CaptureTool.Summary summary = run("--dir", dir.toString(), "--node", "n1", "-w",
                    out.toString(), "--vip", "10.0.0.1:80", "--seconds", "0.5");
                final List<PcapNgReader.Packet> packets = PcapNgReader.read(out);
                assertTrue(bursts.get() > 10, "the worker ran");
                assertEquals("seconds", summary.endedBy());
                assertTrue(summary.written() > 0);
                assertEquals(summary.captured(), summary.written(), "every captured frame is in the file");
                assertEquals(summary.matched(), summary.captured() + summary.dropped());
                assertEquals(packets.size(), summary.written());
                // Each web frame is matched twice, as received and as sent; a copy that found the ring full is a
                // capture drop (a loaded machine may starve the draining tool), so rx and tx differ by drops at most.
                assertEquals(0, summary.matched() % 2, "each received web frame was matched once in each direction");
                assertTrue(Math.abs(summary.rx() - summary.tx()) <= summary.dropped(),
                    "each received web frame was forwarded: rx " + summary.rx() + ", tx " + summary.tx() + ", dropped "
                        + summary.dropped());
                for (final PcapNgReader.Packet packet : packets)
                {
                    assertEquals("net_pcap0", packet.interfaceName());
                    if (packet.inbound())
                    {
                        assertArrayEquals(TO_WEB, packet.data());
                    }
                }
                assertEquals(0, file.session(), "the session ended");
                assertEquals(0, file.servedSession(0));

                final Path counted = dir.resolve("count.pcapng");
                final CaptureTool.Summary byCount = run("--dir", dir.toString(), "--node", "n1", "-w",
                    counted.toString(), "--direction", "tx", "--match", "*,10.0.0.2", "--count", "5");
                assertEquals("count", byCount.endedBy());
                assertEquals(5, PcapNgReader.read(counted).size());
                assertEquals(5, byCount.written());
                assertEquals(byCount.captured(), byCount.written() + byCount.afterCount());
            }
            finally
            {
                running.set(false);
                worker.join();
            }
        }
    }

    @Test
    void refusesBadArgumentsWithStatus2()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, CaptureTool.run(System.out, errors, "--node", "x"));
        assertEquals(2, CaptureTool.run(System.out, errors, "--node", "x", "-w", "f", "--direction", "up"));
        assertEquals(2, CaptureTool.run(System.out, errors, "--node", "x", "-w", "f", "--vip", "web"));
        assertEquals(2, CaptureTool.run(System.out, errors, "--node", "x", "-w", "f", "--match", "1.2.3.4/33"));
        assertEquals(1, CaptureTool.run(System.out, errors, "--dir", dir.toString(), "--node", "none", "-w",
            dir.resolve("f").toString()));
        final String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("-w FILE is required"), text);
        assertTrue(text.contains("--direction: expected rx, tx or both"), text);
        assertTrue(text.contains("no capture file"), text);
    }
}
