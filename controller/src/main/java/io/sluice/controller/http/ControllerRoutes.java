package io.sluice.controller.http;

import io.sluice.common.config.NodeConfig;
import io.sluice.common.counters.CountersFileHeader;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.controller.metrics.BuildInfoCollector;
import io.sluice.controller.metrics.ControllerStatusCollector;
import io.sluice.controller.metrics.ForwarderCountersCollector;
import io.sluice.controller.metrics.MetricsExposition;
import io.sluice.controller.operator.ActionToken;
import io.sluice.controller.operator.BackendWeights;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.controller.status.NodeStatus;
import io.sluice.controller.status.StatusRenderer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the controller's HTTP endpoints answer, on the metrics address (localhost by default), served by
 * {@link ControllerHttpServer}:
 * <ul>
 *     <li>{@code GET /metrics}: the forwarder's counters and the controller's own metrics, Prometheus text.</li>
 *     <li>{@code GET /status}, {@code GET /status?format=json}: what {@code sluice status} prints.</li>
 *     <li>{@code POST /drain?vip=V&backend=B}, {@code POST /undrain?...}, {@code POST /set-weight?...&weight=N}:
 *     operator actions; 200 with what happened, 404 with the reason for an unknown VIP or backend, 400 for a
 *     request without them or with a weight outside 0..65535.</li>
 *     <li>{@code POST /reload}: re-read the node configuration; 200 with the changes, 409 (Conflict) with the
 *     reason when it is refused (the file does not load, or it changes what only a restart applies), in which case
 *     nothing changed.</li>
 * </ul>
 * An action the agent does not answer within {@link #ACTION_TIMEOUT_MS} gets 503; any other method than the
 * path's gets 405. The actions need {@code Authorization: Bearer <token>} with the token of {@link ActionToken}
 * (401 without it); metrics and status are open to whoever reaches the address.
 */
public final class ControllerRoutes
{
    /** How long an operator action waits for the agent. */
    static final long ACTION_TIMEOUT_MS = 5_000;

    private ControllerRoutes()
    {
    }

    /**
     * Serves the controller's endpoints at the configured metrics address.
     *
     * @param config   the node's configuration: the metrics address and the counters file.
     * @param status   the agent's latest status snapshot.
     * @param operator hands an operator request to the agent thread ({@code ControllerAgent.submit}).
     * @param token    the token the actions must carry.
     * @return the running server.
     * @throws IOException when the address cannot be bound.
     */
    public static ControllerHttpServer start(final NodeConfig config, final Supplier<NodeStatus> status,
        final Function<OperatorRequest, CompletableFuture<OperatorRequest.Reply>> operator, final ActionToken token)
        throws IOException
    {
        final Path countersPath = config.nodeDirectory().resolve(CountersFileHeader.FILE_NAME);
        final PrometheusRegistry registry = registry(countersPath, status);
        return ControllerHttpServer.start(config.controller().metrics(),
            () -> MetricsExposition.text(registry.scrape()), routes(status, operator), token::admits);
    }

    /**
     * Returns the routes beside {@code /metrics}: status and the operator actions.
     *
     * @param status   the agent's latest status snapshot.
     * @param operator hands an operator request to the agent thread.
     * @return the routes by path.
     */
    public static Map<String, ControllerHttpServer.Route> routes(final Supplier<NodeStatus> status,
        final Function<OperatorRequest, CompletableFuture<OperatorRequest.Reply>> operator)
    {
        return Map.of(
            "/status", (method, query) -> status(method, query, status.get()),
            "/drain", (method, query) -> action(operator, method, query, OperatorRequest.Action.DRAIN),
            "/undrain", (method, query) -> action(operator, method, query, OperatorRequest.Action.UNDRAIN),
            "/set-weight", (method, query) -> action(operator, method, query, OperatorRequest.Action.SET_WEIGHT),
            "/reload", (method, query) -> action(operator, method, query, OperatorRequest.Action.RELOAD));
    }

    /**
     * Returns what {@code /metrics} serves: the forwarder's counters, the controller's status and the build.
     */
    static PrometheusRegistry registry(final Path countersPath, final Supplier<NodeStatus> status)
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new ForwarderCountersCollector(countersPath, System::currentTimeMillis));
        registry.register(new ControllerStatusCollector(status));
        registry.register(BuildInfoCollector.ofThisBuild());
        return registry;
    }

    private static ControllerHttpServer.Response status(
        final String method, final Map<String, String> query, final NodeStatus status)
    {
        if (!"GET".equals(method))
        {
            return ControllerHttpServer.Response.text(405, "method not allowed: use GET\n");
        }
        if ("json".equals(query.get("format")))
        {
            return new ControllerHttpServer.Response(200, "application/json", StatusRenderer.json(status));
        }
        return ControllerHttpServer.Response.text(200, StatusRenderer.text(status));
    }

    private static ControllerHttpServer.Response action(
        final Function<OperatorRequest, CompletableFuture<OperatorRequest.Reply>> operator, final String method,
        final Map<String, String> query, final OperatorRequest.Action action)
    {
        if (!"POST".equals(method))
        {
            return ControllerHttpServer.Response.text(405, "method not allowed: use POST\n");
        }
        final boolean reload = action == OperatorRequest.Action.RELOAD;
        final String vip = reload ? "" : query.get("vip");
        final String backend = reload ? "" : query.get("backend");
        if (vip == null || backend == null)
        {
            return ControllerHttpServer.Response.text(400, "vip and backend are required\n");
        }
        int weight = 0;
        if (action == OperatorRequest.Action.SET_WEIGHT)
        {
            final String text = query.getOrDefault("weight", "");
            try
            {
                weight = Integer.parseInt(text);
            }
            catch (final NumberFormatException ex)
            {
                weight = -1;
            }
            if (weight < 0 || weight > BackendWeights.MAX_WEIGHT)
            {
                return ControllerHttpServer.Response.text(400,
                    "weight must be a whole number 0.." + BackendWeights.MAX_WEIGHT + ", got \"" + text + "\"\n");
            }
        }
        try
        {
            final OperatorRequest.Reply reply = operator.apply(new OperatorRequest(action, vip, backend, weight))
                .get(ACTION_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            // A refused reload is a conflict with the running node (nothing changed), not a missing resource.
            final int refused = reload ? 409 : 404;
            return ControllerHttpServer.Response.text(reply.accepted() ? 200 : refused, reply.message() + "\n");
        }
        catch (final TimeoutException ex)
        {
            return ControllerHttpServer.Response.text(503, "the controller did not answer within " +
                ACTION_TIMEOUT_MS + " ms\n");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return ControllerHttpServer.Response.text(503, "interrupted\n");
        }
        catch (final ExecutionException ex)
        {
            return ControllerHttpServer.Response.text(500, "failed: " + ex.getCause() + "\n");
        }
    }
}
