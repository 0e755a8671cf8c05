package io.sluice.controller.metrics;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuildInfoCollectorTest
{
    @TempDir
    Path directory;

    @Test
    void exportsVersionAndCommitAsInfo()
    {
        final String text = MetricsExposition.text(new BuildInfoCollector("0.1.0", "07dd6c8").collect());

        assertEquals("# HELP sluice_build_info The Sluice build this node runs.\n" +
            "# TYPE sluice_build_info gauge\n" +
            "sluice_build_info{git_commit=\"07dd6c8\",version=\"0.1.0\"} 1\n", text);
    }

    @Test
    void saysUnknownForAnUnfilteredOrMissingValue()
    {
        final String text = MetricsExposition.text(new BuildInfoCollector("${project.version}", null).collect());

        assertTrue(text.contains("sluice_build_info{git_commit=\"unknown\",version=\"unknown\"} 1\n"), text);
    }

    @Test
    void readsThisBuildsVersionFromTheJarResources()
    {
        final String text = MetricsExposition.text(BuildInfoCollector.ofThisBuild().collect());

        // Maven filtered build.properties: the project version, never the placeholder.
        assertTrue(text.matches("(?s).*version=\"\\d+\\.\\d+\\.\\d+[^\"]*\".*"), text);
        assertFalse(text.contains("${"), text);
    }

    @Test
    void forwarderCollectorHasNothingWithoutACountersFile()
    {
        final ForwarderCountersCollector collector =
            new ForwarderCountersCollector(directory.resolve("lb1/counters.dat"), () -> 0);

        assertEquals(0, collector.collect().size());
    }

    @Test
    void forwarderCollectorMapsTheFileAtEachScrape()
    {
        final Path path = directory.resolve("lb1/counters.dat");
        final ForwarderCountersCollector collector = new ForwarderCountersCollector(path, () -> 0);
        try (CountersFile file = CountersFile.create(path, 64))
        {
            final CounterAllocator allocator = new CounterAllocator(file.manager());
            allocator.writer().set(allocator.workerCounter(CounterType.RX_PACKETS, 0), 41);

            assertTrue(MetricsExposition.text(collector.collect())
                .contains("sluice_worker_rx_packets_total{worker=\"0\"} 41.0\n"));
            allocator.writer().set(allocator.workerCounter(CounterType.RX_PACKETS, 1), 1);
            assertTrue(MetricsExposition.text(collector.collect())
                .contains("sluice_worker_rx_packets_total{worker=\"1\"} 1.0\n"));
        }
    }
}
