package io.sluice.controller;

import io.sluice.controller.operator.ActionToken;
import io.sluice.testkit.SluiceJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The controller in its own JVM, as an operator starts it, without BGP and without a forwarder: what a clean stop
 * leaves behind in {@code counters_dir}.
 */
class ControllerProcessTest
{
    private static final long TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;

    private Process process;

    @AfterEach
    void killTheController() throws InterruptedException
    {
        if (process != null && process.isAlive())
        {
            process.destroyForcibly();
            process.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void cleanStopRemovesTheDirectoriesItMadeAndKeepsOthers() throws Exception
    {
        final String node = randomNode();
        final Path countersDir = dir.resolve("shm/sluice");
        final Path nodeDir = countersDir.resolve(node);
        final Path config = dir.resolve("node.yaml");
        Files.writeString(config, nodeConfig(node, freePort(), "drain_time: 100ms"));

        start(config);
        awaitFile(nodeDir.resolve(ActionToken.FILE_NAME));
        stop();

        assertFalse(Files.exists(countersDir), "counters_dir left behind: " + list(dir.resolve("shm")) + "\n" +
            output());
        assertTrue(Files.isDirectory(dir.resolve("shm")) || !Files.exists(dir.resolve("shm")));

        // A counters_dir that existed before, with another node's file in it, stays as it was.
        final Path other = Files.createDirectories(countersDir.resolve("lb9")).resolve("keep.txt");
        Files.writeString(other, "another node's file");
        start(config);
        awaitFile(nodeDir.resolve(ActionToken.FILE_NAME));
        stop();
        assertFalse(Files.exists(nodeDir), "node directory left behind\n" + output());
        assertEquals("another node's file", Files.readString(other));
    }

    @Test
    void refusedReloadIsAConflictWithTheReason() throws Exception
    {
        final String node = randomNode();
        final Path nodeDir = dir.resolve("shm/sluice").resolve(node);
        final Path config = dir.resolve("node.yaml");
        final int port = freePort();
        Files.writeString(config, nodeConfig(node, port, "drain_time: 100ms"));
        start(config);
        // The token is written before the HTTP server binds; the start-up line comes after it listens.
        awaitFile(nodeDir.resolve(ActionToken.FILE_NAME));
        awaitOutput("metrics and status on http://127.0.0.1:" + port);
        final String token = ActionToken.read(nodeDir);

        final HttpResponse<String> same = postReload(port, token);
        assertEquals(200, same.statusCode(), same.body());
        assertTrue(same.body().contains("no change"), same.body());

        // A file that does not load: refused, nothing changed.
        Files.writeString(config, nodeConfig(node, port, "drian_time: 100ms"));
        final HttpResponse<String> typo = postReload(port, token);
        assertEquals(409, typo.statusCode(), typo.body());
        assertTrue(typo.body().startsWith("reload refused, nothing changed: "), typo.body());
        assertTrue(typo.body().contains("drian_time"), typo.body());

        // A change only a restart applies: refused (sluice reload's exit is ControllerToolTest's, in tools/).
        Files.writeString(config, nodeConfig(node, port, "drain_time: 200ms"));
        final HttpResponse<String> restart = postReload(port, token);
        assertEquals(409, restart.statusCode(), restart.body());
        assertTrue(restart.body().contains("drain_time"), restart.body());

        Files.writeString(config, nodeConfig(node, port, "drain_time: 100ms"));
        assertEquals(200, postReload(port, token).statusCode());
        stop();
        assertTrue(Files.readString(dir.resolve("stdout.txt")).contains("controller: reload refused: "), output());
    }

    // One net_null port, no BGP; counters_dir is dir/shm/sluice.
    private String nodeConfig(final String node, final int port, final String drainLine)
    {
        return """
            node: {name: %s}
            forwarder:
              eal_args: ["--no-huge", "-m", "128", "--vdev=net_null0"]
              ports: [{name: net_null0}]
              workers: [{core: 0, rx_port: net_null0}]
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.0.0.1
              counters_dir: "%s"
            controller:
              %s
              metrics: {address: 127.0.0.1, port: %d}
            """.formatted(node, dir.resolve("shm/sluice"), drainLine, port);
    }

    private static HttpResponse<String> postReload(final int port, final String token) throws Exception
    {
        final HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/reload"))
            .timeout(Duration.ofSeconds(10)).header("Authorization", ActionToken.header(token))
            .POST(HttpRequest.BodyPublishers.noBody()).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private void start(final Path config) throws IOException
    {
        final List<String> command = SluiceJvm.command();
        command.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
            "io.sluice.controller.ControllerMain", "--config", config.toString()));
        process = new ProcessBuilder(command).redirectOutput(dir.resolve("stdout.txt").toFile())
            .redirectError(dir.resolve("stderr.txt").toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    private void stop() throws Exception
    {
        process.destroy();
        if (!process.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        {
            fail("the controller did not stop\n" + output());
        }
        assertEquals(0, process.exitValue(), output());
        assertTrue(Files.readString(dir.resolve("stdout.txt")).contains("controller: stopped cleanly"), output());
    }

    private void awaitFile(final Path file) throws Exception
    {
        await(file.toString(), () -> Files.exists(file));
    }

    private void awaitOutput(final String text) throws Exception
    {
        await("\"" + text + "\"", () -> Files.readString(dir.resolve("stdout.txt")).contains(text));
    }

    // Start-up waits: fail at once, with the output, when the controller exits instead.
    private void await(final String what, final Condition condition) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (!condition.holds())
        {
            if (!process.isAlive())
            {
                fail("the controller exited with " + process.exitValue() + "\n" + output());
            }
            if (System.nanoTime() - deadline > 0)
            {
                fail("no " + what + " after " + TIMEOUT_MS + " ms\n" + output());
            }
            Thread.sleep(20);
        }
    }

    @FunctionalInterface
    private interface Condition
    {
        boolean holds() throws IOException;
    }

    private String output() throws IOException
    {
        return "---- stdout:\n" + Files.readString(dir.resolve("stdout.txt")) + "---- stderr:\n" +
            Files.readString(dir.resolve("stderr.txt"));
    }

    private static List<Path> list(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return List.of();
        }
        try (var files = Files.walk(directory))
        {
            return files.toList();
        }
    }

    // Unique per run: the node's directory name in counters_dir.
    private static String randomNode()
    {
        return "ctl-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFFFL);
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
