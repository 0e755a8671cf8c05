package io.sluice.forwarder.capture;

import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The forwarder's capture file, {@code <counters_dir>/<node>/capture.dat}: a control page that the capture tool
 * writes (session, filter, its pid and heartbeat) and the workers read, one status slot per worker (which session
 * it serves, and that session's counts), the port names, and one Agrona {@link OneToOneRingBuffer} per worker
 * (the worker writes captured frames, the tool drains them). Little-endian, the mapping's native order.
 * <pre>
 * offset  size   field
 * 0       4      magic 0x534C4350 ("SLCP")
 * 4       4      layout version (1)
 * 8       8      forwarder pid
 * 16      4      workers W
 * 20      4      ring capacity C (a power of two; each ring takes C + the ring trailer, rounded to 4 KiB)
 * 24      4      ports P (at most 32)
 * 128     8      session: 0 = no capture, else the running capture's number (written last by the tool)
 * 192     8      tool pid
 * 200     8      tool heartbeat (the tool increments it every 100 ms; workers stop capturing after 2 s without)
 * 208     8      last session number handed out
 * 256     128    filter ({@link CaptureFilter})
 * 1024    P x 64 port names by DPDK port id: length int, then up to 60 bytes of UTF-8
 * 4096    W x 64 worker slots: session served long, matched long, captured long, dropped long, rx port int,
 *                tx port int
 * R       W x S  rings, R = 4096 + W x 64 rounded up to 4 KiB, S = C + trailer rounded up to 4 KiB
 * </pre>
 */
public final class CaptureFile implements AutoCloseable
{
    public static final String FILE_NAME = "capture.dat";
    public static final int MAGIC = 0x534C_4350;
    public static final int VERSION = 1;
    /** 4 MiB per worker: about 30,000 full-size frames, or 1 ms of a busy worker's traffic in both directions. */
    public static final int DEFAULT_RING_CAPACITY = 4 << 20;
    public static final int MAX_PORTS = 32;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int FORWARDER_PID_OFFSET = 8;
    static final int WORKERS_OFFSET = 16;
    static final int RING_CAPACITY_OFFSET = 20;
    static final int PORTS_OFFSET = 24;
    static final int SESSION_OFFSET = 128;
    static final int TOOL_PID_OFFSET = 192;
    static final int TOOL_HEARTBEAT_OFFSET = 200;
    static final int SESSION_SEQUENCE_OFFSET = 208;
    static final int FILTER_OFFSET = 256;
    static final int PORT_NAMES_OFFSET = 1024;
    static final int PORT_NAME_LENGTH = 64;
    static final int WORKER_SLOTS_OFFSET = 4096;
    static final int WORKER_SLOT_LENGTH = 64;
    static final int SLOT_SESSION = 0;
    static final int SLOT_MATCHED = 8;
    static final int SLOT_CAPTURED = 16;
    static final int SLOT_DROPPED = 24;
    static final int SLOT_RX_PORT = 32;
    static final int SLOT_TX_PORT = 36;
    private static final int PAGE = 4096;

    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final OneToOneRingBuffer[] rings;
    private final boolean owner;
    private boolean closed;

    private CaptureFile(final Path path, final MappedByteBuffer mapped, final boolean owner)
    {
        this.path = path;
        this.mapped = mapped;
        this.owner = owner;
        this.buffer = new UnsafeBuffer(mapped);
        final int workers = buffer.getInt(WORKERS_OFFSET);
        final int capacity = buffer.getInt(RING_CAPACITY_OFFSET);
        rings = new OneToOneRingBuffer[workers];
        for (int w = 0; w < workers; w++)
        {
            rings[w] = new OneToOneRingBuffer(new UnsafeBuffer(buffer, ringOffset(workers, capacity, w),
                capacity + RingBufferDescriptor.TRAILER_LENGTH));
        }
    }

    private static int ringsOffset(final int workers)
    {
        return BitUtil.align(WORKER_SLOTS_OFFSET + workers * WORKER_SLOT_LENGTH, PAGE);
    }

    private static int ringStride(final int capacity)
    {
        return BitUtil.align(capacity + RingBufferDescriptor.TRAILER_LENGTH, PAGE);
    }

    private static int ringOffset(final int workers, final int capacity, final int worker)
    {
        return ringsOffset(workers) + worker * ringStride(capacity);
    }

    /**
     * Creates the file for a starting forwarder, replacing any file a dead forwarder left (unlinked, never
     * truncated, so a tool still mapping it keeps its pages).
     *
     * @param path         where.
     * @param ringCapacity bytes per worker ring, a power of two.
     * @param portNames    DPDK port names by port id.
     * @param rxPorts      each worker's receive port id.
     * @param txPorts      each worker's transmit port id.
     * @return the file, owned by this process.
     */
    public static CaptureFile create(final Path path, final int ringCapacity, final List<String> portNames,
        final int[] rxPorts, final int[] txPorts)
    {
        if (!BitUtil.isPowerOfTwo(ringCapacity) || portNames.size() > MAX_PORTS)
        {
            throw new IllegalArgumentException("ring capacity must be a power of two and ports <= " + MAX_PORTS);
        }
        final int workers = rxPorts.length;
        final long length = (long)ringsOffset(workers) + (long)workers * ringStride(ringCapacity);
        final MappedByteBuffer mapped;
        try
        {
            Files.createDirectories(path.getParent());
            Files.deleteIfExists(path);
            mapped = IoUtil.mapNewFile(path.toFile(), length, false);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IllegalStateException("cannot create capture file " + path + ": " + ex, ex);
        }
        final UnsafeBuffer header = new UnsafeBuffer(mapped);
        header.putLong(FORWARDER_PID_OFFSET, ProcessHandle.current().pid());
        header.putInt(WORKERS_OFFSET, workers);
        header.putInt(RING_CAPACITY_OFFSET, ringCapacity);
        header.putInt(PORTS_OFFSET, portNames.size());
        for (int p = 0; p < portNames.size(); p++)
        {
            final byte[] name = portNames.get(p).getBytes(StandardCharsets.UTF_8);
            final int at = PORT_NAMES_OFFSET + p * PORT_NAME_LENGTH;
            final int n = Math.min(name.length, PORT_NAME_LENGTH - 4);
            header.putInt(at, n);
            header.putBytes(at + 4, name, 0, n);
        }
        for (int w = 0; w < workers; w++)
        {
            header.putInt(slot(w) + SLOT_RX_PORT, rxPorts[w]);
            header.putInt(slot(w) + SLOT_TX_PORT, txPorts[w]);
        }
        new CaptureFilter().write(header, FILTER_OFFSET);
        header.putInt(VERSION_OFFSET, VERSION);
        header.putIntVolatile(MAGIC_OFFSET, MAGIC);
        return new CaptureFile(path, mapped, true);
    }

    /**
     * Maps a running forwarder's capture file for the capture tool.
     *
     * @param path the file.
     * @return the file.
     * @throws IllegalStateException when it is missing or not a capture file of this version.
     */
    public static CaptureFile open(final Path path)
    {
        if (!Files.isRegularFile(path))
        {
            throw new IllegalStateException("no capture file " + path + " (is the forwarder running, with this " +
                "counters_dir and node name?)");
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(path.toFile(), FileChannel.MapMode.READ_WRITE,
            "capture");
        final UnsafeBuffer header = new UnsafeBuffer(mapped);
        if (mapped.capacity() < WORKER_SLOTS_OFFSET || header.getIntVolatile(MAGIC_OFFSET) != MAGIC ||
            header.getInt(VERSION_OFFSET) != VERSION)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException(path + " is not a capture file of layout version " + VERSION);
        }
        return new CaptureFile(path, mapped, false);
    }

    private static int slot(final int worker)
    {
        return WORKER_SLOTS_OFFSET + worker * WORKER_SLOT_LENGTH;
    }

    public Path path()
    {
        return path;
    }

    public int workers()
    {
        return rings.length;
    }

    public int ringCapacity()
    {
        return buffer.getInt(RING_CAPACITY_OFFSET);
    }

    public long forwarderPid()
    {
        return buffer.getLong(FORWARDER_PID_OFFSET);
    }

    /**
     * Returns a worker's ring.
     *
     * @param worker worker id.
     * @return its ring.
     */
    public OneToOneRingBuffer ring(final int worker)
    {
        return rings[worker];
    }

    /**
     * Returns the running session (acquire load), 0 when no capture runs.
     *
     * @return session.
     */
    public long session()
    {
        return buffer.getLongVolatile(SESSION_OFFSET);
    }

    void session(final long session)
    {
        buffer.putLongVolatile(SESSION_OFFSET, session);
    }

    long nextSessionNumber()
    {
        return buffer.getAndAddLong(SESSION_SEQUENCE_OFFSET, 1) + 1;
    }

    long toolPid()
    {
        return buffer.getLongVolatile(TOOL_PID_OFFSET);
    }

    boolean claimTool(final long expected, final long pid)
    {
        return buffer.compareAndSetLong(TOOL_PID_OFFSET, expected, pid);
    }

    long toolHeartbeat()
    {
        return buffer.getLongVolatile(TOOL_HEARTBEAT_OFFSET);
    }

    void beat()
    {
        buffer.getAndAddLong(TOOL_HEARTBEAT_OFFSET, 1);
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    void readFilter(final CaptureFilter filter)
    {
        filter.read(buffer, FILTER_OFFSET);
    }

    void writeFilter(final CaptureFilter filter)
    {
        filter.write(buffer, FILTER_OFFSET);
    }

    /**
     * Returns the name of a port.
     *
     * @param port DPDK port id.
     * @return its name, or null.
     */
    public String portName(final int port)
    {
        if (port < 0 || port >= buffer.getInt(PORTS_OFFSET))
        {
            return null;
        }
        final int at = PORT_NAMES_OFFSET + port * PORT_NAME_LENGTH;
        return buffer.getStringWithoutLengthUtf8(at + 4, buffer.getInt(at));
    }

    /**
     * Returns the number of ports.
     *
     * @return ports.
     */
    public int ports()
    {
        return buffer.getInt(PORTS_OFFSET);
    }

    int rxPort(final int worker)
    {
        return buffer.getInt(slot(worker) + SLOT_RX_PORT);
    }

    int txPort(final int worker)
    {
        return buffer.getInt(slot(worker) + SLOT_TX_PORT);
    }

    long servedSession(final int worker)
    {
        return buffer.getLongVolatile(slot(worker) + SLOT_SESSION);
    }

    void servedSession(final int worker, final long session)
    {
        buffer.putLongVolatile(slot(worker) + SLOT_SESSION, session);
    }

    void sessionCounts(final int worker, final long matched, final long captured, final long dropped)
    {
        final int at = slot(worker);
        buffer.putLongOrdered(at + SLOT_MATCHED, matched);
        buffer.putLongOrdered(at + SLOT_CAPTURED, captured);
        buffer.putLongOrdered(at + SLOT_DROPPED, dropped);
    }

    long matched(final int worker)
    {
        return buffer.getLongVolatile(slot(worker) + SLOT_MATCHED);
    }

    long captured(final int worker)
    {
        return buffer.getLongVolatile(slot(worker) + SLOT_CAPTURED);
    }

    long dropped(final int worker)
    {
        return buffer.getLongVolatile(slot(worker) + SLOT_DROPPED);
    }

    /**
     * Unmaps the file; the forwarder (its owner) also deletes it. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        IoUtil.unmap(mapped);
        if (owner)
        {
            try
            {
                Files.deleteIfExists(path);
            }
            catch (final IOException ignored)
            {
                // the next forwarder replaces it
            }
        }
    }
}
