package io.sluice.controller.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileException;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.status.CountersReader;

import java.nio.file.Path;

/**
 * A Prometheus collector over the forwarder's counters file: every scrape maps the file read-only, reads each
 * counter once ({@link CounterFamilies} names them) and unmaps it. Mapped per scrape because a restarted forwarder
 * replaces the file and scrapes are seconds apart; with no forwarder (no file) the collector has nothing, and
 * {@code sluice_forwarder_alive} says why.
 */
public final class ForwarderCountersCollector implements MultiCollector
{
    private final Path countersPath;
    private final EpochClock clock;

    /**
     * Creates the collector.
     *
     * @param countersPath the counters file.
     * @param clock        wall clock, for heartbeat ages.
     */
    public ForwarderCountersCollector(final Path countersPath, final EpochClock clock)
    {
        this.countersPath = countersPath;
        this.clock = clock;
    }

    @Override
    public MetricSnapshots collect()
    {
        try (CountersFile counters = CountersFile.openReadOnly(countersPath))
        {
            return snapshots(counters.reader(), clock.time());
        }
        catch (final CountersFileException ex)
        {
            return new MetricSnapshots();
        }
    }

    /**
     * Returns the snapshots of counters already mapped.
     *
     * @param reader the counters.
     * @param nowMs  epoch milliseconds now, for heartbeat ages.
     * @return the snapshots.
     */
    public static MetricSnapshots snapshots(final CountersReader reader, final long nowMs)
    {
        final MetricSnapshotsBuilder builder = new MetricSnapshotsBuilder();
        CounterFamilies.read(reader, nowMs, builder);
        return builder.build();
    }
}
