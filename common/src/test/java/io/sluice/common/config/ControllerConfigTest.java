package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code controller} section and the VIPs' {@code health_check}: values, defaults, and one test per mistake with
 * the exact field path and part of the reason.
 */
class ControllerConfigTest
{
    private static final String BASE = NodeConfigErrorsTest.BASE;

    private static final String BGP = """
          bgp:
            local_as: 65001
            peer_as: 65000
            router_id: 10.10.1.2
            local_address: 10.10.1.2
            neighbors: [10.10.1.1]
        """;

    private static NodeConfig parse(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2);
    }

    private static void fails(final String yaml, final String field, final String reasonPart)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> parse(yaml));
        assertEquals(field, ex.field(), ex.getMessage());
        assertTrue(ex.reason().contains(reasonPart), "reason \"" + ex.reason() + "\" lacks \"" + reasonPart + "\"");
        assertEquals("node.yaml: " + field + ": " + ex.reason(), ex.getMessage());
    }

    private static String controller(final String body)
    {
        return BASE + "controller:\n" + body.indent(2);
    }

    private static String bgpWith(final String original, final String replacement)
    {
        if (!BGP.contains(original))
        {
            throw new IllegalArgumentException("not in BGP: " + original);
        }
        return BASE + "controller:\n" + BGP.replace(original, replacement);
    }

    @Test
    void readsFullSection() throws Exception
    {
        final NodeConfig config = parse(controller("""
            health_checks:
              type: http
              path: /healthz
              port: 8080
              expect_status: [200, 399]
              interval: 2s
              timeout: 1s
              rise: 2
              fall: 3
              start_up: false
            flap_damping: {max_changes: 4, window: 60s, hold_down: 30s, max_hold_down: 10m}
            fail_open_share: 0.5
            forwarder_liveness_timeout: 3s
            drain_time: 10s
            announce_regardless: false
            metrics: {address: 127.0.0.1, port: 9100}
            """) + BGP + "    exabgp: {external: false, command: exabgp}\n");

        final ControllerConfig controller = config.controller();
        assertEquals(new HealthCheckConfig(HealthCheckConfig.Type.HTTP, "/healthz", 8080,
            HttpStatuses.range(200, 399), TimeUnit.SECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(1), 2, 3, false),
            controller.healthChecks());
        assertEquals(FlapDampingConfig.defaults(), controller.flapDamping());
        assertEquals(0.5, controller.failOpenShare());
        assertEquals(new MetricsConfig(InetAddress.getByName("127.0.0.1"), 9100), controller.metrics());
        final BgpConfig bgp = controller.bgp();
        assertEquals(65001, bgp.localAs());
        assertEquals(65000, bgp.peerAs());
        assertEquals(InetAddress.getByName("10.10.1.2"), bgp.routerId());
        assertEquals(InetAddress.getByName("10.10.1.2"), bgp.localAddress());
        assertEquals(List.of(InetAddress.getByName("10.10.1.1")), bgp.neighbors());
        assertEquals(ExaBgpConfig.defaults(), bgp.exabgp());
        assertNull(config.vips().get(0).healthCheck());
        assertEquals(controller.healthChecks(), config.healthCheck(config.vips().get(0)));
    }

    @Test
    void appliesDefaults() throws Exception
    {
        assertEquals(ControllerConfig.defaults(), parse(BASE).controller());
        assertEquals(ControllerConfig.defaults(), parse(BASE + "controller:\n").controller());
        assertEquals(ControllerConfig.defaults(), parse(BASE + "controller: {}\n").controller());
        final ControllerConfig withBgp = parse(BASE + "controller:\n" + BGP).controller();
        assertEquals(ExaBgpConfig.defaults(), withBgp.bgp().exabgp());
        assertEquals(HealthCheckConfig.defaults(), withBgp.healthChecks());
        assertEquals(80, withBgp.healthChecks().portFor(80));
        assertEquals(4294967295L, parse(bgpWith("local_as: 65001", "local_as: 4294967295")).controller().bgp()
            .localAs());
    }

    @Test
    void mergesVipHealthCheckOverDefaults() throws Exception
    {
        final String yaml = NodeConfigErrorsTest.with("    protocol: tcp\n",
            "    protocol: tcp\n    health_check: {port: 8081, rise: 5}\n") +
            "controller:\n  health_checks: {type: http, path: /ok, interval: 10s, timeout: 2s}\n";
        final NodeConfig config = parse(yaml);

        assertEquals(new HealthCheckConfig(HealthCheckConfig.Type.HTTP, "/ok", 8081, HttpStatuses.range(200, 399),
            TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(2), 5, 3, false),
            config.vips().get(0).healthCheck());
    }

    @Test
    void acceptsAllPortsVipWithHealthCheckPort() throws Exception
    {
        final String allPorts = NodeConfigErrorsTest.with("port: 80", "port: 0");
        assertEquals(8080, parse(allPorts + "controller: {health_checks: {port: 8080}}\n").healthCheck(
            parse(allPorts + "controller: {health_checks: {port: 8080}}\n").vips().get(0)).portFor(0));
        assertEquals(9000, parse(NodeConfigErrorsTest.with("port: 80", "port: 0\n    health_check: {port: 9000}"))
            .vips().get(0).healthCheck().port());
    }

    @Test
    void rejectsUnknownKeys()
    {
        fails(controller("health: {}"), "controller.health", "unknown key (expected one of: health_checks,");
        fails(bgpWith("peer_as: 65000", "peer_ass: 65000"), "controller.bgp.peer_ass", "unknown key");
        fails(controller("health_checks: {intervall: 2s}"), "controller.health_checks.intervall", "unknown key");
        fails(controller("flap_damping: {hold: 1s}"), "controller.flap_damping.hold", "unknown key");
        fails(NodeConfigErrorsTest.with("port: 80", "port: 80\n    health_check: {typ: tcp}"),
            "vips[0].health_check.typ", "unknown key");
    }

    @Test
    void rejectsBadAsNumbers()
    {
        fails(bgpWith("local_as: 65001", "local_as: 0"), "controller.bgp.local_as", "bad AS number");
        fails(bgpWith("local_as: 65001", "local_as: 4294967296"), "controller.bgp.local_as", "bad AS number");
        fails(bgpWith("local_as: 65001", "local_as: abc"), "controller.bgp.local_as", "bad AS number");
        fails(bgpWith("peer_as: 65000", "peer_as: -1"), "controller.bgp.peer_as", "bad AS number");
        fails(bgpWith("peer_as: 65000", "peer_as: 99999999999999999999"), "controller.bgp.peer_as", "bad AS number");
        fails(bgpWith("    peer_as: 65000\n", ""), "controller.bgp.peer_as", "required key is missing");
    }

    @Test
    void rejectsTimeoutNotShorterThanInterval()
    {
        fails(controller("health_checks: {interval: 2s, timeout: 2s}"), "controller.health_checks.timeout",
            "timeout 2s must be shorter than interval 2s");
        fails(controller("health_checks: {interval: 1s, timeout: 1500ms}"), "controller.health_checks.timeout",
            "timeout 1500ms must be shorter than interval 1s");
        fails(controller("health_checks: {interval: 1s}"), "controller.health_checks.interval",
            "timeout 1s must be shorter than interval 1s");
    }

    @Test
    void rejectsMissingRouterId()
    {
        fails(bgpWith("    router_id: 10.10.1.2\n", ""), "controller.bgp.router_id", "required key is missing");
        fails(bgpWith("router_id: 10.10.1.2", "router_id: fd00::1"), "controller.bgp.router_id", "fd00::1");
    }

    @Test
    void rejectsBadNeighbors()
    {
        fails(bgpWith("[10.10.1.1]", "[10.10.1.1, router1.example.com]"), "controller.bgp.neighbors[1]",
            "router1.example.com");
        fails(bgpWith("[10.10.1.1]", "[10.10.1.1, 10.10.1.1]"), "controller.bgp.neighbors[1]",
            "duplicate neighbor 10.10.1.1 (also controller.bgp.neighbors[0])");
        fails(bgpWith("[10.10.1.1]", "[]"), "controller.bgp.neighbors", "at least 1");
        fails(bgpWith("[10.10.1.1]", "[fd00::1]"), "controller.bgp.neighbors[0]", "not of the family");
        fails(bgpWith("local_address: 10.10.1.2", "local_address: 10.10.1.x"), "controller.bgp.local_address",
            "10.10.1.x");
    }

    @Test
    void rejectsHttpPathWithoutSlash()
    {
        fails(controller("health_checks: {type: http, path: healthz}"), "controller.health_checks.path",
            "must start with /");
        fails(controller("health_checks: {path: /healthz}"), "controller.health_checks.path",
            "only for http checks");
        fails(controller("health_checks: {type: icmp}"), "controller.health_checks.type", "expected http or tcp");
    }

    @Test
    void rejectsAllPortsVipWithoutHealthCheckPort()
    {
        fails(NodeConfigErrorsTest.with("port: 80", "port: 0"), "vips[0].health_check.port",
            "required when the VIP's port is 0");
        fails(NodeConfigErrorsTest.with("port: 80", "port: 0\n    health_check: {rise: 1}"),
            "vips[0].health_check.port", "required when the VIP's port is 0");
    }

    @Test
    void readsExpectStatusAsARangeAStatusOrAList() throws Exception
    {
        assertEquals(HttpStatuses.range(200, 299),
            parse(controller("health_checks: {type: http, expect_status: [200, 299]}")).controller().healthChecks()
                .expectStatus());
        assertEquals(HttpStatuses.range(204, 204),
            parse(controller("health_checks: {type: http, expect_status: 204}")).controller().healthChecks()
                .expectStatus());
        final HealthCheckConfig listed =
            parse(controller("health_checks: {type: http, expect_status: \"200, 204,301-302\"}")).controller()
                .healthChecks();
        assertEquals(HttpStatuses.parse("200,204,301,302"), listed.expectStatus());
        assertTrue(listed.expects(301));
        assertFalse(listed.expects(303));
    }

    @Test
    void rejectsOutOfRangeValues()
    {
        fails(controller("fail_open_share: 1.5"), "controller.fail_open_share", "must be from 0.0 to 1.0, got 1.5");
        fails(controller("fail_open_share: half"), "controller.fail_open_share", "expected a number");
        fails(controller("health_checks: {rise: 0}"), "controller.health_checks.rise", "must be 1..100, got 0");
        fails(controller("health_checks: {fall: 101}"), "controller.health_checks.fall", "must be 1..100, got 101");
        fails(controller("health_checks: {type: http, expect_status: [399, 200]}"),
            "controller.health_checks.expect_status", "lo 399 is above hi 200");
        fails(controller("health_checks: {type: http, expect_status: [200, 600]}"),
            "controller.health_checks.expect_status[1]", "expected an HTTP status");
        fails(controller("health_checks: {type: http, expect_status: 99}"),
            "controller.health_checks.expect_status", "HTTP status 99 is outside 100..599 in \"99\"");
        fails(controller("health_checks: {type: http, expect_status: \"200,2o4\"}"),
            "controller.health_checks.expect_status", "\"2o4\" is not an HTTP status in \"200,2o4\"");
        fails(controller("health_checks: {type: http, expect_status: {lo: 200}}"),
            "controller.health_checks.expect_status", "expected [lo, hi], a status such as 200, or a list");
        fails(controller("metrics: {port: 0}"), "controller.metrics.port", "must be 1..65535");
        fails(controller("metrics: {address: localhost}"), "controller.metrics.address", "localhost");
        fails(controller("announce_regardless: yes"), "controller.announce_regardless", "expected true or false");
        fails(controller("flap_damping: {hold_down: 5m, max_hold_down: 1m}"), "controller.flap_damping.max_hold_down",
            "must not be shorter than hold_down 5m");
        fails(controller("flap_damping: {quiet_period: 0s}"), "controller.flap_damping.quiet_period",
            "must be longer than zero");
        fails(BASE + "controller:\n" + BGP + "    exabgp: {external: no}\n", "controller.bgp.exabgp.external",
            "expected true or false");
    }

    @Test
    void acceptsBareSecondsAndIntegerShare() throws Exception
    {
        final ControllerConfig controller = parse(controller("drain_time: 10\nfail_open_share: 1")).controller();
        assertEquals(TimeUnit.SECONDS.toNanos(10), controller.drainTimeNs());
        assertEquals(1.0, controller.failOpenShare());
        assertFalse(controller.hasBgp());
    }
}
