package io.sluice.common.config;

import java.util.concurrent.TimeUnit;

/**
 * How the controller talks to ExaBGP ({@code controller.bgp.exabgp}).
 *
 * @param external        true when ExaBGP runs on its own and the controller must not start it.
 * @param command         the command that starts ExaBGP when not external.
 * @param orphanTimeoutNs how long the relay keeps the routes announced after the controller went away
 *                        ({@code orphan_timeout}); a controller restarted within it (SIGUSR2) finds them still up.
 */
public record ExaBgpConfig(boolean external, String command, long orphanTimeoutNs)
{
    public static final String DEFAULT_COMMAND = "exabgp";
    public static final long DEFAULT_ORPHAN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /**
     * Creates the settings with the default orphan timeout.
     *
     * @param external true when ExaBGP runs on its own.
     * @param command  the command that starts ExaBGP.
     */
    public ExaBgpConfig(final boolean external, final String command)
    {
        this(external, command, DEFAULT_ORPHAN_TIMEOUT_NS);
    }

    /**
     * Returns the defaults.
     *
     * @return the controller starts {@code exabgp}; the relay withdraws 30 s after the controller went away.
     */
    public static ExaBgpConfig defaults()
    {
        return new ExaBgpConfig(false, DEFAULT_COMMAND);
    }
}
