package io.sluice.tools.stats;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.ForwarderState;
import io.sluice.common.json.JsonWriter;
import java.util.Map;
import java.util.SortedMap;

/**
 * Writes a {@link StatsReport} as one JSON object on one line (the {@code --json} output, documented in
 * docs/counters.md). Field names come from {@link CounterType#fieldName()} and {@link CounterType#rateName()}.
 */
final class StatsJsonFormat
{
    private StatsJsonFormat()
    {
    }

    /**
     * Formats a report.
     *
     * @param report the report.
     * @return one line of JSON, without the line break.
     */
    static String format(final StatsReport report)
    {
        final JsonWriter json = new JsonWriter().beginObject()
            .field("node", report.node)
            .field("file", report.file.toString())
            .field("pid", report.pid)
            .field("alive", report.alive)
            .field("time_ms", report.nowMs)
            .field("uptime_s", report.uptimeMs() / 1000)
            .field("interval_s", report.intervalNs / 1e9);

        json.name("process").beginObject();
        writeStats(json, report, report.process);
        json.endObject();

        json.name("workers").beginArray();
        for (final StatsReport.Group worker : report.workers.values())
        {
            final long age = report.heartbeatAgeMs(worker);
            json.beginObject().field("worker", worker.id);
            if (age < 0)
            {
                json.name("heartbeat_age_ms").nullValue();
            }
            else
            {
                json.field("heartbeat_age_ms", age);
            }
            json.field("stale", report.isStale(worker));
            writeStats(json, report, worker);
            writeReasons(json, report, worker);
            writeDutyCycles(json, worker);
            json.endObject();
        }
        json.endArray();

        json.name("totals").beginObject();
        writeStats(json, report, report.totals);
        writeReasons(json, report, report.totals);
        json.endObject();

        json.name("vips").beginArray();
        for (final StatsReport.Group vip : report.vips.values())
        {
            json.beginObject().field("vip", vip.name).field("index", vip.id);
            writeStats(json, report, vip);
            json.endObject();
        }
        json.endArray();

        json.name("backends").beginArray();
        for (final StatsReport.Group backend : report.backends.values())
        {
            json.beginObject().field("vip", backend.name).field("backend", backend.backendName)
                .field("vip_index", backend.id).field("slot", backend.slot);
            writeStats(json, report, backend);
            json.endObject();
        }
        json.endArray();

        json.name("ports").beginArray();
        for (final StatsReport.Group port : report.ports.values())
        {
            json.beginObject().field("port", port.id);
            writeStats(json, report, port);
            json.endObject();
        }
        json.endArray();

        json.name("counters").beginArray();
        for (final StatsReport.Row row : report.rows())
        {
            final CounterSnapshot.Entry entry = row.entry();
            json.beginObject()
                .field("id", entry.id())
                .field("type", entry.typeName())
                .field("type_id", entry.typeId())
                .name("key").beginArray().value(entry.worker()).value(entry.index1()).value(entry.index2()).endArray()
                .field("label", entry.label())
                .field("value", entry.value())
                .endObject();
        }
        json.endArray();
        return json.endObject().toString();
    }

    private static void writeStats(final JsonWriter json, final StatsReport report, final StatsReport.Group group)
    {
        for (final Map.Entry<CounterType, StatsReport.Stat> stat : group.stats.entrySet())
        {
            final CounterType type = stat.getKey();
            if (type == CounterType.FORWARDER_STATE)
            {
                json.field(type.fieldName(), ForwarderState.describe(stat.getValue().value));
                continue;
            }
            json.field(type.fieldName(), stat.getValue().value);
            if (type.hasRate())
            {
                json.field(type.rateName(), report.rate(stat.getValue().delta));
            }
        }
    }

    // The bucket counts since start, and the bucket bounds of the median, p99 and p99.99 (null: no cycle yet).
    private static void writeDutyCycles(final JsonWriter json, final StatsReport.Group worker)
    {
        if (worker.dutyCycleBuckets.isEmpty())
        {
            return;
        }
        json.name(CounterType.DUTY_CYCLE_BUCKET.fieldName()).beginObject();
        for (final StatsReport.ReasonStat bucket : worker.dutyCycleBuckets.values())
        {
            json.field(bucket.name, bucket.stat.value);
        }
        json.endObject();
        final double[] quantiles = {0.5, 0.99, 0.9999};
        final String[] names = {"duty_cycle_p50_below_ns", "duty_cycle_p99_below_ns", "duty_cycle_p9999_below_ns"};
        for (int q = 0; q < quantiles.length; q++)
        {
            final long bound = worker.dutyCycleQuantileNs(quantiles[q]);
            if (bound < 0 || bound == Long.MAX_VALUE)
            {
                json.name(names[q]).nullValue();
            }
            else
            {
                json.field(names[q], bound);
            }
        }
    }

    private static void writeReasons(final JsonWriter json, final StatsReport report, final StatsReport.Group group)
    {
        writeReasons(json, report, CounterType.DROP_REASON, group.dropReasons);
        writeReasons(json, report, CounterType.PASS_REASON, group.passReasons);
    }

    private static void writeReasons(
        final JsonWriter json,
        final StatsReport report,
        final CounterType type,
        final SortedMap<Integer, StatsReport.ReasonStat> reasons)
    {
        json.name(type.fieldName()).beginObject();
        for (final StatsReport.ReasonStat reason : reasons.values())
        {
            json.field(reason.name, reason.stat.value);
        }
        json.endObject();
        json.name(type.rateName()).beginObject();
        for (final StatsReport.ReasonStat reason : reasons.values())
        {
            json.field(reason.name, report.rate(reason.stat.delta));
        }
        json.endObject();
    }
}
