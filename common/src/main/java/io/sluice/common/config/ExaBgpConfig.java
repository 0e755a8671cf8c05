package io.sluice.common.config;

/**
 * How the controller talks to ExaBGP ({@code controller.bgp.exabgp}).
 *
 * @param external true when ExaBGP runs on its own and the controller must not start it.
 * @param command  the command that starts ExaBGP when not external.
 */
public record ExaBgpConfig(boolean external, String command)
{
    public static final String DEFAULT_COMMAND = "exabgp";

    /**
     * Returns the defaults.
     *
     * @return the controller starts {@code exabgp}.
     */
    public static ExaBgpConfig defaults()
    {
        return new ExaBgpConfig(false, DEFAULT_COMMAND);
    }
}
