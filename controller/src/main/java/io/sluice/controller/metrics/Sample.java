package io.sluice.controller.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One value of a {@link MetricFamily}: its labels, in the order they are rendered, and the value.
 * <p>
 * Values are doubles, as in the Prometheus data model: a counter above 2^53 loses its lowest bits.
 *
 * @param labels label names to values, in render order; unmodifiable.
 * @param value  the value.
 */
public record Sample(Map<String, String> labels, double value)
{
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    /**
     * Creates a sample, checking label names and copying the labels.
     *
     * @param labels label names to values, in render order.
     * @param value  the value.
     */
    public Sample
    {
        Objects.requireNonNull(labels, "labels");
        final Map<String, String> copy = new LinkedHashMap<>();
        for (final Map.Entry<String, String> label : labels.entrySet())
        {
            final String name = Objects.requireNonNull(label.getKey(), "label name");
            if (!LABEL_NAME.matcher(name).matches() || name.startsWith("__"))
            {
                throw new IllegalArgumentException("invalid Prometheus label name: " + name);
            }
            copy.put(name, Objects.requireNonNull(label.getValue(), "value of label " + name));
        }
        labels = Collections.unmodifiableMap(copy);
    }

    /**
     * Creates a sample from alternating label names and values.
     *
     * @param value          the value.
     * @param namesAndValues e.g. {@code "vip", "web", "backend", "be1"}.
     * @return the sample.
     * @throws IllegalArgumentException when a name has no value or a name is invalid.
     */
    public static Sample of(final double value, final String... namesAndValues)
    {
        if (namesAndValues.length % 2 != 0)
        {
            throw new IllegalArgumentException("label names and values must come in pairs, got " +
                namesAndValues.length + " strings");
        }
        final Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2)
        {
            if (labels.put(namesAndValues[i], namesAndValues[i + 1]) != null)
            {
                throw new IllegalArgumentException("label " + namesAndValues[i] + " given twice");
            }
        }
        return new Sample(labels, value);
    }
}
