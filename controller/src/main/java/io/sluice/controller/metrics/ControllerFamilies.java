package io.sluice.controller.metrics;

import io.sluice.common.config.IpLiterals;
import io.sluice.controller.status.NodeStatus;

import java.util.Map;

/**
 * The controller's own metrics, from its {@link NodeStatus}: forwarder liveness, BGP announcement per VIP and
 * session per neighbor, backend health, eligibility, weight, Maglev slots and health-check latency. Pure.
 */
public final class ControllerFamilies
{
    private ControllerFamilies()
    {
    }

    /**
     * Adds the points of a status to the builder.
     *
     * @param status the controller's status.
     * @param out    where the points go, each with a {@code sluice_} name.
     */
    public static void add(final NodeStatus status, final MetricSnapshotsBuilder out)
    {
        out.gauge("sluice_forwarder_alive", "1 when the forwarder's heartbeat is fresh",
            bit(status.forwarder().alive()));
        out.gauge("sluice_forwarder_synchronized",
            "1 when the forwarder confirmed the controller's whole state since it came alive",
            bit(status.forwarder().synced()));
        out.gauge("sluice_forwarder_unconfirmed_commands", "Commands the forwarder has not confirmed yet",
            status.forwarder().unconfirmedCommands());

        for (final Map.Entry<String, String> neighbor : status.bgp().neighbors().entrySet())
        {
            out.gauge("sluice_bgp_session_up", "1 when the BGP session to the neighbor is up",
                bit("up".equals(neighbor.getValue())), "neighbor", neighbor.getKey());
        }
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            out.gauge("sluice_vip_announced", "1 when the VIP's route is announced over BGP", bit(vip.announced()),
                "vip", vip.name());
            out.gauge("sluice_vip_fail_open", "1 when too few backends are healthy and all of them take traffic",
                bit(vip.failOpen()), "vip", vip.name());
            out.gauge("sluice_vip_eligible_backends", "Backends that may take new flows", vip.eligible(),
                "vip", vip.name());
        }
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            for (final NodeStatus.BackendStatus backend : vip.backends())
            {
                addBackend(out, vip, backend);
            }
        }
    }

    private static void addBackend(
        final MetricSnapshotsBuilder out, final NodeStatus.VipStatus vip, final NodeStatus.BackendStatus backend)
    {
        final String[] labels = {"vip", vip.name(), "backend", backend.name(),
            "address", IpLiterals.format(backend.address())};
        out.gauge("sluice_backend_healthy", "1 when the backend's health checks pass", bit(backend.healthy()),
            labels);
        out.gauge("sluice_backend_eligible",
            "1 when the forwarder was told the backend may take flows (healthy, or fail-open)",
            bit(backend.eligible()), labels);
        out.gauge("sluice_backend_weight", "The backend's weight (0 when drained)", backend.weight(), labels);
        out.gauge("sluice_backend_drained", "1 when an operator drained the backend", bit(backend.drained()),
            labels);
        if (backend.maglevSlots() >= 0)
        {
            out.gauge("sluice_backend_maglev_slots", "Entries of the VIP's Maglev table that point at the backend",
                backend.maglevSlots(), labels);
        }
        if (backend.lastCheck() != null)
        {
            out.gauge("sluice_health_check_latency_seconds", "How long the backend's last health check took",
                backend.lastCheckLatencyNs() / 1e9, labels);
        }
        out.counter("sluice_health_checks_total", "Health checks run", backend.checks(), labels);
        out.counter("sluice_health_check_failures_total", "Health checks failed", backend.failedChecks(), labels);
        out.counter("sluice_backend_flaps_total", "Times flap damping held the backend down", backend.flaps(),
            labels);
        out.gauge("sluice_backend_held_down", "1 while flap damping holds the backend down",
            bit(backend.heldDown()), labels);
    }

    private static double bit(final boolean value)
    {
        return value ? 1 : 0;
    }
}
