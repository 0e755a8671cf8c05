package io.sluice.controller.http;

import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.MetricsConfig;
import io.sluice.controller.operator.ActionToken;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.controller.status.NodeStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The status codes of the operator actions, over real HTTP to {@link ControllerHttpServer} with the routes of
 * {@link ControllerRoutes} and the real token check; the agent is a function that answers what the test says
 * (the agent's own decisions are {@code ControllerAgentTest}'s, the whole process is {@code ControllerProcessTest}'s).
 */
class ControllerRoutesTest
{
    @TempDir
    Path dir;

    private static final NodeStatus STATUS = new NodeStatus("lb1", 1_700_000_000_000L,
        new NodeStatus.Forwarder(false, "no forwarder yet", false, false, 0, 0),
        new NodeStatus.Bgp(false, "not configured", Map.of(), List.of(), Map.of(), Map.of()), List.of());

    private final HttpClient client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    private final List<OperatorRequest> submitted = new CopyOnWriteArrayList<>();
    private final AtomicReference<OperatorRequest.Reply> reply = new AtomicReference<>();
    private ControllerHttpServer server;
    private String token;

    @BeforeEach
    void start() throws IOException
    {
        final ActionToken actionToken = ActionToken.create(dir);
        token = ActionToken.read(dir);
        server = ControllerHttpServer.start(new MetricsConfig(IpLiterals.parse("127.0.0.1"), 0), () -> "",
            ControllerRoutes.routes(() -> STATUS, request ->
            {
                submitted.add(request);
                return CompletableFuture.completedFuture(reply.get());
            }), actionToken::admits);
    }

    @AfterEach
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
    }

    @Test
    void refusedReloadIsAConflictWithTheReason() throws Exception
    {
        reply.set(new OperatorRequest.Reply(false, "reload refused, nothing changed: metrics changed (restart)"));

        final HttpResponse<String> response = post("/reload", token);

        assertEquals(409, response.statusCode());
        assertEquals("reload refused, nothing changed: metrics changed (restart)\n", response.body());
        assertEquals(List.of(OperatorRequest.reload()), submitted);
    }

    @Test
    void acceptedReloadIsOk() throws Exception
    {
        reply.set(new OperatorRequest.Reply(true, "reloaded node.yaml: no change"));

        final HttpResponse<String> response = post("/reload", token);

        assertEquals(200, response.statusCode());
        assertEquals("reloaded node.yaml: no change\n", response.body());
    }

    @Test
    void refusedDrainIsNotFoundWithTheReason() throws Exception
    {
        reply.set(new OperatorRequest.Reply(false, "VIP web has no backend 'be9' (backends: be1, be2)"));

        final HttpResponse<String> response = post("/drain?vip=web&backend=be9", token);

        assertEquals(404, response.statusCode());
        assertEquals("VIP web has no backend 'be9' (backends: be1, be2)\n", response.body());
        assertEquals(List.of(new OperatorRequest(OperatorRequest.Action.DRAIN, "web", "be9", 0)), submitted);
    }

    @Test
    void badRequestsNeverReachTheAgent() throws Exception
    {
        reply.set(new OperatorRequest.Reply(true, "ok"));

        assertEquals(400, post("/drain?vip=web", token).statusCode());
        final HttpResponse<String> notANumber = post("/set-weight?vip=web&backend=be1&weight=heavy", token);
        assertEquals(400, notANumber.statusCode());
        assertEquals("weight must be a whole number 0..65535, got \"heavy\"\n", notANumber.body());
        assertEquals(400, post("/set-weight?vip=web&backend=be1&weight=65536", token).statusCode());
        assertEquals(400, post("/set-weight?vip=web&backend=be1&weight=-1", token).statusCode());
        assertEquals(List.of(), submitted);

        assertEquals(200, post("/set-weight?vip=web&backend=be1&weight=65535", token).statusCode());
        assertEquals(List.of(new OperatorRequest(OperatorRequest.Action.SET_WEIGHT, "web", "be1", 65535)), submitted);
    }

    @Test
    void actionsNeedTheTokenAndPost() throws Exception
    {
        reply.set(new OperatorRequest.Reply(true, "ok"));

        assertEquals(401, post("/reload", null).statusCode());
        assertEquals(401, post("/reload", "0".repeat(64)).statusCode());
        assertEquals(405, send(HttpRequest.newBuilder(uri("/reload")).GET()).statusCode());
        assertEquals(List.of(), submitted);

        final HttpResponse<String> status = send(HttpRequest.newBuilder(uri("/status")).GET());
        assertEquals(200, status.statusCode());
        assertTrue(status.body().contains("lb1"), status.body());
    }

    private HttpResponse<String> post(final String pathAndQuery, final String bearer) throws Exception
    {
        final HttpRequest.Builder request =
            HttpRequest.newBuilder(uri(pathAndQuery)).POST(HttpRequest.BodyPublishers.noBody());
        if (bearer != null)
        {
            request.header("Authorization", ActionToken.header(bearer));
        }
        return send(request);
    }

    private HttpResponse<String> send(final HttpRequest.Builder request) throws Exception
    {
        return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(final String pathAndQuery)
    {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + pathAndQuery);
    }
}
