package io.sluice.common.control;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlChannelTest
{
    @TempDir
    Path dir;

    @Test
    void createsTheFileWithItsHeaderAndParentDirectories() throws Exception
    {
        final Path file = dir.resolve("sluice/node-a/control.dat");
        try (ControlChannel channel = ControlChannel.create(file, 8192, 4096))
        {
            assertTrue(channel.isOwner());
            assertEquals(ControlFileDescriptor.fileLength(8192, 4096), Files.size(file));
            final ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("SLCT", new String(Files.readAllBytes(file), 0, 4, StandardCharsets.US_ASCII));
            assertEquals(ControlFileDescriptor.LAYOUT_VERSION, header.getInt(4));
            assertEquals(ProcessHandle.current().pid(), header.getLong(8));
            assertEquals(channel.ownerStartTimeMs(), header.getLong(16));
            assertEquals(8192, header.getInt(24));
            assertEquals(4096, header.getInt(28));
            assertEquals(ProcessHandle.current().pid(), channel.ownerPid());
        }
        assertFalse(Files.exists(file), "the owner deletes the file on close");
    }

    @Test
    void opensWhatTheForwarderCreated()
    {
        final Path file = dir.resolve("control.dat");
        try (ControlChannel created = ControlChannel.create(file, ControlFileDescriptor.DEFAULT_CAPACITY);
            ControlChannel opened = ControlChannel.open(file))
        {
            assertFalse(opened.isOwner());
            assertTrue(opened.isOwnerAlive());
            assertEquals(created.ownerPid(), opened.ownerPid());
            assertEquals(65536, opened.commandCapacity());
            assertEquals(65536, opened.responseCapacity());
            assertEquals(0, opened.lastPollTimeMs());
        }
    }

    @Test
    void clientSeesTheForwarderGoneAfterItCloses()
    {
        final Path file = dir.resolve("control.dat");
        final ControlChannel created = ControlChannel.create(file, 4096);
        try (ControlChannel opened = ControlChannel.open(file))
        {
            created.close();
            assertFalse(opened.isOwnerAlive());
            assertEquals(0, opened.ownerPid());
            assertFalse(Files.exists(file));
        }
    }

    @Test
    void tellsTheOperatorWhenNoForwarderRuns()
    {
        final ControlException ex =
            assertThrows(ControlException.class, () -> ControlChannel.open(dir.resolve("control.dat")));
        assertEquals("no control channel at " + dir.resolve("control.dat") + ": is the forwarder running?",
            ex.getMessage());
    }

    @Test
    void refusesAFileThatIsNotAControlFile() throws Exception
    {
        final Path file = dir.resolve("control.dat");
        final byte[] bytes = new byte[4096];
        bytes[0] = 'J';
        bytes[4] = 1;
        Files.write(file, bytes);
        final ControlException open = assertThrows(ControlException.class, () -> ControlChannel.open(file));
        assertTrue(open.getMessage().contains("is not a Sluice control file"), open.getMessage());

        final ControlException create = assertThrows(ControlException.class, () -> ControlChannel.create(file, 4096));
        assertTrue(create.getMessage().contains("exists and is not a Sluice control file"), create.getMessage());
        assertTrue(Files.exists(file), "a foreign file is never deleted");
    }

    @Test
    void refusesAFileNotInitialisedYet() throws Exception
    {
        final Path file = dir.resolve("control.dat");
        Files.write(file, new byte[ControlFileDescriptor.fileLength(4096, 4096)]);
        final ControlException ex = assertThrows(ControlException.class, () -> ControlChannel.open(file));
        assertTrue(ex.getMessage().contains("is not initialised yet"), ex.getMessage());
    }

    @Test
    void refusesAnotherLayoutVersion() throws Exception
    {
        final Path file = dir.resolve("control.dat");
        writeHeader(file, ProcessHandle.current().pid(), startTimeMs(), 2);
        final ControlException ex = assertThrows(ControlException.class, () -> ControlChannel.open(file));
        assertTrue(ex.getMessage().contains("has layout version 2 but this build reads version 1"), ex.getMessage());
    }

    @Test
    void refusesToReplaceTheFileOfARunningForwarder()
    {
        final Path file = dir.resolve("control.dat");
        try (ControlChannel owner = ControlChannel.create(file, 4096))
        {
            assertTrue(owner.isOwnerAlive());
            final ControlException ex = assertThrows(ControlException.class, () -> ControlChannel.create(file, 4096));
            assertEquals("control file " + file + " is owned by running process " + ProcessHandle.current().pid() +
                ": is another forwarder running with this node name?", ex.getMessage());
        }
    }

    @Test
    void replacesTheFileOfADeadForwarder() throws Exception
    {
        final Process child = new ProcessBuilder("true").start();
        child.waitFor();
        final Path file = dir.resolve("control.dat");
        writeHeader(file, child.pid(), System.currentTimeMillis(), ControlFileDescriptor.LAYOUT_VERSION);

        try (ControlChannel opened = ControlChannel.open(file))
        {
            assertFalse(opened.isOwnerAlive());
            assertEquals(child.pid(), opened.ownerPid());
        }
        try (ControlChannel channel = ControlChannel.create(file, 8192))
        {
            assertEquals(ProcessHandle.current().pid(), channel.ownerPid());
            assertEquals(8192, channel.commandCapacity());
        }
    }

    @Test
    void replacesAFileWhosePidWasReusedByALaterProcess() throws Exception
    {
        final Path file = dir.resolve("control.dat");
        // Our own pid, but an owner that started an hour before this JVM: a previous holder of the pid.
        writeHeader(file, ProcessHandle.current().pid(), startTimeMs() - 3_600_000,
            ControlFileDescriptor.LAYOUT_VERSION);
        try (ControlChannel channel = ControlChannel.create(file, 4096))
        {
            assertTrue(channel.isOwnerAlive());
        }
    }

    @Test
    void replacesAHalfCreatedFile() throws Exception
    {
        final Path file = dir.resolve("control.dat");
        Files.write(file, new byte[10]);
        try (ControlChannel channel = ControlChannel.create(file, 4096))
        {
            assertTrue(channel.isOwner());
            assertEquals(ControlFileDescriptor.fileLength(4096, 4096), Files.size(file));
        }
    }

    @Test
    void refusesCapacitiesAgronaCannotUse()
    {
        final Path file = dir.resolve("control.dat");
        final IllegalArgumentException notPowerOfTwo =
            assertThrows(IllegalArgumentException.class, () -> ControlChannel.create(file, 5000));
        assertEquals("command ring capacity must be a power of two in [4096, 268435456], got 5000",
            notPowerOfTwo.getMessage());
        final IllegalArgumentException tooSmall =
            assertThrows(IllegalArgumentException.class, () -> ControlChannel.create(file, 4096, 2048));
        assertEquals("response buffer capacity must be a power of two in [4096, 268435456], got 2048",
            tooSmall.getMessage());
        assertFalse(Files.exists(file));
    }

    @Test
    void namesTheFileOfANode()
    {
        assertEquals(Path.of("/dev/shm/sluice/edge-1/control.dat"),
            ControlChannel.nodeFile(ControlChannel.DEFAULT_DIRECTORY, "edge-1"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ControlChannel.nodeFile(ControlChannel.DEFAULT_DIRECTORY, "../etc"));
        assertEquals("node name must match [a-z0-9][a-z0-9-]{0,31}, got '../etc'", ex.getMessage());
    }

    @Test
    void refusesUseAfterClose()
    {
        final ControlChannel channel = ControlChannel.create(dir.resolve("control.dat"), 4096);
        channel.close();
        channel.close();
        assertTrue(channel.isClosed());
        assertFalse(channel.isOwnerAlive());
        assertThrows(IllegalStateException.class, channel::ownerPid);
        assertThrows(IllegalStateException.class, () -> new ControlClient(channel));
    }

    private static long startTimeMs()
    {
        return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElseThrow();
    }

    private static void writeHeader(final Path file, final long pid, final long startTimeMs, final int version)
        throws Exception
    {
        final ByteBuffer bytes = ByteBuffer.allocate(ControlFileDescriptor.fileLength(4096, 4096))
            .order(ByteOrder.LITTLE_ENDIAN);
        bytes.put(0, "SLCT".getBytes(StandardCharsets.US_ASCII));
        bytes.putInt(ControlFileDescriptor.LAYOUT_VERSION_OFFSET, version);
        bytes.putLong(ControlFileDescriptor.OWNER_PID_OFFSET, pid);
        bytes.putLong(ControlFileDescriptor.OWNER_START_TIME_MS_OFFSET, startTimeMs);
        bytes.putInt(ControlFileDescriptor.COMMAND_CAPACITY_OFFSET, 4096);
        bytes.putInt(ControlFileDescriptor.RESPONSE_CAPACITY_OFFSET, 4096);
        Files.write(file, bytes.array());
    }
}
