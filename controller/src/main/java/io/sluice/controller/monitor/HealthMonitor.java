package io.sluice.controller.monitor;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ControllerConfig;
import io.sluice.common.config.FlapDampingConfig;
import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.controller.health.BackendHealth;
import io.sluice.controller.health.CheckResult;
import io.sluice.controller.health.FlapDamping;
import io.sluice.controller.health.Transition;
import io.sluice.controller.health.VipEligibility;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Turns health-check results into the forwarder's view of its backends: a backend is up in the forwarder iff it is
 * eligible, i.e. healthy, or any backend of a VIP in fail-open.
 *
 * <p>Pure and single-threaded: the caller runs the checks {@link #due} names, feeds their results and the time, and
 * sends what {@link #drainCommands} returns. A command is produced only when a backend's eligibility changes. The
 * forwarder starts with every configured backend up, so backends that start down are commanded down once at
 * construction.
 *
 * <p>Fail-open is not decided until every backend of a VIP has reported once: before the first round of checks
 * nothing is known, and failing open then would just undo the start-down commands.
 */
public final class HealthMonitor
{
    /**
     * A check to run now.
     *
     * @param vip     the VIP.
     * @param backend the backend to check.
     * @param check   the VIP's effective health check.
     */
    public record Due(VipConfig vip, BackendConfig backend, HealthCheckConfig check)
    {
    }

    private final Map<String, VipState> vips = new LinkedHashMap<>();
    private final List<ControlCommand> commands = new ArrayList<>();
    private final List<String> log = new ArrayList<>();

    /**
     * Creates the monitor of every backend of a node.
     *
     * @param config the node's configuration.
     */
    public HealthMonitor(final NodeConfig config)
    {
        this(config.vips(), config.controller());
    }

    /**
     * Creates the monitor of the given VIPs.
     *
     * @param vipConfigs the VIPs, with names unique among them.
     * @param controller the controller settings: default health check, flap damping, fail-open share.
     */
    public HealthMonitor(final List<VipConfig> vipConfigs, final ControllerConfig controller)
    {
        final FlapDamping damping = flapDamping(controller.flapDamping());
        for (final VipConfig vipConfig : vipConfigs)
        {
            final HealthCheckConfig check = controller.healthCheckFor(vipConfig);
            final VipState vip = new VipState(vipConfig, check,
                new VipEligibility(vipConfig.name(), controller.failOpenShare()));
            if (vips.putIfAbsent(vipConfig.name(), vip) != null)
            {
                throw new IllegalArgumentException("duplicate VIP name " + vipConfig.name());
            }
            for (final BackendConfig backendConfig : vipConfig.backends())
            {
                final BackendState backend = new BackendState(backendConfig,
                    new BackendHealth(backendConfig.name(), check.rise(), check.fall(), check.startUp(), damping));
                if (vip.byAddress.putIfAbsent(backendConfig.address(), backend) != null)
                {
                    throw new IllegalArgumentException("duplicate backend " + backendConfig.address().getHostAddress() +
                        " in VIP " + vipConfig.name());
                }
                vip.backends.add(backend);
                if (!check.startUp())
                {
                    command(vip, backend, false, "not checked yet");
                }
            }
        }
    }

    /**
     * Maps the configuration's flap damping onto the state machine's policy, in milliseconds.
     *
     * @param config the configured damping.
     * @return the policy, with the default quiet period (the configuration has none).
     */
    static FlapDamping flapDamping(final FlapDampingConfig config)
    {
        return new FlapDamping(config.maxChanges(), toMs(config.windowNs()), toMs(config.holdDownNs()),
            toMs(config.maxHoldDownNs()), FlapDamping.defaults().quietPeriodMs());
    }

    private static long toMs(final long ns)
    {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }

    /**
     * Returns the checks to start now and schedules each backend's next one an interval later. A backend's first
     * check is due at once.
     *
     * @param nowMs the time.
     * @return the due checks, in configuration order.
     */
    public List<Due> due(final long nowMs)
    {
        final List<Due> due = new ArrayList<>();
        for (final VipState vip : vips.values())
        {
            for (final BackendState backend : vip.backends)
            {
                if (!backend.scheduled || nowMs - backend.nextCheckMs >= 0)
                {
                    backend.scheduled = true;
                    backend.nextCheckMs = nowMs + vip.intervalMs;
                    due.add(new Due(vip.config, backend.config, vip.check));
                }
            }
        }
        return due;
    }

    /**
     * Applies one check result.
     *
     * @param vipName the VIP's name.
     * @param backend the backend's address.
     * @param result  the check's outcome.
     * @param nowMs   the time.
     * @throws IllegalArgumentException for an unknown VIP or backend.
     */
    public void onResult(final String vipName, final InetAddress backend, final CheckResult result, final long nowMs)
    {
        final VipState vip = vips.get(vipName);
        if (vip == null)
        {
            throw new IllegalArgumentException("no VIP " + vipName);
        }
        final BackendState state = vip.byAddress.get(backend);
        if (state == null)
        {
            throw new IllegalArgumentException("no backend " + backend.getHostAddress() + " in VIP " + vipName);
        }
        state.reported = true;
        logTransition(vip, state.health.onResult(Objects.requireNonNull(result, "result"), nowMs));
        reconcile(vip, nowMs);
    }

    /**
     * Lets hold-downs end: a backend whose checks pass comes up once its hold-down is over.
     *
     * @param nowMs the time.
     */
    public void onTick(final long nowMs)
    {
        for (final VipState vip : vips.values())
        {
            for (final BackendState backend : vip.backends)
            {
                logTransition(vip, backend.health.onTick(nowMs));
            }
            reconcile(vip, nowMs);
        }
    }

    /**
     * Returns the commands produced since the last call, oldest first, and forgets them.
     *
     * @return SET_BACKEND_HEALTH commands.
     */
    public List<ControlCommand> drainCommands()
    {
        final List<ControlCommand> drained = List.copyOf(commands);
        commands.clear();
        return drained;
    }

    /**
     * Returns the transitions, fail-open changes and commands logged since the last call, and forgets them.
     *
     * @return log lines, oldest first.
     */
    public List<String> drainLog()
    {
        final List<String> drained = List.copyOf(log);
        log.clear();
        return drained;
    }

    /**
     * Tells whether the forwarder has been told a backend is up (the last command, or its start state).
     *
     * @param vipName the VIP's name.
     * @param backend the backend's address.
     * @return the commanded state.
     */
    public boolean isCommandedUp(final String vipName, final InetAddress backend)
    {
        return vips.get(vipName).byAddress.get(backend).commandedUp;
    }

    /**
     * Tells whether a VIP is in fail-open.
     *
     * @param vipName the VIP's name.
     * @return whether all its backends get traffic because too few are healthy.
     */
    public boolean isFailOpen(final String vipName)
    {
        return vips.get(vipName).eligibility.isFailOpen();
    }

    private void logTransition(final VipState vip, final Transition transition)
    {
        if (transition != null)
        {
            log.add("VIP " + vip.config.name() + ": " + transition.reason());
        }
    }

    private void reconcile(final VipState vip, final long nowMs)
    {
        boolean failOpen = false;
        if (vip.allReported())
        {
            final VipEligibility.Decision decision = vip.eligibility.evaluate(vip.healths(), nowMs);
            if (decision.transition() != null)
            {
                log.add(decision.transition());
            }
            failOpen = decision.failOpen();
        }
        for (final BackendState backend : vip.backends)
        {
            final boolean healthy = backend.health.isUp(nowMs);
            final boolean eligible = failOpen || healthy;
            if (eligible != backend.commandedUp)
            {
                command(vip, backend, eligible, healthy == eligible ? (healthy ? "healthy" : "unhealthy") : "fail-open");
            }
        }
    }

    private void command(final VipState vip, final BackendState backend, final boolean up, final String why)
    {
        backend.commandedUp = up;
        commands.add(new ControlCommand.SetBackendHealth(vip.config.vip(), backend.config.address(), up));
        log.add("VIP " + vip.config.name() + ": forwarder sets backend " + backend.config.name() +
            (up ? " up" : " down") + " (" + why + ")");
    }

    private static final class VipState
    {
        final VipConfig config;
        final HealthCheckConfig check;
        final long intervalMs;
        final VipEligibility eligibility;
        final List<BackendState> backends = new ArrayList<>();
        final Map<InetAddress, BackendState> byAddress = new LinkedHashMap<>();

        VipState(final VipConfig config, final HealthCheckConfig check, final VipEligibility eligibility)
        {
            this.config = config;
            this.check = check;
            this.intervalMs = Math.max(1, toMs(check.intervalNs()));
            this.eligibility = eligibility;
        }

        boolean allReported()
        {
            for (final BackendState backend : backends)
            {
                if (!backend.reported)
                {
                    return false;
                }
            }
            return true;
        }

        List<BackendHealth> healths()
        {
            final List<BackendHealth> healths = new ArrayList<>(backends.size());
            for (final BackendState backend : backends)
            {
                healths.add(backend.health);
            }
            return healths;
        }
    }

    private static final class BackendState
    {
        final BackendConfig config;
        final BackendHealth health;
        /** The forwarder starts every configured backend up. */
        boolean commandedUp = true;
        boolean reported;
        boolean scheduled;
        long nextCheckMs;

        BackendState(final BackendConfig config, final BackendHealth health)
        {
            this.config = config;
            this.health = health;
        }
    }
}
