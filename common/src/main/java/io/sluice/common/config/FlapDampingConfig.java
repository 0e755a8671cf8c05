package io.sluice.common.config;

import java.util.concurrent.TimeUnit;

/**
 * Flap damping of backend health ({@code controller.flap_damping}): a backend whose state changes more than
 * {@code maxChanges} times within {@code window} is held down for {@code holdDown}, doubling up to
 * {@code maxHoldDown} while it keeps flapping, and halving again for every {@code quietPeriod} without a new
 * hold-down.
 *
 * @param maxChanges    state changes allowed within the window, >= 1.
 * @param windowNs      the sliding window in which changes are counted.
 * @param holdDownNs    the first hold-down time.
 * @param maxHoldDownNs the longest hold-down time, >= holdDownNs.
 * @param quietPeriodNs time without a hold-down after which the next one is half as long (never below holdDown).
 */
public record FlapDampingConfig(int maxChanges, long windowNs, long holdDownNs, long maxHoldDownNs,
    long quietPeriodNs)
{
    public static final int DEFAULT_MAX_CHANGES = 4;
    public static final long DEFAULT_WINDOW_NS = TimeUnit.SECONDS.toNanos(60);
    public static final long DEFAULT_HOLD_DOWN_NS = TimeUnit.SECONDS.toNanos(30);
    public static final long DEFAULT_MAX_HOLD_DOWN_NS = TimeUnit.MINUTES.toNanos(10);
    public static final long DEFAULT_QUIET_PERIOD_NS = TimeUnit.MINUTES.toNanos(5);

    /**
     * Returns the defaults.
     *
     * @return 4 changes in 60s, hold down 30s up to 10m, halving after 5m quiet.
     */
    public static FlapDampingConfig defaults()
    {
        return new FlapDampingConfig(DEFAULT_MAX_CHANGES, DEFAULT_WINDOW_NS, DEFAULT_HOLD_DOWN_NS,
            DEFAULT_MAX_HOLD_DOWN_NS, DEFAULT_QUIET_PERIOD_NS);
    }
}
