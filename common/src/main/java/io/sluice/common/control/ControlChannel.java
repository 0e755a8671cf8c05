package io.sluice.common.control;

import io.sluice.common.CreatedDirectories;
import io.sluice.common.config.ForwarderConfig;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The memory-mapped control file ({@link ControlFileDescriptor}): the forwarder {@link #create creates} it and owns
 * it, clients (the controller, operator tools) {@link #open open} it. One instance may be shared by several
 * {@link ControlClient}s of a process; each client thread needs its own client.
 * <p>
 * Ownership is the header's pid and process start time: a file whose owner is no longer running is stale and
 * {@link #create} replaces it; one whose owner runs is refused, so two forwarders never share a node name. The start
 * time catches a pid reused by a later process.
 * <p>
 * {@link #close()} unmaps the file: nothing may touch the channel afterwards (stop the server or client loops
 * first), since reading an unmapped buffer crashes the JVM.
 */
public final class ControlChannel implements AutoCloseable
{
    /** The control file's name in a node's shared-memory directory. */
    public static final String FILE_NAME = "control.dat";
    /** The default shared-memory directory; matches the forwarder configuration's default {@code counters_dir}. */
    public static final Path DEFAULT_DIRECTORY = ForwarderConfig.DEFAULT_COUNTERS_DIR;

    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");

    private final Path file;
    private final boolean owner;
    private final Object fileKey;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final ManyToOneRingBuffer commandRing;
    private final AtomicBuffer responseBuffer;
    private final int commandCapacity;
    private final int responseCapacity;
    private volatile boolean closed;

    private ControlChannel(final Path file, final boolean owner, final Object fileKey, final MappedByteBuffer mapped,
        final int commandCapacity, final int responseCapacity)
    {
        this.file = file;
        this.owner = owner;
        this.fileKey = fileKey;
        this.mapped = mapped;
        this.commandCapacity = commandCapacity;
        this.responseCapacity = responseCapacity;
        header = new UnsafeBuffer(mapped, 0, ControlFileDescriptor.HEADER_LENGTH);
        commandRing = new ManyToOneRingBuffer(new UnsafeBuffer(mapped, ControlFileDescriptor.commandRingOffset(),
            ControlFileDescriptor.commandRingLength(commandCapacity)));
        responseBuffer = new UnsafeBuffer(mapped, ControlFileDescriptor.responseBufferOffset(commandCapacity),
            ControlFileDescriptor.responseBufferLength(responseCapacity));
    }

    /**
     * Returns the control file of a node.
     *
     * @param directory the shared-memory directory, e.g. {@link #DEFAULT_DIRECTORY}.
     * @param node      the node name, {@code [a-z0-9][a-z0-9-]{0,31}}.
     * @return {@code directory/node/control.dat}.
     * @throws IllegalArgumentException when the node name is not valid.
     */
    public static Path nodeFile(final Path directory, final String node)
    {
        if (node == null || !NODE_NAME.matcher(node).matches())
        {
            throw new IllegalArgumentException("node name must match [a-z0-9][a-z0-9-]{0,31}, got '" + node + "'");
        }
        return directory.resolve(node).resolve(FILE_NAME);
    }

    /**
     * Creates the channel with the same capacity for commands and responses; the forwarder calls it at start.
     *
     * @param file     the control file; parent directories are created.
     * @param capacity each buffer's capacity, a power of two in [4096, 2^28].
     * @return the channel, owned by this process.
     * @throws ControlException when a running process owns the file, or it is not a control file.
     */
    public static ControlChannel create(final Path file, final int capacity)
    {
        return create(file, capacity, capacity);
    }

    /**
     * Creates the channel.
     *
     * @param file             the control file; parent directories are created.
     * @param commandCapacity  the command ring's capacity, a power of two in [4096, 2^28].
     * @param responseCapacity the response buffer's capacity, a power of two in [4096, 2^28]; a GET_STATE answer
     *                         must fit half of it.
     * @return the channel, owned by this process.
     * @throws ControlException when a running process owns the file, or it is not a control file.
     */
    public static ControlChannel create(final Path file, final int commandCapacity, final int responseCapacity)
    {
        requireCapacity(ControlFileDescriptor.checkCapacity(commandCapacity, "command ring"));
        requireCapacity(ControlFileDescriptor.checkCapacity(responseCapacity, "response buffer"));
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                CreatedDirectories.create(parent);
            }
            if (Files.exists(file))
            {
                ControlFileHeader.refuseIfOwned(file);
                Files.delete(file); // clients still mapping the stale file keep their (dead) copy
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot prepare control file " + file + ": " + ex.getMessage(), ex);
        }

        final MappedByteBuffer mapped =
            IoUtil.mapNewFile(file.toFile(), ControlFileDescriptor.fileLength(commandCapacity, responseCapacity), true);
        final ControlChannel channel =
            new ControlChannel(file, true, fileKey(file), mapped, commandCapacity, responseCapacity);
        ControlFileHeader.write(channel.header, commandCapacity, responseCapacity);
        return channel;
    }

    /**
     * Opens the channel of a running forwarder; the controller and operator tools call it.
     *
     * @param file the control file.
     * @return the channel; {@link #isOwnerAlive()} tells whether the forwarder still runs.
     * @throws ControlException when the file is missing, not ready or not a control file of this layout.
     */
    public static ControlChannel open(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new ControlException("no control channel at " + file + ": is the forwarder running?");
        }
        final long size;
        try
        {
            size = Files.size(file);
        }
        catch (final IOException ex)
        {
            throw new ControlException("cannot read control file " + file + ": " + ex.getMessage());
        }
        if (size < ControlFileDescriptor.HEADER_LENGTH)
        {
            throw new ControlException("control file " + file + " is " + size + " bytes, shorter than its header: " +
                "not a control file, or the forwarder is still creating it");
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(file.toFile(), "control channel");
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, ControlFileDescriptor.HEADER_LENGTH);
            final String problem = ControlFileHeader.check(header, size);
            if (problem != null)
            {
                throw new ControlException("control file " + file + " " + problem);
            }
            return new ControlChannel(file, false, null, mapped, ControlFileHeader.commandCapacity(header),
                ControlFileHeader.responseCapacity(header));
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    private static void requireCapacity(final String problem)
    {
        if (problem != null)
        {
            throw new IllegalArgumentException(problem);
        }
    }

    private static Object fileKey(final Path file)
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /**
     * Returns the control file.
     *
     * @return the path given to create or open.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Tells whether this process created the channel (the forwarder side).
     *
     * @return true after {@link #create}.
     */
    public boolean isOwner()
    {
        return owner;
    }

    /**
     * Returns the owner's pid from the header.
     *
     * @return the forwarder's pid, or 0 after it closed the channel.
     */
    public long ownerPid()
    {
        ensureOpen();
        return ControlFileHeader.ownerPid(header);
    }

    /**
     * Returns the owner's process start time from the header.
     *
     * @return epoch milliseconds.
     */
    public long ownerStartTimeMs()
    {
        ensureOpen();
        return ControlFileHeader.ownerStartTimeMs(header);
    }

    /**
     * Tells whether the forwarder that created the file still runs and has not closed the channel.
     *
     * @return true when its process is alive.
     */
    public boolean isOwnerAlive()
    {
        return !closed && ControlFileHeader.isProcessAlive(ownerPid(), ownerStartTimeMs());
    }

    /**
     * Returns when the forwarder's control thread last polled the command ring (the ring's consumer heartbeat).
     *
     * @return epoch milliseconds, or 0 if it never has.
     */
    public long lastPollTimeMs()
    {
        ensureOpen();
        return commandRing.consumerHeartbeatTime();
    }

    /**
     * Returns the command ring's capacity.
     *
     * @return bytes, trailer excluded.
     */
    public int commandCapacity()
    {
        return commandCapacity;
    }

    /**
     * Returns the response buffer's capacity.
     *
     * @return bytes, trailer excluded.
     */
    public int responseCapacity()
    {
        return responseCapacity;
    }

    /**
     * Tells whether {@link #close()} was called.
     *
     * @return true when closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Throws when the channel is closed.
     *
     * @throws IllegalStateException after {@link #close()}.
     */
    public void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("control channel " + file + " is closed");
        }
    }

    /**
     * Returns the command ring, for the forwarder's control server to read.
     *
     * @return the ring.
     */
    public ManyToOneRingBuffer commandRing()
    {
        return commandRing;
    }

    /**
     * Returns the response broadcast buffer, for the forwarder's control server to write.
     *
     * @return the buffer.
     */
    public AtomicBuffer responseBuffer()
    {
        return responseBuffer;
    }

    /**
     * Unmaps the file; the owner also marks it closed (pid 0, so clients see the forwarder gone at once) and deletes
     * it, unless another process has replaced it meanwhile. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (owner)
        {
            ControlFileHeader.markClosed(header);
        }
        IoUtil.unmap(mapped);
        if (owner && fileKey != null && Objects.equals(fileKey, fileKey(file)))
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot delete control file " + file, ex);
            }
        }
    }

    @Override
    public String toString()
    {
        return "ControlChannel{file=" + file + ", owner=" + owner + ", commandCapacity=" + commandCapacity +
            ", responseCapacity=" + responseCapacity + "}";
    }
}
