package io.sluice.controller.health;

/**
 * Flap damping policy: more than {@code maxStateChanges} state changes within {@code windowMs} hold the backend
 * down for a hold-down time that starts at {@code initialHoldDownMs}, doubles each time damping re-triggers (up to
 * {@code maxHoldDownMs}), and halves again for every {@code quietPeriodMs} between triggers (never below the initial
 * hold-down).
 *
 * <p>The shape follows BGP route flap damping (RFC 2439): a growing penalty that decays while the route is stable.
 *
 * @param maxStateChanges   state changes tolerated within the window; one more triggers damping
 * @param windowMs          the sliding window
 * @param initialHoldDownMs the first hold-down
 * @param maxHoldDownMs     the cap on a grown hold-down
 * @param quietPeriodMs     time without a trigger after which the hold-down halves
 */
public record FlapDamping(int maxStateChanges, long windowMs, long initialHoldDownMs, long maxHoldDownMs,
                          long quietPeriodMs)
{
    /** Bounds the per-backend ring of change times. */
    public static final int MAX_STATE_CHANGES_LIMIT = 1024;

    private static final FlapDamping DISABLED = new FlapDamping(1, 1, 0, 0, 1);

    public FlapDamping
    {
        if (maxStateChanges < 1 || maxStateChanges > MAX_STATE_CHANGES_LIMIT)
        {
            throw new IllegalArgumentException(
                "maxStateChanges must be within 1.." + MAX_STATE_CHANGES_LIMIT + ": " + maxStateChanges);
        }
        if (windowMs <= 0 || quietPeriodMs <= 0)
        {
            throw new IllegalArgumentException("windowMs and quietPeriodMs must be positive");
        }
        if (initialHoldDownMs < 0 || maxHoldDownMs < initialHoldDownMs)
        {
            throw new IllegalArgumentException(
                "need 0 <= initialHoldDownMs <= maxHoldDownMs: " + initialHoldDownMs + ", " + maxHoldDownMs);
        }
    }

    /** Returns a policy that never damps. */
    public static FlapDamping disabled()
    {
        return DISABLED;
    }

    /** Returns whether this policy can ever hold a backend down (a zero hold-down never does). */
    public boolean enabled()
    {
        return initialHoldDownMs > 0;
    }
}
