package io.sluice.controller.metrics;

import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders metrics in the Prometheus text exposition format, version 0.0.4: the forwarder's counters read from a
 * {@link CountersReader}, followed by whatever {@link MetricFamily families} the controller adds. Pure: the time is
 * passed in and nothing is cached.
 * <p>
 * Each family gets its {@code # HELP} and {@code # TYPE} lines once; families given twice under one name are merged
 * (their types must agree). Label values and help text are escaped as the format requires.
 */
public final class PrometheusFormatter
{
    private PrometheusFormatter()
    {
    }

    /**
     * Renders the forwarder's counters.
     *
     * @param reader the counters.
     * @param nowMs  epoch milliseconds now, for heartbeat ages.
     * @return the exposition text.
     */
    public static String format(final CountersReader reader, final long nowMs)
    {
        return format(reader, nowMs, List.of());
    }

    /**
     * Renders the forwarder's counters and the controller's own families.
     *
     * @param reader the counters.
     * @param nowMs  epoch milliseconds now, for heartbeat ages.
     * @param extra  the controller's families, rendered after the counters.
     * @return the exposition text.
     * @throws IllegalArgumentException when two families share a name but not a type.
     */
    public static String format(final CountersReader reader, final long nowMs, final List<MetricFamily> extra)
    {
        final List<MetricFamily> families = new ArrayList<>(CounterFamilies.read(reader, nowMs));
        families.addAll(extra);
        return render(families);
    }

    /**
     * Returns the forwarder's counters as families, for callers that want to combine or inspect them.
     *
     * @param reader the counters.
     * @param nowMs  epoch milliseconds now, for heartbeat ages.
     * @return the families, in counter type order.
     */
    public static List<MetricFamily> families(final CountersReader reader, final long nowMs)
    {
        return CounterFamilies.read(reader, nowMs);
    }

    /**
     * Renders families, merging those that share a name.
     *
     * @param families the families.
     * @return the exposition text, ending in a newline unless empty.
     * @throws IllegalArgumentException when two families share a name but not a type.
     */
    public static String render(final List<MetricFamily> families)
    {
        final Map<String, MetricFamily> byName = new LinkedHashMap<>();
        for (final MetricFamily family : families)
        {
            final MetricFamily earlier = byName.get(family.name());
            if (earlier == null)
            {
                byName.put(family.name(), family);
            }
            else if (earlier.type() != family.type())
            {
                throw new IllegalArgumentException("metric " + family.name() + " given as both " +
                    earlier.type().text() + " and " + family.type().text());
            }
            else
            {
                final List<Sample> samples = new ArrayList<>(earlier.samples());
                samples.addAll(family.samples());
                byName.put(family.name(), new MetricFamily(earlier.name(), earlier.help(), earlier.type(), samples));
            }
        }

        final StringBuilder out = new StringBuilder(4096);
        for (final MetricFamily family : byName.values())
        {
            out.append("# HELP ").append(family.name()).append(' ');
            appendEscaped(out, family.help(), false);
            out.append('\n');
            out.append("# TYPE ").append(family.name()).append(' ').append(family.type().text()).append('\n');
            for (final Sample sample : family.samples())
            {
                appendSample(out, family.name(), sample);
            }
        }
        return out.toString();
    }

    /**
     * Escapes a label value: backslash, double quote and line feed.
     *
     * @param value the raw value.
     * @return the escaped value, without surrounding quotes.
     */
    public static String escapeLabelValue(final String value)
    {
        final StringBuilder out = new StringBuilder(value.length() + 8);
        appendEscaped(out, value, true);
        return out.toString();
    }

    /**
     * Formats a sample value: integral values without a fraction, {@code NaN}, {@code +Inf} and {@code -Inf} as
     * the format spells them.
     *
     * @param value the value.
     * @return the text.
     */
    public static String formatValue(final double value)
    {
        if (Double.isNaN(value))
        {
            return "NaN";
        }
        if (Double.isInfinite(value))
        {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 0x1p63)
        {
            return Long.toString((long)value);
        }
        return Double.toString(value);
    }

    private static void appendSample(final StringBuilder out, final String name, final Sample sample)
    {
        out.append(name);
        if (!sample.labels().isEmpty())
        {
            out.append('{');
            boolean first = true;
            for (final Map.Entry<String, String> label : sample.labels().entrySet())
            {
                if (!first)
                {
                    out.append(',');
                }
                first = false;
                out.append(label.getKey()).append("=\"");
                appendEscaped(out, label.getValue(), true);
                out.append('"');
            }
            out.append('}');
        }
        out.append(' ').append(formatValue(sample.value())).append('\n');
    }

    // Exposition format 0.0.4: label values escape \, " and newline; HELP text escapes only \ and newline.
    private static void appendEscaped(final StringBuilder out, final String text, final boolean quote)
    {
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '\\')
            {
                out.append("\\\\");
            }
            else if (c == '\n')
            {
                out.append("\\n");
            }
            else if (c == '"' && quote)
            {
                out.append("\\\"");
            }
            else
            {
                out.append(c);
            }
        }
    }
}
