package io.sluice.controller.status;

import io.sluice.common.config.IpLiterals;
import io.sluice.controller.metrics.ControllerStatusCollector;
import io.sluice.controller.metrics.MetricsExposition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusRendererTest
{
    private static final NodeStatus STATUS = new NodeStatus("lb1", 1_700_000_000_000L,
        new NodeStatus.Forwarder(true, "forwarder alive: process 42", true, true, 0, 65537),
        new NodeStatus.Bgp(true, "ExaBGP pid 7, relay connected", Map.of("10.10.1.1", "up"),
            List.of("10.100.0.1/32"), Map.of("10.10.1.1", "ipv4 from 10.10.1.2, hold 9s keepalive 3s"),
            Map.of("10.100.0.1/32", " med 5 community [ 65000:80 ]")),
        List.of(new NodeStatus.VipStatus("web", IpLiterals.parse("10.100.0.1"), 80, "tcp", true,
            "forwarder ready, 1 of 2 backends eligible", false, 1, List.of(
            new NodeStatus.BackendStatus("be1", IpLiterals.parse("10.1.0.1"), true, false, true, "HTTP 200", true,
                2_000_000, 10, 0, 0, 1, 1, false, 65537),
            new NodeStatus.BackendStatus("be2", IpLiterals.parse("10.1.0.2"), false, false, false,
                "connect refused", false, 1_000_000, 10, 3, 0, 1, 0, true, 0)))));

    @Test
    void rendersJsonWithEveryField()
    {
        final String json = StatusRenderer.json(STATUS);
        assertTrue(json.startsWith("{\"node\":\"lb1\",\"time_ms\":1700000000000,\"forwarder\":{\"alive\":true,"), json);
        assertTrue(json.contains("\"bgp\":{\"configured\":true,\"state\":\"ExaBGP pid 7, relay connected\"," +
            "\"neighbors\":{\"10.10.1.1\":\"up\"},\"announced\":[\"10.100.0.1/32\"]," +
            "\"sessions\":{\"10.10.1.1\":\"ipv4 from 10.10.1.2, hold 9s keepalive 3s\"}," +
            "\"routes\":{\"10.100.0.1/32\":\"med 5 community [ 65000:80 ]\"}}"), json);
        assertTrue(json.contains("{\"name\":\"be2\",\"address\":\"10.1.0.2\",\"healthy\":false,\"held_down\":false," +
            "\"eligible\":false,\"last_check\":\"connect refused\",\"last_check_passed\":false," +
            "\"last_check_latency_ms\":1.0,\"checks\":10,\"failed_checks\":3,\"flaps\":0,\"configured_weight\":1," +
            "\"weight\":0,\"drained\":true,\"maglev_slots\":0,\"maglev_share\":0.0}"), json);
        assertTrue(json.endsWith("]}]}\n"), json);
    }

    @Test
    void rendersTextForPeople()
    {
        final String text = StatusRenderer.text(STATUS);
        assertTrue(text.contains("forwarder: alive (forwarder alive: process 42), synchronized\n"), text);
        assertTrue(text.contains("bgp: ExaBGP pid 7, relay connected, neighbor 10.10.1.1 up\n" +
            "  session 10.10.1.1: ipv4 from 10.10.1.2, hold 9s keepalive 3s\n" +
            "  route 10.100.0.1/32: med 5 community [ 65000:80 ]\n"), text);
        assertTrue(text.contains("VIP web 10.100.0.1:80/tcp: ANNOUNCED (forwarder ready, 1 of 2 backends eligible)"),
            text);
        assertTrue(text.matches("(?s).*be1 +10\\.1\\.0\\.1 +healthy +up +1 +100\\.0% +HTTP 200 in 2 ms.*"), text);
        assertTrue(text.matches("(?s).*be2 +10\\.1\\.0\\.2 +down +down +drained +0\\.0% +connect refused.*"), text);
    }

    @Test
    void exportsPrometheusFamilies()
    {
        final String text = MetricsExposition.text(ControllerStatusCollector.snapshots(STATUS));
        assertTrue(text.contains("sluice_vip_announced{vip=\"web\"} 1.0\n"), text);
        assertTrue(text.contains("sluice_backend_drained{address=\"10.1.0.2\",backend=\"be2\",vip=\"web\"} 1.0\n"),
            text);
        assertTrue(text.contains("sluice_bgp_session_up{neighbor=\"10.10.1.1\"} 1.0\n"), text);
        assertTrue(text.contains("# TYPE sluice_health_check_failures_total counter\n"), text);
        assertTrue(text.contains("sluice_health_check_latency_seconds" +
            "{address=\"10.1.0.1\",backend=\"be1\",vip=\"web\"} 0.002\n"), text);
    }
}
