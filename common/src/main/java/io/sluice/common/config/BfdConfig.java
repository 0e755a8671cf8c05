package io.sluice.common.config;

/**
 * The BFD session (RFC 5880, single hop RFC 5881) the node runs to one BGP neighbor
 * ({@code controller.bgp.neighbors[i].bfd}), so the router can drop the node's routes within
 * {@code multiplier x interval} when the node freezes, instead of after the BGP hold time.
 *
 * @param enabled    whether the node runs a BFD session to the neighbor.
 * @param minRxMs    the Required Min RX Interval the node offers (RFC 5880 §6.8.1), milliseconds.
 * @param minTxMs    the Desired Min TX Interval the node offers, milliseconds.
 * @param multiplier the Detect Mult: the router declares the session down after this many missed intervals.
 */
public record BfdConfig(boolean enabled, int minRxMs, int minTxMs, int multiplier)
{
    /** Intervals of 10 ms and up: BIRD's floor for its timers is about a millisecond, the kernel's timer slack more. */
    public static final int MIN_INTERVAL_MS = 10;
    /** RFC 5880 carries intervals in microseconds in 32 bits; a minute is far beyond any use. */
    public static final int MAX_INTERVAL_MS = 60_000;
    /** RFC 5880 §4.1: Detect Mult is a nonzero 8-bit number. */
    public static final int MAX_MULTIPLIER = 255;
    public static final int DEFAULT_INTERVAL_MS = 100;
    public static final int DEFAULT_MULTIPLIER = 3;

    /** No BFD session. */
    public static final BfdConfig OFF = new BfdConfig(false, DEFAULT_INTERVAL_MS, DEFAULT_INTERVAL_MS,
        DEFAULT_MULTIPLIER);

    /**
     * Tells whether another session's timers are the same as this one's.
     *
     * @param other the other session.
     * @return true when min RX, min TX and the multiplier are equal.
     */
    public boolean sameTimers(final BfdConfig other)
    {
        return minRxMs == other.minRxMs && minTxMs == other.minTxMs && multiplier == other.multiplier;
    }

    /**
     * Describes the session for {@code sluice status} and the config check.
     *
     * @return e.g. {@code bfd rx 100ms tx 100ms x3}, or an empty string when off.
     */
    public String describe()
    {
        return enabled ? "bfd rx " + minRxMs + "ms tx " + minTxMs + "ms x" + multiplier : "";
    }
}
