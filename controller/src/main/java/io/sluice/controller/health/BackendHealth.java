package io.sluice.controller.health;

import io.sluice.controller.health.check.CheckResult;

import java.util.Objects;

/**
 * The health state machine of one backend: {@code rise} consecutive passed checks bring it up, {@code fall}
 * consecutive failed checks take it down, and {@link FlapDamping} holds a flapping backend down even while its
 * checks pass.
 *
 * <p>Single-threaded and clock-free: the caller feeds check results and the time. Each {@link Transition} carries
 * its reason; each flap-damping trigger is counted ({@link #flaps()}) and described ({@link #lastHoldDownReason()})
 * for the caller to log. Only changes of the reported state produce a transition; a backend held down by damping
 * comes back up through {@link #onTick(long)} (or the next {@link #onResult}) once the hold-down ends.
 */
public final class BackendHealth
{
    private final String name;
    private final int rise;
    private final int fall;
    private final FlapTracker flapTracker;

    /** The state the checks alone say (rise/fall), before flap damping. */
    private boolean checksUp;
    /** The state last reported through a transition (or the start state). */
    private boolean reportedUp;
    private int consecutivePassed;
    private int consecutiveFailed;
    private String lastHoldDownReason;

    private long checks;
    private long failedChecks;
    private long transitions;

    /**
     * Creates the state machine.
     *
     * @param name    the backend's name, used in reasons
     * @param rise    consecutive passed checks that bring the backend up
     * @param fall    consecutive failed checks that take it down
     * @param startUp whether the backend starts up (otherwise it starts down until it passes {@code rise} checks)
     * @param damping the flap damping policy
     */
    public BackendHealth(
        final String name, final int rise, final int fall, final boolean startUp, final FlapDamping damping)
    {
        this.name = Objects.requireNonNull(name, "name");
        if (rise < 1 || fall < 1)
        {
            throw new IllegalArgumentException("rise and fall must be at least 1: rise=" + rise + " fall=" + fall);
        }
        this.rise = rise;
        this.fall = fall;
        this.flapTracker = new FlapTracker(Objects.requireNonNull(damping, "damping"));
        this.checksUp = startUp;
        this.reportedUp = startUp;
    }

    /**
     * Applies one check result and returns the resulting transition, or null when the reported state stays.
     */
    public Transition onResult(final CheckResult result, final long nowMs)
    {
        checks++;
        final String reason;
        if (result.passed())
        {
            consecutivePassed++;
            consecutiveFailed = 0;
            reason = "backend " + name + " up: " + plural(consecutivePassed, "consecutive passed check");
            if (!checksUp && consecutivePassed >= rise)
            {
                checksUp = true;
                onChecksStateChange(nowMs);
            }
        }
        else
        {
            failedChecks++;
            consecutiveFailed++;
            consecutivePassed = 0;
            reason = "backend " + name + " down: " + plural(consecutiveFailed, "consecutive failed check") +
                " (last: " + result.detail() + ")";
            if (checksUp && consecutiveFailed >= fall)
            {
                checksUp = false;
                onChecksStateChange(nowMs);
            }
        }
        return report(nowMs, reason);
    }

    /**
     * Re-evaluates the hold-down against the clock; returns the "up" transition when a hold-down has ended and
     * the checks pass, otherwise null.
     */
    public Transition onTick(final long nowMs)
    {
        return report(nowMs, "backend " + name + " up: hold-down ended, " +
            plural(consecutivePassed, "consecutive passed check"));
    }

    private void onChecksStateChange(final long nowMs)
    {
        final long holdDownMs = flapTracker.onStateChange(nowMs);
        if (holdDownMs > 0)
        {
            final FlapDamping policy = flapTracker.policy();
            lastHoldDownReason = "backend " + name + " held down for " + spoken(holdDownMs) + ": " +
                (policy.maxStateChanges() + 1) + " state changes in " + spoken(policy.windowMs()) +
                " (flapping)";
        }
    }

    private Transition report(final long nowMs, final String reason)
    {
        final boolean up = isUp(nowMs);
        if (up == reportedUp)
        {
            return null;
        }
        reportedUp = up;
        transitions++;
        // Down while the checks pass: only damping holds it down, and its reason says why.
        return new Transition(name, up, !up && checksUp ? lastHoldDownReason : reason);
    }

    /** Returns whether the backend is up at {@code nowMs}: its checks say so and no hold-down is in force. */
    public boolean isUp(final long nowMs)
    {
        return checksUp && !flapTracker.isHeldDown(nowMs);
    }

    /** Returns whether flap damping holds the backend down at {@code nowMs}. */
    public boolean isHeldDown(final long nowMs)
    {
        return flapTracker.isHeldDown(nowMs);
    }

    /** Returns when the current or last hold-down ends, or {@link Long#MIN_VALUE} if there never was one. */
    public long heldUntilMs()
    {
        return flapTracker.heldUntilMs();
    }

    /** Returns the reason of the most recent hold-down, or null if there never was one. */
    public String lastHoldDownReason()
    {
        return lastHoldDownReason;
    }

    public String name()
    {
        return name;
    }

    /** Returns the number of checks applied. */
    public long checks()
    {
        return checks;
    }

    /** Returns the number of failed checks applied. */
    public long failedChecks()
    {
        return failedChecks;
    }

    /** Returns the number of transitions of the reported state. */
    public long transitions()
    {
        return transitions;
    }

    /** Returns how many times flap damping triggered. */
    public long flaps()
    {
        return flapTracker.flaps();
    }

    /**
     * Formats a duration the way a log line says it, "30 s" or "1500 ms"; not the configuration's syntax
     * ({@code io.sluice.common.config.Durations}), so an operator reads "held down for 240 s", not "4m".
     */
    private static String spoken(final long ms)
    {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }

    private static String plural(final int count, final String noun)
    {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    @Override
    public String toString()
    {
        return "BackendHealth{" + name + (reportedUp ? " up" : " down") + ", checks=" + checks + '}';
    }
}
