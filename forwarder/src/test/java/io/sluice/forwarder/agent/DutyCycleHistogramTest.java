package io.sluice.forwarder.agent;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterKey;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.DutyCycleBuckets;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DutyCycleHistogramTest
{
    @TempDir
    Path directory;

    @Test
    void countsEachCycleInTheBucketOfItsPowerOfTwo()
    {
        final DutyCycleHistogram times = new DutyCycleHistogram();
        final long[] durations = {0, 1, 255, 256, 511, 512, 1023, 1024, (1L << 27) - 1, 1L << 27, 10_000_000_000L, -5};
        for (final long duration : durations)
        {
            times.record(duration);
        }

        assertEquals(4, times.bucketCount(0), "0, 1, 255 and a negative duration are under 256 ns");
        assertEquals(2, times.bucketCount(1), "256 and 511");
        assertEquals(2, times.bucketCount(2), "512 and 1023");
        assertEquals(1, times.bucketCount(3), "1024");
        assertEquals(1, times.bucketCount(19), "2^27 - 1 ns");
        assertEquals(2, times.bucketCount(20), "2^27 ns and 10 s in the open-ended bucket");
        long total = 0;
        for (int bucket = 0; bucket < DutyCycleBuckets.COUNT; bucket++)
        {
            total += times.bucketCount(bucket);
        }
        assertEquals(durations.length, total, "every cycle in exactly one bucket");
        assertEquals(durations.length, times.count());
        // Durations past 2^30 ns count as 2^30; negative ones as 0.
        assertEquals(255 + 256 + 511 + 512 + 1023 + 1024 + 1 + (1L << 27) - 1 + (1L << 27) + (1L << 30),
            times.sumNs());
    }

    @Test
    void agreesWithTheBucketLayoutReadersUse()
    {
        final SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 2_000; i++)
        {
            final long duration = random.nextLong(1L << random.nextInt(1, 31));
            final DutyCycleHistogram times = new DutyCycleHistogram();
            times.record(duration);
            assertEquals(1, times.bucketCount(DutyCycleBuckets.bucketOf(duration)), "duration " + duration);
        }
    }

    @Test
    void recordsAndPublishesWithoutAllocating() throws Exception
    {
        try (CountersFile file = CountersFile.create(directory.resolve("counters.dat"), 256))
        {
            final ForwarderCounters forwarderCounters =
                new ForwarderCounters(new CounterAllocator(file.manager()), 1, () -> 1_700_000_000_000L);
            final WorkerCounters counters = new WorkerCounters(forwarderCounters.publisher(0));
            final PacketPipeline pipeline = pipeline();
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long thread = Thread.currentThread().getId();

            // Until C2 has compiled the loop, the interpreter and deoptimisations allocate (objects that escape
            // analysis removes later): warm up, then the quietest of ten windows shows the steady state.
            cycles(counters, pipeline, 200_000);
            final long[] windows = new long[10];
            long quietest = Long.MAX_VALUE;
            for (int w = 0; w < windows.length; w++)
            {
                final long before = threads.getThreadAllocatedBytes(thread);
                cycles(counters, pipeline, 100_000);
                windows[w] = threads.getThreadAllocatedBytes(thread) - before;
                quietest = Math.min(quietest, windows[w]);
            }

            assertEquals(0, quietest, "bytes allocated by 100,000 recorded cycles and 100 flushes, per window: " +
                java.util.Arrays.toString(windows));
            final long[] buckets = readBuckets(file.reader());
            assertEquals(1_200_000, buckets[DutyCycleBuckets.bucketOf(300)], "every cycle took 300 ns");
            assertEquals(1_200_000, buckets[1]);
        }
    }

    private static void cycles(final WorkerCounters counters, final PacketPipeline pipeline, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            counters.onDutyCycle(300);
            if (i % 1_000 == 999)
            {
                counters.flush(pipeline);
            }
        }
    }

    private static long[] readBuckets(final CountersReader reader)
    {
        final long[] buckets = new long[DutyCycleBuckets.COUNT];
        final int[] seen = new int[1];
        reader.forEach((id, typeId, keyBuffer, label) ->
        {
            if (typeId == CounterType.DUTY_CYCLE_BUCKET.typeId())
            {
                buckets[CounterKey.index1(keyBuffer, 0)] = reader.getCounterValue(id);
                seen[0]++;
            }
        });
        assertEquals(DutyCycleBuckets.COUNT, seen[0], "one counter per bucket");
        assertTrue(label(reader).contains("lt_512ns"), "bucket labels name their bound");
        return buckets;
    }

    private static String label(final CountersReader reader)
    {
        final StringBuilder labels = new StringBuilder();
        reader.forEach((id, label) -> labels.append(label).append('\n'));
        return labels.toString();
    }

    private static PacketPipeline pipeline() throws Exception
    {
        final PipelineConfig config = PipelineConfig.withDefaults(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L,
            (Inet4Address)InetAddress.getByName("10.255.0.1"), null, 0).withConnectionTableCapacity(1024);
        final LoadBalancerState state = new LoadBalancerState(config.maxVips(), config.maxBackends(),
            config.maglevTableSize(), config.hashSeed());
        final ConnectionTable connections = new ConnectionTable(config.connectionTableCapacity(),
            config.tcpIdleTimeoutNs(), config.udpIdleTimeoutNs(), config.otherIdleTimeoutNs());
        return new PacketPipeline(config, new SnapshotPublisher(state.snapshot()), connections,
            new PipelineCounters(config.maxVips(), config.maxBackends()));
    }
}
