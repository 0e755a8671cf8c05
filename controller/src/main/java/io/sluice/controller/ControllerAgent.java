package io.sluice.controller;

import io.sluice.common.config.ConfigException;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.common.control.ForwarderServices;
import io.sluice.controller.announce.AnnouncePolicy;
import io.sluice.controller.announce.RouteSpeaker;
import io.sluice.controller.bgp.RouteAttributes;
import io.sluice.controller.channel.ForwarderSession;
import io.sluice.controller.health.HealthCheckRunner;
import io.sluice.controller.health.HealthMonitor;
import io.sluice.controller.liveness.CountersObserver;
import io.sluice.controller.liveness.ForwarderLiveness;
import io.sluice.controller.operator.BackendWeights;
import io.sluice.controller.operator.OperatorRequest;
import io.sluice.controller.operator.OverridesFile;
import io.sluice.controller.reload.ReloadPlan;
import io.sluice.controller.status.NodeStatus;
import io.sluice.common.log.AgentErrorLog;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * The controller's single agent: one duty cycle watches the forwarder's heartbeat, runs the health checks, applies
 * operator actions, keeps the forwarder's state in step with the controller's, decides which VIPs to announce and
 * tells the BGP speaker, and publishes a status snapshot.
 * <p>
 * Everything it owns is touched only on the agent thread. Other threads talk to it through {@link #submit}
 * (operator actions), {@link #beginShutdown()} and {@link #status()}.
 * <p>
 * Order matters when a forwarder comes alive: the whole state is sent ({@link ForwarderSession#resync}) and VIPs are
 * announced only once the forwarder confirmed it, so a restarted forwarder never attracts traffic with its
 * start-up state (every backend up). When it dies, every VIP is withdrawn in the same cycle.
 * <p>
 * The parts log their own events (state changes, failures) as they happen; an error that would repeat every cycle
 * goes to the process's {@link AgentErrorLog}, which the agent reports from while it runs.
 */
public final class ControllerAgent implements Agent
{
    /** How often the counters file is looked at. */
    static final long LIVENESS_PERIOD_MS = 100;
    /** How often the forwarder's state (weights, Maglev slots) is read for status. */
    static final long STATE_PERIOD_MS = 2_000;
    /** How often the status snapshot is rebuilt. */
    static final long STATUS_PERIOD_MS = 250;
    /** How long a starting controller leaves the routes as it found them while an alive forwarder syncs. */
    static final long SETTLE_MIN_MS = 5_000;
    /** How long one GET_STATE may hold the duty cycle. */
    static final Duration STATE_TIMEOUT = Duration.ofMillis(200);

    private record Pending(OperatorRequest request, CompletableFuture<OperatorRequest.Reply> reply)
    {
    }

    private final Path configFile;
    private final Function<HealthMonitor, HealthCheckRunner> runnerFactory;
    private NodeConfig config;
    private HealthMonitor monitor;
    private HealthCheckRunner checks;
    private BackendWeights weights;
    private final OverridesFile overridesFile;
    private final ForwarderSession session;
    private final CountersObserver observer;
    private final ForwarderLiveness liveness;
    private final AnnouncePolicy policy;
    private final RouteSpeaker speaker;
    private final EpochClock clock;
    private static final System.Logger LOGGER = System.getLogger(ControllerAgent.class.getName());

    private final AgentErrorLog errors;
    private final ConcurrentLinkedQueue<Pending> requests = new ConcurrentLinkedQueue<>();

    private volatile boolean shuttingDown;
    private volatile boolean withdrawnForShutdown;
    private volatile NodeStatus status;

    private ForwarderServices forwarderState;
    private final long startMs;
    private boolean observedOnce;
    private boolean routesSettled;
    private long nextLivenessMs;
    private long nextStateMs;
    private long nextStatusMs;

    /**
     * Creates the agent.
     *
     * @param configFile    the node's configuration file, read again on a reload.
     * @param config        the node's configuration.
     * @param monitor       the health state; adopted from a running forwarder already, if there was one.
     * @param runnerFactory makes the runner of a monitor's checks (again after a reload).
     * @param weights       the operator's weights; restored already.
     * @param overridesFile where the operator's weights are saved on each change.
     * @param session       the forwarder's control channel.
     * @param observer      reads the forwarder's counters file.
     * @param liveness      decides from it whether the forwarder is alive.
     * @param speaker       the BGP speaker.
     * @param clock         epoch milliseconds, the forwarder's heartbeat clock.
     * @param errors        the process's error log, which the session and the speaker report to as well; the agent
     *                      starts its reporter and closes it.
     */
    public ControllerAgent(final Path configFile, final NodeConfig config, final HealthMonitor monitor,
        final Function<HealthMonitor, HealthCheckRunner> runnerFactory, final BackendWeights weights,
        final OverridesFile overridesFile, final ForwarderSession session,
        final CountersObserver observer, final ForwarderLiveness liveness, final RouteSpeaker speaker,
        final EpochClock clock, final AgentErrorLog errors)
    {
        this.configFile = Objects.requireNonNull(configFile, "configFile");
        this.config = Objects.requireNonNull(config, "config");
        this.monitor = Objects.requireNonNull(monitor, "monitor");
        this.runnerFactory = Objects.requireNonNull(runnerFactory, "runnerFactory");
        this.checks = runnerFactory.apply(monitor);
        this.weights = Objects.requireNonNull(weights, "weights");
        this.overridesFile = Objects.requireNonNull(overridesFile, "overridesFile");
        this.session = Objects.requireNonNull(session, "session");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        this.speaker = Objects.requireNonNull(speaker, "speaker");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.errors = Objects.requireNonNull(errors, "errors");
        this.policy = new AnnouncePolicy(config.controller().announceRegardless());
        this.startMs = clock.time();
        this.status = snapshot(clock.time());
    }

    @Override
    public String roleName()
    {
        return "controller";
    }

    @Override
    public int doWork()
    {
        int work = 0;
        try
        {
            final long nowMs = clock.time();
            work += observeForwarder(nowMs);
            work += checks.poll(nowMs);
            final List<ControlCommand> healthCommands = monitor.drainCommands();
            session.enqueue(healthCommands);
            work += healthCommands.size();
            work += applyOperatorRequests(nowMs);
            work += session.poll(nowMs);
            work += refreshForwarderState(nowMs);
            work += announce(nowMs);
            work += publishStatus(nowMs);
        }
        catch (final RuntimeException ex)
        {
            // A bug, not a backend or forwarder failure: keep the node's checks and routes going rather than die.
            // Each distinct failure once with its trace, repeats as "seen N times" lines (AgentErrorLog).
            errors.onError(ex);
        }
        return work;
    }

    private int observeForwarder(final long nowMs)
    {
        if (nowMs - nextLivenessMs < 0)
        {
            return 0;
        }
        nextLivenessMs = nowMs + LIVENESS_PERIOD_MS;
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, observer.observe());
        observedOnce = true;
        if (transition == null)
        {
            return 0;
        }
        LOGGER.log(System.Logger.Level.INFO, "controller: " + transition.reason() + (transition.restarted()
            ? " (a new instance)" : ""));
        if (transition.alive())
        {
            final List<ControlCommand> fullState = new ArrayList<>(monitor.fullState());
            fullState.addAll(weights.fullState());
            session.resync(fullState);
            nextStateMs = 0;
        }
        else
        {
            session.onForwarderDead();
            forwarderState = null;
        }
        return 1;
    }

    private int applyOperatorRequests(final long nowMs)
    {
        int applied = 0;
        Pending pending;
        while ((pending = requests.poll()) != null)
        {
            pending.reply().complete(apply(pending.request(), nowMs));
            applied++;
        }
        return applied;
    }

    private OperatorRequest.Reply apply(final OperatorRequest request, final long nowMs)
    {
        if (request.action() == OperatorRequest.Action.RELOAD)
        {
            return reload(nowMs);
        }
        final ControlCommand.SetBackendWeight command;
        try
        {
            command = switch (request.action())
            {
                case DRAIN -> weights.drain(request.vip(), request.backend());
                case UNDRAIN -> weights.undrain(request.vip(), request.backend());
                case SET_WEIGHT -> weights.setWeight(request.vip(), request.backend(), request.weight());
                case RELOAD -> throw new IllegalStateException("handled above");
            };
        }
        catch (final IllegalArgumentException ex)
        {
            return new OperatorRequest.Reply(false, ex.getMessage());
        }
        final BackendWeights.Entry entry = weights.entry(request.vip(), command.backend());
        final String what = "VIP " + request.vip() + " backend " + entry.backend().name() + ": " +
            (entry.drained() ? "drained (weight 0: existing flows stay, no new ones)" : "weight " + entry.effective());
        LOGGER.log(System.Logger.Level.INFO, "controller: operator: " + what);
        final StringBuilder message = new StringBuilder(what);
        try
        {
            overridesFile.write(weights.overrides());
        }
        catch (final IOException ex)
        {
            message.append("; NOT saved to ").append(overridesFile.path()).append(": ").append(ex.getMessage());
        }
        message.append(sendNow(List.of(command), nowMs) ? "; forwarder confirmed" :
            "; forwarder has not confirmed yet (" + liveness.reason() + "): it gets it when it answers");
        return new OperatorRequest.Reply(true, message.toString());
    }

    private OperatorRequest.Reply reload(final long nowMs)
    {
        final NodeConfig next;
        try
        {
            next = NodeConfig.load(configFile);
        }
        catch (final ConfigException ex)
        {
            LOGGER.log(System.Logger.Level.INFO, "controller: reload refused: " + ex.getMessage());
            return new OperatorRequest.Reply(false, "reload refused, nothing changed: " + ex.getMessage());
        }
        final String refusal = ReloadPlan.refusal(config, next);
        if (refusal != null)
        {
            LOGGER.log(System.Logger.Level.INFO, "controller: reload refused: " + refusal);
            return new OperatorRequest.Reply(false, "reload refused, nothing changed: " + refusal);
        }
        final HealthMonitor nextMonitor = new HealthMonitor(next);
        nextMonitor.carryOver(monitor);
        final BackendWeights nextWeights = new BackendWeights(next.vips());
        nextWeights.restore(weights.overrides());
        final ReloadPlan plan = ReloadPlan.plan(config, weights, next, nextMonitor, nextWeights);

        checks.close();
        checks = runnerFactory.apply(nextMonitor);
        monitor = nextMonitor;
        weights = nextWeights;
        config = next;
        plan.changes().forEach(change -> LOGGER.log(System.Logger.Level.INFO, "controller: reload: " + change));
        final boolean confirmed = sendNow(plan.commands(), nowMs);
        final String summary = plan.changes().isEmpty() ? "reloaded " + configFile + ": no change" :
            "reloaded " + configFile + ":\n  " + String.join("\n  ", plan.changes());
        return new OperatorRequest.Reply(true, summary + (plan.commands().isEmpty() ? "" : confirmed ?
            "\nforwarder confirmed" : "\nforwarder has not confirmed yet (" + liveness.reason() + ")"));
    }

    /**
     * Sends an operator's commands at once rather than at the next cycle, and has status and forwarder state
     * refreshed right after, so the operator's answer and the next status show the change.
     *
     * @return true when the forwarder is alive and confirmed every one of them.
     */
    private boolean sendNow(final List<ControlCommand> commands, final long nowMs)
    {
        session.enqueue(commands);
        session.poll(nowMs);
        nextStateMs = 0;
        nextStatusMs = 0;
        final List<ControlCommand> unconfirmed = session.unconfirmedCommands();
        for (final ControlCommand command : commands)
        {
            if (unconfirmed.contains(command))
            {
                return false;
            }
        }
        return liveness.isAlive();
    }

    private int refreshForwarderState(final long nowMs)
    {
        if (!liveness.isAlive() || !session.isLinked() || nowMs - nextStateMs < 0)
        {
            return 0;
        }
        nextStateMs = nowMs + STATE_PERIOD_MS;
        final ForwarderServices state = session.queryState(nowMs, STATE_TIMEOUT);
        if (state != null)
        {
            forwarderState = state;
        }
        return 1;
    }

    private int announce(final long nowMs)
    {
        // Announced only once a worker polls: a forwarder still starting (EAL, ports) forwards nothing yet, and may
        // yet fail to start or overrun its start grace.
        final boolean ready = liveness.isAlive() && liveness.workersStarted() && session.isSynced();
        final String reason = !liveness.isAlive() ? liveness.reason() :
            !liveness.workersStarted() ? "forwarder starting: no worker heartbeat yet" :
            session.isSynced() ? "forwarder ready" : "forwarder not yet synchronized with the controller";
        final List<AnnouncePolicy.VipInput> inputs = new ArrayList<>(config.vips().size());
        for (final VipConfig vip : config.vips())
        {
            inputs.add(new AnnouncePolicy.VipInput(vip.name(), vip.address(), monitor.eligibleCount(vip.name()),
                vip.backends().size()));
        }
        final Set<InetAddress> addresses =
            policy.evaluate(new AnnouncePolicy.NodeInput(ready, reason, shuttingDown), inputs);
        if (!routesSettled)
        {
            // A restarted controller finds ExaBGP still announcing: keep that until the forwarder's state is known
            // (synchronized, seen dead, or the liveness time-out passed), so a restart does not blink the routes.
            routesSettled = ready || shuttingDown || (observedOnce && !liveness.isAlive()) ||
                nowMs - startMs >= Math.max(liveness.staleAfterMs(), SETTLE_MIN_MS);
        }
        if (routesSettled)
        {
            speaker.setAnnounced(addresses);
        }
        final int work = policy.changes() + speaker.poll(nowMs);
        if (shuttingDown && speaker.isCurrent())
        {
            withdrawnForShutdown = true;
        }
        return work;
    }

    private int publishStatus(final long nowMs)
    {
        if (nowMs - nextStatusMs < 0)
        {
            return 0;
        }
        nextStatusMs = nowMs + STATUS_PERIOD_MS;
        status = snapshot(nowMs);
        return 1;
    }

    private NodeStatus snapshot(final long nowMs)
    {
        final List<NodeStatus.VipStatus> vips = new ArrayList<>();
        final List<AnnouncePolicy.Decision> decisions = policy.decisions();
        int index = 0;
        for (final HealthMonitor.VipView view : monitor.view(nowMs))
        {
            final VipConfig vip = view.config();
            final AnnouncePolicy.Decision decision = index < decisions.size() ? decisions.get(index) : null;
            index++;
            final ForwarderServices.VipState forwarderVip = forwarderState == null ? null
                : forwarderState.vip(vip.vip());
            final List<NodeStatus.BackendStatus> backends = new ArrayList<>();
            for (final HealthMonitor.BackendView backend : view.backends())
            {
                final BackendWeights.Entry weight = weights.entry(vip.name(), backend.address());
                final ForwarderServices.BackendState forwarderBackend =
                    forwarderVip == null ? null : forwarderVip.backend(backend.address());
                backends.add(new NodeStatus.BackendStatus(backend.name(), backend.address(), backend.up(),
                    backend.heldDown(), backend.commandedUp(), backend.lastDetail(), backend.lastPassed(),
                    backend.lastLatencyNs(), backend.checks(), backend.failedChecks(), backend.flaps(),
                    weight.configured(), weight.effective(), weight.drained(),
                    forwarderBackend == null ? -1 : forwarderBackend.maglevSlots()));
            }
            vips.add(new NodeStatus.VipStatus(vip.name(), vip.address(), vip.port(), vip.protocol().yamlName(),
                decision != null && decision.announced(), decision == null ? "not decided yet" : decision.reason(),
                view.failOpen(), view.eligible(), List.copyOf(backends)));
        }
        final List<String> announced = new ArrayList<>();
        for (final InetAddress address : policy.addresses())
        {
            announced.add(AnnouncePolicy.prefix(address));
        }
        Collections.sort(announced);
        return new NodeStatus(config.node().name(), nowMs,
            new NodeStatus.Forwarder(liveness.isAlive(), liveness.reason(), session.isSynced(), session.isLinked(),
                session.unconfirmedCommands().size(), config.forwarder().maglevTableSize()),
            new NodeStatus.Bgp(config.controller().hasBgp(), speaker.state(), speaker.neighborStates(),
                List.copyOf(announced), RouteAttributes.describeSessions(config.controller().bgp()),
                RouteAttributes.describe(config.controller().bgp(), config.vips())),
            List.copyOf(vips));
    }

    /**
     * Hands an operator action to the agent thread.
     *
     * @param request the action.
     * @return completes with the answer once the agent applied it (and tried to tell the forwarder).
     */
    public CompletableFuture<OperatorRequest.Reply> submit(final OperatorRequest request)
    {
        final CompletableFuture<OperatorRequest.Reply> reply = new CompletableFuture<>();
        requests.offer(new Pending(request, reply));
        return reply;
    }

    /**
     * Starts taking the node out of service: every VIP is withdrawn at the next duty cycle.
     */
    public void beginShutdown()
    {
        shuttingDown = true;
    }

    /**
     * Tells whether the withdrawals of a shutdown reached the BGP speaker.
     *
     * @return true once every route is withdrawn.
     */
    public boolean isWithdrawnForShutdown()
    {
        return withdrawnForShutdown;
    }

    /**
     * Returns the latest status snapshot; any thread.
     *
     * @return the snapshot, at most {@link #STATUS_PERIOD_MS} old.
     */
    public NodeStatus status()
    {
        return status;
    }

    @Override
    public void onStart()
    {
        errors.startReporter(1000);
    }

    /**
     * Records an error of this agent or its runner: each distinct one is logged once with its stack trace, repeats
     * as "seen N times since T" lines.
     *
     * @param error what was thrown.
     */
    public void onError(final Throwable error)
    {
        errors.onError(error);
    }

    @Override
    public void onClose()
    {
        Pending pending;
        while ((pending = requests.poll()) != null)
        {
            pending.reply().complete(new OperatorRequest.Reply(false, "controller stopping"));
        }
        checks.close();
        session.close();
        observer.close();
        errors.close();
    }
}
