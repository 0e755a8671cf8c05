package io.sluice.controller.health.check;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.common.config.HttpStatuses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@link HttpChecker} against a real JDK HTTP server on 127.0.0.1. */
class HttpCheckerTest
{
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    private final CountDownLatch releaseSlow = new CountDownLatch(1);
    private final AtomicReference<String> lastUri = new AtomicReference<>();
    private HttpServer server;
    private ExecutorService executor;
    private int port;

    @BeforeEach
    void startServer() throws IOException
    {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/ok", exchange -> respond(exchange, 200));
        server.createContext("/error", exchange -> respond(exchange, 500));
        server.createContext("/redirect", exchange -> respond(exchange, 302));
        server.createContext("/missing", exchange -> respond(exchange, 404));
        server.createContext("/slow", exchange ->
        {
            try
            {
                releaseSlow.await(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            respond(exchange, 200);
        });
        executor = Executors.newFixedThreadPool(4, r ->
        {
            final Thread thread = new Thread(r, "test-http-backend");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.start();
        port = server.getAddress().getPort();
    }

    private void respond(final HttpExchange exchange, final int status) throws IOException
    {
        lastUri.set(exchange.getRequestURI().toString());
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @AfterEach
    void stopServer()
    {
        releaseSlow.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private HttpChecker checker(final String path)
    {
        return new HttpChecker("127.0.0.1", port, path, TIMEOUT);
    }

    @Test
    void passesOn200()
    {
        final CheckResult result = checker("/ok?probe=1").check();
        assertTrue(result.passed(), result.toString());
        assertEquals("HTTP 200", result.detail());
        assertTrue(result.latencyNs() > 0);
        assertEquals("/ok?probe=1", lastUri.get());
    }

    @Test
    void failsOn500()
    {
        final CheckResult result = checker("/error").check();
        assertFalse(result.passed());
        assertEquals("HTTP 500", result.detail());
    }

    @Test
    void passesOn302WithinDefaultStatuses()
    {
        final CheckResult result = checker("/redirect").check();
        assertTrue(result.passed(), result.toString());
        assertEquals("HTTP 302", result.detail());
    }

    @Test
    void usesConfiguredStatuses()
    {
        final HttpChecker only200 = new HttpChecker("127.0.0.1", port, "/redirect", TIMEOUT, HttpStatuses.parse("200"));
        assertFalse(only200.check().passed());
        final HttpChecker accepts404 =
            new HttpChecker("127.0.0.1", port, "/missing", TIMEOUT, HttpStatuses.parse("404"));
        assertTrue(accepts404.check().passed());
    }

    @Test
    void timesOutOnSlowHandler()
    {
        final HttpChecker slow = new HttpChecker("127.0.0.1", port, "/slow", Duration.ofMillis(200));
        final long start = System.nanoTime();
        final CheckResult result = slow.check();
        final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertFalse(result.passed());
        assertEquals("timeout after 200 ms", result.detail());
        assertTrue(elapsedMs < 2_000, "took " + elapsedMs + " ms");
    }

    @Test
    void reportsRefusedOnClosedPort() throws IOException
    {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            closedPort = socket.getLocalPort();
        }
        final CheckResult result = new HttpChecker("127.0.0.1", closedPort, "/", TIMEOUT).check();
        assertFalse(result.passed());
        assertEquals("connect refused", result.detail());
    }

    @Test
    void reportsMalformedResponseFromNonHttpServer() throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final Thread speaker = new Thread(() ->
            {
                try (var client = socket.accept())
                {
                    client.getOutputStream().write("SSH-2.0-OpenSSH_9.6\r\n".getBytes());
                }
                catch (final IOException ignored)
                {
                    // the test fails on the checker's side if this goes wrong
                }
            });
            speaker.setDaemon(true);
            speaker.start();
            final CheckResult result = new HttpChecker("127.0.0.1", socket.getLocalPort(), "/", TIMEOUT).check();
            assertFalse(result.passed());
            assertEquals("malformed response", result.detail());
            speaker.join(2_000);
        }
    }

    @Test
    void rejectsHostNamesAndBadPaths()
    {
        assertThrows(IllegalArgumentException.class, () -> new HttpChecker("localhost", 80, "/", TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new HttpChecker("999.0.0.1", 80, "/", TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new HttpChecker("127.0.0.1", 80, "health", TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new HttpChecker("127.0.0.1", 80, "/a b", TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new HttpChecker("127.0.0.1", 0, "/", TIMEOUT));
    }

    @Test
    void parsesStatusLines()
    {
        assertEquals(200, HttpChecker.parseStatus("HTTP/1.1 200 OK\r"));
        assertEquals(503, HttpChecker.parseStatus("HTTP/1.0 503"));
        assertEquals(-1, HttpChecker.parseStatus("SSH-2.0-OpenSSH_9.6"));
        assertEquals(-1, HttpChecker.parseStatus("HTTP/1.1 2x0 OK"));
    }
}
