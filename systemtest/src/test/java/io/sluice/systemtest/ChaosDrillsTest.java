package io.sluice.systemtest;

import io.sluice.common.Vip;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlClient;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ControlException;
import io.sluice.common.control.ControlResponse;
import io.sluice.common.control.ForwarderServices;
import io.sluice.testkit.Commands;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.HttpBackend;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.tags.NeedsDpdk;
import io.sluice.testkit.tags.NeedsNetns;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chaos drills of issue 18 that need timings the end-to-end demo does not have (health checks every 100 ms, the
 * smallest control ring), with real processes: a forwarder on DPDK {@code net_null}, its controller, and two python
 * HTTP backends in another namespace whose {@code /healthz} is a file the test creates and deletes.
 * <pre>
 *   lb 10.30.0.1 ---- be 10.30.0.2   (backends 10.1.0.1:8080, 10.1.0.2:8080 on be's lo)
 * </pre>
 * The drills run in order on the same node. The demo (scripts/demo.sh) has the drills that need real traffic.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsNetns
@NeedsDpdk
class ChaosDrillsTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIP = "10.100.0.1";
    private static final int MAX_CHANGES = 4;
    private static final long FLAP_PERIOD_MS = 500;
    private static final long FLAP_FOR_MS = 20_000;
    private static final int RING_CAPACITY = 4096;

    @TempDir
    static Path directory;

    private static Topology topology;
    private static Namespace backends;
    private static Node lb;
    private static final Map<String, Process> BACKEND_SERVERS = new HashMap<>();

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher()
    {
        @Override
        public void testFailed(final ExtensionContext context, final Throwable cause)
        {
            System.out.println(lb.logs());
        }
    };

    @BeforeAll
    static void startEverything() throws Exception
    {
        topology = Topology.start("cd", net ->
        {
            final Namespace node = net.namespace("lb");
            backends = net.namespace("be");
            net.veth(node, "lb", backends, "be");
            node.addAddress("lb", "10.30.0.1/24");
            node.addRoute("10.1.0.0/24", "via", "10.30.0.2");
            backends.addAddress("be", "10.30.0.2/24");
            backends.addAddress("lo", "10.1.0.1/32");
            backends.addAddress("lo", "10.1.0.2/32");
            startBackend("10.1.0.1");
            startBackend("10.1.0.2");
            final String name = Node.uniqueName("cd");
            lb = net.stopping(new Node(name, node, directory.resolve("lb"), config(name)), Node::stopProcesses);
            lb.startForwarder();
            lb.startController();
            Eventually.await(WAIT, () -> lb.http("/status?format=json"), status -> status.contains(
                "\"synchronized\":true") && status.contains("\"eligible_backends\":2"),
                "forwarder synchronized and both backends eligible");
        });
    }

    @AfterAll
    static void stopEverything()
    {
        if (topology != null)
        {
            topology.close(); // also whatever still runs in the namespaces
        }
    }

    private static String config(final String node)
    {
        return """
            node: {name: %s}
            forwarder:
              eal_args: ["--no-pci", "--no-huge", "-m", "128", "--vdev=net_null0"]
              ports: [{name: net_null0}]
              workers: [{core: 0, rx_port: net_null0}]
              idle_strategy: backoff
              mbufs_per_worker: 4095
              counters_dir: %s
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.30.0.1
              connection_table: {capacity: 4096}
              control: {ring_capacity: %d}
            vips:
              - name: web
                address: %s
                port: 80
                protocol: tcp
                backends: [{name: be1, address: 10.1.0.1}, {name: be2, address: 10.1.0.2}]
            controller:
              health_checks: {type: http, port: 8080, path: /healthz, interval: 100ms, timeout: 80ms, rise: 1,
                              fall: 1}
              flap_damping: {max_changes: %d, window: 60s, hold_down: 30s}
              forwarder_liveness_timeout: 10s
              drain_time: 1s
            """.formatted(node, directory.resolve("shm"), RING_CAPACITY, VIP, MAX_CHANGES);
    }

    private static Path healthFile(final String address)
    {
        return directory.resolve("www-" + address).resolve("healthz");
    }

    private static void startBackend(final String address)
    {
        try
        {
            final Path root = Files.createDirectories(directory.resolve("www-" + address));
            Files.writeString(healthFile(address), "ok\n");
            BACKEND_SERVERS.put(address, HttpBackend.start(backends, directory.resolve("backend-" + address + ".log"),
                address, 8080, root));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The sum of the samples of a metric family whose labels contain every given label, from /metrics. */
    private static double metric(final String name, final String... labels)
    {
        final String text = lb.http("/metrics");
        double sum = 0;
        boolean seen = false;
        for (final String line : text.split("\n"))
        {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " "))
            {
                continue;
            }
            boolean matches = true;
            for (final String label : labels)
            {
                matches &= line.contains(label);
            }
            if (matches)
            {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                seen = true;
            }
        }
        assertTrue(seen, "no " + name + " " + String.join(",", labels) + " in /metrics:\n" + text);
        return sum;
    }

    private static int count(final String text, final String part)
    {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1))
        {
            n++;
        }
        return n;
    }

    private static Path controlFile()
    {
        return ControlChannel.nodeFile(directory.resolve("shm"), lb.name());
    }

    private static Vip webVip() throws IOException
    {
        return new Vip(InetAddress.getByName(VIP), 80, Vip.TCP);
    }

    @Test
    @Order(1)
    void aBackendFlappingEvery500msIsHeldDownAndTheMaglevTableDoesNotChurn() throws Exception
    {
        final String be2 = "backend=\"be2\"";
        final double versionBefore = metric("sluice_forwarding_state_version");
        final double failuresBefore = metric("sluice_health_check_failures_total", be2);
        final int sentBefore = count(lb.logs(), "forwarder sets backend be2 ");

        final Path health = healthFile("10.1.0.2");
        int toggles = 0;
        final long endNs = System.nanoTime() + FLAP_FOR_MS * 1_000_000;
        while (System.nanoTime() - endNs < 0)
        {
            if (Files.exists(health))
            {
                Files.delete(health);
            }
            else
            {
                Files.writeString(health, "ok\n");
            }
            toggles++;
            Thread.sleep(FLAP_PERIOD_MS);
        }
        Files.writeString(health, "ok\n");
        Thread.sleep(500); // the last commands confirmed

        final double versions = metric("sluice_forwarding_state_version") - versionBefore;
        final double failures = metric("sluice_health_check_failures_total", be2) - failuresBefore;
        final double flaps = metric("sluice_backend_flaps_total", be2);
        final String log = lb.logs();
        final int sent = count(log, "forwarder sets backend be2 ") - sentBefore;
        System.out.printf("flap drill: %d toggles in %d ms; be2 checks failed %.0f times; flap-damping triggers " +
            "%.0f; health changes sent to the forwarder %d; forwarder state versions +%.0f%n", toggles, FLAP_FOR_MS,
            failures, flaps, sent, versions);

        assertTrue(toggles >= 30, "toggles " + toggles);
        assertTrue(failures >= toggles / 4.0, "the checks saw the flapping: " + failures + " failed checks");
        assertTrue(flaps >= 1, "flap damping triggered");
        assertTrue(log.contains("backend be2 held down for 30 s"), log);
        // Up at start, then down, up, down, up: the fifth change in the window starts the hold-down, so the
        // forwarder hears of at most MAX_CHANGES changes, not one per toggle; each is one state version.
        assertTrue(sent >= 1 && sent <= MAX_CHANGES, "health changes sent " + sent + " for " + toggles + " toggles");
        assertTrue(versions >= 1 && versions <= MAX_CHANGES,
            "forwarder state versions +" + versions + " for " + toggles + " toggles");
        final String status = lb.http("/status?format=json");
        final String be2HeldDown = "{\"name\":\"be2\",\"address\":\"10.1.0.2\",\"healthy\":false,\"held_down\":true,";
        assertTrue(status.contains(be2HeldDown) && status.contains("\"last_check_passed\":true,") &&
            status.contains("\"eligible_backends\":1"),
            "be2 stays held down although its checks pass again: " + status);
    }

    @Test
    @Order(2)
    void aFullControlRingMakesTheControllerBackOffAndCatchUpWithNothingLost() throws Exception
    {
        final Vip vip = webVip();
        final InetAddress be1 = InetAddress.getByName("10.1.0.1");
        final InetAddress be2 = InetAddress.getByName("10.1.0.2");
        final double appliedBefore = metric("sluice_control_commands_applied_total");
        final double rejectedBefore = metric("sluice_control_commands_rejected_total");
        final String refusedHealth = "forwarder did not confirm SetBackendHealth";
        final int fullBefore = count(lb.logs(), refusedHealth);
        final String forwarderPid = Long.toString(lb.forwarder().pid());
        final List<Long> burst = new ArrayList<>();
        try (ControlChannel channel = ControlChannel.open(controlFile()))
        {
            final ControlClient client = new ControlClient(channel, Duration.ofMillis(200),
                new BackoffIdleStrategy(10, 20, 1_000, 1_000_000));
            // The forwarder's control thread stops (SIGSTOP, well within the 10 s liveness time-out): the burst
            // fills the ring, and the controller's next command finds no room.
            Commands.run(List.of("kill", "-STOP", forwarderPid)).checked();
            try
            {
                while (true)
                {
                    try
                    {
                        burst.add(client.send(new ControlCommand.SetBackendWeight(vip, be2, 1)));
                    }
                    catch (final ControlException ex)
                    {
                        assertTrue(ex.getMessage().contains("command ring full"), ex.getMessage());
                        break;
                    }
                    assertTrue(burst.size() < RING_CAPACITY, "the ring never filled");
                }
                // be1 goes down: the controller must tell the forwarder, and the ring is full.
                Files.delete(healthFile("10.1.0.1"));
                Eventually.await(Duration.ofSeconds(20), () -> count(lb.logs(), refusedHealth) > fullBefore,
                    "the controller finding the ring full for be1's health");
                final String logs = lb.logs();
                final int at = logs.lastIndexOf(refusedHealth);
                final String refusal = logs.substring(at, logs.indexOf('\n', at));
                // Kept, not dropped, and retried once a second rather than in a tight loop.
                assertTrue(refusal.contains("up=false]: command ring full") &&
                    refusal.endsWith("retrying every 1000 ms"), refusal);
                assertTrue(lb.controller().isAlive());
            }
            finally
            {
                Commands.run(List.of("kill", "-CONT", forwarderPid)).checked();
            }
            int accepted = 0;
            for (final long id : burst)
            {
                final ControlResponse response = client.await(id, Duration.ofSeconds(10));
                accepted += response.isAccepted() ? 1 : 0;
            }
            assertEquals(burst.size(), accepted, "every command of the burst answered and accepted");

            final ForwarderServices state = Eventually.await(Duration.ofSeconds(20), () -> client.getState(
                Duration.ofSeconds(5)), s -> !s.vip(vip).backend(be1).healthy(),
                "the forwarder told that be1 is down");
            assertTrue(state.vip(vip).backend(be1).maglevSlots() == 0, state.toString());
        }
        final String status = Eventually.await(Duration.ofSeconds(20), () -> lb.http("/status?format=json"),
            s -> s.contains("\"unconfirmed_commands\":0"), "the controller caught up");
        assertTrue(status.contains("\"synchronized\":true") && status.contains("\"alive\":true"), status);
        final String log = lb.logs();
        assertEquals(1, count(log, "forwarder alive: process"), "the stopped forwarder was never taken for dead");
        final double applied = metric("sluice_control_commands_applied_total") - appliedBefore;
        final double rejected = metric("sluice_control_commands_rejected_total") - rejectedBefore;
        System.out.printf("ring drill: burst of %d commands filled the %d-byte ring; controller's health command " +
            "found it full %d time(s); afterwards commands applied +%.0f, rejected +%.0f%n", burst.size(),
            RING_CAPACITY, count(log, refusedHealth) - fullBefore, applied, rejected);
        assertTrue(applied >= burst.size() + 1, "the burst and the controller's command applied: " + applied);
        assertEquals(0, rejected);

        Files.writeString(healthFile("10.1.0.1"), "ok\n");
        Eventually.await(WAIT, () -> lb.http("/status?format=json"), s -> s.contains("\"eligible_backends\":1") ||
            s.contains("\"eligible_backends\":2"), "be1 back");
    }
}
