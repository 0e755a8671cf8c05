package io.sluice.common.config;

import io.sluice.common.Vip;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class NodeConfigTest
{
    public static Path resource(final String name)
    {
        final URL url = NodeConfigTest.class.getResource("/config/" + name);
        try
        {
            if ("file".equals(url.getProtocol()))
            {
                return Path.of(url.toURI());
            }
            // Inside common's test-jar, as other modules' tests see it under mvn verify: a copy in a file.
            final Path copy = Files.createTempFile("sluice-config-", "-" + name);
            copy.toFile().deleteOnExit();
            try (InputStream in = url.openStream())
            {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        }
        catch (final URISyntaxException | IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static InetAddress ip(final String text) throws Exception
    {
        return InetAddress.getByName(text);
    }

    @Test
    void readsEveryValueOfFullConfig() throws Exception
    {
        final NodeConfig config = NodeConfig.load(resource("full.yaml"), 4);

        assertEquals("edge-7", config.node().name());
        final ForwarderConfig forwarder = config.forwarder();
        assertEquals(List.of("-a", "0000:3b:00.0", "--file-prefix=custom", "-m", "1024", "--vdev=net_tap0,iface=sl0"),
            forwarder.ealArgs());
        assertEquals(List.of(new PortConfig("0000:3b:00.0", 9000, 4096, 2048), new PortConfig("net_tap0", 1400, 512,
            256)), forwarder.ports());
        assertEquals(List.of(
            new WorkerConfig(2, "0000:3b:00.0", 0, "net_tap0", 0),
            new WorkerConfig(3, "0000:3b:00.0", 1, "net_tap0", 1),
            new WorkerConfig(1, "net_tap0", 0, "net_tap0", 2)), forwarder.workers());
        assertEquals(16383, forwarder.mbufsPerWorker());
        assertEquals(IdleStrategyKind.BACKOFF, forwarder.idleStrategy());
        assertEquals(Path.of("/var/run/sluice-shm"), forwarder.countersDir());
        assertFalse(forwarder.ownMacAuto());
        assertEquals(0x0a1b2c3d4e5fL, forwarder.ownMac().value());
        assertEquals("0a:1b:2c:3d:4e:5f", forwarder.ownMac().text());
        assertEquals(0x02aabbccdd01L, forwarder.nextHopMac().value());
        assertEquals("02:AA:bb:cc:dd:01", forwarder.nextHopMac().text());
        assertEquals(ip("192.0.2.1"), forwarder.tunnelSourceV4());
        assertEquals(ip("2001:db8::1"), forwarder.tunnelSourceV6());
        assertEquals(0xdeadbeefcafef00dL, forwarder.hashSeed());
        assertEquals(655373, forwarder.maglevTableSize());
        assertEquals(1300, forwarder.tunnelMtu());
        assertEquals(8, forwarder.maxVips());
        assertEquals(16, forwarder.maxBackends());
        assertEquals(new ConnectionTableConfig(4096, TimeUnit.HOURS.toNanos(2), TimeUnit.SECONDS.toNanos(45),
            TimeUnit.MILLISECONDS.toNanos(250)), forwarder.connectionTable());
        assertEquals(1048576, forwarder.control().ringCapacity());

        assertEquals(2, config.vips().size());
        assertEquals(new VipConfig("api", ip("198.51.100.10"), 443, TransportProtocol.TCP, List.of(
            new BackendConfig("api-a", ip("192.0.2.10"), 100),
            new BackendConfig("api-b", ip("2001:db8::20"), 0))), config.vips().get(0));
        final HealthCheckConfig defaults = new HealthCheckConfig(HealthCheckConfig.Type.HTTP, "/healthz", 8080,
            HttpStatuses.range(200, 299), TimeUnit.SECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(1500), 3, 4, true);
        final HealthCheckConfig dns = new HealthCheckConfig(HealthCheckConfig.Type.TCP, "/healthz", 53,
            HttpStatuses.range(200, 299), TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(500), 3, 4, true);
        assertEquals(new VipConfig("[2001:db8::53]:0/udp", ip("2001:db8::53"), 0, TransportProtocol.UDP, List.of(
            new BackendConfig("2001:db8::53:1", ip("2001:db8::53:1"), 1)), dns,
            new VipRouteConfig(List.of("65000:53", "0:65535"), List.of("4200000001:1:2"), 7)), config.vips().get(1));

        assertEquals(new ControllerConfig(defaults,
            new FlapDampingConfig(6, TimeUnit.MINUTES.toNanos(2), TimeUnit.SECONDS.toNanos(20),
                TimeUnit.HOURS.toNanos(1), TimeUnit.MINUTES.toNanos(15)),
            0.25, TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(30), true,
            new MetricsConfig(ip("::"), 9200),
            new BgpConfig(4200000001L, 65000, (Inet4Address)ip("10.10.1.2"), ip("10.10.1.2"), List.of(
                BgpNeighborConfig.defaults(ip("10.10.1.1"), ip("10.10.1.2")),
                new BgpNeighborConfig(ip("10.10.1.3"), ip("10.10.1.2"), 9, null, true),
                new BgpNeighborConfig(ip("fd00:10::1"), ip("fd00:10::2"), 30, null, false)),
                50, 2, new ExaBgpConfig(true, "/usr/local/bin/exabgp"))),
            config.controller());
        assertTrue(config.controller().hasBgp());
        assertEquals(defaults, config.healthCheck(config.vips().get(0)));
        assertEquals(dns, config.healthCheck(config.vips().get(1)));
        assertEquals(8080, defaults.portFor(443));
        assertTrue(defaults.expects(299));
        assertFalse(defaults.expects(300));
    }

    @Test
    void appliesEveryDefaultToMinimalConfig() throws Exception
    {
        final NodeConfig config = NodeConfig.load(resource("minimal.yaml"), 1);

        assertEquals("lb1", config.node().name());
        final ForwarderConfig forwarder = config.forwarder();
        assertEquals(List.of("--vdev=net_pcap0"), forwarder.ealArgs());
        assertEquals(List.of(new PortConfig("net_pcap0", 1500, 1024, 1024)), forwarder.ports());
        assertEquals(List.of(new WorkerConfig(0, "net_pcap0", 0, "net_pcap0", 0)), forwarder.workers());
        assertEquals(8191, forwarder.mbufsPerWorker());
        assertEquals(IdleStrategyKind.BUSY_SPIN, forwarder.idleStrategy());
        assertEquals(Path.of("/dev/shm/sluice"), forwarder.countersDir());
        assertTrue(forwarder.ownMacAuto());
        assertNull(forwarder.ownMac());
        assertEquals(0x0200000000feL, forwarder.nextHopMac().value());
        assertEquals(ip("10.0.0.1"), forwarder.tunnelSourceV4());
        assertNull(forwarder.tunnelSourceV6());
        assertEquals(0, forwarder.hashSeed());
        assertEquals(65537, forwarder.maglevTableSize());
        // the default: the transmit port's MTU (1500 by default), never more than it can send
        assertEquals(1500, forwarder.tunnelMtu());
        assertEquals(256, forwarder.maxVips());
        assertEquals(4096, forwarder.maxBackends());
        assertEquals(new ConnectionTableConfig(1 << 20, TimeUnit.SECONDS.toNanos(300), TimeUnit.SECONDS.toNanos(60),
            TimeUnit.SECONDS.toNanos(30)), forwarder.connectionTable());
        assertEquals(65536, forwarder.control().ringCapacity());
        assertEquals(new IcmpEchoConfig(true, 1000, 50), forwarder.icmpEcho());
        assertEquals(new IcmpTooBigConfig(true, 1000, 50), forwarder.icmpTooBig());
        assertEquals(List.of(), config.vips());
        assertEquals(ControllerConfig.defaults(), config.controller());
        assertFalse(config.controller().hasBgp());
        assertEquals(new HealthCheckConfig(HealthCheckConfig.Type.TCP, "/", 0, HttpStatuses.range(200, 399),
            TimeUnit.SECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(1), 2, 3, false), config.controller().healthChecks());
        assertEquals(new FlapDampingConfig(4, TimeUnit.SECONDS.toNanos(60), TimeUnit.SECONDS.toNanos(30),
            TimeUnit.MINUTES.toNanos(10), TimeUnit.MINUTES.toNanos(5)), config.controller().flapDamping());
        assertEquals(0.0, config.controller().failOpenShare());
        assertEquals(TimeUnit.SECONDS.toNanos(3), config.controller().forwarderLivenessTimeoutNs());
        assertEquals(TimeUnit.SECONDS.toNanos(10), config.controller().drainTimeNs());
        assertFalse(config.controller().announceRegardless());
        assertEquals(new MetricsConfig(ip("127.0.0.1"), 9100), config.controller().metrics());
        assertNull(config.controller().bgp());
    }

    @Test
    void loadsTheDocumentedExample() throws Exception
    {
        final NodeConfig config = NodeConfig.load(Path.of("../docs/config.example.yaml"), 2);

        assertEquals("lb1", config.node().name());
        assertEquals(3, config.vips().size());
        assertEquals("10.100.0.2:53/udp", config.vips().get(1).name());
        assertEquals(2, config.vips().get(0).activeBackendCount());
        assertEquals(new Vip(ip("10.100.0.2"), 53, Vip.UDP), config.vips().get(1).vip());
    }

    @Test
    void addsFilePrefixToEalArgvUnlessConfigured() throws Exception
    {
        final NodeConfig minimal = NodeConfig.load(resource("minimal.yaml"), 1);
        final NodeConfig full = NodeConfig.load(resource("full.yaml"), 4);

        assertEquals(List.of("sluice-forwarder", "--file-prefix=sluice-lb1", "--vdev=net_pcap0"),
            minimal.ealArgv("sluice-forwarder"));
        assertEquals(List.of("fwd", "-a", "0000:3b:00.0", "--file-prefix=custom", "-m", "1024",
            "--vdev=net_tap0,iface=sl0"), full.ealArgv("fwd"));
        assertEquals(Path.of("/dev/shm/sluice/lb1"), minimal.nodeDirectory());
    }

    @Test
    void keepsLastingStateApartFromSharedMemory() throws Exception
    {
        final NodeConfig minimal = NodeConfig.load(resource("minimal.yaml"), 1);
        final NodeConfig custom = NodeConfig.parse("node.yaml",
            Files.readString(resource("minimal.yaml")).replace("name: lb1", "name: lb1\n  state_dir: /srv/sluice/../state"),
            1);

        assertEquals(Path.of("/var/lib/sluice/lb1"), minimal.stateDirectory());
        assertEquals(Path.of("/srv/state/lb1"), custom.stateDirectory());
        assertEquals(Path.of("/dev/shm/sluice/lb1"), custom.nodeDirectory());
    }

    @Test
    void countsQueuesPerPort() throws Exception
    {
        final ForwarderConfig forwarder = NodeConfig.load(resource("full.yaml"), 4).forwarder();

        assertEquals(2, forwarder.rxQueueCount("0000:3b:00.0"));
        // The two workers receiving from the NIC transmit on net_tap0: each has a queue of its own on the NIC for
        // the ICMP replies (on by default) that go back out of it.
        assertEquals(2, forwarder.txQueueCount("0000:3b:00.0"));
        assertEquals(0, forwarder.returnQueue(0, "0000:3b:00.0"));
        assertEquals(1, forwarder.returnQueue(1, "0000:3b:00.0"));
        assertEquals(2, forwarder.returnQueue(2, "net_tap0"));
        assertEquals(1, forwarder.rxQueueCount("net_tap0"));
        assertEquals(3, forwarder.txQueueCount("net_tap0"));
        assertEquals(512, forwarder.port("net_tap0").rxRing());
        assertNull(forwarder.port("eth9"));
    }

    @Test
    void returnsImmutableCollections() throws Exception
    {
        final NodeConfig config = NodeConfig.load(resource("full.yaml"), 4);

        assertThrows(UnsupportedOperationException.class, () -> config.vips().clear());
        assertThrows(UnsupportedOperationException.class, () -> config.forwarder().workers().clear());
        assertThrows(UnsupportedOperationException.class, () -> config.vips().get(0).backends().clear());
        assertThrows(UnsupportedOperationException.class, () -> config.controller().bgp().neighbors().clear());
    }

    @Test
    void readsUnsignedHexAndSignedDecimalSeeds() throws Exception
    {
        assertEquals(-1L, seed("0xffffffffffffffff"));
        assertEquals(-5L, seed("-5"));
        assertEquals(Long.MAX_VALUE, seed("9223372036854775807"));
        assertEquals(0x1234L, seed("0x1234"));
    }

    @Test
    void readsYaml12Scalars() throws Exception
    {
        // YAML 1.1 would read "on" as true; the reader keeps it a string and says what it expected.
        final ConfigException ex = assertThrows(ConfigException.class, () -> NodeConfig.parse("node.yaml",
            NodeConfigErrorsTest.with("idle_strategy: busy-spin", "idle_strategy: on"), 2));
        assertEquals("forwarder.idle_strategy", ex.field());
        assertTrue(ex.reason().contains("got \"on\""), ex.reason());
    }

    @Test
    void acceptsAnchorsAndMergeKeys() throws Exception
    {
        final String yaml = NodeConfigErrorsTest.with(
            "    backends:\n      - address: 10.1.0.1\n",
            "    backends: &pool\n      - address: 10.1.0.1\n" +
            "  - <<: {port: 81, protocol: tcp}\n    address: 10.100.0.1\n    backends: *pool\n");
        final NodeConfig config = NodeConfig.parse("node.yaml", yaml, 2);

        assertEquals(2, config.vips().size());
        assertEquals(81, config.vips().get(1).port());
        assertEquals(config.vips().get(0).backends(), config.vips().get(1).backends());
    }

    private static long seed(final String text) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", NodeConfigErrorsTest.with("hash_seed: 0", "hash_seed: " + text), 2)
            .forwarder().hashSeed();
    }
}
