package io.sluice.tools.check;

import io.sluice.forwarder.process.DpdkFiles;
import io.sluice.forwarder.process.ForwarderProcess;
import io.sluice.forwarder.process.ForwarderProcesses;
import io.sluice.forwarder.process.NodeSpec;
import io.sluice.forwarder.testing.PacketBuilder;
import io.sluice.forwarder.testing.PcapWriter;
import io.sluice.testkit.SluiceJvm;
import io.sluice.testkit.tags.NeedsDpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sluice.forwarder.process.NodeSpec.backend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check-config --eal} ({@code EalCheck}) in its own JVM on real vdevs: EAL started with the forwarder's
 * arguments, every port looked up and checked against its device, nothing left behind. The forwarder itself
 * refuses the same way once EAL runs: exit 2 naming the field.
 */
@NeedsDpdk
class CheckConfigEalTest
{
    private static final long TIMEOUT_S = 60;

    @RegisterExtension
    final ForwarderProcesses forwarders = new ForwarderProcesses();

    @TempDir
    Path dir;

    private record Result(int status, String stdout, String stderr)
    {
        String output()
        {
            return "---- stdout:\n" + stdout + "---- stderr:\n" + stderr;
        }
    }

    @Test
    void passesAConfigWhosePortsExistAndListsTheirDevices() throws Exception
    {
        final NodeSpec spec = pcapNode(1).vdev("net_null0").port("net_null0");
        final Path file = write(spec, spec.toYaml());

        final Result result = checkConfig("--eal", file.toString());

        assertEquals(0, result.status(), result.output());
        assertTrue(result.stdout().contains("eal: DPDK "), result.output());
        assertTrue(result.stdout().contains("  port net_pcap0        id 0, net_pcap: rx queues 1 of 1, tx queues 1 of 1, " +
            "mtu 1500 in "), result.output());
        assertTrue(result.stdout().contains("  port net_null0        id 1, net_null: "), result.output());
        assertTrue(result.stdout().contains("eal: every port is there and can do what the config asks"),
            result.output());
        assertEquals(List.of(), DpdkFiles.of(spec.filePrefix()), "DPDK files left");
        assertFalse(Files.exists(spec.countersDir()), "check-config made no shared files");
    }

    @Test
    void refusesAPortWhoseVdevFailsAndADeviceWithTooFewQueues() throws Exception
    {
        final NodeSpec missing = NodeSpec.create(dir).vip("10.100.0.1", 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=/nonexistent.pcap,tx_pcap=" + dir.resolve("unused.pcap"))
            .port("net_pcap0").worker(1, "net_pcap0", "net_pcap0");
        final Path missingFile = write(missing, missing.toYaml());
        // net_pcap has one receive queue per rx_pcap=: two workers on one file ask for two.
        final NodeSpec twoWorkers = pcapNode(1).worker(0, "net_pcap0", "net_pcap0");
        final Path twoWorkersFile = write(twoWorkers, twoWorkers.toYaml());
        final NodeSpec badOption = pcapNode(1).ealArg("--no-such-eal-option");
        final Path badOptionFile = write(badOption, badOption.toYaml());

        final Result noPort = checkConfig("--eal", missingFile.toString());
        final Result queues = checkConfig("--eal", twoWorkersFile.toString());
        final Result eal = checkConfig("--eal", badOptionFile.toString());
        // Without --eal only what can be told without EAL is checked: all three files pass.
        final Result staticOnly = checkConfig(twoWorkersFile.toString());

        assertEquals(2, noPort.status(), noPort.output());
        assertTrue(noPort.stderr().contains(missingFile + ": forwarder.ports[0].name: no DPDK port named net_pcap0: " +
            "EAL did not create its --vdev"), noPort.output());
        assertEquals(2, queues.status(), queues.output());
        assertTrue(queues.stderr().contains(twoWorkersFile + ": forwarder.workers: port net_pcap0 needs 2 receive " +
            "and 2 transmit queue(s), one per worker, but its device (net_pcap) has at most 1 and 1"), queues.output());
        assertEquals(2, eal.status(), eal.output());
        assertTrue(eal.stderr().contains(badOptionFile + ": forwarder.eal_args: EAL refused them: rte_eal_init"),
            eal.output());
        assertEquals(0, staticOnly.status(), staticOnly.output());
        for (final NodeSpec spec : List.of(missing, twoWorkers, badOption))
        {
            assertEquals(List.of(), DpdkFiles.of(spec.filePrefix()), "DPDK files left");
        }

        // The forwarder refuses the file with too few queues the same way, once EAL runs.
        final ForwarderProcess forwarder = forwarders.launch(twoWorkers, twoWorkers.toYaml(), dir);
        assertEquals(2, forwarder.awaitExit(ForwarderProcess.STOP_TIMEOUT), forwarder.output());
        assertTrue(forwarder.stderr().contains(forwarder.configFile() + ": forwarder.workers: port net_pcap0 needs 2 " +
            "receive"), forwarder.output());
        assertFalse(forwarder.stderr().contains("Exception"), forwarder.output());
        assertEquals(List.of(), forwarder.dpdkFiles(), "DPDK files left");
    }

    private NodeSpec pcapNode(final int frames) throws IOException
    {
        final NodeSpec spec = NodeSpec.create(dir);
        final Path in = dir.resolve(spec.name() + "-in.pcap");
        final List<byte[]> packets = new java.util.ArrayList<>();
        for (int i = 0; i < frames; i++)
        {
            packets.add(PacketBuilder.packet().ethernet(NodeSpec.mac(NodeSpec.DEFAULT_OWN_MAC), 0x02_5a_00_00_00_aaL)
                .ipv4("203.0.113.1", "10.100.0.1").tcp(40_000 + i, 80).build());
        }
        PcapWriter.write(in, packets);
        return spec.vip("10.100.0.1", 80, "tcp", backend("10.1.0.1", 1))
            .vdev("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + dir.resolve(spec.name() + "-out.pcap"))
            .port("net_pcap0").worker(1, "net_pcap0", "net_pcap0");
    }

    private Path write(final NodeSpec spec, final String yaml) throws IOException
    {
        final Path file = Files.createDirectories(dir.resolve(spec.name())).resolve("node.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private Result checkConfig(final String... args) throws Exception
    {
        final List<String> command = SluiceJvm.command();
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-Dsluice.home=" + ForwarderProcess.repositoryRoot(),
            "-cp", System.getProperty("java.class.path"), "io.sluice.tools.check.EalCheck"));
        command.addAll(List.of(args));
        final Path out = Files.createTempFile(dir, "check", ".out");
        final Path err = Files.createTempFile(dir, "check", ".err");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try
        {
            if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
            {
                throw new AssertionError("check-config did not finish in " + TIMEOUT_S + " s\n" +
                    Files.readString(out) + Files.readString(err));
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
