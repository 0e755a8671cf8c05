package io.sluice.tools.controller;

import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.MetricsConfig;
import io.sluice.controller.http.ControllerHttpServer;
import io.sluice.controller.http.ControllerRoutes;
import io.sluice.controller.operator.ActionToken;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.testkit.NodeYaml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerToolTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private ControllerHttpServer server;

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
            node: {name: lb1, state_dir: %s}
            %s
            controller:
              metrics: {address: 127.0.0.1, port: %d}
            """.formatted(dir.resolve("state"), NodeYaml.nullForwarder(dir.resolve("shm")).stripTrailing(), port));
        return file;
    }

    // The node directory of config(): counters_dir/<node name>.
    private Path nodeDirectory()
    {
        return dir.resolve("shm").resolve("lb1");
    }

    private Path startController() throws IOException
    {
        final ActionToken token = ActionToken.create(nodeDirectory());
        server = ControllerHttpServer.start(new MetricsConfig(IpLiterals.parse("127.0.0.1"), 0), () -> "", Map.of(
            "/status", (method, query) ->
            {
                requests.add(method + " /status " + query);
                return ControllerHttpServer.Response.text(200, "node lb1\n");
            },
            "/drain", (method, query) ->
            {
                requests.add(method + " /drain " + query);
                return query.get("backend").equals("be9") ?
                    ControllerHttpServer.Response.text(404, "VIP web has no backend 'be9'\n") :
                    ControllerHttpServer.Response.text(200, "VIP web backend be1: drained\n");
            },
            "/set-weight", (method, query) ->
            {
                requests.add(method + " /set-weight " + query);
                return ControllerHttpServer.Response.text(200, "ok\n");
            }), token::admits);
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
    void actionsNeedTheControllersTokenAndStatusDoesNot() throws Exception
    {
        final Path config = startController();
        final Path tokenFile = nodeDirectory().resolve(ActionToken.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        final String token = Files.readString(tokenFile).trim();
        assertTrue(token.matches("[0-9a-f]{64}"), token);

        // Straight to the port: no token, a wrong one, then the right one.
        final URI drain = URI.create("http://127.0.0.1:" + server.address().getPort() + "/drain?vip=web&backend=be1");
        final HttpClient client = HttpClient.newHttpClient();
        final HttpRequest.Builder post = HttpRequest.newBuilder(drain).POST(HttpRequest.BodyPublishers.noBody());
        final HttpResponse<String> anonymous = client.send(post.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode());
        assertTrue(anonymous.body().contains("controller.token"), anonymous.body());
        assertEquals(401, client.send(post.copy().header("Authorization", ActionToken.header("0".repeat(64))).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(200, client.send(post.copy().header("Authorization", ActionToken.header(token)).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(List.of("POST /drain {vip=web, backend=be1}"), requests);

        // Without the token file the tool says where it looked; status needs no token.
        Files.delete(tokenFile);
        assertEquals(1, run("drain", "--config", config.toString(), "web", "be1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot read the controller's token " + tokenFile),
            err.toString(StandardCharsets.UTF_8));
        assertEquals(0, run("status", "--config", config.toString()));
        assertEquals(List.of("POST /drain {vip=web, backend=be1}", "GET /status {}"), requests);
    }

    @Test
    void reloadExitsOneWithTheReasonWhenTheControllerRefusesIt() throws IOException
    {
        // The controller's own routes (a refused reload is 409), the agent answering as a running one would.
        final ActionToken token = ActionToken.create(nodeDirectory());
        final AtomicReference<OperatorRequest.Reply> reply = new AtomicReference<>(new OperatorRequest.Reply(false,
            "reload refused, nothing changed: controller bgp, metrics, forwarder_liveness_timeout, drain_time or " +
            "announce_regardless changed: restart the controller to apply it"));
        server = ControllerHttpServer.start(new MetricsConfig(IpLiterals.parse("127.0.0.1"), 0), () -> "",
            ControllerRoutes.routes(() -> null, request ->
            {
                requests.add(request.action() + " " + request.vip() + " " + request.backend());
                return CompletableFuture.completedFuture(reply.get());
            }), token::admits);
        final Path config = config(server.address().getPort());

        assertEquals(1, run("reload", "--config", config.toString()));
        assertEquals(reply.get().message() + "\n", err.toString(StandardCharsets.UTF_8));
        assertEquals("", out.toString(StandardCharsets.UTF_8));

        reply.set(new OperatorRequest.Reply(true, "reloaded " + config + ": no change"));
        assertEquals(0, run("reload", "--config", config.toString()));
        assertEquals("reloaded " + config + ": no change\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("RELOAD  ", "RELOAD  "), requests);
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
