package io.sluice.controller.liveness;

import io.sluice.common.config.ControllerConfig;
import io.sluice.common.counters.ForwarderState;

/**
 * Decides from {@link Observation observations} of the counters file whether the forwarder is alive, and reports
 * when that changes.
 * <p>
 * Pure and single-threaded: the caller passes the clock (epoch milliseconds, the clock the forwarder stamps its
 * heartbeats with). The checks run in order: the file must exist, its owner process must run, the forwarder must not
 * be stopping, and the newest worker heartbeat must be at most {@code staleAfterMs} old. Before any worker has
 * written a heartbeat, the file's start time stands in for it, so a starting forwarder gets the same grace; it is
 * alive then, but {@link #workersStarted()} tells it does not forward yet.
 * <p>
 * It starts DEAD ("not observed yet"). A forwarder instance is its (pid, start time); when the forwarder is alive
 * with an instance other than the last one seen alive, the transition says {@link Transition#restarted()}, so the
 * controller resends its whole commanded state. That holds even when the restart was too quick to be seen dead.
 */
public final class ForwarderLiveness
{
    /** The reason before the first observation. */
    public static final String NOT_OBSERVED = "forwarder dead: not observed yet";
    /** The reason when no counters file is at the path. */
    public static final String NO_COUNTERS_FILE = "forwarder dead: no counters file";
    /** The reason when the forwarder reports it is stopping. */
    public static final String STOPPING = "forwarder stopping";

    /**
     * A change of liveness.
     *
     * @param alive     whether the forwarder is now alive.
     * @param reason    why, e.g. {@code forwarder dead: process 123 gone}.
     * @param restarted true when the forwarder is alive as another instance (pid or start time) than the one last
     *                  seen alive: its forwarding state is empty and must be sent again.
     */
    public record Transition(boolean alive, String reason, boolean restarted)
    {
    }

    private final long staleAfterMs;
    private boolean alive;
    private boolean workersStarted;
    private String reason = NOT_OBSERVED;
    private boolean seenAlive;
    private long alivePid;
    private long aliveStartTimeMs;

    /**
     * Creates the decision with the heartbeat limit.
     *
     * @param staleAfterMs a heartbeat older than this many milliseconds means the forwarder is dead; positive.
     */
    public ForwarderLiveness(final long staleAfterMs)
    {
        if (staleAfterMs <= 0)
        {
            throw new IllegalArgumentException("stale after ms must be > 0, got " + staleAfterMs);
        }
        this.staleAfterMs = staleAfterMs;
    }

    /**
     * Creates the decision with the controller's configured liveness time-out.
     *
     * @param config the controller's settings.
     * @return the decision.
     */
    public static ForwarderLiveness of(final ControllerConfig config)
    {
        return new ForwarderLiveness(Math.max(1, config.forwarderLivenessTimeoutNs() / 1_000_000));
    }

    /**
     * Feeds one observation.
     *
     * @param nowMs       the current epoch time in milliseconds.
     * @param observation what the counters file shows.
     * @return the transition when liveness changed or the forwarder came back as a new instance, otherwise null.
     */
    public Transition observe(final long nowMs, final Observation observation)
    {
        final String deadReason = deadReason(nowMs, observation);
        workersStarted = deadReason == null && observation.newestHeartbeatMs() > 0;
        if (deadReason != null)
        {
            reason = deadReason;
            if (!alive)
            {
                return null;
            }
            alive = false;
            return new Transition(false, deadReason, false);
        }

        reason = "forwarder alive: process " + observation.pid();
        final boolean sameInstance = seenAlive && alivePid == observation.pid() &&
            aliveStartTimeMs == observation.startTimeMs();
        final boolean restarted = seenAlive && !sameInstance;
        seenAlive = true;
        alivePid = observation.pid();
        aliveStartTimeMs = observation.startTimeMs();
        if (alive && !restarted)
        {
            return null;
        }
        alive = true;
        return new Transition(true, reason, restarted);
    }

    /**
     * Tells whether the forwarder was alive at the last observation.
     *
     * @return true when alive.
     */
    public boolean isAlive()
    {
        return alive;
    }

    /**
     * Tells whether the forwarder was alive at the last observation with a worker heartbeat written: its workers
     * poll their queues. A starting forwarder is alive before that (the controller can synchronize it, within the
     * start grace) but forwards nothing yet, so it is not ready to have VIPs announced.
     *
     * @return true when alive and some worker has written a heartbeat.
     */
    public boolean workersStarted()
    {
        return workersStarted;
    }

    /**
     * Returns why the forwarder is alive or dead, as of the last observation.
     *
     * @return the reason.
     */
    public String reason()
    {
        return reason;
    }

    /**
     * Returns the heartbeat limit.
     *
     * @return milliseconds.
     */
    public long staleAfterMs()
    {
        return staleAfterMs;
    }

    private String deadReason(final long nowMs, final Observation observation)
    {
        if (!observation.fileExists())
        {
            return NO_COUNTERS_FILE;
        }
        if (!observation.ownerAlive())
        {
            return "forwarder dead: process " + observation.pid() + " gone";
        }
        if (observation.forwarderState() == ForwarderState.STOPPING.value())
        {
            return STOPPING;
        }
        final boolean noHeartbeat = observation.newestHeartbeatMs() <= 0;
        final long sinceMs = noHeartbeat ? observation.startTimeMs() : observation.newestHeartbeatMs();
        // a heartbeat slightly ahead of our clock (two reads of the epoch clock) is fresh, not negative-aged
        final long ageMs = Math.max(0, nowMs - sinceMs);
        if (ageMs > staleAfterMs)
        {
            return noHeartbeat ?
                "forwarder dead: no heartbeat " + ageMs + " ms after start (limit " + staleAfterMs + " ms)" :
                "forwarder dead: heartbeat " + ageMs + " ms old (limit " + staleAfterMs + " ms)";
        }
        return null;
    }
}
