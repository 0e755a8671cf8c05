package io.sluice.tools.check;

import io.sluice.common.config.NumaLayout;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.WorkerCpuLayout;
import net.openhft.affinity.impl.VanillaCpuLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CPU-layout checks against cpuinfo texts ({@link VanillaCpuLayout#fromCpuInfo(java.io.InputStream)}): this
 * machine has one socket and one thread per core, so two-socket, two-thread layouts are written by hand.
 */
class WorkerCpuLayoutTest
{
    // Two sockets of two cores of two threads, numbered as Linux does: the first threads of every core, then the
    // second ones (CPU 4 is CPU 0's sibling). Socket 0 has NIC 3b:00.0 (node 0), socket 1 NIC af:00.0 (node 1).
    private static final String TWO_SOCKETS_HYPERTHREADED = cpuinfo(
        new int[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}});
    // This machine's kind: one socket, two cores, no hyperthreads.
    private static final String TWO_CORES = cpuinfo(new int[][] {{0, 0}, {0, 1}});

    private static final String CONFIG = TwoSocketSysfs.config("""
          - core: 1
            rx_port: 0000:3b:00.0
          - core: 5
            rx_port: 0000:3b:00.0
          - core: 2
            rx_port: 0000:af:00.0
            tx_port: 0000:3b:00.0
          """);

    @RegisterExtension
    final TwoSocketSysfs sysfs = new TwoSocketSysfs();

    private static String cpuinfo(final int[][] socketAndCore)
    {
        final StringBuilder text = new StringBuilder();
        for (int cpu = 0; cpu < socketAndCore.length; cpu++)
        {
            text.append("processor\t: ").append(cpu).append('\n')
                .append("model name\t: Test CPU\n")
                .append("physical id\t: ").append(socketAndCore[cpu][0]).append('\n')
                .append("core id\t\t: ").append(socketAndCore[cpu][1]).append('\n')
                .append('\n');
        }
        return text.toString();
    }

    private static WorkerCpuLayout layout(final String cpuinfo) throws IOException
    {
        return WorkerCpuLayout.of(VanillaCpuLayout.fromCpuInfo(
            new ByteArrayInputStream(cpuinfo.getBytes(StandardCharsets.US_ASCII))));
    }

    private static ForwarderConfig forwarder(final String config) throws ConfigException
    {
        return TwoSocketSysfs.forwarder(config, 8);
    }

    @Test
    void readsSocketsCoresAndThreads() throws Exception
    {
        final WorkerCpuLayout cpus = layout(TWO_SOCKETS_HYPERTHREADED);

        assertEquals("8 CPU(s): 2 socket(s) x 2 core(s) x 2 thread(s)", cpus.describe());
        assertEquals(0, cpus.socketOf(5));
        assertEquals(1, cpus.socketOf(6));
        assertTrue(cpus.knows(7));
        assertFalse(cpus.knows(8));
        assertFalse(WorkerCpuLayout.UNKNOWN.knows(0));
    }

    @Test
    void warnsAboutTwoWorkersOnHyperthreadSiblings() throws Exception
    {
        final List<String> warnings = layout(TWO_SOCKETS_HYPERTHREADED).siblingWorkers(forwarder(CONFIG));

        assertEquals(List.of("forwarder.workers[1].core: core 5 is a hyperthread sibling of core 1 " +
            "(forwarder.workers[0].core): both are core id 1 of socket 0, so the two workers share one physical " +
            "core; pick cores of different physical cores"), warnings);
    }

    @Test
    void sameCoreIdOnAnotherSocketIsNoSibling() throws Exception
    {
        // Cores 1 and 3: both core id 1, but of sockets 0 and 1.
        final String config = CONFIG.replace("core: 5", "core: 3");

        assertEquals(List.of(), layout(TWO_SOCKETS_HYPERTHREADED).siblingWorkers(forwarder(config)));
    }

    @Test
    void nothingToWarnWithoutHyperthreadsOrWithoutALayout() throws Exception
    {
        final String config = """
            node:
              name: lb1
            forwarder:
              eal_args: ["--vdev=net_null0"]
              ports:
                - name: net_null0
              workers:
                - core: 0
                  rx_port: net_null0
                - core: 1
                  rx_port: net_null0
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.0.0.1
            vips: []
            """;
        assertEquals(List.of(), layout(TWO_CORES).siblingWorkers(forwarder(config)));
        assertEquals(List.of(), WorkerCpuLayout.UNKNOWN.siblingWorkers(forwarder(CONFIG)));
    }

    @Test
    void theRemotePortWarningNamesTheCoresSocket() throws Exception
    {
        sysfs.twoSockets("0-1,4-5", "2-3,6-7");
        final NumaLayout numa = NumaLayout.read(sysfs.root());

        assertEquals(List.of("forwarder.workers[2].core: core 2 (socket 1) is on NUMA node 1 but port 0000:3b:00.0 " +
            "is on node 0 (CPUs 0-1,4-5): every packet crosses the interconnect; pick a core of node 0"),
            numa.remoteWorkers(forwarder(CONFIG), numa::nodeOfPort, layout(TWO_SOCKETS_HYPERTHREADED)));
    }

    @Test
    void checkConfigPrintsTheLayoutAndBothWarnings() throws Exception
    {
        sysfs.twoSockets("0-1,4-5", "2-3,6-7");
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConfigCheck.printNuma(forwarder(CONFIG), NumaLayout.read(sysfs.root()), layout(TWO_SOCKETS_HYPERTHREADED),
                out);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);

        assertTrue(text.startsWith("  numa: 2 node(s), 8 CPU(s): 2 socket(s) x 2 core(s) x 2 thread(s)\n"), text);
        assertTrue(text.contains("  warning: forwarder.workers[1].core: core 5 is a hyperthread sibling of core 1"),
            text);
        assertTrue(text.contains("  warning: forwarder.workers[2].core: core 2 (socket 1) is on NUMA node 1"), text);
    }

    @Test
    void thisMachinesCpuinfoGivesALayout()
    {
        // /proc/cpuinfo here has physical and core ids for every CPU (environment.md: 2 cores, one socket).
        final WorkerCpuLayout cpus = WorkerCpuLayout.probe();

        assertTrue(cpus.knows(0), cpus.describe());
        assertTrue(cpus.describe().contains(" CPU(s): "), cpus.describe());
    }
}
