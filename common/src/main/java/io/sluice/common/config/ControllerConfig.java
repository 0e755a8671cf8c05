package io.sluice.common.config;

import java.util.concurrent.TimeUnit;

/**
 * The controller's settings ({@code controller}).
 *
 * @param healthChecks              the health check of every backend, unless its VIP sets {@code health_check}.
 * @param flapDamping               flap damping of backend health.
 * @param failOpenShare             0.0..1.0: when fewer than this share of a VIP's backends are healthy, all of
 *                                  them take traffic (0 disables failing open).
 * @param forwarderLivenessTimeoutNs a forwarder whose heartbeat is older than this is dead.
 * @param drainTimeNs               the wait after withdrawing the VIPs on shutdown.
 * @param announceRegardless        whether VIPs are announced even without eligible backends.
 * @param metrics                   where metrics are served.
 * @param bgp                       the BGP settings, or null when the node does not speak BGP.
 */
public record ControllerConfig(
    HealthCheckConfig healthChecks, FlapDampingConfig flapDamping, double failOpenShare,
    long forwarderLivenessTimeoutNs, long drainTimeNs, boolean announceRegardless, MetricsConfig metrics,
    BgpConfig bgp)
{
    public static final double DEFAULT_FAIL_OPEN_SHARE = 0.0;
    public static final long DEFAULT_FORWARDER_LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(3);
    public static final long DEFAULT_DRAIN_TIME_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Returns the settings of a file without a {@code controller} section.
     *
     * @return every default, no BGP.
     */
    public static ControllerConfig defaults()
    {
        return new ControllerConfig(HealthCheckConfig.defaults(), FlapDampingConfig.defaults(),
            DEFAULT_FAIL_OPEN_SHARE, DEFAULT_FORWARDER_LIVENESS_TIMEOUT_NS, DEFAULT_DRAIN_TIME_NS, false,
            MetricsConfig.defaults(), null);
    }

    /**
     * Tells whether BGP is configured.
     *
     * @return true when {@link #bgp} is set.
     */
    public boolean hasBgp()
    {
        return bgp != null;
    }

    /**
     * Returns the health check of a VIP's backends.
     *
     * @param vip a VIP of the same configuration.
     * @return the VIP's own {@code health_check} (already merged over the defaults), else {@link #healthChecks}.
     */
    public HealthCheckConfig healthCheckFor(final VipConfig vip)
    {
        return vip.healthCheck() != null ? vip.healthCheck() : healthChecks;
    }
}
