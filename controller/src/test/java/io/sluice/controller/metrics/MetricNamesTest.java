package io.sluice.controller.metrics;

import io.sluice.common.config.IpLiterals;
import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.CountersFile;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.controller.status.NodeStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins the name of every metric the controller exports: dashboards and alert rules (deploy/) depend on them, so a
 * name never changes; a new metric is added to {@link #PINNED}. Also checks that the rules and the dashboard in the
 * repository name only exported metrics.
 */
class MetricNamesTest
{
    private static final Set<String> PINNED = Set.of(
        // From the forwarder's counters file (CounterFamilies).
        "sluice_worker_rx_packets_total", "sluice_worker_rx_bytes_total", "sluice_worker_tx_packets_total",
        "sluice_worker_tx_bytes_total", "sluice_worker_tx_full_drops_total", "sluice_worker_tx_rejected_total",
        "sluice_worker_forwarded_packets_total", "sluice_worker_passed_packets_total",
        "sluice_worker_dropped_packets_total", "sluice_worker_kernel_tx_packets_total",
        "sluice_worker_kernel_tx_drops_total", "sluice_worker_kernel_rx_packets_total",
        "sluice_worker_kernel_rx_drops_total", "sluice_worker_drops_total", "sluice_worker_passes_total",
        "sluice_worker_connection_hits_total", "sluice_worker_connection_misses_total",
        "sluice_worker_connection_evictions_total", "sluice_worker_connection_expirations_total",
        "sluice_worker_connection_rebinds_total", "sluice_worker_connection_entries",
        "sluice_worker_heartbeat_age_seconds", "sluice_worker_duty_cycles_total",
        "sluice_worker_max_duty_cycle_seconds", "sluice_worker_snapshot_version", "sluice_vip_packets_total",
        "sluice_vip_bytes_total", "sluice_vip_maglev_fingerprint", "sluice_backend_packets_total",
        "sluice_backend_bytes_total", "sluice_port_rx_packets_total", "sluice_port_tx_packets_total",
        "sluice_port_rx_missed_packets_total", "sluice_port_rx_errors_total", "sluice_port_tx_errors_total",
        "sluice_port_rx_nombuf_total", "sluice_port_mbufs_available", "sluice_port_mbufs_total",
        "sluice_control_commands_applied_total", "sluice_control_commands_rejected_total",
        "sluice_forwarding_state_version", "sluice_maglev_last_build_duration_seconds", "sluice_forwarder_state",
        "sluice_worker_icmp_generated_total", "sluice_worker_icmp_rate_limited_total",
        "sluice_worker_icmp_too_big_suppressed_total", "sluice_worker_outer_fragmented_total",
        "sluice_worker_outer_fragments_total",
        "sluice_worker_replies_sent_total", "sluice_worker_reply_drops_total",
        "sluice_worker_capture_frames_total", "sluice_worker_capture_drops_total",
        "sluice_worker_duty_cycle_seconds",
        // The controller's own (ControllerFamilies).
        "sluice_forwarder_alive", "sluice_forwarder_synchronized", "sluice_forwarder_unconfirmed_commands",
        "sluice_bgp_session_up", "sluice_vip_announced", "sluice_vip_fail_open", "sluice_vip_eligible_backends",
        "sluice_backend_healthy", "sluice_backend_eligible", "sluice_backend_weight", "sluice_backend_drained",
        "sluice_backend_maglev_slots", "sluice_health_check_latency_seconds", "sluice_health_checks_total",
        "sluice_health_check_failures_total", "sluice_backend_flaps_total", "sluice_backend_held_down",
        // Which build the node runs (BuildInfoCollector).
        "sluice_build_info");


    private static final Pattern TYPE_LINE = Pattern.compile("^# TYPE (\\S+) ", Pattern.MULTILINE);
    private static final Pattern METRIC_NAME = Pattern.compile("\\bsluice_[a-z0-9_]+");

    @TempDir
    Path directory;

    @Test
    void exportsExactlyThePinnedNames()
    {
        final Set<String> exported = new TreeSet<>();
        try (CountersFile file = CountersFile.create(directory.resolve("lb1/counters.dat"), 512))
        {
            final CounterAllocator allocator = new CounterAllocator(file.manager());
            final CounterWriter writer = allocator.writer();
            for (final CounterType type : CounterType.values())
            {
                writer.set(allocate(allocator, type), 1);
            }
            final PrometheusRegistry registry = new PrometheusRegistry();
            registry.register((MultiCollector)() ->
                ForwarderCountersCollector.snapshots(file.reader(), System.currentTimeMillis()));
            registry.register(new ControllerStatusCollector(MetricNamesTest::status));
            registry.register(BuildInfoCollector.ofThisBuild());
            exported.addAll(names(MetricsExposition.text(registry.scrape())));
        }

        final Set<String> missing = new TreeSet<>(PINNED);
        missing.removeAll(exported);
        final Set<String> unpinned = new TreeSet<>(exported);
        unpinned.removeAll(PINNED);
        assertEquals(Set.of(), missing, "pinned metric names no longer exported (never rename a metric)");
        assertEquals(Set.of(), unpinned, "new metric names: add them to PINNED");
    }

    @Test
    void rulesAndDashboardNameOnlyExportedMetrics() throws IOException
    {
        final Path root = repositoryRoot();
        for (final Path file : List.of(root.resolve("deploy/prometheus/sluice-rules.yml"),
            root.resolve("deploy/grafana/dashboards/sluice-fleet.json")))
        {
            final Matcher names = METRIC_NAME.matcher(Files.readString(file));
            int seen = 0;
            while (names.find())
            {
                final String name = names.group().replaceAll("_(bucket|count|sum)$", "");
                assertTrue(PINNED.contains(name), file + " names " + name +
                    ", which no Sluice controller exports");
                seen++;
            }
            assertTrue(seen > 5, file + " names hardly any metric");
        }
    }

    private static int allocate(final CounterAllocator allocator, final CounterType type)
    {
        return switch (type.scope())
        {
            case WORKER -> allocator.workerCounter(type, 0);
            case WORKER_REASON -> allocator.reasonCounter(type, 0, 1, "SOME_REASON");
            case VIP -> allocator.vipCounter(type, 0, 0, "web (10.100.0.1:80/tcp)");
            case BACKEND -> allocator.backendCounter(type, 0, 0, 0, "web (10.100.0.1:80/tcp)", "be1 (10.1.0.1)");
            case PORT -> allocator.portCounter(type, 0);
            case PROCESS -> allocator.processCounter(type);
        };
    }

    private static NodeStatus status()
    {
        return new NodeStatus("lb1", 1_700_000_000_000L,
            new NodeStatus.Forwarder(true, "forwarder alive", true, true, 0, 65537),
            new NodeStatus.Bgp(true, "ExaBGP running", Map.of("10.10.1.1", "up"), List.of("10.100.0.1/32")),
            List.of(new NodeStatus.VipStatus("web", IpLiterals.parse("10.100.0.1"), 80, "tcp", true, "ready", false, 1,
                List.of(new NodeStatus.BackendStatus("be1", IpLiterals.parse("10.1.0.1"), true, false, true,
                    "HTTP 200", true, 2_000_000, 10, 0, 0, 1, 1, false, 65537)))));
    }

    private static Set<String> names(final String exposition)
    {
        final Set<String> names = new TreeSet<>();
        final Matcher matcher = TYPE_LINE.matcher(exposition);
        while (matcher.find())
        {
            names.add(matcher.group(1));
        }
        return names;
    }

    private static Path repositoryRoot()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("deploy")))
        {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no deploy/ directory above " + Path.of("").toAbsolutePath());
        return dir;
    }
}
