package io.sluice.common.config;

/**
 * How the forwarder treats ICMP echo requests to a VIP ({@code forwarder.icmp_echo}).
 *
 * @param reply         true: the workers answer them (while the VIP has an eligible backend), false: they go to
 *                      the kernel port as any other frame for no VIP.
 * @param ratePerSecond replies each worker may send per second (the token bucket's refill rate).
 * @param burst         replies a worker may send at once after a quiet period (the bucket's size).
 */
public record IcmpEchoConfig(boolean reply, int ratePerSecond, int burst)
{
    /** Like Linux's net.ipv4.icmp_ratelimit (1000 ms / 1000) with its burst of 50. */
    public static final int DEFAULT_RATE_PER_SECOND = 1000;
    public static final int DEFAULT_BURST = 50;
    public static final int MAX_RATE_PER_SECOND = 10_000_000;
    public static final IcmpEchoConfig DEFAULT = new IcmpEchoConfig(true, DEFAULT_RATE_PER_SECOND, DEFAULT_BURST);
}
