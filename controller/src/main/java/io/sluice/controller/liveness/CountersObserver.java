package io.sluice.controller.liveness;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import org.agrona.concurrent.status.CountersReader;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Reads the forwarder's counters file into {@link Observation observations} for {@link ForwarderLiveness}.
 * <p>
 * Keeps the file mapped between looks and maps it again when a restarted forwarder replaced it. A replacement is a
 * new file (new pid and start time in its header) linked over the path, so comparing the file key (the inode) is
 * enough: the inode of the old file cannot be reused while this observer still maps it. A missing, replaced or
 * unreadable file is an observation, never an exception. Single-threaded.
 */
public final class CountersObserver implements AutoCloseable
{
    private final Path path;
    private CountersFile file;
    private String lastProblem;

    /**
     * Creates the observer; nothing is read until {@link #observe()}.
     *
     * @param path the counters file, e.g. {@code /dev/shm/sluice/lb1/counters.dat}.
     */
    public CountersObserver(final Path path)
    {
        this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * Looks at the counters file.
     *
     * @return what it shows; {@link Observation#missingFile()} when there is no valid file at the path.
     */
    public Observation observe()
    {
        if (file != null && !file.isStillAtPath())
        {
            closeFile();
        }
        if (file == null && !openFile())
        {
            return Observation.missingFile();
        }
        final CountersReader reader = file.reader();
        long newestHeartbeatMs = 0;
        long forwarderState = Observation.NO_STATE;
        final int maxId = reader.maxCounterId();
        for (int id = 0; id <= maxId; id++)
        {
            final int state = reader.getCounterState(id);
            if (state == CountersReader.RECORD_UNUSED)
            {
                break; // ids are allocated from 0 upwards: nothing follows the first never-used record
            }
            if (state != CountersReader.RECORD_ALLOCATED)
            {
                continue;
            }
            final int typeId = reader.getCounterTypeId(id);
            if (typeId == CounterType.HEARTBEAT_MS.typeId())
            {
                newestHeartbeatMs = Math.max(newestHeartbeatMs, reader.getCounterValue(id));
            }
            else if (typeId == CounterType.FORWARDER_STATE.typeId())
            {
                forwarderState = reader.getCounterValue(id);
            }
        }
        return new Observation(true, file.pid(), file.startTimeMs(), file.isOwnerAlive(), newestHeartbeatMs,
            forwarderState);
    }

    /**
     * Returns why the last look found no valid file, for logs.
     *
     * @return the problem, or null when the last open succeeded.
     */
    public String lastProblem()
    {
        return lastProblem;
    }

    /**
     * Unmaps the file (never removes it). Idempotent.
     */
    @Override
    public void close()
    {
        closeFile();
    }

    private boolean openFile()
    {
        try
        {
            file = CountersFile.openReadOnly(path);
            lastProblem = null;
            return true;
        }
        catch (final CountersFileException ex)
        {
            lastProblem = ex.getMessage();
            return false;
        }
    }

    private void closeFile()
    {
        if (file != null)
        {
            file.close();
            file = null;
        }
    }
}
