package io.sluice.common.control;

import io.sluice.common.OwnerProcess;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Writes, checks and judges the control file's header ({@link ControlFileDescriptor}): who owns the file and
 * whether that process still runs.
 */
final class ControlFileHeader
{
    // A reused pid belongs to a process started after the owner; allow for clock and rounding error in between.

    private ControlFileHeader()
    {
    }

    /**
     * Writes the header of a new file, the layout version last.
     */
    static void write(final UnsafeBuffer header, final int commandCapacity, final int responseCapacity)
    {
        final ProcessHandle self = ProcessHandle.current();
        final long startTimeMs = self.info().startInstant().map(Instant::toEpochMilli)
            .orElseGet(System::currentTimeMillis);
        header.putInt(ControlFileDescriptor.MAGIC_OFFSET, ControlFileDescriptor.MAGIC, ByteOrder.BIG_ENDIAN);
        header.putLong(ControlFileDescriptor.OWNER_PID_OFFSET, self.pid(), ByteOrder.LITTLE_ENDIAN);
        header.putLong(ControlFileDescriptor.OWNER_START_TIME_MS_OFFSET, startTimeMs, ByteOrder.LITTLE_ENDIAN);
        header.putInt(ControlFileDescriptor.COMMAND_CAPACITY_OFFSET, commandCapacity, ByteOrder.LITTLE_ENDIAN);
        header.putInt(ControlFileDescriptor.RESPONSE_CAPACITY_OFFSET, responseCapacity, ByteOrder.LITTLE_ENDIAN);
        VarHandle.releaseFence(); // everything above is visible before a client can see a non-zero version
        header.putInt(ControlFileDescriptor.LAYOUT_VERSION_OFFSET, ControlFileDescriptor.LAYOUT_VERSION,
            ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Checks the header of a mapped file.
     *
     * @param header the first {@link ControlFileDescriptor#HEADER_LENGTH} bytes.
     * @param size   the file's size.
     * @return null when usable, else what is wrong, phrased to follow "control file PATH".
     */
    static String check(final UnsafeBuffer header, final long size)
    {
        final int version = header.getInt(ControlFileDescriptor.LAYOUT_VERSION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        VarHandle.acquireFence(); // pairs with the release fence before the creator wrote the version
        final int magic = header.getInt(ControlFileDescriptor.MAGIC_OFFSET, ByteOrder.BIG_ENDIAN);
        if (version == 0)
        {
            return magic == 0 || magic == ControlFileDescriptor.MAGIC ?
                "is not initialised yet: the forwarder is starting, or died while creating it" :
                "is not a Sluice control file";
        }
        if (magic != ControlFileDescriptor.MAGIC)
        {
            return "is not a Sluice control file (magic 0x" + Integer.toHexString(magic) + ", expected 0x" +
                Integer.toHexString(ControlFileDescriptor.MAGIC) + " \"SLCT\")";
        }
        if (version != ControlFileDescriptor.LAYOUT_VERSION)
        {
            return "has layout version " + version + " but this build reads version " +
                ControlFileDescriptor.LAYOUT_VERSION + ": are the forwarder and this tool from the same release?";
        }
        final int commandCapacity = commandCapacity(header);
        final int responseCapacity = responseCapacity(header);
        String problem = ControlFileDescriptor.checkCapacity(commandCapacity, "command ring");
        if (problem == null)
        {
            problem = ControlFileDescriptor.checkCapacity(responseCapacity, "response buffer");
        }
        if (problem == null && size != ControlFileDescriptor.fileLength(commandCapacity, responseCapacity))
        {
            problem = "is " + size + " bytes, but its header promises " +
                ControlFileDescriptor.fileLength(commandCapacity, responseCapacity);
        }
        return problem == null ? null : "is corrupt: " + problem;
    }

    static int commandCapacity(final UnsafeBuffer header)
    {
        return header.getInt(ControlFileDescriptor.COMMAND_CAPACITY_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    static int responseCapacity(final UnsafeBuffer header)
    {
        return header.getInt(ControlFileDescriptor.RESPONSE_CAPACITY_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    static long ownerPid(final UnsafeBuffer header)
    {
        return header.getLong(ControlFileDescriptor.OWNER_PID_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    static long ownerStartTimeMs(final UnsafeBuffer header)
    {
        return header.getLong(ControlFileDescriptor.OWNER_START_TIME_MS_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Marks the file closed: pid 0, so clients see the forwarder gone even while its process runs on.
     */
    static void markClosed(final UnsafeBuffer header)
    {
        header.putLong(ControlFileDescriptor.OWNER_PID_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Refuses to replace an existing file that a running process owns, or that is not a control file; a file too
     * short to hold the ownership fields is a half-created one and may go.
     *
     * @throws ControlException when the file must stay.
     */
    static void refuseIfOwned(final Path file) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.allocate(ControlFileDescriptor.COMMAND_CAPACITY_OFFSET);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0)
            {
                // read the magic and the ownership fields
            }
        }
        if (bytes.hasRemaining())
        {
            return;
        }
        final int magic = bytes.order(ByteOrder.BIG_ENDIAN).getInt(ControlFileDescriptor.MAGIC_OFFSET);
        if (magic != ControlFileDescriptor.MAGIC && magic != 0)
        {
            throw new ControlException(file + " exists and is not a Sluice control file; remove it or choose " +
                "another directory");
        }
        bytes.order(ByteOrder.LITTLE_ENDIAN);
        final long pid = bytes.getLong(ControlFileDescriptor.OWNER_PID_OFFSET);
        if (isProcessAlive(pid, bytes.getLong(ControlFileDescriptor.OWNER_START_TIME_MS_OFFSET)))
        {
            throw new ControlException("control file " + file + " is owned by running process " + pid +
                ": is another forwarder running with this node name?");
        }
    }

    /**
     * Tells whether a process runs that could be the one that wrote a header.
     *
     * @param pid         the header's pid; 0 after a clean close.
     * @param startTimeMs the header's process start time.
     * @return false when no such process runs, or it started after the header's owner (a reused pid).
     */
    static boolean isProcessAlive(final long pid, final long startTimeMs)
    {
        return OwnerProcess.isAlive(pid, startTimeMs);
    }
}
