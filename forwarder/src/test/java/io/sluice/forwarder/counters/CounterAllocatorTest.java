package io.sluice.forwarder.counters;

import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterLabels;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileHeader;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterAllocatorTest
{
    @TempDir
    Path directory;

    private CountersFile file;
    private CounterAllocator allocator;
    private CountersReader reader;

    @BeforeEach
    void createFile()
    {
        file = CountersFile.create(CountersFileHeader.nodeFile(directory, "lb1"), 32);
        allocator = new CounterAllocator(file.manager());
        reader = file.reader();
    }

    @AfterEach
    void closeFile()
    {
        file.close();
    }

    private int[] key(final int id)
    {
        final int[] key = new int[3];
        reader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (counterId == id)
            {
                key[0] = CounterKey.worker(keyBuffer, 0);
                key[1] = CounterKey.index1(keyBuffer, 0);
                key[2] = CounterKey.index2(keyBuffer, 0);
            }
        });
        return key;
    }

    private void assertCounter(
        final int id, final CounterType type, final String label, final int worker, final int index1, final int index2)
    {
        assertEquals(type.typeId(), reader.getCounterTypeId(id));
        assertEquals(label, reader.getCounterLabel(id));
        final int[] key = key(id);
        assertEquals(worker, key[0], "worker");
        assertEquals(index1, key[1], "index1");
        assertEquals(index2, key[2], "index2");
        assertEquals(0, reader.getCounterValue(id));
    }

    @Test
    void labelsAndKeysWorkerCounters()
    {
        assertCounter(allocator.workerCounter(CounterType.RX_PACKETS, 0), CounterType.RX_PACKETS,
            "rx packets: worker=0", 0, -1, -1);
        assertCounter(allocator.workerCounter(CounterType.MAX_DUTY_CYCLE_NS, 7), CounterType.MAX_DUTY_CYCLE_NS,
            "max duty cycle ns: worker=7", 7, -1, -1);
    }

    @Test
    void labelsAndKeysReasonCounters()
    {
        assertCounter(allocator.reasonCounter(CounterType.DROP_REASON, 1, 2, "IPV4_TRUNCATED"),
            CounterType.DROP_REASON, "drops: reason=IPV4_TRUNCATED worker=1", 1, 2, -1);
        assertCounter(allocator.reasonCounter(CounterType.PASS_REASON, 0, 1, "NO_VIP"),
            CounterType.PASS_REASON, "passes: reason=NO_VIP worker=0", 0, 1, -1);
    }

    @Test
    void labelsAndKeysVipAndBackendCounters()
    {
        assertCounter(allocator.vipCounter(CounterType.VIP_PACKETS, 0, 3, "web (10.100.0.1:80/tcp)"),
            CounterType.VIP_PACKETS, "vip packets: vip=web (10.100.0.1:80/tcp) worker=0", 0, 3, -1);
        assertCounter(allocator.backendCounter(CounterType.BACKEND_BYTES, 2, 3, 17, "web (10.100.0.1:80/tcp)",
            "b1 (10.0.0.1)"), CounterType.BACKEND_BYTES,
            "backend bytes: vip=web (10.100.0.1:80/tcp) backend=b1 (10.0.0.1) worker=2", 2, 3, 17);
    }

    @Test
    void labelsAndKeysPortAndProcessCounters()
    {
        assertCounter(allocator.portCounter(CounterType.PORT_RX_MISSED, 1), CounterType.PORT_RX_MISSED,
            "port rx missed: port=1", -1, 1, -1);
        assertCounter(allocator.processCounter(CounterType.CONTROL_COMMANDS_APPLIED),
            CounterType.CONTROL_COMMANDS_APPLIED, "control commands applied", -1, -1, -1);
    }

    @Test
    void readsNamesBackOutOfLabels()
    {
        final String backend = CounterLabels.backend(CounterType.BACKEND_PACKETS, 0, "web (10.100.0.1:80/tcp)",
            "b1 (10.0.0.1)");
        assertEquals("web (10.100.0.1:80/tcp)", CounterLabels.vipName(backend));
        assertEquals("b1 (10.0.0.1)", CounterLabels.backendName(backend));
        assertEquals("dns", CounterLabels.vipName(CounterLabels.vip(CounterType.VIP_BYTES, 12, "dns")));
        assertEquals("NO_VIP", CounterLabels.reasonName(CounterLabels.reason(CounterType.PASS_REASON, 3, "NO_VIP")));
        assertNull(CounterLabels.vipName("rx packets: worker=0"));
        assertNull(CounterLabels.backendName("vip packets: vip=web worker=0"));
        assertNull(CounterLabels.reasonName("drops: reason=IPV4_TRUNC"));
    }

    @Test
    void rejectsATypeOfAnotherScope()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> allocator.vipCounter(CounterType.RX_PACKETS, 0, 0, "web"));
        assertEquals("RX_PACKETS is a WORKER counter, not VIP", ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> allocator.workerCounter(CounterType.DROP_REASON, 0));
        assertThrows(IllegalArgumentException.class, () -> allocator.processCounter(CounterType.PORT_RX_PACKETS));
    }

    @Test
    void rejectsNegativeIndexes()
    {
        assertThrows(IllegalArgumentException.class, () -> allocator.workerCounter(CounterType.RX_PACKETS, -1));
        assertThrows(IllegalArgumentException.class,
            () -> allocator.backendCounter(CounterType.BACKEND_PACKETS, 0, 0, -2, "v", "b"));
        assertThrows(IllegalArgumentException.class, () -> allocator.portCounter(CounterType.PORT_TX_ERRORS, -1));
    }

    @Test
    void writerSetsAddsAndRaisesValues()
    {
        final CounterWriter writer = allocator.writer();
        final int rx = allocator.workerCounter(CounterType.RX_PACKETS, 0);
        final int max = allocator.workerCounter(CounterType.MAX_DUTY_CYCLE_NS, 0);
        writer.set(rx, 10);
        writer.add(rx, 5);
        writer.setMax(max, 300);
        writer.setMax(max, 200);
        assertEquals(15, reader.getCounterValue(rx));
        assertEquals(15, writer.get(rx));
        assertEquals(300, reader.getCounterValue(max));
    }

    @Test
    void writerDoesNotAllocate()
    {
        final CounterWriter writer = allocator.writer();
        final int[] ids = new int[8];
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] = allocator.workerCounter(CounterType.RX_PACKETS, i);
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++)
            {
                writer.set(ids[i & 7], i);
                writer.add(ids[(i + 1) & 7], 1);
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (allocated == 0)
            {
                return;
            }
        }
        throw new AssertionError("CounterWriter allocated on every round");
    }

    @Test
    void aFreedIdIsNotReusedWhileAWorkerMayStillWriteIt()
    {
        final CounterWriter writer = allocator.writer();
        final int old = allocator.vipCounter(CounterType.VIP_PACKETS, 0, 4, "old");
        writer.set(old, 99);
        allocator.free(old);
        final int next = allocator.vipCounter(CounterType.VIP_PACKETS, 0, 4, "new");
        assertNotEquals(old, next, "a freed id waits " + CountersFile.FREE_TO_REUSE_TIMEOUT_MS + " ms before reuse");
        assertEquals(0, reader.getCounterValue(next));
        assertEquals("vip packets: vip=new worker=0", reader.getCounterLabel(next));
    }

    @Test
    void wrapsACounterAsAnAtomicCounter()
    {
        final int id = allocator.processCounter(CounterType.CONTROL_COMMANDS_REJECTED);
        try (AtomicCounter counter = allocator.atomicCounter(id))
        {
            counter.incrementRelease();
            assertEquals(1, reader.getCounterValue(id));
        }
        assertEquals(CountersReader.RECORD_RECLAIMED, reader.getCounterState(id));
    }

    @Test
    void saysWhenTheFileIsFull()
    {
        for (int i = 0; i < 32; i++)
        {
            allocator.workerCounter(CounterType.RX_PACKETS, i);
        }
        assertEquals(0, allocator.available());
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> allocator.workerCounter(CounterType.TX_PACKETS, 0));
        assertTrue(ex.getMessage().startsWith("counters file is full (32 counters) allocating 'tx packets: " +
            "worker=0'"), ex.getMessage());
    }

    @Test
    void cutsLongLabelsAtACharacterBoundary()
    {
        final String vip = "é".repeat(300); // 600 bytes of UTF-8
        final int id = allocator.vipCounter(CounterType.VIP_PACKETS, 0, 0, vip);
        final String label = reader.getCounterLabel(id);
        assertTrue(label.getBytes(StandardCharsets.UTF_8).length <= CountersReader.MAX_LABEL_LENGTH);
        assertTrue(label.startsWith("vip packets: vip=éé"));
        assertTrue(label.endsWith("é"), "no broken character at the end");
    }

    @Test
    void keepsNonAsciiLabels()
    {
        final int id = allocator.vipCounter(CounterType.VIP_BYTES, 0, 0, "café \"east\"");
        assertEquals("vip bytes: vip=café \"east\" worker=0", reader.getCounterLabel(id));
    }
}
