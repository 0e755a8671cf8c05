package io.sluice.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.common.config.MetricsConfig;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The controller's HTTP server, on the JDK's built-in server with one thread: {@code GET /metrics}, whose body comes
 * from a supplier ({@link io.sluice.controller.metrics.MetricsExposition}) on every scrape, and the
 * {@link Route routes} {@link ControllerRoutes} defines ({@code /status}, the operator actions), with the bearer
 * token check in front of every route called with another method than GET. Unknown paths get 404, other methods
 * on {@code /metrics} 405; a supplier or route that throws gives 500 for that request and the server keeps
 * serving.
 */
public final class ControllerHttpServer implements AutoCloseable
{
    /**
     * The path Prometheus scrapes.
     */
    public static final String PATH = "/metrics";

    /**
     * The {@code Content-Type} of a scrape.
     */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4";

    /**
     * An answer to one request.
     *
     * @param status      the HTTP status.
     * @param contentType the body's type.
     * @param body        the body.
     */
    public record Response(int status, String contentType, String body)
    {
        /**
         * Returns a plain-text answer.
         *
         * @param status the HTTP status.
         * @param body   the text.
         * @return the response.
         */
        public static Response text(final int status, final String body)
        {
            return new Response(status, "text/plain; charset=utf-8", body);
        }
    }

    /**
     * Answers requests to one path.
     */
    @FunctionalInterface
    public interface Route
    {
        /**
         * Answers one request.
         *
         * @param method the HTTP method.
         * @param query  the query parameters, decoded (a parameter given twice keeps the last value).
         * @return the answer.
         */
        Response handle(String method, Map<String, String> query);
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Supplier<String> body;
    private final Map<String, Route> routes;
    private final Predicate<String> authorization;
    private boolean closed;

    private ControllerHttpServer(final HttpServer server, final ExecutorService executor, final Supplier<String> body,
        final Map<String, Route> routes, final Predicate<String> authorization)
    {
        this.server = server;
        this.executor = executor;
        this.body = body;
        this.routes = routes;
        this.authorization = authorization;
    }

    /**
     * Binds to the configured address and port (port 0 picks a free one) and starts serving.
     *
     * @param config where to listen.
     * @param body   renders the metrics on each scrape.
     * @return the running server.
     * @throws IOException when the address cannot be bound.
     */
    public static ControllerHttpServer start(final MetricsConfig config, final Supplier<String> body) throws IOException
    {
        return start(config, body, Map.of());
    }

    /**
     * Binds to the configured address and port (port 0 picks a free one) and starts serving metrics and routes.
     *
     * @param config where to listen.
     * @param body   renders the metrics on each scrape.
     * @param routes other paths (e.g. {@code /status}) and their handlers.
     * @return the running server.
     * @throws IOException when the address cannot be bound.
     */
    public static ControllerHttpServer start(final MetricsConfig config, final Supplier<String> body,
        final Map<String, Route> routes) throws IOException
    {
        return start(config, body, routes, null);
    }

    /**
     * Binds and serves as {@link #start(MetricsConfig, Supplier, Map)}, and lets a route be called with any method
     * but GET (an action) only when the request's {@code Authorization} header passes {@code authorization};
     * otherwise the answer is 401.
     *
     * @param config        where to listen.
     * @param body          renders the metrics on each scrape.
     * @param routes        other paths and their handlers.
     * @param authorization tests the {@code Authorization} header (null when absent) of every non-GET request to a
     *                      route; null lets every request through.
     * @return the running server.
     * @throws IOException when the address cannot be bound.
     */
    public static ControllerHttpServer start(final MetricsConfig config, final Supplier<String> body,
        final Map<String, Route> routes, final Predicate<String> authorization) throws IOException
    {
        Objects.requireNonNull(body, "body");
        final HttpServer server = HttpServer.create(new InetSocketAddress(config.address(), config.port()), 0);
        final ExecutorService executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "controller-http");
            thread.setDaemon(true);
            return thread;
        });
        final ControllerHttpServer http =
            new ControllerHttpServer(server, executor, body, Map.copyOf(routes), authorization);
        server.createContext("/", http::handle);
        server.setExecutor(executor);
        server.start();
        return http;
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
            final String path = exchange.getRequestURI().getPath();
            final Route route = routes.get(path);
            if (route != null)
            {
                if (authorization != null && !"GET".equals(exchange.getRequestMethod()) &&
                    !authorization.test(exchange.getRequestHeaders().getFirst("Authorization")))
                {
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
                    respond(exchange, 401, "unauthorized: an action needs \"Authorization: Bearer <token>\", the " +
                        "token being the controller.token file in the node directory (scripts/sluice sends it)\n");
                    return;
                }
                serve(exchange, route);
                return;
            }
            if (!PATH.equals(path))
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

    private static void serve(final HttpExchange exchange, final Route route) throws IOException
    {
        final Response response;
        try
        {
            response = route.handle(exchange.getRequestMethod(), query(exchange.getRequestURI().getRawQuery()));
        }
        catch (final RuntimeException ex)
        {
            respond(exchange, 500, "failed: " + ex + "\n");
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", response.contentType());
        respond(exchange, response.status(), response.body());
    }

    static Map<String, String> query(final String rawQuery)
    {
        final Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty())
        {
            return query;
        }
        for (final String pair : rawQuery.split("&"))
        {
            final int equals = pair.indexOf('=');
            final String name = equals < 0 ? pair : pair.substring(0, equals);
            final String value = equals < 0 ? "" : pair.substring(equals + 1);
            query.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return query;
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
