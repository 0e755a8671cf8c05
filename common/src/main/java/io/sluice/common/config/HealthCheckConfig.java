package io.sluice.common.config;

import java.util.concurrent.TimeUnit;

/**
 * How the controller checks a backend ({@code controller.health_checks}, or a VIP's {@code vips[i].health_check},
 * which overrides the controller's defaults key by key).
 *
 * @param type             HTTP GET or TCP connect.
 * @param path             the HTTP request path, starting with {@code /}; unused by TCP checks.
 * @param port             the port to check, or {@link #VIP_PORT} for the VIP's own port.
 * @param expectStatus     the HTTP statuses that pass; unused by TCP checks.
 * @param intervalNs       time between the starts of two checks of one backend.
 * @param timeoutNs        time after which a check fails; shorter than the interval.
 * @param rise             consecutive passes that bring a down backend up, 1..100.
 * @param fall             consecutive failures that bring an up backend down, 1..100.
 * @param startUp          whether backends start up (true) or down until they pass {@code rise} checks (false).
 */
public record HealthCheckConfig(
    Type type, String path, int port, HttpStatuses expectStatus, long intervalNs, long timeoutNs, int rise, int fall,
    boolean startUp)
{
    /** The {@link #port} that means "the VIP's port". */
    public static final int VIP_PORT = 0;
    public static final String DEFAULT_PATH = "/";
    public static final HttpStatuses DEFAULT_EXPECT_STATUS = HttpStatuses.range(200, 399);
    public static final long DEFAULT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(2);
    public static final long DEFAULT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    public static final int DEFAULT_RISE = 2;
    public static final int DEFAULT_FALL = 3;
    public static final int MAX_RISE_FALL = 100;

    /** The kind of check. */
    public enum Type
    {
        /** A TCP connect that succeeds. */
        TCP("tcp"),
        /** An HTTP GET answered with a status in the expected range. */
        HTTP("http");

        private final String yamlName;

        Type(final String yamlName)
        {
            this.yamlName = yamlName;
        }

        /**
         * Returns the name used in the configuration file.
         *
         * @return {@code tcp} or {@code http}.
         */
        public String yamlName()
        {
            return yamlName;
        }

        /**
         * Looks up a type by its name in the configuration file.
         *
         * @param name e.g. {@code http}.
         * @return the type, or null when the name is unknown.
         */
        public static Type fromYamlName(final String name)
        {
            for (final Type type : values())
            {
                if (type.yamlName.equals(name))
                {
                    return type;
                }
            }
            return null;
        }
    }

    /**
     * Returns the defaults that apply when {@code controller.health_checks} is absent.
     *
     * @return a TCP check of the VIP's port every 2s with a 1s timeout, rise 2, fall 3, backends starting down.
     */
    public static HealthCheckConfig defaults()
    {
        return new HealthCheckConfig(Type.TCP, DEFAULT_PATH, VIP_PORT, DEFAULT_EXPECT_STATUS, DEFAULT_INTERVAL_NS,
            DEFAULT_TIMEOUT_NS, DEFAULT_RISE, DEFAULT_FALL, false);
    }

    /**
     * Returns the port to check for a VIP.
     *
     * @param vipPort the VIP's port.
     * @return {@link #port} when set, else the VIP's port.
     */
    public int portFor(final int vipPort)
    {
        return port == VIP_PORT ? vipPort : port;
    }

    /**
     * Tells whether an HTTP status passes.
     *
     * @param status the response status.
     * @return true when it is one of {@link #expectStatus}.
     */
    public boolean expects(final int status)
    {
        return expectStatus.contains(status);
    }
}
