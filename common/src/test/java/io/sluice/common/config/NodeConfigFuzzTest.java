package io.sluice.common.config;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Any text as a node config file: the reader returns a config or throws {@link ConfigException} (which check-config
 * and both processes turn into exit 2 with file, field and reason), never any other exception. Jazzer reports any
 * other throwable as a finding; regression inputs live in {@code NodeConfigFuzzTestInputs/readsAnyText/}, seeded
 * with the example and test configs.
 */
class NodeConfigFuzzTest
{
    private static final String FILE = "fuzzed.yaml";
    private static final int CORES = 2;

    @FuzzTest(maxDuration = "30s")
    @DictionaryEntries({
        "node:", "forwarder:", "vips:", "controller:", "name: ", "eal_args:", "ports:", "workers:", "core: ",
        "rx_port: ", "tx_port: ", "rx_queue: ", "tx_queue: ", "next_hop_mac: ", "own_mac: ", "tunnel_source_v4: ",
        "tunnel_source_v6: ", "tunnel_mtu: ", "mtu: ", "hash_seed: ", "maglev_table_size: ", "max_vips: ",
        "max_backends: ", "connection_table:", "capacity: ", "tcp_idle_timeout: ", "udp_idle_timeout: ",
        "other_idle_timeout: ", "mbufs_per_worker: ", "idle_strategy: ", "kernel_port: ", "rx_ring: ", "tx_ring: ",
        "control:", "ring_capacity: ", "counters_dir: ", "address: ", "port: ", "protocol: ", "backends:",
        "weight: ", "health_check:", "health_checks:", "type: ", "path: ", "interval: ", "timeout: ", "rise: ",
        "fall: ", "expect_status: ", "flap_damping:", "hold_down: ", "max_hold_down: ", "window: ", "max_changes: ",
        "quiet_period: ", "fail_open_share: ", "metrics:", "bgp:", "exabgp:", "neighbors:", "local_as: ",
        "peer_as: ", "router_id: ", "local_address: ", "announce_regardless: ", "forwarder_liveness_timeout: ",
        "drain_time: ", "start_up: ", "command: ", "external: ", "tcp", "udp", "http", "auto", "busy-spin",
        "backoff", "10.0.0.1", "2001:db8::1", "02:00:00:00:00:fe", "net_pcap0", "4294967296", "1073741824",
        "33554432", "-1", "0x", "1e9", "100ms", "5s", "- ", "&a ", "*a", "<<: ", "!!", "{", "["})
    void readsAnyText(final byte[] input)
    {
        final String text = new String(input, StandardCharsets.UTF_8);
        try
        {
            assertNotNull(NodeConfig.parse(FILE, text, CORES));
        }
        catch (final ConfigException ex)
        {
            // What check-config prints: file, field and a reason an operator can act on.
            assertEquals(FILE, ex.file());
            assertNotNull(ex.field(), "field");
            assertNotNull(ex.reason(), "reason");
            assertFalse(ex.reason().isBlank(), "reason");
            assertNotNull(ex.getMessage());
        }
    }
}
