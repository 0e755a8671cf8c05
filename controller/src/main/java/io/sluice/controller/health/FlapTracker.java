package io.sluice.controller.health;

/**
 * Per-backend flap damping state for a {@link FlapDamping} policy: the recent state changes in a ring and the
 * current hold-down. Pure; the caller passes the time.
 */
final class FlapTracker
{
    private final FlapDamping policy;
    private final long[] changeTimes;
    private int changeCount;
    private int nextSlot;
    private long holdDownMs;
    private long lastTriggerMs;
    private long heldUntilMs = Long.MIN_VALUE;
    private long flaps;

    FlapTracker(final FlapDamping policy)
    {
        this.policy = policy;
        this.changeTimes = new long[policy.enabled() ? policy.maxStateChanges() + 1 : 0];
        this.holdDownMs = policy.initialHoldDownMs();
    }

    /**
     * Records a state change and returns the hold-down it started in ms, or 0 when it did not trigger damping.
     */
    long onStateChange(final long nowMs)
    {
        if (!policy.enabled())
        {
            return 0;
        }
        changeTimes[nextSlot] = nowMs;
        nextSlot = (nextSlot + 1) % changeTimes.length;
        changeCount = Math.min(changeCount + 1, changeTimes.length);
        // The ring is full and its oldest entry (the next slot) is inside the window: more than N changes in W.
        if (changeCount < changeTimes.length || nowMs - changeTimes[nextSlot] >= policy.windowMs())
        {
            return 0;
        }
        if (flaps > 0)
        {
            holdDownMs = nextHoldDownMs(nowMs);
        }
        lastTriggerMs = nowMs;
        heldUntilMs = nowMs + holdDownMs;
        flaps++;
        changeCount = 0; // a re-trigger needs a fresh run of changes
        return holdDownMs;
    }

    /** Doubles the last hold-down, then halves it once per quiet period since the last trigger. */
    private long nextHoldDownMs(final long nowMs)
    {
        long held = holdDownMs > policy.maxHoldDownMs() / 2 ? policy.maxHoldDownMs() : holdDownMs * 2;
        final long quietPeriods = (nowMs - lastTriggerMs) / policy.quietPeriodMs();
        for (long i = 0; i < quietPeriods && held > policy.initialHoldDownMs(); i++)
        {
            held /= 2;
        }
        return Math.max(policy.initialHoldDownMs(), held);
    }

    boolean isHeldDown(final long nowMs)
    {
        return nowMs < heldUntilMs;
    }

    long heldUntilMs()
    {
        return heldUntilMs;
    }

    /** The hold-down the most recent trigger started. */
    long holdDownMs()
    {
        return holdDownMs;
    }

    FlapDamping policy()
    {
        return policy;
    }

    long flaps()
    {
        return flaps;
    }
}
