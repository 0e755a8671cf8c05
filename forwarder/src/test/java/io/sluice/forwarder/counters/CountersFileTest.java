package io.sluice.forwarder.counters;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.forwarder.counters.CounterAllocator;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersFileTest
{
    private static final long OWN_PID = ProcessHandle.current().pid();

    @TempDir
    Path directory;

    private Path nodeFile()
    {
        return CountersFileHeader.nodeFile(directory, "lb1");
    }

    /**
     * Writes what a forwarder would have left behind: a full-length file with a header.
     */
    private static void writeFile(
        final Path file, final int magic, final int version, final long pid, final long startTimeMs)
        throws IOException
    {
        final int maxCounters = 4;
        final byte[] bytes = new byte[(int)CountersFileHeader.fileLength(maxCounters)];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putInt(CountersFileHeader.MAGIC_OFFSET, magic, CountersFileHeader.BYTE_ORDER);
        new CountersFileHeader(buffer)
            .layoutVersion(version)
            .pid(pid)
            .startTimeMs(startTimeMs)
            .maxCounters(maxCounters)
            .metadataLength(CountersFileHeader.metadataLengthFor(maxCounters))
            .valuesLength(CountersFileHeader.valuesLengthFor(maxCounters));
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private static int maxCountersOf(final Path file)
    {
        try (CountersFile reader = CountersFile.openReadOnly(file))
        {
            return reader.maxCounters();
        }
    }

    @Test
    void takesItsStartTimeAndCounterReuseFromItsClock()
    {
        // Not before this JVM started, or the owner would not look alive (OwnerProcess).
        final long startMs = System.currentTimeMillis() + 12_345;
        final long[] nowMs = {startMs};
        try (CountersFile owner = CountersFile.create(nodeFile(), 8, () -> nowMs[0]);
            CountersFile reader = CountersFile.openReadOnly(nodeFile()))
        {
            assertEquals(startMs, reader.startTimeMs());
            assertTrue(reader.isOwnerAlive());

            final int first = owner.manager().allocate("first");
            owner.manager().free(first);
            nowMs[0] += CountersFile.FREE_TO_REUSE_TIMEOUT_MS - 1;
            final int second = owner.manager().allocate("second");
            assertTrue(second != first, "a freed id is not reused before its time-out on the file's clock");
            nowMs[0] += 1;
            assertEquals(first, owner.manager().allocate("third"), "reused once the clock passed the time-out");
        }
    }

    @Test
    void createsFileWithHeaderForThisProcess() throws IOException
    {
        final long before = System.currentTimeMillis();
        try (CountersFile owner = CountersFile.create(nodeFile(), 64))
        {
            assertTrue(Files.isRegularFile(nodeFile()));
            assertEquals(CountersFileHeader.fileLength(64), Files.size(nodeFile()));
            assertEquals(128 + 64 * 512 + 64 * 128, Files.size(nodeFile()));
            try (CountersFile reader = CountersFile.openReadOnly(nodeFile()))
            {
                assertEquals(OWN_PID, reader.pid());
                assertTrue(reader.startTimeMs() >= before && reader.startTimeMs() <= System.currentTimeMillis());
                assertEquals(64, reader.maxCounters());
                assertTrue(reader.isOwnerAlive());
                assertFalse(reader.isOwner());
                assertEquals(63, reader.reader().maxCounterId());
            }
            assertTrue(owner.isOwner());
            assertEquals(owner.pid(), OWN_PID);
        }
    }

    @Test
    void writesTheHeaderFieldsAtTheDocumentedOffsets() throws IOException
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            final UnsafeBuffer header = new UnsafeBuffer(Files.readAllBytes(owner.path()));
            assertEquals(0x534C4345, header.getInt(0, CountersFileHeader.BYTE_ORDER));
            assertEquals('E', header.getByte(0)); // little-endian: "SLCE" read backwards on disk
            assertEquals(1, header.getInt(4, CountersFileHeader.BYTE_ORDER));
            assertEquals(OWN_PID, header.getLong(8, CountersFileHeader.BYTE_ORDER));
            assertEquals(8, header.getInt(24, CountersFileHeader.BYTE_ORDER));
            assertEquals(8 * CountersReader.METADATA_LENGTH, header.getInt(28, CountersFileHeader.BYTE_ORDER));
            assertEquals(8 * CountersReader.COUNTER_LENGTH, header.getInt(32, CountersFileHeader.BYTE_ORDER));
            for (int i = 36; i < 128; i++)
            {
                assertEquals(0, header.getByte(i), "reserved byte " + i);
            }
        }
    }

    @Test
    void closeRemovesTheFileAndTheEmptyNodeDirectory()
    {
        final CountersFile owner = CountersFile.create(nodeFile(), 8);
        owner.close();
        assertFalse(Files.exists(nodeFile()));
        assertFalse(Files.exists(nodeFile().getParent()));
        assertTrue(Files.isDirectory(directory));
        owner.close(); // idempotent
    }

    @Test
    void closeKeepsANodeDirectoryThatHoldsOtherFiles() throws IOException
    {
        final CountersFile owner = CountersFile.create(nodeFile(), 8);
        Files.writeString(nodeFile().resolveSibling("other.log"), "x");
        owner.close();
        assertFalse(Files.exists(nodeFile()));
        assertTrue(Files.exists(nodeFile().resolveSibling("other.log")));
    }

    @Test
    void readerCloseLeavesTheFile()
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            CountersFile.openReadOnly(nodeFile()).close();
            assertTrue(Files.exists(nodeFile()));
            assertTrue(owner.isStillAtPath());
        }
    }

    @Test
    void refusesAFileOwnedByALiveProcess()
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            assertTrue(owner.isOwnerAlive());
            final CountersFileException ex =
                assertThrows(CountersFileException.class, () -> CountersFile.create(nodeFile(), 8));
            assertTrue(ex.getMessage().contains("belongs to running process " + OWN_PID), ex.getMessage());
            assertTrue(ex.getMessage().contains(nodeFile().toString()), ex.getMessage());
            assertTrue(Files.exists(nodeFile()), "the live owner's file is left alone");
        }
    }

    @Test
    void refusesAFileWrittenWithThisLiveProcessesPid() throws IOException
    {
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, OWN_PID, System.currentTimeMillis());
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.create(nodeFile(), 8));
        assertTrue(ex.getMessage().contains("process " + OWN_PID), ex.getMessage());
    }

    @Test
    void replacesAFileOfAProcessThatDoesNotExist() throws IOException
    {
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, Long.MAX_VALUE, System.currentTimeMillis());
        try (CountersFile owner = CountersFile.create(nodeFile(), 16))
        {
            assertEquals(OWN_PID, owner.pid());
            assertEquals(16, maxCountersOf(nodeFile()));
        }
    }

    @Test
    void replacesAFileOfAReapedChild() throws Exception
    {
        final Process child = new ProcessBuilder("true").start();
        child.waitFor();
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, child.pid(), System.currentTimeMillis());
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            assertEquals(OWN_PID, owner.pid());
        }
    }

    @Test
    void replacesAFileWhosePidALaterProcessReused() throws IOException
    {
        // this process is alive with that pid, but started long after the file's owner did
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, OWN_PID, 1_000L);
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            assertTrue(owner.startTimeMs() > 1_000L);
        }
    }

    @Test
    void replacesGarbageAtThePath() throws IOException
    {
        Files.createDirectories(nodeFile().getParent());
        Files.writeString(nodeFile(), "not counters");
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            assertEquals(8, maxCountersOf(owner.path()));
        }
    }

    @Test
    void aReaderOfAReplacedFileKeepsItsOldValues() throws IOException
    {
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, Long.MAX_VALUE, 5L);
        try (CountersFile stale = CountersFile.openReadOnly(nodeFile());
            CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            assertEquals(Long.MAX_VALUE, stale.pid());
            assertFalse(stale.isOwnerAlive());
            assertFalse(stale.isStillAtPath());
            assertTrue(owner.isStillAtPath());
        }
    }

    @Test
    void rejectsBadMagicWithAClearError() throws IOException
    {
        writeFile(nodeFile(), 0x12345678, 1, OWN_PID, 0);
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.openReadOnly(nodeFile()));
        assertEquals(nodeFile().toAbsolutePath() + " is not a Sluice counters file: magic 0x12345678, expected " +
            "0x534C4345 (\"SLCE\")", ex.getMessage());
    }

    @Test
    void rejectsAnotherLayoutVersion() throws IOException
    {
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 2, OWN_PID, 0);
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.openReadOnly(nodeFile()));
        assertTrue(ex.getMessage().contains("layout version 2, this reader understands version 1"),
            ex.getMessage());
    }

    @Test
    void rejectsAFileShorterThanTheHeader() throws IOException
    {
        Files.createDirectories(nodeFile().getParent());
        Files.write(nodeFile(), new byte[100]);
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.openReadOnly(nodeFile()));
        assertTrue(ex.getMessage().contains("100 bytes, shorter than the 128-byte header"), ex.getMessage());
    }

    @Test
    void rejectsAHeaderThatDisagreesWithTheFileLength() throws IOException
    {
        writeFile(nodeFile(), CountersFileHeader.MAGIC, 1, OWN_PID, 0);
        final byte[] bytes = Files.readAllBytes(nodeFile());
        new CountersFileHeader(new UnsafeBuffer(bytes)).maxCounters(1000);
        Files.write(nodeFile(), bytes);
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.openReadOnly(nodeFile()));
        assertTrue(ex.getMessage().contains("is corrupt: header says 1000 counters"), ex.getMessage());
    }

    @Test
    void reportsAMissingFile()
    {
        final CountersFileException ex =
            assertThrows(CountersFileException.class, () -> CountersFile.openReadOnly(nodeFile()));
        assertEquals("no counters file at " + nodeFile().toAbsolutePath(), ex.getMessage());
    }

    @Test
    void onlyTheOwnerAllocates()
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8);
            CountersFile reader = CountersFile.openReadOnly(nodeFile()))
        {
            assertTrue(owner.manager() == owner.reader());
            assertThrows(IllegalStateException.class, reader::manager);
        }
    }

    @Test
    void readerSeesWhatTheOwnerWrites()
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8);
            CountersFile reader = CountersFile.openReadOnly(nodeFile()))
        {
            final CounterAllocator allocator = new CounterAllocator(owner.manager());
            final int id = allocator.workerCounter(CounterType.RX_PACKETS, 3);
            allocator.writer().set(id, 42);
            assertEquals(42, reader.reader().getCounterValue(id));
            assertEquals("rx packets: worker=3", reader.reader().getCounterLabel(id));
            assertEquals(CounterType.RX_PACKETS.typeId(), reader.reader().getCounterTypeId(id));
        }
    }

    @Test
    void rejectsACapacityOutOfRange()
    {
        assertThrows(IllegalArgumentException.class, () -> CountersFile.create(nodeFile(), 0));
        assertThrows(IllegalArgumentException.class,
            () -> CountersFile.create(nodeFile(), CountersFileHeader.MAX_COUNTERS + 1));
        assertFalse(Files.exists(nodeFile()));
    }

    @Test
    void leavesNoTemporaryFileBehind() throws IOException
    {
        try (CountersFile owner = CountersFile.create(nodeFile(), 8))
        {
            try (var files = Files.list(owner.path().getParent()))
            {
                assertEquals(1, files.count());
            }
        }
    }
}
