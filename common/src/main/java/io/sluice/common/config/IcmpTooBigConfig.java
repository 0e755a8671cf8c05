package io.sluice.common.config;

/**
 * Whether and how fast the forwarder answers a packet to a VIP that is too big for the tunnel with ICMP
 * fragmentation-needed or packet-too-big ({@code forwarder.icmp_too_big}).
 *
 * @param send          true: the workers send the errors (path MTU discovery works through the node), false: such
 *                      packets are only dropped (ENCAPSULATED_TOO_BIG), a path MTU black hole.
 * @param ratePerSecond errors each worker may send per second (the token bucket's refill rate).
 * @param burst         errors a worker may send at once after a quiet period (the bucket's size).
 */
public record IcmpTooBigConfig(boolean send, int ratePerSecond, int burst)
{
    /** Like Linux's net.ipv4.icmp_msgs_per_sec (1000) and icmp_msgs_burst (50), which also bound its PMTU errors. */
    public static final int DEFAULT_RATE_PER_SECOND = 1000;
    public static final int DEFAULT_BURST = 50;
    public static final IcmpTooBigConfig DEFAULT = new IcmpTooBigConfig(true, DEFAULT_RATE_PER_SECOND, DEFAULT_BURST);
}
