package io.sluice.controller.health.check;

import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.HealthCheckConfig;
import io.sluice.common.config.VipConfig;

import java.time.Duration;

/**
 * Builds the checker a backend's health check configuration asks for.
 */
public final class Checkers
{
    private Checkers()
    {
    }

    /**
     * Creates the HTTP or TCP checker of one backend.
     *
     * @param check   the VIP's effective health check.
     * @param vip     the VIP, whose port is checked unless the health check names one.
     * @param backend the backend to check.
     * @return a checker that opens its own connection per check.
     */
    public static BackendChecker forConfig(final HealthCheckConfig check, final VipConfig vip, final BackendConfig backend)
    {
        final String ip = backend.address().getHostAddress();
        final int port = check.portFor(vip.port());
        final Duration timeout = Duration.ofNanos(check.timeoutNs());
        switch (check.type())
        {
            case HTTP:
                return new HttpChecker(ip, port, check.path(), timeout, check.expectStatus());
            case TCP:
                return new TcpChecker(ip, port, timeout);
            default:
                throw new IllegalArgumentException("unknown health check type " + check.type());
        }
    }
}
