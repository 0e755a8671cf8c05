package io.sluice.controller.metrics;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A Prometheus metric family: a name, its help text and type, and its samples. The controller builds its own
 * (backend health, weights, BGP announcements, health-check latency) and hands them to {@link PrometheusFormatter}
 * next to the forwarder's counters.
 *
 * @param name    the metric name, e.g. {@code sluice_backend_health}; counters end in {@code _total}.
 * @param help    one line for {@code # HELP}.
 * @param type    the type for {@code # TYPE}.
 * @param samples the samples; unmodifiable.
 */
public record MetricFamily(String name, String help, Type type, List<Sample> samples)
{
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    /**
     * The Prometheus metric types Sluice uses.
     */
    public enum Type
    {
        /** A value that only grows (resets on restart). */
        COUNTER("counter"),
        /** A level that goes up and down. */
        GAUGE("gauge");

        private final String text;

        Type(final String text)
        {
            this.text = text;
        }

        /**
         * Returns the name used on the {@code # TYPE} line.
         *
         * @return e.g. {@code counter}.
         */
        public String text()
        {
            return text;
        }
    }

    /**
     * Creates a family, checking the name and copying the samples.
     *
     * @param name    the metric name.
     * @param help    the help text.
     * @param type    the type.
     * @param samples the samples.
     */
    public MetricFamily
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(help, "help");
        Objects.requireNonNull(type, "type");
        if (!METRIC_NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("invalid Prometheus metric name: " + name);
        }
        samples = List.copyOf(samples);
    }

    /**
     * Creates a counter family.
     *
     * @param name    the metric name, ending in {@code _total}.
     * @param help    the help text.
     * @param samples the samples.
     * @return the family.
     */
    public static MetricFamily counter(final String name, final String help, final List<Sample> samples)
    {
        return new MetricFamily(name, help, Type.COUNTER, samples);
    }

    /**
     * Creates a gauge family.
     *
     * @param name    the metric name.
     * @param help    the help text.
     * @param samples the samples.
     * @return the family.
     */
    public static MetricFamily gauge(final String name, final String help, final List<Sample> samples)
    {
        return new MetricFamily(name, help, Type.GAUGE, samples);
    }
}
