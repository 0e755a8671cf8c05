package io.sluice.controller.health;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ControllerConfig;
import io.sluice.common.config.FlapDampingConfig;
import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ForwarderServices;
import io.sluice.controller.health.check.CheckResult;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
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
 * sends what {@link #drainCommands} returns. A command is produced only when a backend's eligibility changes. It
 * logs transitions and fail-open changes as they happen, and each command when it is handed out (so commands that
 * {@link #adopt} or {@link #carryOver} drop are never logged as sent). The
 * forwarder starts with every configured backend up, so backends that start down are commanded down once at
 * construction, unless {@link #adopt} takes the state of a forwarder that is already running (a controller restart).
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

    /**
     * What the controller knows about one backend, for status and metrics.
     *
     * @param name          the backend's name.
     * @param address       its address.
     * @param up            whether its checks (and flap damping) say it is up.
     * @param heldDown      whether flap damping holds it down now.
     * @param commandedUp   whether the forwarder has been told it may take flows.
     * @param lastDetail    what the last check saw ("HTTP 200", "connect refused"), or null before the first.
     * @param lastPassed    whether the last check passed.
     * @param lastLatencyNs how long the last check took.
     * @param checks        checks applied.
     * @param failedChecks  failed checks applied.
     * @param flaps         times flap damping triggered.
     */
    public record BackendView(String name, InetAddress address, boolean up, boolean heldDown, boolean commandedUp,
        String lastDetail, boolean lastPassed, long lastLatencyNs, long checks, long failedChecks, long flaps)
    {
    }

    /**
     * What the controller knows about one VIP.
     *
     * @param config   the VIP's configuration.
     * @param failOpen whether all its backends take traffic because too few are healthy.
     * @param eligible how many of its backends the forwarder has been told may take flows.
     * @param backends its backends, in configuration order.
     */
    public record VipView(VipConfig config, boolean failOpen, int eligible, List<BackendView> backends)
    {
    }

    private static final System.Logger LOGGER = System.getLogger(HealthMonitor.class.getName());

    /** A command not handed out yet, with the line logged when it is. */
    private record Queued(ControlCommand.SetBackendHealth command, String line)
    {
    }

    private final Map<String, VipState> vips = new LinkedHashMap<>();
    private final List<Queued> commands = new ArrayList<>();
    private final FlapDamping damping;

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
        damping = flapDamping(controller.flapDamping());
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
     * @return the policy.
     */
    static FlapDamping flapDamping(final FlapDampingConfig config)
    {
        return new FlapDamping(config.maxChanges(), toMs(config.windowNs()), toMs(config.holdDownNs()),
            toMs(config.maxHoldDownNs()), toMs(config.quietPeriodNs()));
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
        state.lastResult = result;
        final long flaps = state.health.flaps();
        logTransition(vip, state.health.onResult(Objects.requireNonNull(result, "result"), nowMs));
        if (state.health.flaps() != flaps)
        {
            LOGGER.log(System.Logger.Level.WARNING, "VIP " + vip.config.name() + ": " +
                state.health.lastHoldDownReason());
        }
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
     * Returns the commands produced since the last call, oldest first, logs each, and forgets them.
     *
     * @return SET_BACKEND_HEALTH commands.
     */
    public List<ControlCommand> drainCommands()
    {
        if (commands.isEmpty())
        {
            return List.of();
        }
        final List<ControlCommand> drained = new ArrayList<>(commands.size());
        for (final Queued queued : commands)
        {
            LOGGER.log(System.Logger.Level.INFO, queued.line());
            drained.add(queued.command());
        }
        commands.clear();
        return Collections.unmodifiableList(drained);
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

    /**
     * Takes over the backend health of a forwarder that was running before this controller started, so that a
     * controller restart changes nothing in forwarding: a backend up in the forwarder starts up here (it goes down
     * after {@code fall} failed checks), one down starts down (it comes up after {@code rise} passes). Queued
     * commands for the adopted backends are dropped: the forwarder already has that state. Call before the first
     * check.
     *
     * @param state what the forwarder reported.
     * @return how many backends were adopted.
     */
    public int adopt(final ForwarderServices state)
    {
        int adopted = 0;
        for (final VipState vip : vips.values())
        {
            final ForwarderServices.VipState forwarderVip = state.vip(vip.config.vip());
            if (forwarderVip == null)
            {
                continue;
            }
            for (final BackendState backend : vip.backends)
            {
                final ForwarderServices.BackendState forwarderBackend = forwarderVip.backend(backend.config.address());
                if (forwarderBackend == null)
                {
                    continue;
                }
                final boolean up = forwarderBackend.healthy();
                backend.health = new BackendHealth(backend.config.name(), vip.check.rise(), vip.check.fall(), up,
                    damping);
                backend.commandedUp = up;
                commands.removeIf(queued -> queued.command().vip().equals(vip.config.vip()) &&
                    queued.command().backend().equals(backend.config.address()));
                adopted++;
            }
        }
        if (adopted > 0)
        {
            LOGGER.log(System.Logger.Level.INFO, "adopted the health of " + adopted +
                " backends from the running forwarder");
        }
        return adopted;
    }

    /**
     * Takes over the state of the backends a reloaded configuration keeps: a backend of the same VIP name and
     * address keeps its health, its checks' history and its commanded state, so a reload moves no flow. When the
     * VIP's health check changed, the backend keeps only its up/down state. Backends new to this monitor start as
     * configured (down until checked, unless {@code start_up}). Every command queued so far is dropped, unlogged:
     * the caller says what the reload changes.
     *
     * @param previous the monitor of the previous configuration.
     * @return how many backends were carried over.
     */
    public int carryOver(final HealthMonitor previous)
    {
        int carried = 0;
        for (final VipState vip : vips.values())
        {
            final VipState old = previous.vips.get(vip.config.name());
            if (old == null)
            {
                continue;
            }
            final boolean sameCheck = old.check.equals(vip.check);
            for (final BackendState backend : vip.backends)
            {
                final BackendState kept = old.byAddress.get(backend.config.address());
                if (kept == null)
                {
                    continue;
                }
                backend.health = sameCheck ? kept.health : new BackendHealth(backend.config.name(), vip.check.rise(),
                    vip.check.fall(), kept.commandedUp, damping);
                backend.commandedUp = kept.commandedUp;
                backend.lastResult = kept.lastResult;
                backend.reported = kept.reported;
                backend.scheduled = kept.scheduled && sameCheck;
                backend.nextCheckMs = kept.nextCheckMs;
                carried++;
            }
        }
        commands.clear();
        return carried;
    }

    /**
     * Returns the whole commanded state, one SET_BACKEND_HEALTH per backend: what a forwarder that (re)started
     * with every configured backend up must be told.
     *
     * @return the commands, in configuration order.
     */
    public List<ControlCommand> fullState()
    {
        final List<ControlCommand> state = new ArrayList<>();
        for (final VipState vip : vips.values())
        {
            for (final BackendState backend : vip.backends)
            {
                state.add(new ControlCommand.SetBackendHealth(vip.config.vip(), backend.config.address(),
                    backend.commandedUp));
            }
        }
        return state;
    }

    /**
     * Returns how many backends of a VIP the forwarder has been told may take flows.
     *
     * @param vipName the VIP's name.
     * @return the count; with fail-open, every backend.
     */
    public int eligibleCount(final String vipName)
    {
        int eligible = 0;
        for (final BackendState backend : vips.get(vipName).backends)
        {
            eligible += backend.commandedUp ? 1 : 0;
        }
        return eligible;
    }

    /**
     * Returns a snapshot of every VIP and backend, for status and metrics.
     *
     * @param nowMs the time, for hold-downs.
     * @return the views, in configuration order.
     */
    public List<VipView> view(final long nowMs)
    {
        final List<VipView> views = new ArrayList<>(vips.size());
        for (final VipState vip : vips.values())
        {
            final List<BackendView> backends = new ArrayList<>(vip.backends.size());
            for (final BackendState backend : vip.backends)
            {
                final CheckResult last = backend.lastResult;
                backends.add(new BackendView(backend.config.name(), backend.config.address(),
                    backend.health.isUp(nowMs), backend.health.isHeldDown(nowMs), backend.commandedUp,
                    last == null ? null : last.detail(), last != null && last.passed(),
                    last == null ? 0 : last.latencyNs(), backend.health.checks(), backend.health.failedChecks(),
                    backend.health.flaps()));
            }
            views.add(new VipView(vip.config, vip.eligibility.isFailOpen(), eligibleCount(vip.config.name()),
                List.copyOf(backends)));
        }
        return views;
    }

    private void logTransition(final VipState vip, final Transition transition)
    {
        if (transition != null)
        {
            LOGGER.log(System.Logger.Level.INFO, "VIP " + vip.config.name() + ": " + transition.reason());
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
                // Entering fail-open sends traffic to backends that fail their checks: a warning; leaving it is not.
                LOGGER.log(decision.failOpen() ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                    decision.transition());
            }
            failOpen = decision.failOpen();
        }
        for (final BackendState backend : vip.backends)
        {
            final boolean healthy = backend.health.isUp(nowMs);
            final boolean eligible = failOpen || healthy;
            if (eligible != backend.commandedUp)
            {
                command(vip, backend, eligible, healthy == eligible ? (healthy ? "healthy" : "unhealthy")
                    : "fail-open");
            }
        }
    }

    private void command(final VipState vip, final BackendState backend, final boolean up, final String why)
    {
        backend.commandedUp = up;
        commands.add(new Queued(new ControlCommand.SetBackendHealth(vip.config.vip(), backend.config.address(), up),
            "VIP " + vip.config.name() + ": forwarder sets backend " + backend.config.name() + (up ? " up" : " down") +
            " (" + why + ")"));
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
        BackendHealth health;
        CheckResult lastResult;
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
