package io.sluice.forwarder.process;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.forwarder.agent.AffinityWorkerCores;
import io.sluice.forwarder.agent.CoreHolder;
import io.sluice.forwarder.pipeline.FrameBurst;
import io.sluice.forwarder.pipeline.PipelineWarmup;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.sluice.forwarder.process.NodeSpec.backend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How the forwarder process starts, refuses to start and stops: exit status 2 with file, field and reason for a bad
 * config, 1 when DPDK cannot be set up, 0 after SIGTERM, and no file left behind in any case.
 */
@NeedsDpdk
class ForwarderLifecycleTest
{
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    /**
     * A config problem, what the message must name, and the reason's key words.
     */
    private record BadConfig(NodeSpec spec, String yaml, String field, String reason)
    {
    }

    @Test
    void badConfigExitsWithStatus2NamingFileFieldAndReason() throws IOException
    {
        final List<BadConfig> configs = new ArrayList<>();
        final NodeSpec typo = pcapNode();
        configs.add(new BadConfig(typo, typo.toYaml("idle_stratgy: backoff"), "forwarder.idle_stratgy",
            "unknown key"));
        final NodeSpec notPrime = pcapNode().maglevTableSize(65_536);
        configs.add(new BadConfig(notPrime, notPrime.toYaml(), "forwarder.maglev_table_size", "prime"));
        final NodeSpec unknownPort = NodeSpec.create(dir).vdev("net_null0").port("net_null0")
            .worker(1, "net_pcap9", "net_null0");
        configs.add(new BadConfig(unknownPort, unknownPort.toYaml(), "forwarder.workers[0].rx_port", "net_pcap9"));
        final NodeSpec badMac = pcapNode().nextHopMac("02:5a:00:00:fe");
        configs.add(new BadConfig(badMac, badMac.toYaml(), "forwarder.next_hop_mac", "MAC"));
        // 2^30 entries of 64 bytes (64 GiB) per worker: more than this machine has (an int overflowed before).
        final NodeSpec hugeTable = pcapNode().connectionTableCapacity(1L << 30);
        configs.add(new BadConfig(hugeTable, hugeTable.toYaml(), "forwarder.connection_table.capacity",
            "available (MemAvailable)"));
        // 16 VIPs of 16777213 Maglev slots, two copies each: 2 GiB of heap, beyond the -Xmx512m the test JVM gets
        // (Runtime.maxMemory() reports a little less: the serial collector leaves one survivor space out).
        final NodeSpec hugeMaglev = pcapNode().maglevTableSize(16_777_213);
        configs.add(new BadConfig(hugeMaglev, hugeMaglev.toYaml(), "forwarder.max_vips",
            "use max_vips of at most 3"));
        // A port that no --vdev creates: refused before EAL starts.
        final NodeSpec noVdev = NodeSpec.create(dir).vdev("net_null0").port("net_pcap7")
            .worker(1, "net_pcap7", "net_pcap7");
        configs.add(new BadConfig(noVdev, noVdev.toYaml(), "forwarder.ports[0].name",
            "no --vdev in forwarder.eal_args creates \"net_pcap7\" (it creates net_null0)"));

        final List<ForwarderProcess> processes = new ArrayList<>();
        for (final BadConfig config : configs)
        {
            processes.add(forwarders.launch(config.spec(), config.yaml(), dir));
        }
        for (int i = 0; i < configs.size(); i++)
        {
            final BadConfig config = configs.get(i);
            final ForwarderProcess process = processes.get(i);
            assertEquals(2, process.awaitExit(EXIT_TIMEOUT), config.field() + "\n" + process.output());
            final String stderr = process.stderr();
            final String expected = process.configFile() + ": " + config.field() + ": ";
            assertTrue(stderr.contains(expected), "stderr should contain '" + expected + "'\n" + process.output());
            final String reason = stderr.substring(stderr.indexOf(expected) + expected.length());
            assertTrue(reason.contains(config.reason()), "reason should mention '" + config.reason() + "': " +
                reason);
            assertFalse(stderr.contains("Exception"), "a stack trace instead of a message\n" + process.output());
            assertEquals("", process.stdout(), "nothing on stdout for a bad config");
            assertNoFilesLeft(process);
        }
    }

    @Test
    void cleanShutdownLeavesNoFiles() throws IOException
    {
        final NodeSpec spec = pcapNode().idleStrategy("backoff");
        final ForwarderProcess forwarder = forwarders.start(spec, dir);
        final Path nodeDirectory = spec.nodeDirectory();
        assertTrue(Files.isRegularFile(nodeDirectory.resolve(CountersFileHeader.FILE_NAME)), "counters file");
        assertTrue(Files.isRegularFile(nodeDirectory.resolve(ControlChannel.FILE_NAME)), "control file");
        forwarder.waitUntil("both frames received", () -> forwarder.rxPackets() == 2);
        final List<Path> dpdkFilesWhileRunning = forwarder.dpdkFiles();

        final long stopMs = forwarder.stop();

        assertTrue(forwarder.stdout().contains("forwarder: stopped cleanly"), forwarder.output());
        // Test forwarders run with Agrona's default (checks on); scripts/sluice turns them off.
        assertTrue(forwarder.stdout().contains("buffer bounds checks on"), forwarder.output());
        // Test forwarders run on this test's Java (scripts/sluice picks the newest installed JDK).
        assertTrue(forwarder.stdout().contains("  Java " + Runtime.version() + ", " +
            System.getProperty("java.vm.name") + ", " + System.getProperty("java.home") + "\n"), forwarder.output());
        // Test forwarders get the JVM's default inlining limit, the one this JVM has (scripts/sluice sets 6000).
        final String inlineSmallCode = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .getVMOption("InlineSmallCode").getValue();
        assertTrue(forwarder.stdout().contains("JIT inlining -XX:InlineSmallCode=" + inlineSmallCode + " "),
            forwarder.output());
        // The JIT warm-up ran before the ports, and every one of its synthetic frames took the forwarding path.
        final long warmupFrames = (long)PipelineWarmup.DEFAULT_BURSTS * FrameBurst.MAX_BURST;
        assertTrue(forwarder.stdout().contains("JIT warm-up: " + warmupFrames + " synthetic frames (" + warmupFrames +
            " forwarded, "), forwarder.output());
        assertFalse(forwarder.stderr().contains("Exception") || forwarder.stderr().contains("agent error") ||
            forwarder.stdout().contains("agent error"),
            forwarder.output());
        assertFalse(Files.exists(nodeDirectory), "node directory left: " + list(nodeDirectory));
        assertEquals(List.of(), list(spec.countersDir()), "files left in counters_dir");
        assertFalse(Files.exists(spec.countersDir()), "the counters_dir the forwarder created is left behind");
        assertEquals(List.of(), forwarder.dpdkFiles(), "DPDK runtime directory or hugepage files left");
        assertFalse(ProcessHandle.of(forwarder.process().pid()).map(ProcessHandle::isAlive).orElse(false),
            "process still alive");
        System.out.printf("cleanShutdown: running after %d ms, stopped in %d ms, DPDK files while running %s%n",
            forwarder.runningAfterMs(), stopMs, dpdkFilesWhileRunning);
    }

    @Test
    void missingShimOrBadEalArgsExits1AndAMissingPortExits2() throws IOException
    {
        final Path missingShim = dir.resolve("no-such-dir/libsluice_shim.so");
        final NodeSpec shimless = pcapNode();
        final ForwarderProcess noShim = forwarders.launch(shimless, shimless.toYaml(), dir,
            "-Dsluice.shim.path=" + missingShim);
        final NodeSpec missingPcap = NodeSpec.create(dir).vip("10.100.0.1", 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=/nonexistent.pcap,tx_pcap=" + dir.resolve("unused.pcap"))
            .port("net_pcap0").worker(1, "net_pcap0", "net_pcap0");
        final ForwarderProcess noPcap = forwarders.launch(missingPcap, missingPcap.toYaml(), dir);
        final NodeSpec badOption = pcapNode().ealArg("--no-such-eal-option");
        final ForwarderProcess badEal = forwarders.launch(badOption, badOption.toYaml(), dir);

        assertEquals(1, noShim.awaitExit(EXIT_TIMEOUT), noShim.output());
        assertTrue(noShim.stderr().contains("DPDK shim not found at " + missingShim) &&
            noShim.stderr().contains("make -C native shim"), noShim.output());
        // The device's own failure is EAL's; the missing port is the config's, named by file and field.
        assertEquals(2, noPcap.awaitExit(EXIT_TIMEOUT), noPcap.output());
        assertTrue(noPcap.stderr().contains("/nonexistent.pcap") && noPcap.stderr().contains(noPcap.configFile() +
            ": forwarder.ports[0].name: no DPDK port named net_pcap0"), noPcap.output());
        assertEquals(1, badEal.awaitExit(EXIT_TIMEOUT), badEal.output());
        assertTrue(badEal.stderr().contains("forwarder: rte_eal_init") &&
            badEal.stderr().contains("--no-such-eal-option") && badEal.stderr().contains("Invalid argument"),
            badEal.output());
        for (final ForwarderProcess process : List.of(noShim, noPcap, badEal))
        {
            assertFalse(process.stderr().contains("Exception"), "a stack trace instead of a message\n" +
                process.output());
            assertNoFilesLeft(process);
        }
    }

    /**
     * Each worker says at start what the kernel really gave its connection table: the size, and all of it in huge
     * pages, or how much is not and why (counted from the process's smaps, not just the madvise result).
     */
    @Test
    void eachWorkerSaysWhetherItsConnectionTableIsInHugePages() throws IOException
    {
        final NodeSpec spec = pcapNode().idleStrategy("backoff");
        final ForwarderProcess forwarder = forwarders.start(spec, dir);
        forwarder.waitUntil("the table line", () -> forwarder.stdout().contains("rx-worker-0: connection table "));
        final String line = forwarder.stdout().lines().filter(l -> l.contains("rx-worker-0: connection table "))
            .findFirst().orElseThrow();
        // The log prefix (ISO-8601 UTC time, level, logger) and then the summary line's text as it always was.
        assertTrue(line.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{12}Z INFO  Forwarder: " +
            "  rx-worker-0: connection table [0-9]+ entries of 32 \\+ 32 bytes, [0-9]+ MiB, " +
            "(all in 2 MiB pages|in 4 KiB pages \\(smaller than a huge page\\)|" +
            "[0-9]+ MiB in 2 MiB pages: NOT all in huge pages, expect TLB misses: .+)"), line);
        final String thp = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
        if (thp.contains("[never]"))
        {
            assertTrue(line.contains("NOT all in huge pages") && line.contains("'never'"), line);
        }
        forwarder.stop();
        assertTrue(forwarder.stdout().contains("forwarder: stopped cleanly"), forwarder.output());
    }

    /**
     * Under {@code taskset -c 0} the JVM sees one processor, but the machine has two cores: a worker on core 1 is
     * the machine's, and it pins there (widening the affinity the process started with, as with isolcpus).
     */
    @Test
    void aWorkerPinsToAMachineCoreOutsideTheTasksetAffinity() throws IOException
    {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two cores");
        final NodeSpec spec = pcapNode().idleStrategy("backoff");
        final ForwarderProcess forwarder = forwarders.launch(List.of("taskset", "-c", "0"), spec, spec.toYaml(), dir)
            .awaitRunning();

        final long pid = forwarder.process().pid();
        assertEquals("0", cpusAllowed(Path.of("/proc/" + pid + "/status")), "the JVM runs under taskset -c 0");
        // RUNNING is published before the summary is printed, and a worker pins itself as it starts: wait for both.
        forwarder.waitUntil("rx-worker-0 is pinned to core 1",
            () -> "1".equals(workerCpus(pid, "rx-worker-0")));
        forwarder.waitUntil("the summary names the worker outside the affinity", () -> forwarder.stdout()
            .contains("rx-worker-0: core 1 (outside the affinity 0 the process started with)"));
        forwarder.waitUntil("both frames received", () -> forwarder.rxPackets() == 2);
        forwarder.stop();
    }

    /**
     * Two forwarders asking for one core: the first reserves it (OpenHFT affinity's lock file names its pid), the
     * second exits 2 naming the core and the first's pid before EAL starts, and the core is free again once the
     * first stops.
     */
    @Test
    void aSecondForwarderOnAHeldCoreExits2NamingTheCoreAndItsHolder() throws IOException
    {
        final NodeSpec first = NodeSpec.create(dir).vdev("net_null0").port("net_null0")
            .worker(1, "net_null0", "net_null0").idleStrategy("backoff");
        final ForwarderProcess holder = forwarders.start(first, dir);
        final long pid = holder.process().pid();
        holder.waitUntil("the summary names the reservation", () -> holder.stdout()
            .contains("rx-worker-0: core 1 (reserved: " + AffinityWorkerCores.lockFile(1) + ")"));
        final CoreHolder held = AffinityWorkerCores.holder(1);
        assertNotNull(held, "core 1 should be reserved while the first forwarder runs");
        assertEquals(pid, held.pid(), "the lock file names the first forwarder");

        final NodeSpec second = NodeSpec.create(dir).vdev("net_null0").port("net_null0")
            .worker(1, "net_null0", "net_null0").idleStrategy("backoff");
        final ForwarderProcess refused = forwarders.launch(second, second.toYaml(), dir);

        assertEquals(2, refused.awaitExit(EXIT_TIMEOUT), refused.output());
        final String expected = refused.configFile() + ": forwarder.workers[0].core: core 1 is held by pid " + pid +
            " (java io.sluice.forwarder.ForwarderMain --config " + holder.configFile();
        assertTrue(refused.stderr().contains(expected), "stderr should contain '" + expected + "'\n" +
            refused.output());
        assertTrue(refused.stderr().contains("(lock file " + AffinityWorkerCores.lockFile(1) + ")"),
            refused.output());
        assertFalse(refused.stderr().contains("Exception"), "a stack trace instead of a message\n" +
            refused.output());
        assertEquals("", refused.stdout(), "nothing on stdout for a refused core");
        assertFalse(Files.exists(second.nodeDirectory()), "the refused forwarder made its node directory");
        assertEquals(List.of(), refused.dpdkFiles(), "the refused forwarder left DPDK files\n" + refused.output());
        assertTrue(holder.process().isAlive(), "the first forwarder runs on\n" + holder.output());

        holder.stop();
        assertNull(AffinityWorkerCores.holder(1), "core 1 is given back when the forwarder stops");
        assertNoFilesLeft(refused); // both nodes share counters_dir: empty once the first stopped too
    }

    private static String cpusAllowed(final Path status) throws IOException
    {
        return Files.readAllLines(status).stream().filter(line -> line.startsWith("Cpus_allowed_list:"))
            .map(line -> line.substring("Cpus_allowed_list:".length()).strip()).findFirst().orElse("?");
    }

    // The CPUs a thread of the process may run on, or null while no thread of that name runs.
    private static String workerCpus(final long pid, final String name)
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task")))
        {
            for (final Path task : (Iterable<Path>)tasks::iterator)
            {
                if (Files.readString(task.resolve("comm")).strip().equals(name))
                {
                    return cpusAllowed(task.resolve("status"));
                }
            }
        }
        catch (final IOException ex)
        {
            return null; // a thread ended while listed: look again
        }
        return null;
    }

    /**
     * A node forwarding two frames from a pcap to another, with one VIP.
     */
    private NodeSpec pcapNode() throws IOException
    {
        final NodeSpec spec = NodeSpec.create(dir);
        final Path in = dir.resolve(spec.name() + "-in.pcap");
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 2; i++)
        {
            frames.add(PacketBuilder.packet().ethernet(NodeSpec.mac(NodeSpec.DEFAULT_OWN_MAC), 0x02_5a_00_00_00_aaL)
                .ipv4("203.0.113.1", "10.100.0.1").tcp(40_000 + i, 80).build());
        }
        PcapWriter.write(in, frames);
        return spec.vip("10.100.0.1", 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + dir.resolve(spec.name() + "-out.pcap"))
            .port("net_pcap0").worker(1, "net_pcap0", "net_pcap0");
    }

    private static void assertNoFilesLeft(final ForwarderProcess process) throws IOException
    {
        assertEquals(List.of(), list(process.spec().countersDir()), "files left in counters_dir\n" +
            process.output());
        assertEquals(List.of(), process.dpdkFiles(), "DPDK files left\n" + process.output());
    }

    private static List<Path> list(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory))
        {
            return files.filter(path -> !path.equals(directory)).toList();
        }
    }
}
