package io.sluice.tools.stats;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.forwarder.counters.CountersFixture;
import io.sluice.common.counters.DutyCycleBuckets;
import io.sluice.common.counters.ForwarderState;
import io.sluice.common.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsToolTest
{
    private static final long OWN_PID = ProcessHandle.current().pid();
    private static final long UPTIME_MS = 3_723_000; // 1h02m03s

    @TempDir
    Path directory;

    private final List<CountersFixture> fixtures = new ArrayList<>();

    /**
     * Advances time by exactly what it is asked to sleep and runs a hook instead, so rates are exact.
     */
    static final class FakeClock implements SamplingClock
    {
        long epochMs;
        long nanoTime = 5_000_000_000L;
        int sleeps;
        Runnable onSleep = () -> {};

        @Override
        public long epochMs()
        {
            return epochMs;
        }

        @Override
        public long nanoTime()
        {
            return nanoTime;
        }

        @Override
        public void sleepNanos(final long nanos)
        {
            nanoTime += nanos;
            epochMs += nanos / 1_000_000;
            sleeps++;
            onSleep.run();
        }
    }

    record Run(int status, String out, String err)
    {
        Map<String, Object> json()
        {
            final String[] lines = out.split("\n");
            assertEquals(1, lines.length, out);
            return Json.readObject(lines[0]);
        }
    }

    @AfterEach
    void closeFixtures()
    {
        fixtures.forEach(CountersFixture::close);
    }

    private Path nodeFile(final String node)
    {
        return CountersFileHeader.nodeFile(directory, node);
    }

    private CountersFixture fixture(final String node)
    {
        final CountersFixture fixture = new CountersFixture(nodeFile(node));
        fixtures.add(fixture);
        return fixture;
    }

    /**
     * Worker counters hold typeId * 100 + worker; reasons, VIPs, backends, ports and the process have values of
     * their own, chosen so every sum below is distinct.
     */
    private static void writeValues(final CountersFixture fixture)
    {
        for (int worker = 0; worker < CountersFixture.WORKERS; worker++)
        {
            for (final CounterType type : CounterType.values())
            {
                if (type.scope() == CounterType.Scope.WORKER)
                {
                    fixture.worker(type, worker, type.typeId() * 100L + worker);
                }
            }
            for (int i = 0; i < CountersFixture.DROP_ORDINALS.length; i++)
            {
                fixture.writer.set(fixture.dropIds[worker][i], i == 2 ? 0 : 3 + worker + i * 10);
            }
            fixture.writer.set(fixture.passIds[worker][1], 5);
            for (int vip = 0; vip < CountersFixture.VIPS.length; vip++)
            {
                final long packets = 10L * (vip + 1) + worker;
                fixture.writer.set(fixture.vipIds[worker][vip][0], packets);
                fixture.writer.set(fixture.vipIds[worker][vip][1], packets * 100);
                for (int slot = 0; slot < 2; slot++)
                {
                    final long backendPackets = (vip * 2L + slot + 1) * 3 + worker;
                    fixture.writer.set(fixture.backendIds[worker][vip][slot][0], backendPackets);
                    fixture.writer.set(fixture.backendIds[worker][vip][slot][1], backendPackets * 64);
                }
            }
        }
        for (int port = 0; port < CountersFixture.PORTS.length; port++)
        {
            for (final CounterType type : CounterType.values())
            {
                if (type.scope() == CounterType.Scope.PORT)
                {
                    fixture.port(type, port, type.typeId() + port * 1000L);
                }
            }
        }
        fixture.process(CounterType.CONTROL_COMMANDS_APPLIED, 12);
        fixture.process(CounterType.CONTROL_COMMANDS_REJECTED, 1);
        fixture.process(CounterType.FORWARDING_STATE_VERSION, 17);
        fixture.process(CounterType.MAGLEV_BUILD_NS_LAST, 2_345_000);
        fixture.process(CounterType.FORWARDER_STATE, ForwarderState.RUNNING.value());
    }

    /**
     * What the workers do while the tool waits between its two reads: worker 0 beats, worker 1 is stuck.
     */
    private static void grow(final CountersFixture fixture, final FakeClock clock)
    {
        fixture.addWorker(CounterType.RX_PACKETS, 0, 100);
        fixture.addWorker(CounterType.RX_PACKETS, 1, 50);
        fixture.writer.add(fixture.vipIds[0][0][0], 10);
        fixture.writer.add(fixture.dropIds[1][1], 2);
        fixture.writer.add(fixture.portIds[0][CounterType.PORT_RX_PACKETS.ordinal()], 1000);
        fixture.worker(CounterType.HEARTBEAT_MS, 0, clock.epochMs - 3);
        fixture.worker(CounterType.HEARTBEAT_MS, 1, clock.epochMs - 5000);
    }

    private FakeClock clockFor(final CountersFixture fixture)
    {
        final FakeClock clock = new FakeClock();
        clock.epochMs = fixture.file.startTimeMs() + UPTIME_MS;
        clock.onSleep = () -> grow(fixture, clock);
        return clock;
    }

    private static Run run(final SamplingClock clock, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = StatsTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), clock);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static long number(final Object value)
    {
        return (Long)value;
    }

    private static double decimal(final Object value)
    {
        return ((Number)value).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(final Object value)
    {
        return (Map<String, Object>)value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(final Object value)
    {
        return (List<Map<String, Object>>)value;
    }

    private Map<String, Object> sampleJson()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        final Run run = run(clockFor(fixture), "--node", "lb1", "--dir", directory.toString(), "--json",
            "--interval", "0.1");
        assertEquals(0, run.status(), run.err());
        assertEquals("", run.err());
        return run.json();
    }

    @Test
    void describesTheOwnerInJson()
    {
        final Map<String, Object> json = sampleJson();
        assertEquals("lb1", json.get("node"));
        assertEquals(nodeFile("lb1").toAbsolutePath().toString(), json.get("file"));
        assertEquals(OWN_PID, number(json.get("pid")));
        assertEquals(true, json.get("alive"));
        assertEquals(3723L, number(json.get("uptime_s")));
        assertEquals(0.1, decimal(json.get("interval_s")));
        assertEquals(Map.of("control_commands_applied", 12L, "control_commands_applied_per_s", 0.0,
            "control_commands_rejected", 1L, "control_commands_rejected_per_s", 0.0,
            "forwarding_state_version", 17L, "maglev_build_ns_last", 2_345_000L, "forwarder_state", "running"),
            json.get("process"));
    }

    @Test
    void sumsWorkersIntoExactTotals()
    {
        final Map<String, Object> totals = map(sampleJson().get("totals"));
        assertEquals(201 + 150, number(totals.get("rx_packets")));
        assertEquals(401, number(totals.get("rx_bytes")));
        assertEquals(601, number(totals.get("tx_packets")));
        assertEquals(801, number(totals.get("tx_bytes")));
        assertEquals(1001, number(totals.get("tx_full_drops")));
        assertEquals(1201, number(totals.get("tx_rejected")));
        assertEquals(1401, number(totals.get("forwarded")));
        assertEquals(1601, number(totals.get("passed")));
        assertEquals(1801, number(totals.get("dropped")));
        assertEquals(2401, number(totals.get("conn_hits")));
        assertEquals(2601, number(totals.get("conn_misses")));
        assertEquals(2801, number(totals.get("conn_evictions")));
        assertEquals(3001, number(totals.get("conn_expirations")));
        assertEquals(3201, number(totals.get("conn_rebinds")));
        assertEquals(3401, number(totals.get("conn_entries")));
        assertEquals(3801, number(totals.get("duty_cycles")));
        assertEquals(2001, number(totals.get("max_duty_cycle_ns")), "the maximum over workers, not a sum");
        assertFalse(totals.containsKey("heartbeat_ms"), "a time is not summed");
        assertFalse(totals.containsKey("snapshot_version"), "a version is not summed");
        assertFalse(totals.containsKey("conn_entries_per_s"), "a level has no rate");
        assertEquals(Map.of("FRAME_TRUNCATED", 7L, "IPV4_TRUNCATED", 27L + 2, "NO_BACKEND", 0L),
            totals.get("drop_reasons"));
        assertEquals(Map.of("NOT_IP", 0L, "NO_VIP", 10L), totals.get("pass_reasons"));
    }

    @Test
    void ratesComeFromGrowthBetweenTheTwoReads()
    {
        final Map<String, Object> json = sampleJson();
        final Map<String, Object> totals = map(json.get("totals"));
        assertEquals(1500.0, decimal(totals.get("rx_pps")), "150 packets in 0.1 s");
        assertEquals(0.0, decimal(totals.get("tx_pps")));
        assertEquals(0.0, decimal(totals.get("dropped_pps")));
        assertEquals(20.0, decimal(map(totals.get("drop_reasons_per_s")).get("IPV4_TRUNCATED")));
        assertEquals(0.0, decimal(map(totals.get("drop_reasons_per_s")).get("FRAME_TRUNCATED")));
        final List<Map<String, Object>> workers = list(json.get("workers"));
        assertEquals(1000.0, decimal(workers.get(0).get("rx_pps")));
        assertEquals(500.0, decimal(workers.get(1).get("rx_pps")));
        assertEquals(100.0, decimal(list(json.get("vips")).get(0).get("pps")));
        assertEquals(10_000.0, decimal(list(json.get("ports")).get(0).get("rx_pps")));
        assertEquals(0.0, decimal(list(json.get("ports")).get(1).get("rx_pps")));
    }

    @Test
    void showsEachWorkersHeartbeatAgeAndFlagsAStaleOne()
    {
        final List<Map<String, Object>> workers = list(sampleJson().get("workers"));
        assertEquals(2, workers.size());
        assertEquals(0L, number(workers.get(0).get("worker")));
        assertEquals(3L, number(workers.get(0).get("heartbeat_age_ms")));
        assertEquals(false, workers.get(0).get("stale"));
        assertEquals(1L, number(workers.get(1).get("worker")));
        assertEquals(5000L, number(workers.get(1).get("heartbeat_age_ms")));
        assertEquals(true, workers.get(1).get("stale"));
        assertEquals(200L, number(workers.get(0).get("rx_packets")));
        assertEquals(2101L, number(workers.get(1).get("snapshot_version")));
        assertEquals(Map.of("FRAME_TRUNCATED", 4L, "IPV4_TRUNCATED", 16L, "NO_BACKEND", 0L),
            workers.get(1).get("drop_reasons"));
    }

    @Test
    void listsVipsBackendsAndPorts()
    {
        final Map<String, Object> json = sampleJson();
        final List<Map<String, Object>> vips = list(json.get("vips"));
        assertEquals(2, vips.size());
        assertEquals("web (10.100.0.1:80/tcp)", vips.get(0).get("vip"));
        assertEquals(21L + 10, number(vips.get(0).get("packets")));
        assertEquals(2100L, number(vips.get(0).get("bytes")));
        assertEquals(CountersFixture.VIPS[1], vips.get(1).get("vip"), "quotes and backslashes survive JSON");
        assertEquals(41L, number(vips.get(1).get("packets")));
        assertEquals(4100L, number(vips.get(1).get("bytes")));

        final List<Map<String, Object>> backends = list(json.get("backends"));
        assertEquals(4, backends.size());
        final long[] packets = {7, 13, 19, 25};
        for (int slot = 0; slot < 4; slot++)
        {
            final Map<String, Object> backend = backends.get(slot);
            assertEquals(CountersFixture.VIPS[slot / 2], backend.get("vip"));
            assertEquals(CountersFixture.BACKENDS[slot / 2][slot % 2], backend.get("backend"));
            assertEquals((long)slot, number(backend.get("slot")));
            assertEquals(packets[slot], number(backend.get("packets")));
            assertEquals(packets[slot] * 64, number(backend.get("bytes")));
        }

        final List<Map<String, Object>> ports = list(json.get("ports"));
        assertEquals(2, ports.size());
        assertEquals(1L, number(ports.get(1).get("port")));
        assertEquals(1200L, number(ports.get(1).get("rx_packets")));
        assertEquals(1201L, number(ports.get(1).get("tx_packets")));
        assertEquals(1202L, number(ports.get(1).get("rx_missed")));
        assertEquals(1203L, number(ports.get(1).get("rx_errors")));
        assertEquals(1204L, number(ports.get(1).get("tx_errors")));
        assertEquals(1205L, number(ports.get(1).get("rx_nombuf")));
        assertEquals(200L + 1000, number(ports.get(0).get("rx_packets")));
    }

    @Test
    void listsEveryCounterWithTypeKeyLabelAndValue()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        final Map<String, Object> json = run(clockFor(fixture), "--file", nodeFile("lb1").toString(), "--json").json();
        final List<Map<String, Object>> counters = list(json.get("counters"));
        assertEquals(fixture.allocated, counters.size());
        final int id = fixture.backendIds[1][0][1][1];
        final Map<String, Object> counter = counters.stream()
            .filter(c -> number(c.get("id")) == id).findFirst().orElseThrow();
        assertEquals("BACKEND_BYTES", counter.get("type"));
        assertEquals(111L, number(counter.get("type_id")));
        assertEquals(List.of(1L, 0L, 1L), counter.get("key"));
        assertEquals("backend bytes: vip=web (10.100.0.1:80/tcp) backend=b2 (10.0.0.2) worker=1",
            counter.get("label"));
        assertEquals(7L * 64, number(counter.get("value")));
        for (final CounterType type : CounterType.values())
        {
            assertTrue(counters.stream().anyMatch(c -> type.name().equals(c.get("type"))), type.name());
        }
    }

    @Test
    void showsDutyCycleQuantilesPerWorker()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        // Worker 0: 90 cycles under 256 ns, 9 in [1, 2) us, 1 in [128, 256) us; worker 1 none yet.
        fixture.writer.set(fixture.dutyCycleIds[0][0], 90);
        fixture.writer.set(fixture.dutyCycleIds[0][3], 9);
        fixture.writer.set(fixture.dutyCycleIds[0][10], 1);

        final Run text = run(clockFor(fixture), "--node", "lb1", "--dir", directory.toString(), "--interval", "0.1");
        assertEquals(0, text.status(), text.err());
        assertTrue(text.out().matches("(?s).*\nduty cycle time below +p50 +p99 +p99\\.99\n" +
            "  worker 0 +256 ns +2\\.0 us +262\\.1 us\n  worker 1 +- +- +-\n.*"), text.out());

        final Run json = run(clockFor(fixture), "--node", "lb1", "--dir", directory.toString(), "--interval", "0.1",
            "--json");
        assertEquals(0, json.status(), json.err());
        @SuppressWarnings("unchecked")
        final Map<String, Object> worker0 = ((List<Map<String, Object>>)json.json().get("workers")).get(0);
        assertEquals(256L, number(worker0.get("duty_cycle_p50_below_ns")));
        assertEquals(2048L, number(worker0.get("duty_cycle_p99_below_ns")));
        assertEquals(262_144L, number(worker0.get("duty_cycle_p9999_below_ns")));
        @SuppressWarnings("unchecked")
        final Map<String, Object> buckets = (Map<String, Object>)worker0.get("duty_cycle_buckets");
        assertEquals(90L, number(buckets.get("lt_256ns")));
        assertEquals(9L, number(buckets.get("lt_2048ns")));
        assertEquals(DutyCycleBuckets.COUNT, buckets.size());
        assertEquals(5L, number(((Map<?, ?>)worker0.get("pass_reasons")).get("NO_VIP")),
            "bucket counters do not leak into the pass reasons");
        assertEquals(2, ((Map<?, ?>)worker0.get("pass_reasons")).size());
    }

    @Test
    void printsTextForOperators()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        final Run run = run(clockFor(fixture), "--node", "lb1", "--dir", directory.toString(), "--interval", "0.1");
        assertEquals(0, run.status(), run.err());
        final String text = run.out();
        assertTrue(text.startsWith("node lb1  pid " + OWN_PID + " (alive)  state running  uptime 1h02m03s  at "),
            text);
        assertTrue(text.contains("forwarding state version 17  control commands applied 12 rejected 1  " +
            "last maglev build 2.345 ms"), text);
        assertTrue(text.contains("heartbeat age: worker 0 3 ms; worker 1 5000 ms STALE;"), text);
        assertTrue(text.matches("(?s).*\n  rx packets +351 +1500\\.0\n.*"), text);
        assertTrue(text.matches("(?s).*\n    IPV4_TRUNCATED +29 +20\\.0\n.*"), text);
        assertTrue(text.matches("(?s).*\n  max duty cycle ns \\(max\\) +2001 +\n.*"), text);
        assertFalse(text.contains("NO_BACKEND"), "zero reasons are left out of the text");
        assertFalse(text.contains("NOT_IP"), "zero reasons are left out of the text");
        assertTrue(text.contains("NO_VIP"), text);
        assertTrue(text.matches("(?s).*\n  web \\(10\\.100\\.0\\.1:80/tcp\\) +31 +2100 +100\\.0\n.*"), text);
        assertTrue(text.contains("web (10.100.0.1:80/tcp) -> b2 (10.0.0.2)"), text);
        assertTrue(text.matches("(?s).*\n  1 +1200 +0\\.0 +1201 .*"), text);
        assertTrue(text.matches("(?s).*\n  1 +5000 +500\\.0 .*  STALE\n.*"), text);
    }

    @Test
    void watchPrintsOneLinePerSampleUntilTheCount()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        final FakeClock clock = clockFor(fixture);
        final Run run = run(clock, "--node", "lb1", "--dir", directory.toString(), "--watch", "--count", "3",
            "--json", "--interval", "0.5");
        assertEquals(0, run.status(), run.err());
        final String[] lines = run.out().split("\n");
        assertEquals(3, lines.length);
        assertEquals(3, clock.sleeps);
        for (int i = 0; i < 3; i++)
        {
            final Map<String, Object> totals = map(Json.readObject(lines[i]).get("totals"));
            assertEquals(201 + 150L * (i + 1), number(totals.get("rx_packets")));
            assertEquals(300.0, decimal(totals.get("rx_pps")), "150 packets in 0.5 s, every sample");
        }
    }

    @Test
    void watchFollowsAFileReplacedByARestartedForwarder()
    {
        final CountersFixture first = fixture("lb1");
        writeValues(first);
        final FakeClock clock = clockFor(first);
        clock.onSleep = () ->
        {
            if (clock.sleeps == 2)
            {
                first.close();
                final CountersFixture second = fixture("lb1");
                second.worker(CounterType.RX_PACKETS, 0, 7);
            }
            else
            {
                grow(first, clock);
            }
        };
        final Run run = run(clock, "--node", "lb1", "--dir", directory.toString(), "--watch", "--count", "2",
            "--json", "--interval", "0.1");
        assertEquals(0, run.status(), run.err());
        final String[] lines = run.out().split("\n");
        assertEquals(351L, number(map(Json.readObject(lines[0]).get("totals")).get("rx_packets")));
        final Map<String, Object> totals = map(Json.readObject(lines[1]).get("totals"));
        assertEquals(7L, number(totals.get("rx_packets")));
        assertEquals(70.0, decimal(totals.get("rx_pps")), "a counter that went backwards counts from zero");
    }

    @Test
    void saysWhenTheOwnerIsGone() throws IOException
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        try (FileChannel channel = FileChannel.open(nodeFile("lb1"), StandardOpenOption.WRITE))
        {
            final ByteBuffer pid = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, Long.MAX_VALUE);
            channel.write(pid, CountersFileHeader.PID_OFFSET);
        }
        final FakeClock clock = clockFor(fixture);
        assertEquals(false, run(clock, "--node", "lb1", "--dir", directory.toString(), "--json").json().get("alive"));
        assertTrue(run(clock, "--node", "lb1", "--dir", directory.toString()).out().contains("(NOT RUNNING)"));
    }

    @Test
    void readsTheOnlyNodeUnderTheDirectory()
    {
        final CountersFixture fixture = fixture("lb7");
        final Run run = run(clockFor(fixture), "--dir", directory.toString(), "--json");
        assertEquals(0, run.status(), run.err());
        assertEquals("lb7", run.json().get("node"));
    }

    @Test
    void asksForANodeWhenSeveralRun()
    {
        fixture("lb1");
        fixture("lb2");
        final Run run = run(new FakeClock(), "--dir", directory.toString());
        assertEquals(2, run.status());
        assertEquals("stats: several nodes under " + directory + " [lb1, lb2]: pick one with --node\n", run.err());
    }

    @Test
    void reportsAMissingFileWithStatusTwo()
    {
        final Path missing = nodeFile("nope").toAbsolutePath();
        final Run byFile = run(new FakeClock(), "--file", missing.toString());
        assertEquals(2, byFile.status());
        assertEquals("stats: no counters file at " + missing + " (is the forwarder running?)\n", byFile.err());
        assertEquals("", byFile.out());
        final Run byNode = run(new FakeClock(), "--node", "nope", "--dir", directory.toString());
        assertEquals(2, byNode.status());
        assertEquals(byFile.err(), byNode.err());
        final Run empty = run(new FakeClock(), "--dir", directory.toString());
        assertEquals(2, empty.status());
        assertEquals("stats: no counters file under " + directory + " (is the forwarder running?)\n", empty.err());
    }

    @Test
    void reportsAFileThatIsNotACountersFile() throws IOException
    {
        Files.createDirectories(nodeFile("lb1").getParent());
        Files.write(nodeFile("lb1"), new byte[4096]);
        final Run run = run(new FakeClock(), "--node", "lb1", "--dir", directory.toString());
        assertEquals(1, run.status());
        assertEquals("stats: " + nodeFile("lb1").toAbsolutePath() + " is not a Sluice counters file: magic " +
            "0x00000000, expected 0x534C4345 (\"SLCE\")\n", run.err());
    }

    @Test
    void rejectsBadArgumentsNamingTheOption()
    {
        assertRejected("stats: --interval must be a number of seconds in [0.001, 3600], got 'soon'",
            "--interval", "soon");
        assertRejected("stats: --interval must be a number of seconds in [0.001, 3600], got '0'", "--interval", "0");
        assertRejected("stats: --interval needs a value", "--interval");
        assertRejected("stats: --count must be an integer >= 1, got '0'", "--count", "0");
        assertRejected("stats: --file cannot be combined with --node", "--file", "x", "--node", "lb1");
        assertRejected("stats: --file cannot be combined with --dir", "--file", "x", "--dir", "/tmp");
        assertRejected("stats: --node must be a node name, not a path: '../x' (use --file)", "--node", "../x");
        assertRejected("stats: unknown option: --frobnicate", "--frobnicate");
        assertRejected("stats: --json is given twice", "--json", "--json");
    }

    private static void assertRejected(final String message, final String... args)
    {
        final Run run = run(new FakeClock(), args);
        assertEquals(2, run.status());
        assertEquals(message + "\n" + StatsArguments.USAGE + "\n", run.err());
    }

    @Test
    void printsHelp()
    {
        final Run run = run(new FakeClock(), "--help");
        assertEquals(0, run.status());
        assertTrue(run.out().startsWith(StatsArguments.USAGE));
    }

    @Test
    void samplesOnTheSystemClock()
    {
        final CountersFixture fixture = fixture("lb1");
        writeValues(fixture);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int status = StatsTool.run(new String[] {"--file", nodeFile("lb1").toString(), "--json", "--interval",
            "0.05"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, status);
        final Map<String, Object> json = Json.readObject(out.toString(StandardCharsets.UTF_8).trim());
        assertTrue(decimal(json.get("interval_s")) >= 0.05, json.get("interval_s").toString());
        assertEquals(201L, number(map(json.get("totals")).get("rx_packets")));
        assertEquals(0.0, decimal(map(json.get("totals")).get("rx_pps")));
    }
}
