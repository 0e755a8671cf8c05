package io.sluice.tools.check;

import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.NodeConfigTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostFactsTest
{
    @TempDir
    Path dir;

    private static Path resource(final String name)
    {
        return NodeConfigTest.resource(name);
    }

    @Test
    void sizesPoolsAndTablesFromTheConfig() throws Exception
    {
        final Map<String, String> facts = HostFacts.facts(NodeConfig.load(resource("full.yaml"), 4));

        assertEquals("edge-7", facts.get("node"));
        assertEquals("2 3 1", facts.get("worker_cores"));
        assertEquals("0000:3b:00.0", facts.get("pci_ports"));
        // 16383 mbufs x 2 rx queues on the NIC, x 1 on the TAP; the NIC's mtu 9000 gives its mbufs a 9024-byte
        // data room instead of 2048.
        final long jumbo = 2560 - 2048 + 9024;
        assertEquals("0000:3b:00.0:" + 16383L * 2 * jumbo + " net_tap0:" + 16383L * 2560, facts.get("pools"));
        assertEquals(Long.toString(16383L * 2 * jumbo + 16383L * 2560), facts.get("pool_bytes"));
        assertEquals(Long.toString(1024L << 20), facts.get("eal_memory_bytes"));
        assertEquals("false", facts.get("no_huge"));
        assertEquals("0", facts.get("main_lcore"));
        assertEquals(Long.toString(3L * 4096 * 64), facts.get("connection_table_bytes"));
        assertEquals("/var/lib/sluice/edge-7", facts.get("state_dir"));
    }

    @Test
    void readsEalMemoryAndMainLcoreInEachSpelling()
    {
        assertEquals(3072L << 20, HostFacts.ealMemoryBytes(List.of("--socket-mem=1024,2048")));
        assertEquals(512L << 20, HostFacts.ealMemoryBytes(List.of("--socket-mem", "512")));
        assertEquals(0, HostFacts.ealMemoryBytes(List.of("--no-huge")));
        assertEquals(4, HostFacts.mainLcore(List.of("-l", "4-7")));
        assertEquals(6, HostFacts.mainLcore(List.of("-l6,7")));
        assertEquals(2, HostFacts.mainLcore(List.of("--lcores=2@0,3")));
        assertEquals(0, HostFacts.mainLcore(List.of("--no-pci")));
    }

    @Test
    void tellsPciAddressesFromVdevNames()
    {
        assertTrue(HostFacts.isPciAddress("0000:3b:00.0"));
        assertTrue(HostFacts.isPciAddress("3b:00.1"));
        assertFalse(HostFacts.isPciAddress("net_pcap0"));
        assertFalse(HostFacts.isPciAddress("0000:3b:00.8"));
    }

    @Test
    void exitsTwoWithFileFieldAndReasonForABadConfig() throws Exception
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, Files.readString(resource("minimal.yaml")).replace("core: 0", "core: 9"));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();

        final int status = HostFacts.run(new String[]{"--cores", "4", file.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(ConfigCheck.INVALID, status);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(file + ": forwarder.workers[0].core: "),
            err.toString(StandardCharsets.UTF_8));
    }
}
