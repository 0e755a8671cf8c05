package io.sluice.controller.reload;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ControllerConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.controller.bgp.RouteAttributes;
import io.sluice.controller.health.HealthMonitor;
import io.sluice.controller.operator.BackendWeights;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a configuration reload changes in the forwarder: VIPs and backends added or removed, and weights changed.
 * Pure.
 * <p>
 * Only the {@code vips} list and the health-check settings ({@code health_checks}, {@code flap_damping},
 * {@code fail_open_share}) can change in a running controller; anything else needs a restart of the process that
 * reads it, and the reload is refused with the reason. A VIP is identified by its name: one whose address, port or
 * protocol changed is removed and added again (its flows start over). New backends join down unless their check
 * says {@code start_up}: they take flows once they pass {@code rise} checks, like at start. Operator overrides are
 * kept.
 *
 * @param commands the forwarder commands, removals first.
 * @param changes  one line per change, for the log and the operator.
 */
public record ReloadPlan(List<ControlCommand> commands, List<String> changes)
{
    /**
     * Copies the lists, so the record is immutable.
     */
    public ReloadPlan
    {
        commands = List.copyOf(commands);
        changes = List.copyOf(changes);
    }

    /**
     * Says why a new configuration cannot be applied without a restart.
     *
     * @param current the running configuration.
     * @param next    the reloaded one.
     * @return the reason, or null when it can be applied.
     */
    public static String refusal(final NodeConfig current, final NodeConfig next)
    {
        if (!current.node().equals(next.node()))
        {
            return "node changed: restart the forwarder and the controller to apply it";
        }
        if (!current.forwarder().equals(next.forwarder()))
        {
            return "forwarder section changed: restart the forwarder to apply it (VIPs and backends need no restart)";
        }
        final ControllerConfig a = current.controller();
        final ControllerConfig b = next.controller();
        if (!Objects.equals(a.bgp(), b.bgp()) || !a.metrics().equals(b.metrics()) ||
            a.forwarderLivenessTimeoutNs() != b.forwarderLivenessTimeoutNs() || a.drainTimeNs() != b.drainTimeNs() ||
            a.announceRegardless() != b.announceRegardless())
        {
            return "controller bgp, metrics, forwarder_liveness_timeout, drain_time or announce_regardless changed: " +
                "restart the controller to apply it";
        }
        if (a.bgp() != null && !RouteAttributes.describe(a.bgp(), current.vips())
            .equals(RouteAttributes.describe(b.bgp(), next.vips())))
        {
            return "the BGP attributes of a VIP's route (vips[i].bgp) changed: restart the controller to apply them";
        }
        return null;
    }

    /**
     * Plans the commands from one configuration to the next.
     *
     * @param current        the running configuration.
     * @param currentWeights the running weights.
     * @param next           the reloaded configuration.
     * @param nextMonitor    the health state of the next configuration, carried over from the running one.
     * @param nextWeights    the weights of the next configuration, operator overrides restored.
     * @return the plan.
     */
    public static ReloadPlan plan(final NodeConfig current, final BackendWeights currentWeights, final NodeConfig next,
        final HealthMonitor nextMonitor, final BackendWeights nextWeights)
    {
        final Map<String, VipConfig> before = byName(current.vips());
        final Map<String, VipConfig> after = byName(next.vips());
        final List<ControlCommand> removals = new ArrayList<>();
        final List<ControlCommand> additions = new ArrayList<>();
        final List<String> changes = new ArrayList<>();
        for (final VipConfig old : before.values())
        {
            final VipConfig kept = after.get(old.name());
            if (kept == null || !kept.vip().equals(old.vip()))
            {
                removals.add(new ControlCommand.RemoveVip(old.vip()));
                changes.add("VIP " + old.name() + " " + old.vip() + " removed");
            }
        }
        for (final VipConfig vip : after.values())
        {
            final VipConfig old = before.get(vip.name());
            if (old == null || !old.vip().equals(vip.vip()))
            {
                additions.add(new ControlCommand.AddVip(vip.vip(), vip.name()));
                changes.add("VIP " + vip.name() + " " + vip.vip() + " added");
                for (final BackendConfig backend : vip.backends())
                {
                    additions.add(addBackend(vip, backend, nextMonitor, nextWeights));
                }
                continue;
            }
            planBackends(old, vip, currentWeights, nextMonitor, nextWeights, removals, additions, changes);
        }
        final List<ControlCommand> commands = new ArrayList<>(removals);
        commands.addAll(additions);
        return new ReloadPlan(commands, changes);
    }

    private static void planBackends(final VipConfig old, final VipConfig vip, final BackendWeights currentWeights,
        final HealthMonitor nextMonitor, final BackendWeights nextWeights, final List<ControlCommand> removals,
        final List<ControlCommand> additions, final List<String> changes)
    {
        final Map<InetAddress, BackendConfig> oldBackends = new LinkedHashMap<>();
        old.backends().forEach(backend -> oldBackends.put(backend.address(), backend));
        final Map<InetAddress, BackendConfig> newBackends = new LinkedHashMap<>();
        vip.backends().forEach(backend -> newBackends.put(backend.address(), backend));
        for (final BackendConfig backend : old.backends())
        {
            if (!newBackends.containsKey(backend.address()))
            {
                removals.add(new ControlCommand.RemoveBackend(vip.vip(), backend.address()));
                changes.add("VIP " + vip.name() + ": backend " + backend.name() + " removed");
            }
        }
        for (final BackendConfig backend : vip.backends())
        {
            if (!oldBackends.containsKey(backend.address()))
            {
                additions.add(addBackend(vip, backend, nextMonitor, nextWeights));
                changes.add("VIP " + vip.name() + ": backend " + backend.name() + " added (" +
                    (nextMonitor.isCommandedUp(vip.name(), backend.address()) ? "up" : "down until it passes its checks") +
                    ")");
                continue;
            }
            final int before = currentWeights.entry(old.name(), backend.address()).effective();
            final int after = nextWeights.entry(vip.name(), backend.address()).effective();
            if (before != after)
            {
                additions.add(new ControlCommand.SetBackendWeight(vip.vip(), backend.address(), after));
                changes.add("VIP " + vip.name() + ": backend " + backend.name() + " weight " + before + " -> " + after);
            }
        }
    }

    private static ControlCommand addBackend(final VipConfig vip, final BackendConfig backend,
        final HealthMonitor monitor, final BackendWeights weights)
    {
        return new ControlCommand.AddBackend(vip.vip(), backend.address(),
            weights.entry(vip.name(), backend.address()).effective(),
            monitor.isCommandedUp(vip.name(), backend.address()), backend.name());
    }

    private static Map<String, VipConfig> byName(final List<VipConfig> vips)
    {
        final Map<String, VipConfig> byName = new LinkedHashMap<>();
        vips.forEach(vip -> byName.put(vip.name(), vip));
        return byName;
    }
}
