package io.sluice.common.counters;

import io.sluice.common.CreatedDirectories;
import org.agrona.IoUtil;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The forwarder's shared-memory counters: a memory-mapped file ({@link CountersFileHeader} describes the layout)
 * holding an Agrona {@link CountersManager}, which other processes read while the forwarder writes, as Aeron's
 * AeronStat reads the media driver's CnC file.
 * <p>
 * The forwarder {@link #create creates} the file and owns it: its pid is in the header, and {@link #close} removes
 * the file. A second forwarder for the same node is refused while the owner lives; a file left behind by a dead
 * owner is replaced. Readers {@link #openReadOnly open} it read-only.
 * <p>
 * A new file is prepared under a temporary name and hard-linked into place, so a reader never sees a half-written
 * header and two forwarders starting together cannot both claim the path. A stale file is unlinked, never
 * truncated: a reader still mapping it keeps its pages instead of faulting.
 */
public final class CountersFile implements AutoCloseable
{
    /**
     * How long a freed counter id stays unused before it can be allocated again.
     */
    public static final long FREE_TO_REUSE_TIMEOUT_MS = 2_000;

    private final Path path;
    private final MappedByteBuffer mapped;
    private final CountersFileHeader header;
    private final CountersReader reader;
    private final CountersManager manager;
    private final Object fileKey;
    private boolean closed;

    private CountersFile(
        final Path path,
        final MappedByteBuffer mapped,
        final boolean owner,
        final Object fileKey,
        final EpochClock clock)
    {
        this.path = path;
        this.mapped = mapped;
        this.fileKey = fileKey;
        header = new CountersFileHeader(new UnsafeBuffer(mapped, 0, CountersFileHeader.HEADER_LENGTH));
        final int metadataLength = header.metadataLength();
        final UnsafeBuffer metadata = new UnsafeBuffer(mapped, CountersFileHeader.HEADER_LENGTH, metadataLength);
        final UnsafeBuffer values = new UnsafeBuffer(
            mapped, CountersFileHeader.valuesOffset(metadataLength), header.valuesLength());
        if (owner)
        {
            // A freed id is not handed out again for a while: a worker may still write the old id until it picks
            // up the forwarding state that no longer references it.
            manager = new CountersManager(metadata, values, StandardCharsets.UTF_8, clock, FREE_TO_REUSE_TIMEOUT_MS);
            reader = manager;
        }
        else
        {
            manager = null;
            reader = new CountersReader(metadata, values, StandardCharsets.UTF_8);
        }
    }

    /**
     * Creates a node's counters file for this process, creating parent directories as needed.
     *
     * @param path        the file, e.g. {@code /dev/shm/sluice/lb1/counters.dat}.
     * @param maxCounters capacity, 1 to {@link CountersFileHeader#MAX_COUNTERS}.
     * @return the file, owned by this process.
     * @throws CountersFileException when a live process owns the file, or the file cannot be created.
     */
    public static CountersFile create(final Path path, final int maxCounters)
    {
        return create(path, maxCounters, SystemEpochClock.INSTANCE);
    }

    /**
     * Creates a node's counters file for this process with a clock of its own, as a test's stand-in forwarder does.
     *
     * @param path        the file, e.g. {@code /dev/shm/sluice/lb1/counters.dat}.
     * @param maxCounters capacity, 1 to {@link CountersFileHeader#MAX_COUNTERS}.
     * @param clock       gives the header's start time (read once) and times the reuse of freed counter ids.
     * @return the file, owned by this process.
     * @throws CountersFileException when a live process owns the file, or the file cannot be created.
     */
    public static CountersFile create(final Path path, final int maxCounters, final EpochClock clock)
    {
        Objects.requireNonNull(clock, "clock");
        if (maxCounters < 1 || maxCounters > CountersFileHeader.MAX_COUNTERS)
        {
            throw new IllegalArgumentException("max counters must be in [1, " + CountersFileHeader.MAX_COUNTERS +
                "], got " + maxCounters);
        }
        final Path file = path.toAbsolutePath();
        try
        {
            CreatedDirectories.create(file.getParent());
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot create directory " + file.getParent() + " for counters: " + ex,
                ex);
        }
        CountersFileClaim.removeStaleFile(file);

        final long pid = ProcessHandle.current().pid();
        final Path temporary = file.resolveSibling(file.getFileName() + "." + pid + ".tmp");
        final MappedByteBuffer mapped;
        try
        {
            mapped = IoUtil.mapNewFile(temporary.toFile(), CountersFileHeader.fileLength(maxCounters), true);
        }
        catch (final Exception ex) // IoUtil rethrows IOException unchecked, e.g. ENOSPC on a full /dev/shm
        {
            CountersFileClaim.deleteQuietly(temporary);
            throw new CountersFileException("cannot create counters file " + temporary + " (" +
                CountersFileHeader.fileLength(maxCounters) + " bytes): " + ex, ex);
        }
        new CountersFileHeader(new UnsafeBuffer(mapped, 0, CountersFileHeader.HEADER_LENGTH))
            .layoutVersion(CountersFileHeader.LAYOUT_VERSION)
            .pid(pid)
            .startTimeMs(clock.time())
            .maxCounters(maxCounters)
            .metadataLength(CountersFileHeader.metadataLengthFor(maxCounters))
            .valuesLength(CountersFileHeader.valuesLengthFor(maxCounters))
            .publishMagic();
        try
        {
            CountersFileClaim.linkIntoPlace(temporary, file);
            return new CountersFile(file, mapped, true, fileKey(file), clock);
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
        finally
        {
            CountersFileClaim.deleteQuietly(temporary);
        }
    }

    /**
     * Maps an existing counters file read-only, for a reader such as {@code stats}.
     *
     * @param path the file.
     * @return the file, not owned.
     * @throws CountersFileException when the file is missing, too short, not a counters file, or of another layout
     *                               version.
     */
    public static CountersFile openReadOnly(final Path path)
    {
        final Path file = path.toAbsolutePath();
        final long size;
        final Object fileKey;
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            size = attributes.size();
            fileKey = attributes.fileKey();
        }
        catch (final NoSuchFileException ex)
        {
            throw new CountersFileException("no counters file at " + file);
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot read counters file " + file + ": " + ex, ex);
        }
        if (size < CountersFileHeader.HEADER_LENGTH)
        {
            throw new CountersFileException(file + " is not a Sluice counters file: " + size +
                " bytes, shorter than the " + CountersFileHeader.HEADER_LENGTH + "-byte header");
        }
        final MappedByteBuffer mapped;
        try
        {
            mapped = IoUtil.mapExistingFile(file.toFile(), FileChannel.MapMode.READ_ONLY, "counters");
        }
        catch (final Exception ex) // IoUtil rethrows IOException unchecked, e.g. no read permission
        {
            throw new CountersFileException("cannot map counters file " + file + ": " + ex, ex);
        }
        final String problem = validate(new CountersFileHeader(new UnsafeBuffer(mapped, 0,
            CountersFileHeader.HEADER_LENGTH)), size);
        if (problem != null)
        {
            IoUtil.unmap(mapped);
            throw new CountersFileException(file + " " + problem);
        }
        return new CountersFile(file, mapped, false, fileKey, SystemEpochClock.INSTANCE);
    }

    /**
     * Returns the file's path.
     *
     * @return the absolute path.
     */
    public Path path()
    {
        return path;
    }

    /**
     * Tells whether this process created the file (and so may allocate counters and removes it on close).
     *
     * @return true for a file from {@link #create}.
     */
    public boolean isOwner()
    {
        return manager != null;
    }

    /**
     * Returns the manager that allocates counters; only the owner has one, and only one thread may use it.
     *
     * @return the manager.
     * @throws IllegalStateException for a file opened read-only.
     */
    public CountersManager manager()
    {
        if (manager == null)
        {
            throw new IllegalStateException(path + " is open read-only: only the forwarder that created it allocates");
        }
        return manager;
    }

    /**
     * Returns a reader over the counters (for the owner, its manager).
     *
     * @return the reader.
     */
    public CountersReader reader()
    {
        return reader;
    }

    /**
     * Returns the process id of the forwarder that created the file.
     *
     * @return the pid.
     */
    public long pid()
    {
        return header.pid();
    }

    /**
     * Returns when the file was created, in epoch milliseconds.
     *
     * @return the start time.
     */
    public long startTimeMs()
    {
        return header.startTimeMs();
    }

    /**
     * Returns the counter capacity.
     *
     * @return max counters.
     */
    public int maxCounters()
    {
        return header.maxCounters();
    }

    /**
     * Tells whether the process that created the file is still running (and is not a later process that reused its
     * pid).
     *
     * @return true while the owner lives.
     */
    public boolean isOwnerAlive()
    {
        return CountersFileClaim.isOwnerAlive(header.pid(), header.startTimeMs());
    }

    /**
     * Tells whether the file at {@link #path()} is still the one this object maps (a restarted forwarder replaces
     * it with a new one).
     *
     * @return true when the same file is still in place.
     */
    public boolean isStillAtPath()
    {
        try
        {
            return Objects.equals(fileKey, fileKey(path));
        }
        catch (final CountersFileException ex)
        {
            return false;
        }
    }

    /**
     * Unmaps the file; the owner also removes it, and the node directory if that is left empty. Idempotent.
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
        if (manager != null && isStillAtPath())
        {
            CountersFileClaim.deleteQuietly(path);
            try
            {
                Files.deleteIfExists(path.getParent());
            }
            catch (final DirectoryNotEmptyException ex)
            {
                // other files (another tool's, or a stale temporary) stay, and so does their directory
            }
            catch (final IOException ex)
            {
                // best effort: a leftover empty directory is harmless
            }
        }
    }

    @Override
    public String toString()
    {
        return "CountersFile{" + path + ", pid=" + header.pid() + ", owner=" + isOwner() + "}";
    }

    private static String validate(final CountersFileHeader header, final long size)
    {
        final int magic = header.magic();
        if (magic != CountersFileHeader.MAGIC)
        {
            return String.format("is not a Sluice counters file: magic 0x%08X, expected 0x%08X (\"SLCE\")",
                magic, CountersFileHeader.MAGIC);
        }
        if (header.layoutVersion() != CountersFileHeader.LAYOUT_VERSION)
        {
            return "has counters layout version " + header.layoutVersion() + ", this reader understands version " +
                CountersFileHeader.LAYOUT_VERSION + ": use the stats tool of the same Sluice release as the forwarder";
        }
        final int maxCounters = header.maxCounters();
        if (maxCounters < 1 || maxCounters > CountersFileHeader.MAX_COUNTERS ||
            header.metadataLength() != CountersFileHeader.metadataLengthFor(maxCounters) ||
            header.valuesLength() != CountersFileHeader.valuesLengthFor(maxCounters) ||
            size < CountersFileHeader.fileLength(maxCounters))
        {
            return "is corrupt: header says " + maxCounters + " counters, metadata " + header.metadataLength() +
                " bytes, values " + header.valuesLength() + " bytes, but the file has " + size + " bytes";
        }
        return null;
    }

    private static Object fileKey(final Path file)
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot read counters file " + file + ": " + ex, ex);
        }
    }
}
