package io.sluice.controller.liveness;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.ForwarderState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersObserverTest
{
    @TempDir
    Path directory;

    @Test
    void reportsMissingFileWithoutThrowing()
    {
        try (CountersObserver observer = new CountersObserver(directory.resolve("lb1/counters.dat")))
        {
            assertEquals(Observation.missingFile(), observer.observe());
            assertTrue(observer.lastProblem().contains("no counters file"), observer.lastProblem());
        }
    }

    @Test
    void readsNewestHeartbeatAndStateThenSeesFileRemoved()
    {
        final Path path = directory.resolve("lb1/counters.dat");
        try (CountersObserver observer = new CountersObserver(path))
        {
            final CountersFile counters = CountersFile.create(path, 64);
            try
            {
                final CounterAllocator allocator = new CounterAllocator(counters.manager());
                final int heartbeat0 = allocator.workerCounter(CounterType.HEARTBEAT_MS, 0);
                final int heartbeat1 = allocator.workerCounter(CounterType.HEARTBEAT_MS, 1);
                allocator.workerCounter(CounterType.RX_PACKETS, 1);
                final int state = allocator.processCounter(CounterType.FORWARDER_STATE);
                final CounterWriter writer = allocator.writer();
                writer.set(heartbeat0, 5_000_100);
                writer.set(heartbeat1, 5_000_250);
                writer.set(state, ForwarderState.RUNNING.value());

                final Observation observation = observer.observe();
                assertTrue(observation.fileExists());
                assertEquals(ProcessHandle.current().pid(), observation.pid());
                assertEquals(counters.startTimeMs(), observation.startTimeMs());
                assertTrue(observation.ownerAlive());
                assertEquals(5_000_250, observation.newestHeartbeatMs());
                assertEquals(ForwarderState.RUNNING.value(), observation.forwarderState());

                writer.set(heartbeat0, 5_000_300);
                assertEquals(5_000_300, observer.observe().newestHeartbeatMs());
            }
            finally
            {
                counters.close();
            }

            assertFalse(Files.exists(path));
            assertFalse(observer.observe().fileExists());
        }
    }

    @Test
    void reopensReplacedFile()
    {
        final Path path = directory.resolve("lb1/counters.dat");
        try (CountersObserver observer = new CountersObserver(path))
        {
            final CountersFile first = CountersFile.create(path, 16);
            final long firstStartMs = first.startTimeMs();
            assertEquals(firstStartMs, observer.observe().startTimeMs());
            first.close();

            try (CountersFile second = CountersFile.create(path, 16))
            {
                final int heartbeat = new CounterAllocator(second.manager())
                    .workerCounter(CounterType.HEARTBEAT_MS, 0);
                second.manager().setCounterValue(heartbeat, 42);
                final Observation observation = observer.observe();
                assertTrue(observation.fileExists());
                assertEquals(second.startTimeMs(), observation.startTimeMs());
                assertEquals(42, observation.newestHeartbeatMs());
                assertEquals(Observation.NO_STATE, observation.forwarderState());
            }
        }
    }
}
