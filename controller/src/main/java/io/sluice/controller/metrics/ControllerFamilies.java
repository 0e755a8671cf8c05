package io.sluice.controller.metrics;

import io.sluice.common.config.IpLiterals;
import io.sluice.controller.status.NodeStatus;

import java.util.ArrayList;
import java.util.List;
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
     * Returns the families of a snapshot.
     *
     * @param status the controller's status.
     * @return the families, each with {@code sluice_} names.
     */
    public static List<MetricFamily> of(final NodeStatus status)
    {
        final List<MetricFamily> families = new ArrayList<>();
        families.add(MetricFamily.gauge("sluice_forwarder_alive", "1 when the forwarder's heartbeat is fresh",
            List.of(Sample.of(bit(status.forwarder().alive())))));
        families.add(MetricFamily.gauge("sluice_forwarder_synchronized",
            "1 when the forwarder confirmed the controller's whole state since it came alive",
            List.of(Sample.of(bit(status.forwarder().synced())))));
        families.add(MetricFamily.gauge("sluice_forwarder_unconfirmed_commands",
            "Commands the forwarder has not confirmed yet",
            List.of(Sample.of(status.forwarder().unconfirmedCommands()))));

        final List<Sample> neighbors = new ArrayList<>();
        for (final Map.Entry<String, String> neighbor : status.bgp().neighbors().entrySet())
        {
            neighbors.add(Sample.of(bit("up".equals(neighbor.getValue())), "neighbor", neighbor.getKey()));
        }
        families.add(MetricFamily.gauge("sluice_bgp_session_up", "1 when the BGP session to the neighbor is up",
            neighbors));

        final List<Sample> announced = new ArrayList<>();
        final List<Sample> failOpen = new ArrayList<>();
        final List<Sample> eligibleCount = new ArrayList<>();
        final List<Sample> healthy = new ArrayList<>();
        final List<Sample> eligible = new ArrayList<>();
        final List<Sample> weight = new ArrayList<>();
        final List<Sample> drained = new ArrayList<>();
        final List<Sample> slots = new ArrayList<>();
        final List<Sample> latency = new ArrayList<>();
        final List<Sample> checks = new ArrayList<>();
        final List<Sample> failures = new ArrayList<>();
        final List<Sample> flaps = new ArrayList<>();
        final List<Sample> heldDown = new ArrayList<>();
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            announced.add(Sample.of(bit(vip.announced()), "vip", vip.name()));
            failOpen.add(Sample.of(bit(vip.failOpen()), "vip", vip.name()));
            eligibleCount.add(Sample.of(vip.eligible(), "vip", vip.name()));
            for (final NodeStatus.BackendStatus backend : vip.backends())
            {
                final String[] labels = {"vip", vip.name(), "backend", backend.name(),
                    "address", IpLiterals.format(backend.address())};
                healthy.add(Sample.of(bit(backend.healthy()), labels));
                eligible.add(Sample.of(bit(backend.eligible()), labels));
                weight.add(Sample.of(backend.weight(), labels));
                drained.add(Sample.of(bit(backend.drained()), labels));
                if (backend.maglevSlots() >= 0)
                {
                    slots.add(Sample.of(backend.maglevSlots(), labels));
                }
                if (backend.lastCheck() != null)
                {
                    latency.add(Sample.of(backend.lastCheckLatencyNs() / 1e9, labels));
                }
                checks.add(Sample.of(backend.checks(), labels));
                failures.add(Sample.of(backend.failedChecks(), labels));
                flaps.add(Sample.of(backend.flaps(), labels));
                heldDown.add(Sample.of(bit(backend.heldDown()), labels));
            }
        }
        families.add(MetricFamily.gauge("sluice_vip_announced", "1 when the VIP's route is announced over BGP",
            announced));
        families.add(MetricFamily.gauge("sluice_vip_fail_open",
            "1 when too few backends are healthy and all of them take traffic", failOpen));
        families.add(MetricFamily.gauge("sluice_vip_eligible_backends", "Backends that may take new flows",
            eligibleCount));
        families.add(MetricFamily.gauge("sluice_backend_healthy", "1 when the backend's health checks pass",
            healthy));
        families.add(MetricFamily.gauge("sluice_backend_eligible",
            "1 when the forwarder was told the backend may take flows (healthy, or fail-open)", eligible));
        families.add(MetricFamily.gauge("sluice_backend_weight", "The backend's weight (0 when drained)", weight));
        families.add(MetricFamily.gauge("sluice_backend_drained", "1 when an operator drained the backend",
            drained));
        families.add(MetricFamily.gauge("sluice_backend_maglev_slots",
            "Entries of the VIP's Maglev table that point at the backend", slots));
        families.add(MetricFamily.gauge("sluice_health_check_latency_seconds",
            "How long the backend's last health check took", latency));
        families.add(MetricFamily.counter("sluice_health_checks_total", "Health checks run", checks));
        families.add(MetricFamily.counter("sluice_health_check_failures_total", "Health checks failed", failures));
        families.add(MetricFamily.counter("sluice_backend_flaps_total", "Times flap damping held the backend down",
            flaps));
        families.add(MetricFamily.gauge("sluice_backend_held_down",
            "1 while flap damping holds the backend down", heldDown));
        return families;
    }

    private static double bit(final boolean value)
    {
        return value ? 1 : 0;
    }
}
