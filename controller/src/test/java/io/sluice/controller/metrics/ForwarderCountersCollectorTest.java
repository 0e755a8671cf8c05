package io.sluice.controller.metrics;

import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CounterType;
import io.sluice.forwarder.counters.CounterWriter;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.DutyCycleBuckets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForwarderCountersCollectorTest
{
    private static final long NOW_MS = 1_700_000_010_000L;

    @TempDir
    Path directory;

    private CountersFile file;
    private CounterAllocator allocator;
    private CounterWriter writer;

    @BeforeEach
    void createCounters()
    {
        file = CountersFile.create(directory.resolve("lb1/counters.dat"), 256);
        allocator = new CounterAllocator(file.manager());
        writer = allocator.writer();
    }

    @AfterEach
    void closeCounters()
    {
        file.close();
    }

    @Test
    void rendersWorkerCountersPerWorker()
    {
        setWorker(CounterType.RX_PACKETS, 0, 10);
        setWorker(CounterType.RX_PACKETS, 1, 20);
        setWorker(CounterType.RX_BYTES, 0, 1500);
        setWorker(CounterType.CONN_ENTRIES, 0, 7);
        setWorker(CounterType.HEARTBEAT_MS, 0, NOW_MS - 2_500);
        setWorker(CounterType.MAX_DUTY_CYCLE_NS, 0, 1_500_000);

        final List<String> lines = lines(text());

        // The client writes families in name order.
        assertContainsInOrder(lines,
            "# TYPE sluice_worker_rx_bytes_total counter",
            "sluice_worker_rx_bytes_total{worker=\"0\"} 1500.0",
            "# HELP sluice_worker_rx_packets_total Packets received by the worker.",
            "# TYPE sluice_worker_rx_packets_total counter",
            "sluice_worker_rx_packets_total{worker=\"0\"} 10.0",
            "sluice_worker_rx_packets_total{worker=\"1\"} 20.0");
        assertContainsAll(lines,
            "# TYPE sluice_worker_connection_entries gauge",
            "sluice_worker_connection_entries{worker=\"0\"} 7.0",
            "sluice_worker_heartbeat_age_seconds{worker=\"0\"} 2.5",
            "sluice_worker_max_duty_cycle_seconds{worker=\"0\"} 0.0015");
    }

    @Test
    void rendersDutyCycleBucketsAsAHistogramPerWorker()
    {
        setWorker(CounterType.DUTY_CYCLE_NS_TOTAL, 0, 1_500_000_000L);
        for (int bucket = 0; bucket < DutyCycleBuckets.COUNT; bucket++)
        {
            final int id = allocator.reasonCounter(CounterType.DUTY_CYCLE_BUCKET, 0, bucket,
                DutyCycleBuckets.name(bucket));
            writer.set(id, bucket == 0 ? 10 : bucket == 2 ? 5 : bucket == DutyCycleBuckets.COUNT - 1 ? 1 : 0);
        }

        final List<String> lines = lines(text());

        assertContainsInOrder(lines,
            "# TYPE sluice_worker_duty_cycle_seconds histogram",
            "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\",le=\"2.56E-7\"} 10",
            "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\",le=\"5.12E-7\"} 10",
            "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\",le=\"1.024E-6\"} 15",
            "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\",le=\"0.134217728\"} 15",
            "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\",le=\"+Inf\"} 16",
            "sluice_worker_duty_cycle_seconds_count{worker=\"0\"} 16",
            "sluice_worker_duty_cycle_seconds_sum{worker=\"0\"} 1.5");
        assertEquals(DutyCycleBuckets.COUNT, count(lines, "sluice_worker_duty_cycle_seconds_bucket{worker=\"0\""));
        assertFalse(lines.stream().anyMatch(line -> line.contains("duty_cycle_bucket") || line.contains("ns_total")),
            "the bucket counters themselves are not exported: " + lines);
    }

    @Test
    void rendersReasonsWithNamesFromLabels()
    {
        writer.set(allocator.reasonCounter(CounterType.DROP_REASON, 0, 3, "IPV4_TRUNCATED"), 4);
        writer.set(allocator.reasonCounter(CounterType.PASS_REASON, 1, 0, "NOT_A_VIP"), 9);

        final List<String> lines = lines(text());

        assertContainsAll(lines,
            "sluice_worker_drops_total{reason=\"IPV4_TRUNCATED\",worker=\"0\"} 4.0",
            "sluice_worker_passes_total{reason=\"NOT_A_VIP\",worker=\"1\"} 9.0");
    }

    @Test
    void rendersIcmpAndCaptureCountersUnderTheirAlertingNames()
    {
        setWorker(CounterType.ICMP_ECHO_REPLIES_V4, 0, 12);
        setWorker(CounterType.ICMP_ECHO_REPLIES_V6, 0, 3);
        setWorker(CounterType.ICMP_ECHO_REPLIES_V4, 1, 5);
        setWorker(CounterType.ICMP_RATE_LIMITED, 1, 7);
        setWorker(CounterType.CAPTURE_FRAMES, 0, 100);
        setWorker(CounterType.CAPTURE_DROPS, 0, 2);

        final List<String> lines = lines(text());

        assertOneIcmpGeneratedFamily(lines);
        assertContainsAll(lines,
            "sluice_worker_icmp_generated_total{type=\"echo_reply_v4\",worker=\"0\"} 12.0",
            "sluice_worker_icmp_generated_total{type=\"echo_reply_v4\",worker=\"1\"} 5.0",
            "sluice_worker_icmp_generated_total{type=\"echo_reply_v6\",worker=\"0\"} 3.0",
            "sluice_worker_icmp_rate_limited_total{worker=\"1\"} 7.0",
            "sluice_worker_capture_frames_total{worker=\"0\"} 100.0",
            "sluice_worker_capture_drops_total{worker=\"0\"} 2.0");
    }

    @Test
    void rendersTooBigErrorsAsIcmpTypesAndTheirSuppressionOnItsOwn()
    {
        setWorker(CounterType.ICMP_ECHO_REPLIES_V4, 0, 1);
        setWorker(CounterType.ICMP_TOO_BIG_SENT_V4, 0, 40);
        setWorker(CounterType.ICMP_TOO_BIG_SENT_V6, 1, 6);
        setWorker(CounterType.ICMP_TOO_BIG_SUPPRESSED, 1, 2);

        final List<String> lines = lines(text());

        assertOneIcmpGeneratedFamily(lines);
        assertContainsAll(lines,
            "sluice_worker_icmp_generated_total{type=\"frag_needed_v4\",worker=\"0\"} 40.0",
            "sluice_worker_icmp_generated_total{type=\"packet_too_big_v6\",worker=\"1\"} 6.0",
            "sluice_worker_icmp_too_big_suppressed_total{worker=\"1\"} 2.0");
    }

    @Test
    void sumsVipAndBackendCountersOverWorkers()
    {
        writer.set(allocator.vipCounter(CounterType.VIP_PACKETS, 0, 0, "web (10.100.0.1:80/tcp)"), 5);
        writer.set(allocator.vipCounter(CounterType.VIP_PACKETS, 1, 0, "web (10.100.0.1:80/tcp)"), 6);
        writer.set(allocator.vipCounter(CounterType.VIP_BYTES, 0, 1, "dns (10.100.0.2:53/udp)"), 640);
        writer.set(allocator.backendCounter(CounterType.BACKEND_PACKETS, 0, 0, 2, "web (10.100.0.1:80/tcp)",
            "be1 (10.0.0.1)"), 3);
        writer.set(allocator.backendCounter(CounterType.BACKEND_PACKETS, 1, 0, 2, "web (10.100.0.1:80/tcp)",
            "be1 (10.0.0.1)"), 4);

        final List<String> lines = lines(text());

        assertContainsAll(lines,
            "sluice_vip_packets_total{vip=\"web\"} 11.0",
            "sluice_vip_bytes_total{vip=\"dns\"} 640.0",
            "sluice_backend_packets_total{backend=\"be1\",vip=\"web\"} 7.0");
    }

    @Test
    void rendersPortAndProcessCounters()
    {
        writer.set(allocator.portCounter(CounterType.PORT_RX_PACKETS, 0), 100);
        writer.set(allocator.portCounter(CounterType.PORT_RX_MISSED, 1), 2);
        writer.set(allocator.processCounter(CounterType.CONTROL_COMMANDS_APPLIED), 12);
        writer.set(allocator.processCounter(CounterType.CONTROL_COMMANDS_REJECTED), 1);
        writer.set(allocator.processCounter(CounterType.FORWARDING_STATE_VERSION), 42);

        final List<String> lines = lines(text());

        assertContainsAll(lines,
            "sluice_port_rx_packets_total{port=\"0\"} 100.0",
            "sluice_port_rx_missed_packets_total{port=\"1\"} 2.0",
            "sluice_control_commands_applied_total 12.0",
            "sluice_control_commands_rejected_total 1.0",
            "# TYPE sluice_forwarding_state_version gauge",
            "sluice_forwarding_state_version 42.0");
    }

    @Test
    void writesHelpAndTypeOnceForEachFamily()
    {
        for (int worker = 0; worker < 3; worker++)
        {
            setWorker(CounterType.RX_PACKETS, worker, worker);
            writer.set(allocator.reasonCounter(CounterType.DROP_REASON, worker, 1, "A"), 1);
            writer.set(allocator.reasonCounter(CounterType.DROP_REASON, worker, 2, "B"), 1);
        }
        final MetricSnapshotsBuilder builder = new MetricSnapshotsBuilder();
        CounterFamilies.read(file.reader(), NOW_MS, builder);
        builder.gauge("sluice_backend_health", "1 when the backend is healthy.", 1, "vip", "web", "backend", "be1");
        builder.gauge("sluice_backend_health", "1 when the backend is healthy.", 0, "vip", "web", "backend", "be2");

        final List<String> lines = lines(MetricsExposition.text(builder.build()));

        assertEquals(1, count(lines, "# HELP sluice_worker_rx_packets_total "));
        assertEquals(1, count(lines, "# TYPE sluice_worker_rx_packets_total "));
        assertEquals(1, count(lines, "# TYPE sluice_worker_drops_total "));
        assertEquals(6, count(lines, "sluice_worker_drops_total{"));
        assertEquals(1, count(lines, "# HELP sluice_backend_health "));
        assertContainsInOrder(lines,
            "# TYPE sluice_backend_health gauge",
            "sluice_backend_health{backend=\"be1\",vip=\"web\"} 1.0",
            "sluice_backend_health{backend=\"be2\",vip=\"web\"} 0.0");
    }

    @Test
    void escapesLabelValuesAndHelp()
    {
        final String text = MetricsExposition.text(new MetricSnapshotsBuilder().gauge("sluice_bgp_announced",
            "Back\\slash\nnewline \"quoted\".", 1, "vip", "a\\b\"c\nd").build());

        assertEquals("# HELP sluice_bgp_announced Back\\\\slash\\nnewline \"quoted\".\n" +
            "# TYPE sluice_bgp_announced gauge\n" +
            "sluice_bgp_announced{vip=\"a\\\\b\\\"c\\nd\"} 1.0\n", text);
    }

    @Test
    void escapesNamesTakenFromCounterLabels()
    {
        writer.set(allocator.vipCounter(CounterType.VIP_PACKETS, 0, 0, "we\"b (10.100.0.1:80/tcp)"), 1);

        final String text = text();

        assertTrue(text.contains("sluice_vip_packets_total{vip=\"we\\\"b\"} 1.0\n"), text);
    }

    @Test
    void omitsHeartbeatAgeBeforeFirstHeartbeat()
    {
        allocator.workerCounter(CounterType.HEARTBEAT_MS, 0);

        assertFalse(text().contains("heartbeat"));
    }

    @Test
    void formatsSpecialValues()
    {
        final List<String> lines = lines(MetricsExposition.text(new MetricSnapshotsBuilder()
            .gauge("sluice_x", "x", Double.NaN, "v", "nan")
            .gauge("sluice_x", "x", Double.POSITIVE_INFINITY, "v", "plus")
            .gauge("sluice_x", "x", Double.NEGATIVE_INFINITY, "v", "minus")
            .gauge("sluice_x", "x", 0.25, "v", "quarter")
            .gauge("sluice_x", "x", -3, "v", "negative").build()));
        assertContainsAll(lines,
            "sluice_x{v=\"nan\"} NaN",
            "sluice_x{v=\"plus\"} +Inf",
            "sluice_x{v=\"minus\"} -Inf",
            "sluice_x{v=\"quarter\"} 0.25",
            "sluice_x{v=\"negative\"} -3.0");
    }

    @Test
    void refusesOneNameWithTwoTypes()
    {
        final MetricSnapshotsBuilder builder = new MetricSnapshotsBuilder().gauge("sluice_x", "x", 1);

        assertThrows(IllegalArgumentException.class, () -> builder.counter("sluice_x", "x", 1));
    }

    @Test
    void refusesInvalidNames()
    {
        final MetricSnapshotsBuilder builder = new MetricSnapshotsBuilder();
        assertThrows(IllegalArgumentException.class, () -> builder.gauge("sluice-x", "x", 1));
        assertThrows(IllegalArgumentException.class, () -> builder.gauge("sluice_x", "x", 1, "bad-label", "v"));
        assertThrows(IllegalArgumentException.class, () -> builder.gauge("sluice_x", "x", 1, "odd"));
    }

    @Test
    void shortensLabelFieldsToTheName()
    {
        assertEquals("web", CounterFamilies.shortName("web (10.100.0.1:80/tcp)"));
        assertEquals("be1", CounterFamilies.shortName("be1"));
        assertEquals(null, CounterFamilies.shortName(null));
    }

    private void setWorker(final CounterType type, final int worker, final long value)
    {
        writer.set(allocator.workerCounter(type, worker), value);
    }

    private String text()
    {
        return MetricsExposition.text(ForwarderCountersCollector.snapshots(file.reader(), NOW_MS));
    }

    private static List<String> lines(final String text)
    {
        assertTrue(text.endsWith("\n"), "exposition ends in a newline");
        return Arrays.asList(text.split("\n"));
    }

    private static long count(final List<String> lines, final String prefix)
    {
        return lines.stream().filter(line -> line.startsWith(prefix)).count();
    }

    // Echo replies and too-big errors are types of one family.
    private static void assertOneIcmpGeneratedFamily(final List<String> lines)
    {
        assertEquals(1, lines.stream().filter("# TYPE sluice_worker_icmp_generated_total counter"::equals).count(),
            "one family for every ICMP type: " + lines);
    }

    private static void assertContainsAll(final List<String> lines, final String... expected)
    {
        for (final String line : expected)
        {
            assertTrue(lines.contains(line), "missing: " + line + "\n" + String.join("\n", lines));
        }
    }

    private static void assertContainsInOrder(final List<String> lines, final String... expected)
    {
        int from = 0;
        for (final String line : expected)
        {
            final int index = lines.subList(from, lines.size()).indexOf(line);
            assertTrue(index >= 0, "missing in order: " + line + "\n" + String.join("\n", lines));
            from += index + 1;
        }
    }
}
