package io.sluice.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
              eal_args: ["--no-pci"]
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
        assertTrue(err().contains("unknown argument '--bogus'"), err());
    }
}
