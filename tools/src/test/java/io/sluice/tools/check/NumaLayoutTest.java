package io.sluice.tools.check;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.NumaLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The NUMA check against fake sysfs trees: this machine has one node, so a two-socket layout is written by hand.
 */
class NumaLayoutTest
{
    private static final String CONFIG = TwoSocketSysfs.config("""
          - core: 1
            rx_port: 0000:3b:00.0
          - core: 2
            rx_port: 0000:3b:00.0
            tx_port: 0000:af:00.0
          - core: 3
            rx_port: 0000:af:00.0
          """);

    @RegisterExtension
    final TwoSocketSysfs sysfs = new TwoSocketSysfs();

    // Two sockets: cores 0-1 on node 0 with NIC 3b:00.0, cores 2-3 on node 1 with NIC af:00.0.
    private void twoSockets() throws IOException
    {
        sysfs.twoSockets("0-1", "2-3");
        sysfs.write("devices/system/node/possible", "0-1");
    }

    private static ForwarderConfig forwarder() throws ConfigException
    {
        return TwoSocketSysfs.forwarder(CONFIG, 4);
    }

    @Test
    void readsNodesOfCpusAndPciPorts() throws IOException
    {
        twoSockets();
        final NumaLayout numa = NumaLayout.read(sysfs.root());
        assertEquals(2, numa.nodeCount());
        assertEquals(0, numa.nodeOfCpu(1));
        assertEquals(1, numa.nodeOfCpu(2));
        assertEquals(NumaLayout.UNKNOWN, numa.nodeOfCpu(7));
        assertEquals(0, numa.nodeOfPort("0000:3b:00.0"));
        assertEquals(1, numa.nodeOfPort("0000:AF:00.0"));
        assertEquals(NumaLayout.UNKNOWN, numa.nodeOfPort("net_pcap0"));
        assertEquals(NumaLayout.UNKNOWN, numa.nodeOfPort("0000:00:1f.0"));
    }

    @Test
    void warnsOfEachWorkerOnAnotherNodeThanAPortItUses() throws Exception
    {
        twoSockets();
        final List<String> warnings = NumaLayout.read(sysfs.root()).remoteWorkers(forwarder());
        assertEquals(List.of(
            "forwarder.workers[1].core: core 2 is on NUMA node 1 but port 0000:3b:00.0 is on node 0 (CPUs 0-1): " +
                "every packet crosses the interconnect; pick a core of node 0"), warnings);
    }

    @Test
    void aPortOfUnknownNodeAndAOneNodeMachineWarnNothing() throws Exception
    {
        twoSockets();
        sysfs.write("bus/pci/devices/0000:3b:00.0/numa_node", "-1");
        assertEquals(List.of(), NumaLayout.read(sysfs.root()).remoteWorkers(forwarder()));

        final Path one = sysfs.root().resolve("one");
        Files.createDirectories(one.resolve("devices/system/node/node0"));
        Files.writeString(one.resolve("devices/system/node/node0/cpulist"), "0-3\n");
        assertEquals(1, NumaLayout.read(one).nodeCount());
        assertEquals(List.of(), NumaLayout.read(one).remoteWorkers(forwarder()));
        assertEquals(0, NumaLayout.read(sysfs.root().resolve("none")).nodeCount());
    }

    @Test
    void checkConfigPrintsTheWarning() throws Exception
    {
        twoSockets();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConfigCheck.printNuma(forwarder(), NumaLayout.read(sysfs.root()), out);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("  numa: 2 node(s)\n"), text);
        assertTrue(text.contains("  warning: forwarder.workers[1].core: core 2 is on NUMA node 1"), text);
    }

    @Test
    void thisMachineHasALayoutToCheckAgainst()
    {
        // One node here (environment.md): the probe reads it, and a single node never warns.
        assertTrue(NumaLayout.probe().nodeCount() <= 1 || NumaLayout.probe().nodeOfCpu(0) >= 0);
    }
}
