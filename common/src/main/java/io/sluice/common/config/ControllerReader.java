package io.sluice.common.config;

import java.net.InetAddress;
import java.util.List;

/**
 * Reads {@code controller} and the health checks of {@code controller.health_checks} and {@code vips[i].health_check}.
 */
final class ControllerReader
{
    static final String[] KEYS = {"health_checks", "flap_damping", "fail_open_share", "forwarder_liveness_timeout",
        "drain_time", "announce_regardless", "metrics", "bgp"};
    static final String[] HEALTH_CHECK_KEYS =
        {"type", "path", "port", "expect_status", "interval", "timeout", "rise", "fall", "start_up"};

    private ControllerReader()
    {
    }

    static ControllerConfig read(final MapReader root) throws ConfigException
    {
        if (!root.has("controller"))
        {
            return ControllerConfig.defaults();
        }
        final MapReader controller = root.optionalMap("controller", KEYS);
        final HealthCheckConfig healthChecks = controller.has("health_checks") ?
            healthCheck(controller.optionalMap("health_checks", HEALTH_CHECK_KEYS), HealthCheckConfig.defaults()) :
            HealthCheckConfig.defaults();
        final FlapDampingConfig flapDamping = flapDamping(
            controller.optionalMap("flap_damping", "max_changes", "window", "hold_down", "max_hold_down",
                "quiet_period"));
        final double failOpenShare =
            controller.optionalNumber("fail_open_share", ControllerConfig.DEFAULT_FAIL_OPEN_SHARE, 0.0, 1.0);
        final long livenessNs = controller.optionalDurationNanos("forwarder_liveness_timeout",
            ControllerConfig.DEFAULT_FORWARDER_LIVENESS_TIMEOUT_NS);
        final long drainNs = controller.optionalDurationNanos("drain_time", ControllerConfig.DEFAULT_DRAIN_TIME_NS);
        final boolean announceRegardless = controller.optionalBoolean("announce_regardless", false);
        final MetricsConfig metrics = metrics(controller.optionalMap("metrics", "address", "port"));
        final BgpConfig bgp =
            controller.has("bgp") ? BgpReader.read(controller.requiredMap("bgp", BgpReader.KEYS)) : null;
        return new ControllerConfig(healthChecks, flapDamping, failOpenShare, livenessNs, drainNs, announceRegardless,
            metrics, bgp);
    }

    /**
     * Reads a health check mapping; a key it does not set keeps the value of {@code base}.
     */
    static HealthCheckConfig healthCheck(final MapReader reader, final HealthCheckConfig base) throws ConfigException
    {
        HealthCheckConfig.Type type = base.type();
        if (reader.has("type"))
        {
            final String name = reader.requiredString("type");
            type = HealthCheckConfig.Type.fromYamlName(name);
            if (type == null)
            {
                throw reader.error("type", "expected http or tcp, got \"" + name + "\"");
            }
        }
        if (type != HealthCheckConfig.Type.HTTP)
        {
            for (final String httpOnly : new String[]{"path", "expect_status"})
            {
                if (reader.has(httpOnly))
                {
                    throw reader.error(httpOnly, "only for http checks; this check's type is " + type.yamlName());
                }
            }
        }
        final String path = reader.optionalString("path", base.path());
        if (!path.startsWith("/"))
        {
            throw reader.error("path", "must start with /, got \"" + path + "\"");
        }
        if (path.chars().anyMatch(c -> c <= ' ' || c >= 0x7f))
        {
            throw reader.error("path", "must be printable ASCII without spaces, got \"" + path + "\"");
        }
        final int port = reader.optionalInt("port", base.port(), 1, 65535);
        final HttpStatuses expectStatus =
            reader.has("expect_status") ? readExpectStatus(reader) : base.expectStatus();
        final long intervalNs = reader.optionalDurationNanos("interval", base.intervalNs());
        final long timeoutNs = reader.optionalDurationNanos("timeout", base.timeoutNs());
        if (timeoutNs >= intervalNs)
        {
            final String field = reader.has("timeout") || !reader.has("interval") ? "timeout" : "interval";
            throw reader.error(field, "timeout " + Durations.format(timeoutNs) + " must be shorter than interval " +
                Durations.format(intervalNs));
        }
        final int rise = reader.optionalInt("rise", base.rise(), 1, HealthCheckConfig.MAX_RISE_FALL);
        final int fall = reader.optionalInt("fall", base.fall(), 1, HealthCheckConfig.MAX_RISE_FALL);
        final boolean startUp = reader.optionalBoolean("start_up", base.startUp());
        return new HealthCheckConfig(type, path, port, expectStatus, intervalNs, timeoutNs, rise, fall, startUp);
    }

    // expect_status: [lo, hi] (an inclusive range), one status (200), or a list in a string ("200,204,301-302").
    private static HttpStatuses readExpectStatus(final MapReader reader) throws ConfigException
    {
        final Object value = reader.get("expect_status");
        if (value instanceof Integer status)
        {
            return parseStatuses(reader, Integer.toString(status));
        }
        if (value instanceof String text)
        {
            return parseStatuses(reader, text);
        }
        if (!(value instanceof List<?> range))
        {
            throw reader.error("expect_status", "expected [lo, hi], a status such as 200, or a list such as " +
                "\"200,204,301-302\"; got " + MapReader.describe(value));
        }
        final String field = reader.pathOf("expect_status");
        if (range.size() != 2)
        {
            throw reader.error("expect_status", "expected [lo, hi], an inclusive range of HTTP statuses such as " +
                "[200, 399]; got " + range.size() + " value(s)");
        }
        final int[] bounds = new int[2];
        for (int i = 0; i < 2; i++)
        {
            final Object bound = range.get(i);
            if (!(bound instanceof Integer status) || status < HttpStatuses.MIN || status > HttpStatuses.MAX)
            {
                throw new ConfigException(reader.file(), field + "[" + i + "]",
                    "expected an HTTP status 100..599, got " + MapReader.describe(bound));
            }
            bounds[i] = status;
        }
        if (bounds[0] > bounds[1])
        {
            throw reader.error("expect_status", "lo " + bounds[0] + " is above hi " + bounds[1]);
        }
        return HttpStatuses.range(bounds[0], bounds[1]);
    }

    private static HttpStatuses parseStatuses(final MapReader reader, final String text) throws ConfigException
    {
        try
        {
            return HttpStatuses.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw reader.error("expect_status", ex.getMessage() + " in \"" + text + "\"");
        }
    }

    private static FlapDampingConfig flapDamping(final MapReader reader) throws ConfigException
    {
        final int maxChanges =
            reader.optionalInt("max_changes", FlapDampingConfig.DEFAULT_MAX_CHANGES, 1, Integer.MAX_VALUE);
        final long windowNs = reader.optionalDurationNanos("window", FlapDampingConfig.DEFAULT_WINDOW_NS);
        final long holdDownNs = reader.optionalDurationNanos("hold_down", FlapDampingConfig.DEFAULT_HOLD_DOWN_NS);
        final long maxHoldDownNs = reader.optionalDurationNanos("max_hold_down",
            Math.max(holdDownNs, FlapDampingConfig.DEFAULT_MAX_HOLD_DOWN_NS));
        if (maxHoldDownNs < holdDownNs)
        {
            throw reader.error("max_hold_down", "max_hold_down " + Durations.format(maxHoldDownNs) +
                " must not be shorter than hold_down " + Durations.format(holdDownNs));
        }
        // Durations are whole milliseconds or more and never zero, as the damping's quiet period must be.
        final long quietPeriodNs =
            reader.optionalDurationNanos("quiet_period", FlapDampingConfig.DEFAULT_QUIET_PERIOD_NS);
        return new FlapDampingConfig(maxChanges, windowNs, holdDownNs, maxHoldDownNs, quietPeriodNs);
    }

    private static MetricsConfig metrics(final MapReader reader) throws ConfigException
    {
        InetAddress address = MetricsConfig.defaults().address();
        if (reader.has("address"))
        {
            address = ConfigValues.literal(reader, "address", reader.requiredString("address"), IpLiterals::parse);
            if (address.isMulticastAddress())
            {
                throw reader.error("address", IpLiterals.format(address) + " is a multicast address; expected an " +
                    "address of this host to listen on");
            }
        }
        final int port = reader.optionalInt("port", MetricsConfig.DEFAULT_PORT, 1, 65535);
        return new MetricsConfig(address, port);
    }
}
