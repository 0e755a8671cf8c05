package io.sluice.tools.stats;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.DutyCycleBuckets;
import io.sluice.common.counters.ForwarderState;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * Writes a {@link StatsReport} as text for operators: a header (owner, uptime, heartbeat ages), totals over workers
 * with each non-zero drop and pass reason, then per VIP, per backend, per port and per worker tables.
 */
final class StatsTextFormat
{
    private static final String VALUE_ROW = "  %-34s %18d %16s%n";
    private static final String REASON_ROW = "    %-32s %18d %16s%n";
    private static final int MIN_NAME_WIDTH = 44;
    private static final CounterType[] PORT_COLUMNS = {
        CounterType.PORT_RX_PACKETS, CounterType.PORT_TX_PACKETS, CounterType.PORT_RX_MISSED,
        CounterType.PORT_RX_ERRORS, CounterType.PORT_TX_ERRORS, CounterType.PORT_RX_NOMBUF,
    };

    private StatsTextFormat()
    {
    }

    /**
     * Formats a report.
     *
     * @param report the report.
     * @return lines of text, ending with a line break.
     */
    static String format(final StatsReport report)
    {
        final StringBuilder out = new StringBuilder(4096);
        header(out, report);
        totals(out, report);
        vips(out, report);
        backends(out, report);
        ports(out, report);
        workers(out, report);
        dutyCycles(out, report);
        return out.toString();
    }

    private static void header(final StringBuilder out, final StatsReport report)
    {
        final StatsReport.Group process = report.process;
        out.append(String.format(Locale.ROOT, "node %s  pid %d (%s)  state %s  uptime %s  at %s  over %.3f s%n",
            report.node, report.pid, report.alive ? "alive" : "NOT RUNNING",
            process.stat(CounterType.FORWARDER_STATE) == null ? "-" :
                ForwarderState.describe(process.value(CounterType.FORWARDER_STATE)),
            duration(report.uptimeMs()), Instant.ofEpochMilli(report.nowMs), report.intervalNs / 1e9));
        out.append("file ").append(report.file).append(System.lineSeparator());
        final StringBuilder processLine = new StringBuilder();
        if (process.stat(CounterType.FORWARDING_STATE_VERSION) != null)
        {
            processLine.append("  forwarding state version ")
                .append(process.value(CounterType.FORWARDING_STATE_VERSION));
        }
        if (process.stat(CounterType.CONTROL_COMMANDS_APPLIED) != null)
        {
            processLine.append("  control commands applied ")
                .append(process.value(CounterType.CONTROL_COMMANDS_APPLIED))
                .append(" rejected ").append(process.value(CounterType.CONTROL_COMMANDS_REJECTED));
        }
        if (process.stat(CounterType.MAGLEV_BUILD_NS_LAST) != null)
        {
            processLine.append(String.format(Locale.ROOT, "  last maglev build %.3f ms",
                process.value(CounterType.MAGLEV_BUILD_NS_LAST) / 1e6));
        }
        if (processLine.length() > 0)
        {
            out.append(processLine, 2, processLine.length()).append(System.lineSeparator());
        }
        out.append("heartbeat age:");
        if (report.workers.isEmpty())
        {
            out.append(" no workers");
        }
        for (final StatsReport.Group worker : report.workers.values())
        {
            final long age = report.heartbeatAgeMs(worker);
            out.append(" worker ").append(worker.id).append(' ').append(age < 0 ? "never" : age + " ms");
            if (report.isStale(worker))
            {
                out.append(" STALE");
            }
            out.append(';');
        }
        out.append(System.lineSeparator());
    }

    private static void totals(final StringBuilder out, final StatsReport report)
    {
        out.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-36s %18s %16s%n",
            "totals over workers", "value", "per s"));
        for (final Map.Entry<CounterType, StatsReport.Stat> entry : report.totals.stats.entrySet())
        {
            final CounterType type = entry.getKey();
            final StatsReport.Stat stat = entry.getValue();
            final String name = type.kind() == CounterType.Kind.MAXIMUM ?
                type.labelPrefix() + " (max)" : type.labelPrefix();
            out.append(String.format(Locale.ROOT, VALUE_ROW, name, stat.value, rate(report, type, stat.delta)));
            if (type == CounterType.PASSED)
            {
                reasons(out, report, report.totals.passReasons);
            }
            else if (type == CounterType.DROPPED)
            {
                reasons(out, report, report.totals.dropReasons);
            }
        }
    }

    private static void reasons(
        final StringBuilder out, final StatsReport report, final SortedMap<Integer, StatsReport.ReasonStat> reasons)
    {
        for (final StatsReport.ReasonStat reason : reasons.values())
        {
            if (reason.stat.value != 0)
            {
                out.append(String.format(Locale.ROOT, REASON_ROW, reason.name, reason.stat.value,
                    String.format(Locale.ROOT, "%.1f", report.rate(reason.stat.delta))));
            }
        }
    }

    private static void vips(final StringBuilder out, final StatsReport report)
    {
        if (report.vips.isEmpty())
        {
            return;
        }
        int width = MIN_NAME_WIDTH;
        for (final StatsReport.Group vip : report.vips.values())
        {
            width = Math.max(width, vip.name.length());
        }
        groupHeader(out, "vips", width);
        for (final StatsReport.Group vip : report.vips.values())
        {
            groupRow(out, report, width, vip.name, vip, CounterType.VIP_PACKETS, CounterType.VIP_BYTES);
        }
    }

    private static void backends(final StringBuilder out, final StatsReport report)
    {
        if (report.backends.isEmpty())
        {
            return;
        }
        int width = MIN_NAME_WIDTH;
        for (final StatsReport.Group backend : report.backends.values())
        {
            width = Math.max(width, backendName(backend).length());
        }
        groupHeader(out, "backends", width);
        for (final StatsReport.Group backend : report.backends.values())
        {
            groupRow(out, report, width, backendName(backend), backend, CounterType.BACKEND_PACKETS,
                CounterType.BACKEND_BYTES);
        }
    }

    private static String backendName(final StatsReport.Group backend)
    {
        return backend.name + " -> " + backend.backendName;
    }

    private static void groupHeader(final StringBuilder out, final String title, final int width)
    {
        out.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-" + (width + 2) + "s %14s %18s %14s%n",
            title, "packets", "bytes", "pps"));
    }

    private static void groupRow(
        final StringBuilder out,
        final StatsReport report,
        final int width,
        final String name,
        final StatsReport.Group group,
        final CounterType packets,
        final CounterType bytes)
    {
        final StatsReport.Stat packetStat = group.stat(packets);
        out.append(String.format(Locale.ROOT, "  %-" + width + "s %14d %18d %14.1f%n", name, group.value(packets),
            group.value(bytes),
            packetStat == null ? 0.0 : report.rate(packetStat.delta)));
    }

    private static void ports(final StringBuilder out, final StatsReport report)
    {
        if (report.ports.isEmpty())
        {
            return;
        }
        out.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-6s", "ports"));
        for (final CounterType column : PORT_COLUMNS)
        {
            out.append(String.format(Locale.ROOT, " %14s %12s", column.fieldName().replace('_', ' '), "per s"));
        }
        out.append(System.lineSeparator());
        for (final StatsReport.Group port : report.ports.values())
        {
            out.append(String.format(Locale.ROOT, "  %-4d", port.id));
            for (final CounterType column : PORT_COLUMNS)
            {
                final StatsReport.Stat stat = port.stat(column);
                out.append(String.format(Locale.ROOT, " %14d %12.1f", stat == null ? 0 : stat.value,
                    stat == null ? 0.0 : report.rate(stat.delta)));
            }
            out.append(System.lineSeparator());
        }
    }

    private static void workers(final StringBuilder out, final StatsReport report)
    {
        if (report.workers.isEmpty())
        {
            return;
        }
        out.append(System.lineSeparator()).append(String.format(Locale.ROOT,
            "%-8s %12s %12s %12s %14s %12s %12s %12s %10s %14s%n", "workers", "heartbeat ms", "rx pps",
            "tx pps", "forwarded pps", "dropped pps", "passed pps", "conn entries", "snapshot", "max cycle ns"));
        for (final StatsReport.Group worker : report.workers.values())
        {
            final long age = report.heartbeatAgeMs(worker);
            out.append(String.format(Locale.ROOT, "  %-6d %12s %12.1f %12.1f %14.1f %12.1f %12.1f %12d %10d %14d%s%n",
                worker.id, age < 0 ? "never" : Long.toString(age),
                workerRate(report, worker, CounterType.RX_PACKETS), workerRate(report, worker, CounterType.TX_PACKETS),
                workerRate(report, worker, CounterType.FORWARDED), workerRate(report, worker, CounterType.DROPPED),
                workerRate(report, worker, CounterType.PASSED), worker.value(CounterType.CONN_ENTRIES),
                worker.value(CounterType.SNAPSHOT_VERSION), worker.value(CounterType.MAX_DUTY_CYCLE_NS),
                report.isStale(worker) ? "  STALE" : ""));
        }
    }

    // Quantiles of each worker's duty-cycle time, as the bound of their log2 bucket (DutyCycleBuckets).
    private static void dutyCycles(final StringBuilder out, final StatsReport report)
    {
        boolean header = false;
        for (final StatsReport.Group worker : report.workers.values())
        {
            if (worker.dutyCycleBuckets.isEmpty())
            {
                continue;
            }
            if (!header)
            {
                out.append(System.lineSeparator()).append(String.format(Locale.ROOT, "%-22s %12s %12s %12s%n",
                    "duty cycle time below", "p50", "p99", "p99.99"));
                header = true;
            }
            out.append(String.format(Locale.ROOT, "  worker %-13d %12s %12s %12s%n", worker.id,
                bound(worker.dutyCycleQuantileNs(0.5)), bound(worker.dutyCycleQuantileNs(0.99)),
                bound(worker.dutyCycleQuantileNs(0.9999))));
        }
    }

    private static String bound(final long ns)
    {
        if (ns < 0)
        {
            return "-";
        }
        if (ns == Long.MAX_VALUE)
        {
            return String.format(Locale.ROOT, ">%.0f ms",
                DutyCycleBuckets.lowerBoundNs(DutyCycleBuckets.COUNT - 1) / 1e6);
        }
        return ns >= 1_000_000 ? String.format(Locale.ROOT, "%.1f ms", ns / 1e6) :
            ns >= 1_000 ? String.format(Locale.ROOT, "%.1f us", ns / 1e3) : ns + " ns";
    }

    private static double workerRate(final StatsReport report, final StatsReport.Group worker, final CounterType type)
    {
        final StatsReport.Stat stat = worker.stat(type);
        return stat == null ? 0.0 : report.rate(stat.delta);
    }

    private static String rate(final StatsReport report, final CounterType type, final long delta)
    {
        return type.hasRate() ? String.format(Locale.ROOT, "%.1f", report.rate(delta)) : "";
    }

    /**
     * Formats a duration like {@code 3d04h05m06s}, leaving out leading zero units.
     *
     * @param ms milliseconds.
     * @return the text.
     */
    static String duration(final long ms)
    {
        final long seconds = ms / 1000;
        final long days = seconds / 86_400;
        final long hours = seconds / 3_600 % 24;
        final long minutes = seconds / 60 % 60;
        final long secs = seconds % 60;
        if (days > 0)
        {
            return String.format(Locale.ROOT, "%dd%02dh%02dm%02ds", days, hours, minutes, secs);
        }
        if (hours > 0)
        {
            return String.format(Locale.ROOT, "%dh%02dm%02ds", hours, minutes, secs);
        }
        if (minutes > 0)
        {
            return String.format(Locale.ROOT, "%dm%02ds", minutes, secs);
        }
        return secs + "s";
    }
}
