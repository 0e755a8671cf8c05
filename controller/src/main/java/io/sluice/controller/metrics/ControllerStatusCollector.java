package io.sluice.controller.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.controller.status.NodeStatus;

import java.util.function.Supplier;

/**
 * A Prometheus collector of the controller's own metrics ({@link ControllerFamilies}) from its latest
 * {@link NodeStatus}.
 */
public final class ControllerStatusCollector implements MultiCollector
{
    private final Supplier<NodeStatus> status;

    /**
     * Creates the collector.
     *
     * @param status the controller's status, asked once per scrape.
     */
    public ControllerStatusCollector(final Supplier<NodeStatus> status)
    {
        this.status = status;
    }

    @Override
    public MetricSnapshots collect()
    {
        return snapshots(status.get());
    }

    /**
     * Returns the snapshots of one status.
     *
     * @param status the status.
     * @return the snapshots.
     */
    public static MetricSnapshots snapshots(final NodeStatus status)
    {
        final MetricSnapshotsBuilder builder = new MetricSnapshotsBuilder();
        ControllerFamilies.add(status, builder);
        return builder.build();
    }
}
