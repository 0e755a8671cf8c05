package io.sluice.common.counters;

import io.sluice.common.OwnerProcess;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * How a forwarder claims a node's counters path: refuse it while its owner lives, remove it when the owner is dead,
 * and put a fully written file in place in one step.
 */
final class CountersFileClaim
{

    private CountersFileClaim()
    {
    }

    /**
     * Tells whether the process that wrote a header still runs.
     *
     * @param pid         the header's pid.
     * @param startTimeMs the header's start time.
     * @return true when a process with the pid lives and started no later than the file (plus slack).
     */
    static boolean isOwnerAlive(final long pid, final long startTimeMs)
    {
        return OwnerProcess.isAlive(pid, startTimeMs);
    }

    /**
     * Removes a file left at the path by a dead owner (or anything that is not a counters file).
     *
     * @param file the path.
     * @throws CountersFileException when a live process owns the file, or it cannot be read or removed.
     */
    static void removeStaleFile(final Path file)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(CountersFileHeader.HEADER_LENGTH);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0)
            {
                // read the whole header, or as much as there is
            }
        }
        catch (final NoSuchFileException ex)
        {
            return;
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot read existing counters file " + file + ": " + ex, ex);
        }
        if (!bytes.hasRemaining())
        {
            final CountersFileHeader existing = new CountersFileHeader(new UnsafeBuffer(bytes.array()));
            if (existing.magic() == CountersFileHeader.MAGIC && isOwnerAlive(existing.pid(), existing.startTimeMs()))
            {
                throw new CountersFileException("counters file " + file + " belongs to running process " +
                    existing.pid() + " (started " + Instant.ofEpochMilli(existing.startTimeMs()) + "): stop that " +
                    "forwarder first, or give this one another node name");
            }
        }
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot remove stale counters file " + file + ": " + ex, ex);
        }
    }

    /**
     * Gives a fully written temporary file its final name; fails if the name exists.
     *
     * @param temporary the written file.
     * @param file      the final path.
     * @throws CountersFileException when another process put a file there first, or on an I/O error.
     */
    static void linkIntoPlace(final Path temporary, final Path file)
    {
        try
        {
            try
            {
                Files.createLink(file, temporary); // link(2) fails if the name exists: at most one creator wins
            }
            catch (final FileAlreadyExistsException ex)
            {
                throw ex;
            }
            catch (final UnsupportedOperationException | FileSystemException ex)
            {
                Files.move(temporary, file); // no hard links here: fails if the name exists, though not atomically
            }
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new CountersFileException("counters file " + file + " was created by another process while this " +
                "one was starting: is a second forwarder running with the same node name?", ex);
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("cannot create counters file " + file + ": " + ex, ex);
        }
    }

    /**
     * Removes a file if it exists, ignoring failures.
     *
     * @param file the file.
     */
    static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            // best effort: the caller is already reporting the failure that matters
        }
    }
}
