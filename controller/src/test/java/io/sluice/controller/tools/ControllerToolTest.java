package io.sluice.controller.tools;

import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.MetricsConfig;
import io.sluice.controller.metrics.MetricsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerToolTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private MetricsServer server;

    @AfterEach
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
    }

    private Path config(final int port) throws IOException
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, """
            node: {name: lb1}
            forwarder:
              eal_args: []
              ports: [{name: net_null0}]
              workers: [{core: 0, rx_port: net_null0}]
              next_hop_mac: "02:00:00:00:00:fe"
              tunnel_source_v4: 10.0.0.1
            controller:
              metrics: {address: 127.0.0.1, port: %d}
            """.formatted(port));
        return file;
    }

    private Path startController() throws IOException
    {
        server = MetricsServer.start(new MetricsConfig(IpLiterals.parse("127.0.0.1"), 0), () -> "", Map.of(
            "/status", (method, query) ->
            {
                requests.add(method + " /status " + query);
                return MetricsServer.Response.text(200, "node lb1\n");
            },
            "/drain", (method, query) ->
            {
                requests.add(method + " /drain " + query);
                return query.get("backend").equals("be9") ?
                    MetricsServer.Response.text(404, "VIP web has no backend 'be9'\n") :
                    MetricsServer.Response.text(200, "VIP web backend be1: drained\n");
            },
            "/set-weight", (method, query) ->
            {
                requests.add(method + " /set-weight " + query);
                return MetricsServer.Response.text(200, "ok\n");
            }));
        return config(server.address().getPort());
    }

    private int run(final String... args)
    {
        return ControllerTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void printsTheControllersStatus() throws IOException
    {
        final Path config = startController();
        assertEquals(0, run("status", "--config", config.toString(), "--json"));
        assertEquals("node lb1\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("GET /status {format=json}"), requests);
    }

    @Test
    void postsOperatorActionsAndFailsWithTheControllersReason() throws IOException
    {
        final Path config = startController();
        assertEquals(0, run("drain", "--config", config.toString(), "web", "be1"));
        assertEquals(0, run("set-weight", "--config", config.toString(), "web", "10.1.0.2", "5"));
        assertEquals(1, run("drain", "--config", config.toString(), "web", "be9"));
        assertEquals(List.of("POST /drain {vip=web, backend=be1}", "POST /set-weight {vip=web, backend=10.1.0.2, " +
            "weight=5}", "POST /drain {vip=web, backend=be9}"), requests);
        assertEquals("VIP web has no backend 'be9'\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void saysSoWhenNoControllerAnswers() throws IOException
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0))
        {
            port = socket.getLocalPort(); // free once closed: nothing listens
        }
        assertEquals(1, run("status", "--config", config(port).toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no controller answers at http://127.0.0.1:" + port),
            err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void exitsTwoForUsageErrorsAndBadConfigs() throws IOException
    {
        assertEquals(2, run());
        assertEquals(2, run("status"));
        assertEquals(2, run("drain", "--config", "x.yaml", "web"));
        assertEquals(2, run("frobnicate", "--config", "x.yaml"));
        final Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "node: {name: lb1}\nbogus: 1\n");
        assertEquals(2, run("status", "--config", bad.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("bad.yaml"), err.toString(StandardCharsets.UTF_8));
    }
}
