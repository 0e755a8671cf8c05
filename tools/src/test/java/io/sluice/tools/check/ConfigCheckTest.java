package io.sluice.tools.check;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.CpuList;
import io.sluice.common.config.MachineCpus;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.NodeConfigErrorsTest;
import io.sluice.common.config.NodeConfigTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigCheckTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return ConfigCheck.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsSummaryOfValidFile()
    {
        final int status = run("--cores", "4", NodeConfigTest.resource("full.yaml").toString());

        assertEquals(ConfigCheck.OK, status, err());
        assertEquals("", err());
        final String summary = out();
        assertTrue(summary.startsWith("node edge-7: 2 port(s), 3 worker(s), 2 VIP(s) of 8, 3 backend(s) of 16\n"),
            summary);
        assertTrue(summary.contains("  core 3   rx 0000:3b:00.0/1 -> tx net_tap0/1\n"), summary);
        assertTrue(summary.contains("idle tcp 2h udp 45s other 250ms"), summary);
        assertTrue(summary.contains("seed=0xdeadbeefcafef00d"), summary);
        assertTrue(summary.contains("api "), summary);
        assertTrue(summary.contains("2 backend(s), 1 with weight > 0"), summary);
        assertTrue(summary.contains("[2001:db8::53]:*/udp"), summary);
        assertTrue(summary.contains("bgp: as 4200000001 -> 65000, router id 10.10.1.2, med 50, as-path prepend 2\n"),
            summary);
        assertTrue(summary.contains(" ipv4 from 10.10.1.2, hold 9s keepalive 3s, graceful restart\n"), summary);
        assertTrue(summary.contains("  neighbor fd00:10::1"), summary);
        assertTrue(summary.contains(" ipv6 from fd00:10::2, hold 30s keepalive 10s\n"), summary);
        assertTrue(summary.lines().count() < 25, summary);
        assertTrue(summary.contains("  tunnel options: GRE key off, outer source fixed; icmp echo reply, icmp too " +
            "big send\n"), summary);
    }

    @Test
    void printsTunnelOptionsVlanTagsAndWhereRepliesLeave(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, Files.readString(NodeConfigTest.resource("full.yaml"))
            .replace("      mtu: 1400\n", "      mtu: 1400\n      vlan: 42\n      vlan_pcp: 5\n")
            .replace("  tunnel_mtu: 1300\n", "  tunnel_mtu: 1300\n  tunnel_entropy:\n    gre_key: true\n" +
                "    source_prefix_v4: 10.200.0.0/16\n    source_prefix_v6: \"fd00:e::/96\"\n" +
                "  icmp_echo: {mode: kernel}\n"));

        assertEquals(ConfigCheck.OK, run("--cores", "4", file.toString()), err());
        final String summary = out();
        assertTrue(summary.contains("  tunnel options: GRE key on (flow hash), outer source 10.200.0.0/16, " +
            "fd00:e::/96; icmp echo kernel, icmp too big send\n"), summary);
        assertTrue(summary.contains("                   encapsulated frames tagged 802.1Q VLAN 42 PCP 5\n"), summary);
        // both workers receiving from the NIC send on net_tap0: their too-big errors leave by the NIC's queues 0, 1
        assertTrue(summary.contains("  core 3   rx 0000:3b:00.0/1 -> tx net_tap0/1\n" +
            "           ICMP replies -> tx 0000:3b:00.0/1\n"), summary);
    }

    @Test
    void printsProblemAndReturnsTwoForInvalidFile(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, NodeConfigErrorsTest.with("core: 0", "core: 7"));

        final int status = run("--cores", "2", file.toString());

        assertEquals(ConfigCheck.INVALID, status);
        assertEquals("", out());
        assertEquals(file + ": forwarder.workers[0].core: core 7 does not exist (this machine has cores 0-1)\n", err());
    }

    @Test
    void printsUsageForBadArguments()
    {
        assertEquals(ConfigCheck.USAGE, run());
        assertEquals(ConfigCheck.USAGE, run("--cores", "zero", "node.yaml"));
        assertEquals(ConfigCheck.USAGE, run("a.yaml", "b.yaml"));
        assertTrue(err().startsWith("usage: ConfigCheck [--cores N] [--eal] FILE"), err());
    }

    @Test
    void refusesAConnectionTableThisMachineCannotHold(@TempDir final Path dir) throws Exception
    {
        // 2 x 2^30 entries of 64 bytes: 128 GiB, more than any machine these tests run on has available.
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, NodeConfigErrorsTest.with("    tcp_idle_timeout: 300s",
            "    tcp_idle_timeout: 300s\n    capacity: 1073741824").replace("\"--no-pci\", ",
            "\"--no-pci\", \"--no-huge\", \"-m\", \"128\", ").replace("    - core: 0\n      rx_port: net_pcap0\n",
            "    - core: 0\n      rx_port: net_pcap0\n      rx_queue: 0\n"));

        final int status = run(file.toString());

        assertEquals(ConfigCheck.INVALID, status, out());
        assertTrue(err().startsWith(file + ": forwarder.connection_table.capacity: connection tables 64.0 GiB " +
            "(1 worker(s) x 1073741824 entries x 64 bytes)"), err());
        assertTrue(err().contains("available (MemAvailable)"), err());
    }

    @Test
    void printsTheMachineItCheckedAgainst()
    {
        final int status = run("--cores", "4", NodeConfigTest.resource("full.yaml").toString());

        assertEquals(ConfigCheck.OK, status, err());
        assertTrue(out().contains("  cpus: 0-3 online, cpuset 0-3, this process's affinity 0-3\n"), out());
        assertTrue(out().contains("  memory: connection tables "), out());
        assertTrue(out().contains("(not checked: --cores)"), out());
    }

    @Test
    void refusesEalWithoutTheForwarder()
    {
        assertEquals(ConfigCheck.USAGE, run("--eal", NodeConfigTest.resource("full.yaml").toString()));
        assertTrue(err().contains("scripts/sluice check-config --eal FILE"), err());
    }

    @Test
    void acceptsAWorkerCoreOutsideTheProcessAffinity() throws ConfigException
    {
        // taskset -c 0 on a two-core machine: core 1 is the machine's, and a worker may pin there.
        final MachineCpus taskset = new MachineCpus(CpuList.parse("0-1"), CpuList.parse("0-1"), CpuList.parse("0"));
        final NodeConfig config =
            NodeConfig.parse("node.yaml", NodeConfigErrorsTest.with("core: 0", "core: 1"), taskset);
        assertEquals(1, config.forwarder().workers().get(0).core());
        assertEquals("1", ConfigCheck.outsideAffinity(config.forwarder(), taskset));
    }
}
