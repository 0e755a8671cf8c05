package io.sluice.forwarder.pipeline;

/**
 * A token bucket over a nanosecond clock read by the caller: {@code ratePerSecond} tokens a second, at most
 * {@code burst} saved up. Plain fields, owned by one worker; nothing allocates.
 */
public final class TokenBucket
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long ratePerSecond;
    private final long burst;
    // tokens in units of 1/1e9 token, so a refill of a few nanoseconds is never rounded away
    private final long capacityUnits;
    private long units;
    private long lastNs;
    private boolean started;

    /**
     * Creates a full bucket.
     *
     * @param ratePerSecond tokens added per second, >= 1.
     * @param burst         the most tokens held, >= 1.
     */
    public TokenBucket(final int ratePerSecond, final int burst)
    {
        if (ratePerSecond < 1 || burst < 1)
        {
            throw new IllegalArgumentException("rate and burst must be >= 1, got " + ratePerSecond + ", " + burst);
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.capacityUnits = burst * NANOS_PER_SECOND;
        this.units = capacityUnits;
    }

    /**
     * Takes one token if there is one.
     *
     * @param nowNs the caller's clock, monotonic.
     * @return true when a token was taken.
     */
    public boolean tryTake(final long nowNs)
    {
        if (!started)
        {
            started = true;
            lastNs = nowNs;
        }
        final long elapsed = nowNs - lastNs;
        if (elapsed > 0)
        {
            lastNs = nowNs;
            // Past the time to fill the bucket from empty, the bucket is full (and the product cannot overflow).
            final long fillNs = (burst * NANOS_PER_SECOND + ratePerSecond - 1) / ratePerSecond;
            units = elapsed >= fillNs ? capacityUnits : Math.min(capacityUnits, units + elapsed * ratePerSecond);
        }
        if (units < NANOS_PER_SECOND)
        {
            return false;
        }
        units -= NANOS_PER_SECOND;
        return true;
    }
}
