package io.sluice.controller.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.common.config.MetricsConfig;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves {@code GET /metrics} over HTTP with the JDK's built-in server: the body comes from a supplier (usually
 * {@link PrometheusFormatter}) on every scrape. Other paths get 404, other methods 405; a supplier that throws gives
 * 500 for that scrape and the server keeps serving.
 */
public final class MetricsServer implements AutoCloseable
{
    /**
     * The path Prometheus scrapes.
     */
    public static final String PATH = "/metrics";

    /**
     * The {@code Content-Type} of a scrape.
     */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4";

    private final HttpServer server;
    private final ExecutorService executor;
    private final Supplier<String> body;
    private boolean closed;

    private MetricsServer(final HttpServer server, final ExecutorService executor, final Supplier<String> body)
    {
        this.server = server;
        this.executor = executor;
        this.body = body;
    }

    /**
     * Binds to the configured address and port (port 0 picks a free one) and starts serving.
     *
     * @param config where to listen.
     * @param body   renders the metrics on each scrape.
     * @return the running server.
     * @throws IOException when the address cannot be bound.
     */
    public static MetricsServer start(final MetricsConfig config, final Supplier<String> body) throws IOException
    {
        Objects.requireNonNull(body, "body");
        final HttpServer server = HttpServer.create(new InetSocketAddress(config.address(), config.port()), 0);
        final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        final MetricsServer metrics = new MetricsServer(server, executor, body);
        server.createContext("/", metrics::handle);
        server.setExecutor(executor);
        server.start();
        return metrics;
    }

    /**
     * Returns the bound address, with the actual port when 0 was configured.
     *
     * @return the address.
     */
    public InetSocketAddress address()
    {
        return server.getAddress();
    }

    /**
     * Stops serving and releases the port. Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(final HttpExchange exchange) throws IOException
    {
        try (exchange)
        {
            if (!PATH.equals(exchange.getRequestURI().getPath()))
            {
                respond(exchange, 404, "not found: scrape " + PATH + "\n");
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod()))
            {
                exchange.getResponseHeaders().set("Allow", "GET");
                respond(exchange, 405, "method not allowed: use GET\n");
                return;
            }
            final String text;
            try
            {
                text = Objects.requireNonNull(body.get(), "metrics supplier returned null");
            }
            catch (final RuntimeException ex)
            {
                // One failed scrape is reported to the scraper; the server stays up for the next.
                respond(exchange, 500, "metrics unavailable: " + ex.getClass().getSimpleName() + "\n");
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            respond(exchange, 200, text);
        }
    }

    private static void respond(final HttpExchange exchange, final int status, final String text) throws IOException
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (!exchange.getResponseHeaders().containsKey("Content-Type"))
        {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0)
        {
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(bytes);
            }
        }
    }
}
