package io.sluice.common.config;

import java.net.InetAddress;

/**
 * Where the controller serves its metrics ({@code controller.metrics}).
 *
 * @param address the address to listen on, an IP literal (the unspecified address listens on all).
 * @param port    the TCP port, 1..65535.
 */
public record MetricsConfig(InetAddress address, int port)
{
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    public static final int DEFAULT_PORT = 9100;

    /**
     * Returns the defaults.
     *
     * @return 127.0.0.1:9100.
     */
    public static MetricsConfig defaults()
    {
        return new MetricsConfig(IpLiterals.parse(DEFAULT_ADDRESS), DEFAULT_PORT);
    }
}
