package io.sluice.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerMainTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return ControllerMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void exitsTwoForABadConfig() throws IOException
    {
        final Path config = dir.resolve("node.yaml");
        Files.writeString(config, "node:\n  name: a\nnot_a_section: 1\n");
        assertEquals(2, run("--config", config.toString()));
        assertTrue(err().contains(config.toString()), err());
    }

    @Test
    void exitsTwoForAVipNoNeighborCanCarry() throws IOException
    {
        final Path config = dir.resolve("node.yaml");
        Files.writeString(config, """
            node: {name: lb1}
            forwarder:
              eal_args: ["--no-pci", "--no-huge", "--vdev=net_null0"]
              ports: [{name: net_null0}]
              workers: [{core: 0, rx_port: net_null0}]
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v6: "fd00::1"
            vips:
              - {name: web6, address: "2001:db8::80", port: 80, protocol: tcp}
            controller:
              bgp: {local_as: 65001, peer_as: 65000, router_id: 10.10.1.2, local_address: 10.10.1.2,
                    neighbors: [10.10.1.1]}
            """);
        assertEquals(2, run("--config", config.toString()));
        assertTrue(err().contains(config + ": vips[0].address: VIP web6 (2001:db8::80) is IPv6 but no BGP neighbor " +
            "of this node carries IPv6 (controller.bgp.neighbors: 10.10.1.1)"), err());
    }

    @Test
    void exitsTwoForAMissingConfigFile()
    {
        final Path config = dir.resolve("missing.yaml");
        assertEquals(2, run("--config", config.toString()));
        assertTrue(err().contains("missing.yaml"), err());
    }

    @Test
    void exitsTwoWithoutConfig()
    {
        assertEquals(2, run());
        assertTrue(err().contains("--config FILE is required"), err());
    }

    @Test
    void exitsTwoForAnUnknownArgument()
    {
        assertEquals(2, run("--bogus"));
        assertTrue(err().contains("unknown option: --bogus"), err());
    }

    /** The forwarder refuses both files before it starts EAL; the controller must not run with them either. */
    @Test
    void refusesWhatTheForwarderRefuses() throws IOException
    {
        final String base = """
            node: {name: lb1}
            forwarder:
              eal_args: ["--no-huge", "-m", "128", "--vdev=net_pcap0,rx_pcap=in.pcap"]
              ports: [{name: PORT}]
              workers: [{core: 0, rx_port: PORT}]
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.0.0.1
              counters_dir: "%s"
              connection_table: {capacity: CAPACITY}
            controller:
              drain_time: 100ms
              metrics: {address: 127.0.0.1, port: 1}
            """.formatted(dir.resolve("shm"));
        final Path noSuchPort = dir.resolve("port.yaml");
        Files.writeString(noSuchPort, base.replace("PORT", "net_pcap7").replace("CAPACITY", "1024"));
        final Path tooLarge = dir.resolve("memory.yaml");
        // 2^30 entries of 64 bytes: 64 GiB for one worker, more than the machines these tests run on have.
        Files.writeString(tooLarge, base.replace("PORT", "net_pcap0").replace("CAPACITY", "1073741824"));

        // Before one validation the controller started with these files: the timeout turns that into a failure.
        final int portStatus = assertTimeoutPreemptively(Duration.ofSeconds(20),
            () -> run("--config", noSuchPort.toString()));
        assertEquals(2, portStatus, err());
        assertTrue(err().contains(noSuchPort + ": forwarder.ports[0].name: no --vdev in forwarder.eal_args creates " +
            "\"net_pcap7\""), err());
        final int memoryStatus = assertTimeoutPreemptively(Duration.ofSeconds(20),
            () -> run("--config", tooLarge.toString()));
        assertEquals(2, memoryStatus, err());
        assertTrue(err().contains(tooLarge + ": forwarder.connection_table.capacity: connection tables 64.0 GiB"),
            err());
    }
}
