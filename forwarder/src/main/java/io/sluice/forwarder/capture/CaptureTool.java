package io.sluice.forwarder.capture;

import io.sluice.common.cli.CommandLines;
import io.sluice.common.json.JsonWriter;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code sluice capture}: copies the frames that pass a filter from a running forwarder into a pcapng file, without
 * restarting it. Claims the capture file (one capture at a time), empties the rings, writes the filter, starts a
 * session, then drains the workers' rings into the file until the count, the time or a signal ends it; it then
 * ends the session, waits until every worker has acknowledged, and drains what was left, so the file holds exactly
 * the frames the workers counted as captured. The summary names what matched, what was captured and what did not
 * fit into the rings (capture drops).
 * <p>
 * Exit status: 0 done, 1 no forwarder or another capture runs, 2 bad arguments.
 */
public final class CaptureTool
{
    private static final long HEARTBEAT_INTERVAL_NS = 100_000_000L;
    private static final long ACK_TIMEOUT_NS = 3_000_000_000L;
    private static final long FORWARDER_CHECK_NS = 1_000_000_000L;

    /**
     * What one capture did.
     *
     * @param written      frames written to the file.
     * @param afterCount   frames read from the rings after the count was reached (not written).
     * @param matched      frames that passed the filter, by the workers' count.
     * @param captured     frames the workers copied into their rings.
     * @param dropped      frames that passed the filter but did not fit (capture drops).
     * @param rx           frames written as received.
     * @param tx           frames written as transmitted.
     * @param endedBy      why it ended: count, seconds, signal or forwarder-exited.
     */
    public record Summary(long written, long afterCount, long matched, long captured, long dropped, long rx, long tx,
        String endedBy)
    {
        String toJson(final Path output)
        {
            return new JsonWriter().beginObject()
                .field("file", output.toString())
                .field("written", written)
                .field("rx", rx)
                .field("tx", tx)
                .field("matched", matched)
                .field("captured", captured)
                .field("dropped", dropped)
                .field("after_count", afterCount)
                .field("ended_by", endedBy)
                .endObject().toString();
        }
    }

    private volatile boolean stopRequested;

    private CaptureTool()
    {
    }

    /**
     * {@code --port} names no port of the running forwarder (known only once its capture file is open).
     */
    static final class NoSuchPortException extends Exception
    {
        private static final long serialVersionUID = 1L;

        NoSuchPortException(final String message)
        {
            super(message);
        }
    }

    /**
     * Runs the tool.
     *
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Runs a capture, stopping on SIGINT/SIGTERM too.
     *
     * @param out  where the summary goes.
     * @param err  where errors go.
     * @param args command line.
     * @return exit status.
     */
    public static int run(final PrintStream out, final PrintStream err, final String... args)
    {
        return CommandLines.execute(new CaptureArguments(out, err), args, out, err, 2);
    }

    /**
     * Runs a capture a checked command line asks for, stopping on SIGINT/SIGTERM too.
     *
     * @param arguments the command line, checked.
     * @param out       where the summary goes.
     * @param err       where errors go.
     * @return exit status.
     */
    static int capture(final CaptureArguments arguments, final PrintStream out, final PrintStream err)
    {
        final CaptureTool tool = new CaptureTool();
        final CountDownLatch finished = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            tool.stopRequested = true;
            try
            {
                finished.await(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ignored)
            {
                Thread.currentThread().interrupt();
            }
        }, "capture-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try (CaptureFile file = CaptureFile.open(arguments.file()))
        {
            final Summary summary = tool.capture(file, arguments, err);
            out.println(arguments.json() ? summary.toJson(arguments.output()) : String.format(Locale.ROOT,
                "sluice capture: %d frames into %s (%d rx, %d tx); %d matched, %d captured, %d capture drops " +
                "(ring full)%s; ended by %s", summary.written(), arguments.output(), summary.rx(), summary.tx(),
                summary.matched(), summary.captured(), summary.dropped(),
                summary.afterCount() > 0 ? ", " + summary.afterCount() + " more after --count" : "",
                summary.endedBy()));
            out.flush();
            return 0;
        }
        catch (final NoSuchPortException ex)
        {
            err.println("sluice capture: " + ex.getMessage());
            return 2;
        }
        catch (final IllegalStateException | IOException | UncheckedIOException ex)
        {
            err.println("sluice capture: " + ex.getMessage());
            return 1;
        }
        finally
        {
            finished.countDown();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ignored)
            {
                // shutting down: the hook is running
            }
        }
    }

    /**
     * Runs one capture on an open capture file (the tests call this directly).
     *
     * @param file      the forwarder's capture file.
     * @param arguments what to capture.
     * @param err       where warnings go.
     * @return the summary.
     * @throws IOException                           when the output cannot be written.
     * @throws NoSuchPortException when --port names no port of the forwarder.
     */
    Summary capture(final CaptureFile file, final CaptureArguments arguments, final PrintStream err)
        throws IOException, NoSuchPortException
    {
        final CaptureFilter filter = arguments.filter();
        if (arguments.port() != null)
        {
            filter.port(portId(file, arguments.port()));
        }
        requireForwarder(file);
        final long pid = ProcessHandle.current().pid();
        claim(file, pid);
        try (PcapNgWriter writer = new PcapNgWriter(
            new BufferedOutputStream(Files.newOutputStream(arguments.output()), 1 << 20), "sluice capture"))
        {
            for (int p = 0; p < file.ports(); p++)
            {
                writer.addInterface(file.portName(p), filter.snapLength());
            }
            final Drain drain = new Drain(writer, arguments.count());
            endSession(file);
            discardRings(file);
            file.writeFilter(filter);
            file.beat();
            final long session = file.nextSessionNumber();
            file.session(session);

            final long startNs = System.nanoTime();
            final long deadlineNs = arguments.seconds() > 0 ? startNs + (long)(arguments.seconds() * 1e9) : Long.MAX_VALUE;
            long nextBeatNs = startNs + HEARTBEAT_INTERVAL_NS;
            long nextForwarderCheckNs = startNs + FORWARDER_CHECK_NS;
            String endedBy = "signal";
            while (!stopRequested)
            {
                final long nowNs = System.nanoTime();
                if (drain.countReached())
                {
                    endedBy = "count";
                    break;
                }
                if (nowNs - deadlineNs >= 0)
                {
                    endedBy = "seconds";
                    break;
                }
                if (nowNs - nextBeatNs >= 0)
                {
                    nextBeatNs = nowNs + HEARTBEAT_INTERVAL_NS;
                    file.beat();
                }
                if (nowNs - nextForwarderCheckNs >= 0)
                {
                    nextForwarderCheckNs = nowNs + FORWARDER_CHECK_NS;
                    if (!isAlive(file.forwarderPid()))
                    {
                        endedBy = "forwarder-exited";
                        break;
                    }
                }
                if (drainOnce(file, drain) == 0)
                {
                    LockSupport.parkNanos(200_000L);
                }
            }
            if (endSession(file))
            {
                drainAll(file, drain);
            }
            else
            {
                err.println("sluice capture: a worker did not acknowledge the end of the capture within 3 s; " +
                    "counts may be short");
                while (drainOnce(file, drain) > 0)
                {
                    // what the workers wrote so far; a claim still open stops the read
                }
            }
            long matched = 0;
            long captured = 0;
            long dropped = 0;
            for (int w = 0; w < file.workers(); w++)
            {
                matched += file.matched(w);
                captured += file.captured(w);
                dropped += file.dropped(w);
            }
            return new Summary(drain.written, drain.afterCount, matched, captured, dropped, drain.rx, drain.tx,
                endedBy);
        }
        finally
        {
            file.claimTool(pid, 0);
        }
    }

    private static int portId(final CaptureFile file, final String port)
        throws NoSuchPortException
    {
        final StringBuilder names = new StringBuilder();
        for (int p = 0; p < file.ports(); p++)
        {
            if (port.equals(file.portName(p)) || port.equals(Integer.toString(p)))
            {
                return p;
            }
            names.append(p == 0 ? "" : ", ").append(file.portName(p));
        }
        throw new NoSuchPortException("--port: the forwarder has no port " + port + " (it has " +
            names + ")");
    }

    private static void requireForwarder(final CaptureFile file)
    {
        if (!isAlive(file.forwarderPid()))
        {
            throw new IllegalStateException("the forwarder of " + file.path() + " (pid " + file.forwarderPid() +
                ") is not running");
        }
    }

    // One capture at a time: a tool whose process is gone, or whose heartbeat stood still past the workers'
    // lease, is replaced.
    private static void claim(final CaptureFile file, final long pid)
    {
        while (true)
        {
            final long holder = file.toolPid();
            if (holder == 0)
            {
                if (file.claimTool(0, pid))
                {
                    return;
                }
                continue;
            }
            if (holder != pid && isAlive(holder) && heartbeatMoves(file))
            {
                throw new IllegalStateException("another capture (pid " + holder + ") is running on " +
                    file.path());
            }
            if (file.claimTool(holder, pid))
            {
                return;
            }
        }
    }

    private static boolean heartbeatMoves(final CaptureFile file)
    {
        final long before = file.toolHeartbeat();
        final long untilNs = System.nanoTime() + 3 * HEARTBEAT_INTERVAL_NS;
        while (System.nanoTime() - untilNs < 0)
        {
            if (file.toolHeartbeat() != before)
            {
                return true;
            }
            LockSupport.parkNanos(10_000_000L);
        }
        return false;
    }

    private static boolean isAlive(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    // Ends any session and waits until every worker says it no longer captures.
    private static boolean endSession(final CaptureFile file)
    {
        file.session(0);
        final long untilNs = System.nanoTime() + ACK_TIMEOUT_NS;
        for (int w = 0; w < file.workers(); w++)
        {
            while (file.servedSession(w) != 0)
            {
                if (System.nanoTime() - untilNs >= 0 || !isAlive(file.forwarderPid()))
                {
                    return false;
                }
                LockSupport.parkNanos(100_000L);
            }
        }
        return true;
    }

    private static void discardRings(final CaptureFile file)
    {
        for (int w = 0; w < file.workers(); w++)
        {
            while (file.ring(w).read((type, buffer, index, length) -> { }) > 0)
            {
                // leftovers of a capture that ended without draining
            }
        }
    }

    private static int drainOnce(final CaptureFile file, final Drain drain)
    {
        int read = 0;
        for (int w = 0; w < file.workers(); w++)
        {
            read += file.ring(w).read(drain, 4096);
        }
        return read;
    }

    // What the workers wrote before they acknowledged the end, to the last record: every worker has committed or
    // given back each claim by then, so each ring's consumer can reach its producer. Bounded all the same, by the
    // acknowledgement's time-out.
    private static void drainAll(final CaptureFile file, final Drain drain)
    {
        final long untilNs = System.nanoTime() + ACK_TIMEOUT_NS;
        for (int w = 0; w < file.workers(); w++)
        {
            drainToEnd(file.ring(w), drain, untilNs);
        }
    }

    /**
     * Reads a ring until its consumer reaches its producer, or until a deadline. Reading until a {@code read} returns
     * 0 is not enough: a read that meets only padding (a claim given back, or the end of the buffer before a wrap)
     * returns 0 with records behind it.
     *
     * @param ring    the ring, with no claim open.
     * @param handler what gets each record.
     * @param untilNs the {@link System#nanoTime()} to give up at.
     * @return records read.
     */
    static long drainToEnd(final OneToOneRingBuffer ring, final MessageHandler handler, final long untilNs)
    {
        long read = 0;
        while (ring.consumerPosition() != ring.producerPosition() && System.nanoTime() - untilNs < 0)
        {
            read += ring.read(handler, 4096);
        }
        return read;
    }

    private static final class Drain implements MessageHandler
    {
        private final PcapNgWriter writer;
        private final long count;
        private final byte[] frame = new byte[65_536];
        long written;
        long afterCount;
        long rx;
        long tx;

        Drain(final PcapNgWriter writer, final long count)
        {
            this.writer = writer;
            this.count = count;
        }

        boolean countReached()
        {
            return count > 0 && written >= count;
        }

        @Override
        public void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
        {
            if (countReached())
            {
                afterCount++;
                return;
            }
            final long timestampNs = buffer.getLong(index);
            final int originalLength = buffer.getInt(index + 8);
            final int port = buffer.getInt(index + 12);
            final int captured = length - CaptureTap.RECORD_HEADER_LENGTH;
            buffer.getBytes(index + CaptureTap.RECORD_HEADER_LENGTH, frame, 0, captured);
            try
            {
                writer.writePacket(port, timestampNs, originalLength, type == CaptureFilter.RX, frame, 0, captured);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            written++;
            if (type == CaptureFilter.RX)
            {
                rx++;
            }
            else
            {
                tx++;
            }
        }
    }
}
