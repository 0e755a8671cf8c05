package io.sluice.controller.metrics;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects data points by metric name and builds the Prometheus client's {@link MetricSnapshots} from them: the
 * forwarder's counters arrive one counter at a time, and several counter types (ICMP v4 and v6) share one family,
 * so a family is only complete once every point was added. Names must be legacy Prometheus names (what promtool
 * and every dashboard accept); a name given with two types is refused.
 */
public final class MetricSnapshotsBuilder
{
    private enum Type
    {
        COUNTER, GAUGE, HISTOGRAM
    }

    private static final class Family
    {
        final String name;
        final String help;
        final Type type;
        // Points by labels: a repeated label set (two backends of one display name) sums into one point.
        final Map<Labels, Double> values = new LinkedHashMap<>();
        final List<HistogramSnapshot.HistogramDataPointSnapshot> histograms = new ArrayList<>();

        Family(final String name, final String help, final Type type)
        {
            this.name = name;
            this.help = help;
            this.type = type;
        }
    }

    private final Map<String, Family> families = new LinkedHashMap<>();

    /**
     * Adds a counter point.
     *
     * @param name           the metric name, ending in {@code _total}.
     * @param help           the help text.
     * @param value          the value.
     * @param namesAndValues label names and values, alternating.
     * @return this.
     */
    public MetricSnapshotsBuilder counter(
        final String name, final String help, final double value, final String... namesAndValues)
    {
        family(name, help, Type.COUNTER).values.merge(labels(namesAndValues), value, Double::sum);
        return this;
    }

    /**
     * Adds a gauge point.
     *
     * @param name           the metric name.
     * @param help           the help text.
     * @param value          the value.
     * @param namesAndValues label names and values, alternating.
     * @return this.
     */
    public MetricSnapshotsBuilder gauge(
        final String name, final String help, final double value, final String... namesAndValues)
    {
        family(name, help, Type.GAUGE).values.merge(labels(namesAndValues), value, Double::sum);
        return this;
    }

    /**
     * Adds a classic histogram point.
     *
     * @param name           the metric name.
     * @param help           the help text.
     * @param upperBounds    bucket upper bounds, ascending, the last {@code +Inf}.
     * @param counts         observations in each bucket (not cumulative).
     * @param sum            sum of the observations.
     * @param namesAndValues label names and values, alternating.
     * @return this.
     */
    public MetricSnapshotsBuilder histogram(final String name, final String help, final double[] upperBounds,
        final long[] counts, final double sum, final String... namesAndValues)
    {
        family(name, help, Type.HISTOGRAM).histograms.add(HistogramSnapshot.HistogramDataPointSnapshot.builder()
            .classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, counts))
            .sum(sum)
            .labels(labels(namesAndValues))
            .build());
        return this;
    }

    /**
     * Builds the snapshots: one per name, in the order names were first added.
     *
     * @return the snapshots.
     */
    public MetricSnapshots build()
    {
        final List<MetricSnapshot> snapshots = new ArrayList<>(families.size());
        for (final Family family : families.values())
        {
            snapshots.add(snapshot(family));
        }
        return new MetricSnapshots(snapshots);
    }

    private static MetricSnapshot snapshot(final Family family)
    {
        switch (family.type)
        {
            case COUNTER:
            {
                final CounterSnapshot.Builder builder = CounterSnapshot.builder().name(family.name).help(family.help);
                family.values.forEach((labels, value) -> builder.dataPoint(
                    CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build()));
                return builder.build();
            }
            case GAUGE:
            {
                final GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(family.name).help(family.help);
                family.values.forEach((labels, value) -> builder.dataPoint(
                    GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build()));
                return builder.build();
            }
            default:
            {
                final HistogramSnapshot.Builder builder =
                    HistogramSnapshot.builder().name(family.name).help(family.help);
                family.histograms.forEach(builder::dataPoint);
                return builder.build();
            }
        }
    }

    private Family family(final String name, final String help, final Type type)
    {
        final Family known = families.get(name);
        if (known == null)
        {
            if (!PrometheusNaming.isValidLegacyMetricName(name))
            {
                throw new IllegalArgumentException("invalid Prometheus metric name: " + name);
            }
            final Family family = new Family(name, help, type);
            families.put(name, family);
            return family;
        }
        if (known.type != type)
        {
            throw new IllegalArgumentException("metric " + name + " given as both " +
                known.type.name().toLowerCase() + " and " + type.name().toLowerCase());
        }
        return known;
    }

    private static Labels labels(final String... namesAndValues)
    {
        if (namesAndValues.length % 2 != 0)
        {
            throw new IllegalArgumentException("label names and values must come in pairs, got " +
                namesAndValues.length + " strings");
        }
        for (int i = 0; i < namesAndValues.length; i += 2)
        {
            final String name = namesAndValues[i];
            if (!PrometheusNaming.isValidLegacyLabelName(name) || name.startsWith("__"))
            {
                throw new IllegalArgumentException("invalid Prometheus label name: " + name);
            }
            if (namesAndValues[i + 1] == null)
            {
                throw new IllegalArgumentException("label " + name + " has no value");
            }
        }
        // Labels.of refuses a name given twice.
        return Labels.of(namesAndValues);
    }
}
