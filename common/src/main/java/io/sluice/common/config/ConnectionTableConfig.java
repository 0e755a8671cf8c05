package io.sluice.common.config;

import java.util.concurrent.TimeUnit;

/**
 * The per-worker connection table ({@code forwarder.connection_table}).
 *
 * @param capacity           entries per worker, a power of two >= 8 (64 bytes each).
 * @param tcpIdleTimeoutNs   idle time after which a TCP entry expires.
 * @param udpIdleTimeoutNs   idle time after which a UDP entry expires.
 * @param otherIdleTimeoutNs idle time for fragments and other protocols.
 */
public record ConnectionTableConfig(
    int capacity, long tcpIdleTimeoutNs, long udpIdleTimeoutNs, long otherIdleTimeoutNs)
{
    public static final int DEFAULT_CAPACITY = 1 << 20;
    /** The connection table's bucket size: a smaller table has no whole bucket. */
    public static final int MIN_CAPACITY = 8;
    public static final long DEFAULT_TCP_IDLE_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(5);
    public static final long DEFAULT_UDP_IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    public static final long DEFAULT_OTHER_IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
}
