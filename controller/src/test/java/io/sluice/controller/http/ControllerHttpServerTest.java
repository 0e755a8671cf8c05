package io.sluice.controller.http;

import io.sluice.common.config.MetricsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerHttpServerTest
{
    private static final String BODY = "# HELP sluice_up Up.\n# TYPE sluice_up gauge\nsluice_up 1\n";

    private final HttpClient client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    private ControllerHttpServer server;

    @AfterEach
    void stopServer()
    {
        if (server != null)
        {
            server.close();
        }
    }

    @Test
    void servesMetricsWithPrometheusContentType() throws Exception
    {
        start(() -> BODY);

        final HttpResponse<String> response = send("GET", "/metrics");

        assertEquals(200, response.statusCode());
        assertEquals("text/plain; version=0.0.4", response.headers().firstValue("Content-Type").orElse(""));
        assertEquals(BODY, response.body());
    }

    @Test
    void answersNotFoundElsewhere() throws Exception
    {
        start(() -> BODY);

        assertEquals(404, send("GET", "/").statusCode());
        assertEquals(404, send("GET", "/metrics/extra").statusCode());
    }

    @Test
    void answersMethodNotAllowedForNonGet() throws Exception
    {
        start(() -> BODY);

        final HttpResponse<String> response = send("POST", "/metrics");

        assertEquals(405, response.statusCode());
        assertEquals("GET", response.headers().firstValue("Allow").orElse(""));
    }

    @Test
    void reportsFailingSupplierAndKeepsServing() throws Exception
    {
        final AtomicBoolean fail = new AtomicBoolean(true);
        start(() ->
        {
            if (fail.get())
            {
                throw new IllegalStateException("counters file gone");
            }
            return BODY;
        });

        final HttpResponse<String> failed = send("GET", "/metrics");
        assertEquals(500, failed.statusCode());
        assertTrue(failed.body().startsWith("metrics unavailable"), failed.body());

        fail.set(false);
        final HttpResponse<String> recovered = send("GET", "/metrics");
        assertEquals(200, recovered.statusCode());
        assertEquals(BODY, recovered.body());
    }

    @Test
    void bindsToTheConfiguredLoopbackAddress() throws Exception
    {
        start(() -> BODY);

        assertEquals("127.0.0.1", server.address().getAddress().getHostAddress());
        assertTrue(server.address().getPort() > 0);
    }

    private void start(final Supplier<String> body) throws Exception
    {
        server = ControllerHttpServer.start(new MetricsConfig(InetAddress.getByName("127.0.0.1"), 0), body);
    }

    private HttpResponse<String> send(final String method, final String path) throws Exception
    {
        final URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + path);
        final HttpRequest request = HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(5))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
