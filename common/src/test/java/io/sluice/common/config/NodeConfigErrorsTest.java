package io.sluice.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per kind of mistake: each asserts the exact field path and part of the reason.
 */
public class NodeConfigErrorsTest
{
    static final String BASE = """
        node:
          name: lb1
        forwarder:
          eal_args: ["--no-pci", "--vdev=net_pcap0", "--vdev=net_tap0,iface=sl0"]
          ports:
            - name: net_pcap0
              rx_ring: 1024
          workers:
            - core: 0
              rx_port: net_pcap0
          idle_strategy: busy-spin
          next_hop_mac: "02:00:00:00:00:fe"
          tunnel_source_v4: 10.0.0.1
          hash_seed: 0
          maglev_table_size: 65537
          connection_table:
            tcp_idle_timeout: 300s
        vips:
          - name: web
            address: 10.100.0.1
            port: 80
            protocol: tcp
            backends:
              - address: 10.1.0.1
        """;

    /** Returns the base config with one piece of text replaced; fails if the piece is not there exactly once. */
    public static String with(final String original, final String replacement)
    {
        final int at = BASE.indexOf(original);
        if (at < 0 || BASE.indexOf(original, at + 1) >= 0)
        {
            throw new IllegalArgumentException("not exactly once in BASE: " + original);
        }
        return BASE.substring(0, at) + replacement + BASE.substring(at + original.length());
    }

    private static ConfigException fails(final String yaml, final String field, final String reasonPart)
    {
        final ConfigException ex =
            assertThrows(ConfigException.class, () -> NodeConfig.parse("node.yaml", yaml, 2));
        assertEquals(field, ex.field(), ex.getMessage());
        assertTrue(ex.reason().contains(reasonPart), "reason \"" + ex.reason() + "\" lacks \"" + reasonPart + "\"");
        assertEquals("node.yaml", ex.file());
        assertEquals(field.isEmpty() ? "node.yaml: " + ex.reason() : "node.yaml: " + field + ": " + ex.reason(),
            ex.getMessage());
        return ex;
    }

    private static final String WORKER = "    - core: 0\n      rx_port: net_pcap0\n";
    private static final String BACKEND = "      - address: 10.1.0.1\n";

    @Test
    void baseConfigIsValid() throws ConfigException
    {
        assertEquals("lb1", NodeConfig.parse("node.yaml", BASE, 2).node().name());
    }

    private static final String PORT = "    - name: net_pcap0\n      rx_ring: 1024\n";

    @Test
    void readsAKernelPortAndSizesItsQueuesLikeItsDataPort() throws ConfigException
    {
        final ForwarderConfig forwarder = NodeConfig.parse("node.yaml", with(PORT,
            "    - name: net_pcap0\n      rx_ring: 1024\n      kernel_port: net_tap0\n    - name: net_tap0\n"), 2)
            .forwarder();
        assertEquals("net_tap0", forwarder.kernelPortOf("net_pcap0"));
        assertEquals("net_pcap0", forwarder.servedBy("net_tap0"));
        assertEquals(1, forwarder.rxQueueCount("net_tap0"));
        assertEquals(1, forwarder.txQueueCount("net_tap0"));
    }

    @Test
    void rejectsAKernelPortThatIsNotAPort()
    {
        fails(with(PORT, "    - name: net_pcap0\n      kernel_port: net_tap0\n"), "forwarder.ports[0].kernel_port",
            "no port named \"net_tap0\"");
    }

    @Test
    void rejectsAKernelPortAWorkerUses()
    {
        final String ports = with(PORT, "    - name: net_pcap0\n      kernel_port: net_tap0\n    - name: net_tap0\n");
        final String yaml = ports.replace(WORKER, "    - core: 0\n      rx_port: net_pcap0\n      tx_port: net_tap0\n");
        fails(yaml, "forwarder.ports[0].kernel_port", "is a worker's rx_port or tx_port");
    }

    @Test
    void rejectsAPortThatIsItsOwnKernelPort()
    {
        fails(with(PORT, "    - name: net_pcap0\n      kernel_port: net_pcap0\n"), "forwarder.ports[0].kernel_port",
            "its own kernel port");
    }

    @Test
    void readsIcmpEchoAndRejectsABadMode() throws ConfigException
    {
        final String kernel = with("  connection_table:\n",
            "  icmp_echo: {mode: kernel, rate: 20, burst: 5}\n  connection_table:\n");
        assertEquals(new IcmpEchoConfig(false, 20, 5), NodeConfig.parse("node.yaml", kernel, 2).forwarder().icmpEcho());
        fails(with("  connection_table:\n", "  icmp_echo: {mode: answer}\n  connection_table:\n"),
            "forwarder.icmp_echo.mode", "expected reply or kernel");
        fails(with("  connection_table:\n", "  icmp_echo: {rate: 0}\n  connection_table:\n"),
            "forwarder.icmp_echo.rate", "");
    }

    @Test
    void rejectsUnknownTopLevelKey()
    {
        fails(BASE + "vip: []\n", "vip", "unknown key (expected one of: node, forwarder, vips, controller)");
    }

    @Test
    void rejectsUnknownNestedKey()
    {
        fails(with(WORKER, "    - cpu: 0\n      rx_port: net_pcap0\n"), "forwarder.workers[0].cpu", "unknown key");
    }

    @Test
    void rejectsMissingRequiredField()
    {
        fails(with("  next_hop_mac: \"02:00:00:00:00:fe\"\n", ""), "forwarder.next_hop_mac", "required key is missing");
        fails(with("  name: lb1\n", "  name:\n"), "node.name", "required key is missing");
    }

    @Test
    void rejectsDuplicateKey()
    {
        fails(with("      rx_ring: 1024\n", "      rx_ring: 1024\n      rx_ring: 512\n"), "forwarder.ports[0].rx_ring",
            "duplicate key (first at line 7, again at line 8)");
        fails(BASE + "node: {name: lb2}\n", "node", "duplicate key");
    }

    @Test
    void rejectsStringWhereIntegerBelongs()
    {
        fails(with("      rx_ring: 1024\n", "      mtu: \"1500\"\n"), "forwarder.ports[0].mtu",
            "expected an integer, got string \"1500\"");
    }

    @Test
    void rejectsIntegerWithLeadingZero()
    {
        fails(with("      rx_ring: 1024\n", "      mtu: 01500\n"), "forwarder.ports[0].mtu", "without leading zeros");
    }

    @Test
    void rejectsNonPrimeTableSizeNamingNearestPrimes()
    {
        final ConfigException ex = fails(with("maglev_table_size: 65537", "maglev_table_size: 65536"),
            "forwarder.maglev_table_size", "must be prime");
        assertTrue(ex.reason().contains("65521, 65537"), ex.reason());
    }

    @Test
    void rejectsTableSizeAboveTheLimit()
    {
        // 16777259 is prime: the bound, not primality, refuses it.
        fails(with("maglev_table_size: 65537", "maglev_table_size: 16777259"), "forwarder.maglev_table_size",
            "must be at most 16777213");
    }

    @Test
    void rejectsBadIpv4()
    {
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v4: 10.0.0.256"), "forwarder.tunnel_source_v4",
            "\"10.0.0.256\" is not an IPv4 address");
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v4: fd00::1"), "forwarder.tunnel_source_v4",
            "is an IPv6 address, expected IPv4");
    }

    @Test
    void rejectsBadIpv6()
    {
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v6: fd00::1::2"), "forwarder.tunnel_source_v6",
            "\"fd00::1::2\" is not an IPv6 address");
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v6: 10.0.0.1"), "forwarder.tunnel_source_v6",
            "is an IPv4 address, expected IPv6");
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v6: \"::ffff:10.0.0.1\""),
            "forwarder.tunnel_source_v6", "IPv4-mapped");
    }

    @Test
    void rejectsHostNameInsteadOfLiteral()
    {
        fails(with(BACKEND, "      - address: backend1.example.com\n"), "vips[0].backends[0].address",
            "host names are never resolved");
    }

    @Test
    void rejectsMulticastAndUnspecifiedAddresses()
    {
        fails(with("address: 10.100.0.1", "address: 224.0.0.1"), "vips[0].address", "multicast");
        fails(with(BACKEND, "      - address: \"::\"\n"), "vips[0].backends[0].address", "unspecified");
    }

    @Test
    void rejectsBadMac()
    {
        fails(with("next_hop_mac: \"02:00:00:00:00:fe\"", "next_hop_mac: \"02:00:00:00:fe\""),
            "forwarder.next_hop_mac", "is not a MAC address");
        fails(with("idle_strategy: busy-spin", "own_mac: 02-00-00-00-00-01"), "forwarder.own_mac",
            "is not a MAC address");
    }

    @Test
    void rejectsMulticastNextHopMac()
    {
        fails(with("next_hop_mac: \"02:00:00:00:00:fe\"", "next_hop_mac: \"01:00:5e:00:00:01\""),
            "forwarder.next_hop_mac", "multicast MAC");
        fails(with("next_hop_mac: \"02:00:00:00:00:fe\"", "next_hop_mac: \"ff:ff:ff:ff:ff:ff\""),
            "forwarder.next_hop_mac", "multicast MAC");
    }

    @Test
    void rejectsMoreWorkersThanCores()
    {
        fails(with(WORKER, WORKER + WORKER + WORKER), "forwarder.workers",
            "3 workers but this machine has cores 0-1");
    }

    @Test
    void rejectsCoreThatDoesNotExist()
    {
        final ConfigException ex = fails(with(WORKER, WORKER + "    - core: 7\n      rx_port: net_pcap0\n"),
            "forwarder.workers[1].core", "core 7 does not exist");
        assertEquals("node.yaml: forwarder.workers[1].core: core 7 does not exist (this machine has cores 0-1)",
            ex.getMessage());
    }

    @Test
    void rejectsDuplicateCore()
    {
        fails(with(WORKER, WORKER + WORKER), "forwarder.workers[1].core",
            "core 0 is already used by forwarder.workers[0]");
    }

    @Test
    void rejectsUnknownRxPort()
    {
        fails(with(WORKER, "    - core: 0\n      rx_port: eth0\n"), "forwarder.workers[0].rx_port",
            "no port named \"eth0\" (configured ports: net_pcap0)");
        fails(with(WORKER, WORKER.replace("rx_port: net_pcap0", "rx_port: net_pcap0\n      tx_port: eth1")),
            "forwarder.workers[0].tx_port", "no port named \"eth1\"");
    }

    @Test
    void rejectsTwoWorkersOnOneReceiveQueue()
    {
        fails(with(WORKER, "    - core: 0\n      rx_port: net_pcap0\n      rx_queue: 1\n" +
            "    - core: 1\n      rx_port: net_pcap0\n      tx_queue: 0\n"), "forwarder.workers[1].rx_queue",
            "receive queue 1 of port net_pcap0 is already polled by forwarder.workers[0]");
    }

    @Test
    void rejectsTwoWorkersOnOneTransmitQueue()
    {
        fails(with(WORKER, WORKER + "    - core: 1\n      rx_port: net_pcap0\n      tx_queue: 0\n"),
            "forwarder.workers[1].tx_queue", "transmit queue 0 of port net_pcap0 is already used");
    }

    @Test
    void rejectsGapInReceiveQueues()
    {
        fails(with(WORKER, "    - core: 0\n      rx_port: net_pcap0\n      rx_queue: 1\n"),
            "forwarder.workers[0].rx_queue", "no worker polls queue 0");
    }

    @Test
    void rejectsDuplicateVip()
    {
        fails(BASE + "  - {address: 10.100.0.1, port: 80, protocol: tcp}\n", "vips[1]",
            "duplicate VIP 10.100.0.1:80/tcp (also vips[0])");
        fails(BASE + "  - {name: web, address: 10.100.0.1, port: 81, protocol: tcp}\n", "vips[1].name",
            "duplicate VIP name \"web\"");
    }

    @Test
    void rejectsDuplicateBackendAddress()
    {
        fails(BASE + "      - address: 10.1.0.1\n        name: other\n", "vips[0].backends[1].address",
            "duplicate backend address 10.1.0.1 (also vips[0].backends[0])");
    }

    @Test
    void rejectsIpv6BackendWithoutIpv6TunnelSource()
    {
        fails(BASE + "      - address: fd00::5\n", "vips[0].backends[1].address",
            "IPv6 backend fd00::5 needs forwarder.tunnel_source_v6");
    }

    @Test
    void rejectsIpv4BackendWithoutIpv4TunnelSource()
    {
        fails(with("tunnel_source_v4: 10.0.0.1", "tunnel_source_v6: fd00::1"), "vips[0].backends[0].address",
            "IPv4 backend 10.1.0.1 needs forwarder.tunnel_source_v4");
    }

    @Test
    void rejectsConfigWithoutTunnelSource()
    {
        fails(with("  tunnel_source_v4: 10.0.0.1\n", ""), "forwarder.tunnel_source_v4",
            "set tunnel_source_v4, tunnel_source_v6 or both");
    }

    @Test
    void rejectsBadDuration()
    {
        fails(with("tcp_idle_timeout: 300s", "tcp_idle_timeout: 5 minutes"),
            "forwarder.connection_table.tcp_idle_timeout", "\"5 minutes\" is not a duration");
        fails(with("tcp_idle_timeout: 300s", "tcp_idle_timeout: 0s"),
            "forwarder.connection_table.tcp_idle_timeout", "must be longer than zero");
    }

    @Test
    void rejectsWeightOutOfRange()
    {
        fails(with(BACKEND, BACKEND + "        weight: 70000\n"), "vips[0].backends[0].weight",
            "must be 0..65535, got 70000");
    }

    @Test
    void rejectsRingSizeThatIsNotPowerOfTwo()
    {
        fails(with("rx_ring: 1024", "rx_ring: 1000"), "forwarder.ports[0].rx_ring",
            "must be a power of two from 64 to 16384, got 1000 (nearest: 512, 1024)");
    }

    @Test
    void rejectsEmptyFile()
    {
        fails("", "", "the file is empty");
        fails("# nothing but a comment\n", "", "the file is empty");
    }

    @Test
    void rejectsTopLevelThatIsNotMapping()
    {
        fails("- node\n- forwarder\n", "", "the top level must be a mapping with the keys node, forwarder, vips and " +
            "controller; got a list");
    }

    @Test
    void rejectsSyntaxErrorWithLine()
    {
        fails("node: {name: lb1\n", "", "line 2");
        fails(BASE + "---\nnode: {}\n", "", "expected a single document");
    }

    @Test
    void rejectsControllerThatIsNotMapping()
    {
        fails(BASE + "controller: [health]\n", "controller", "expected a mapping");
    }

    @Test
    void rejectsBadNodeName()
    {
        fails(with("name: lb1", "name: LB_1"), "node.name", "\"LB_1\" is not a node name");
    }

    @Test
    void rejectsMoreVipsThanMaxVips()
    {
        fails(with("maglev_table_size: 65537", "max_vips: 1") + "  - {address: 10.100.0.2, port: 80, protocol: tcp}\n",
            "vips", "2 VIPs exceed forwarder.max_vips (1)");
    }

    @Test
    void rejectsMoreBackendsThanMaxBackends()
    {
        fails(with("maglev_table_size: 65537", "max_backends: 1") + "      - address: 10.1.0.2\n", "vips",
            "2 backends in all VIPs exceed forwarder.max_backends (1)");
    }

    @Test
    void rejectsPoolSmallerThanRings()
    {
        fails(with("maglev_table_size: 65537", "mbufs_per_worker: 1023"), "forwarder.mbufs_per_worker",
            "use at least 2048");
    }

    @Test
    void rejectsRelativeCountersDir()
    {
        fails(with("maglev_table_size: 65537", "counters_dir: shm"), "forwarder.counters_dir", "absolute path");
    }

    @Test
    void rejectsRelativeStateDir()
    {
        fails(with("  name: lb1", "  name: lb1\n  state_dir: var/lib/sluice"), "node.state_dir", "absolute path");
        fails(with("  name: lb1", "  name: lb1\n  state_dir: [a]"), "node.state_dir", "expected a string");
    }

    @Test
    void rejectsUnknownEnumValues()
    {
        fails(with("idle_strategy: busy-spin", "idle_strategy: sleep"), "forwarder.idle_strategy",
            "expected busy-spin, backoff or yield");
        fails(with("protocol: tcp", "protocol: sctp"), "vips[0].protocol", "expected tcp or udp");
    }

    @Test
    void rejectsNumberInEalArgs()
    {
        fails(with("eal_args: [\"--no-pci\",", "eal_args: [\"-m\", 256,"), "forwarder.eal_args[1]",
            "expected a string, got integer 256 (quote it: \"256\")");
    }

    @Test
    void rejectsHashSeedBeyond64Bits()
    {
        fails(with("hash_seed: 0", "hash_seed: 0x10000000000000000"), "forwarder.hash_seed", "must fit 64 bits");
    }

    @Test
    void rejectsEmptyLists()
    {
        fails(with("  ports:\n    - name: net_pcap0\n      rx_ring: 1024\n", "  ports: []\n"), "forwarder.ports",
            "needs at least 1 entry");
    }

    @Test
    void namesTheFileAsGiven(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, with("core: 0", "core: 5"));

        final ConfigException ex = assertThrows(ConfigException.class, () -> NodeConfig.load(file, 2));

        assertEquals(file.toString(), ex.file());
        assertTrue(ex.getMessage().startsWith(file + ": forwarder.workers[0].core: core 5 does not exist"));
        final ConfigException missing =
            assertThrows(ConfigException.class, () -> NodeConfig.load(dir.resolve("absent.yaml"), 2));
        assertEquals("no such file", missing.reason());
    }

    @Test
    void refusesAPortThatNoVdevCreates()
    {
        fails(with(PORT, "    - name: net_pcap7\n      rx_ring: 1024\n"), "forwarder.ports[0].name",
            "no --vdev in forwarder.eal_args creates \"net_pcap7\" (it creates net_pcap0, net_tap0)");
        fails(with("\"--vdev=net_pcap0\", ", "").replace("rx_port: net_pcap0", "rx_port: net_pcap0"),
            "forwarder.ports[0].name", "no --vdev in forwarder.eal_args creates \"net_pcap0\"");
    }

    @Test
    void refusesAPciPortThatEalDoesNotProbe()
    {
        final String pci = with(PORT, "    - name: \"0000:3b:00.0\"\n").replace("rx_port: net_pcap0",
            "rx_port: \"0000:3b:00.0\"");
        fails(pci, "forwarder.ports[0].name", "eal_args has --no-pci");
        fails(pci.replace("\"--no-pci\", ", "\"-a\", \"0000:3b:00.1\", "), "forwarder.ports[0].name",
            "eal_args allows only 0000:3b:00.1 (-a): add -a 0000:3b:00.0");
        fails(pci.replace("\"--no-pci\", ", "\"-b\", \"3b:00.0\", "), "forwarder.ports[0].name",
            "eal_args blocks it");
        fails(with(PORT, "    - name: \"3b:00.0\"\n").replace("rx_port: net_pcap0", "rx_port: \"3b:00.0\""),
            "forwarder.ports[0].name", "write \"0000:3b:00.0\"");
    }

    @Test
    void acceptsAPciPortThatEalProbes() throws ConfigException
    {
        final String pci = with(PORT, "    - name: \"0000:3b:00.0\"\n").replace("rx_port: net_pcap0",
            "rx_port: \"0000:3b:00.0\"");
        assertEquals("0000:3b:00.0", NodeConfig.parse("node.yaml", pci.replace("\"--no-pci\", ", ""), 2)
            .forwarder().ports().get(0).name());
        assertEquals("0000:3b:00.0", NodeConfig.parse("node.yaml", pci.replace("\"--no-pci\", ",
            "\"-a\", \"3b:00.0,rx_low_latency=1\", "), 2).forwarder().ports().get(0).name());
    }

    @Test
    void refusesCapacitiesTheSharedFilesCannotHold()
    {
        fails(with("maglev_table_size: 65537", "maglev_table_size: 65537\n  max_backends: 1048576"),
            "forwarder.max_backends", "more than the counters file holds (2097152");
        fails(with("maglev_table_size: 65537", "maglev_table_size: 65537\n  max_backends: 524289"),
            "forwarder.max_backends", "more than its largest, 268435456: use at most 524288");
        fails(with("maglev_table_size: 65537", "maglev_table_size: 65537\n  control: {ring_capacity: 536870912}"),
            "forwarder.control.ring_capacity", "must be a power of two from 4096 to 268435456");
    }

    @Test
    void refusesAWorkerCoreOutsideTheCpuset()
    {
        final MachineCpus cpuset = new MachineCpus(CpuList.parse("0-3"), CpuList.parse("0-1"), CpuList.parse("0"));
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> NodeConfig.parse("node.yaml", with("core: 0", "core: 2"), cpuset));
        assertEquals("forwarder.workers[0].core", ex.field());
        assertEquals("core 2 is online but outside this process's cpuset (cores 0-1 of the machine's 0-3): pinning " +
            "a worker there fails; widen the cgroup's cpuset or pick a core in it", ex.reason());
        final ConfigException offline = assertThrows(ConfigException.class,
            () -> NodeConfig.parse("node.yaml", with("core: 0", "core: 4"), cpuset));
        assertEquals("core 4 does not exist (this machine has cores 0-3)", offline.reason());
    }

    @Test
    void refusesATunnelMtuLargerThanTheTransmitPortsMtu()
    {
        final ConfigException ex = fails(with("  maglev_table_size: 65537\n", "  maglev_table_size: 65537\n" +
            "  tunnel_mtu: 9000\n"), "forwarder.tunnel_mtu", "larger than forwarder.ports[0].mtu = 1500");
        assertTrue(ex.getMessage().contains("node.yaml"), ex.getMessage());
        fails(with("      rx_ring: 1024\n", "      rx_ring: 1024\n      mtu: 1400\n").replace(
            "  maglev_table_size: 65537\n", "  maglev_table_size: 65537\n  tunnel_mtu: 1500\n"),
            "forwarder.tunnel_mtu", "tunnel_mtu 1500 is larger than forwarder.ports[0].mtu = 1400");
    }

    @Test
    void takesTheTunnelMtuFromTheTransmitPortAndAcceptsItOrLess() throws ConfigException
    {
        assertEquals(9000, NodeConfig.parse("node.yaml", with("      rx_ring: 1024\n",
            "      rx_ring: 1024\n      mtu: 9000\n"), 2).forwarder().tunnelMtu());
        assertEquals(1400, NodeConfig.parse("node.yaml", with("  maglev_table_size: 65537\n",
            "  maglev_table_size: 65537\n  tunnel_mtu: 1400\n"), 2).forwarder().tunnelMtu());
        fails(with("      rx_ring: 1024\n", "      rx_ring: 1024\n      mtu: 500\n"), "forwarder.tunnel_mtu",
            "below the tunnel's minimum of 576");
    }

    @Test
    void readsIcmpTooBigModes() throws ConfigException
    {
        final String drop = with("  maglev_table_size: 65537\n",
            "  maglev_table_size: 65537\n  icmp_too_big: {mode: drop, rate: 20, burst: 5}\n");
        assertEquals(new IcmpTooBigConfig(false, 20, 5), NodeConfig.parse("node.yaml", drop,
            2).forwarder().icmpTooBig());
        fails(with("  maglev_table_size: 65537\n", "  maglev_table_size: 65537\n  icmp_too_big: {mode: reply}\n"),
            "forwarder.icmp_too_big.mode", "expected send or drop");
    }
}
