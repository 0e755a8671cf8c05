package io.sluice.controller.status;

import io.sluice.common.JsonStrings;
import io.sluice.common.config.IpLiterals;

import java.util.Map;

/**
 * Renders a {@link NodeStatus} for people ({@link #text}) and for programs ({@link #json}). Pure.
 */
public final class StatusRenderer
{
    private StatusRenderer()
    {
    }

    /**
     * Renders the status as a few aligned lines per VIP.
     *
     * @param status the snapshot.
     * @return the text, ending in a newline.
     */
    public static String text(final NodeStatus status)
    {
        final StringBuilder out = new StringBuilder();
        final NodeStatus.Forwarder forwarder = status.forwarder();
        out.append("node ").append(status.node()).append('\n');
        out.append("forwarder: ").append(forwarder.alive() ? "alive" : "DEAD").append(" (").append(forwarder.reason())
            .append("), ").append(forwarder.synced() ? "synchronized" : "NOT synchronized");
        if (forwarder.unconfirmedCommands() > 0)
        {
            out.append(", ").append(forwarder.unconfirmedCommands()).append(" commands unconfirmed");
        }
        out.append('\n');
        final NodeStatus.Bgp bgp = status.bgp();
        out.append("bgp: ").append(bgp.state());
        for (final Map.Entry<String, String> neighbor : bgp.neighbors().entrySet())
        {
            out.append(", neighbor ").append(neighbor.getKey()).append(' ').append(neighbor.getValue());
        }
        out.append('\n');
        for (final Map.Entry<String, String> session : bgp.sessions().entrySet())
        {
            out.append("  session ").append(session.getKey()).append(": ").append(session.getValue()).append('\n');
        }
        for (final Map.Entry<String, String> route : bgp.routes().entrySet())
        {
            out.append("  route ").append(route.getKey()).append(':').append(route.getValue()).append('\n');
        }
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            out.append("\nVIP ").append(vip.name()).append(' ').append(IpLiterals.formatForPort(vip.address()))
                .append(':').append(vip.port()).append('/').append(vip.protocol()).append(": ")
                .append(vip.announced() ? "ANNOUNCED" : "WITHDRAWN").append(" (").append(vip.announceReason())
                .append(')');
            if (vip.failOpen())
            {
                out.append(", FAIL-OPEN: too few healthy backends, all take traffic");
            }
            out.append('\n');
            out.append(String.format("  %-16s %-39s %-9s %-8s %-7s %-7s %s%n",
                "BACKEND", "ADDRESS", "HEALTH", "FWD", "WEIGHT", "SLOTS", "LAST CHECK"));
            for (final NodeStatus.BackendStatus backend : vip.backends())
            {
                out.append(String.format("  %-16s %-39s %-9s %-8s %-7s %-7s %s%n",
                    backend.name(), IpLiterals.format(backend.address()), health(backend),
                    backend.eligible() ? "up" : "down", weight(backend), share(backend, forwarder),
                    backend.lastCheck() == null ? "-" : backend.lastCheck() + " in " +
                    backend.lastCheckLatencyNs() / 1_000_000 + " ms"));
            }
        }
        return out.toString();
    }

    private static String health(final NodeStatus.BackendStatus backend)
    {
        if (backend.heldDown())
        {
            return "held";
        }
        return backend.healthy() ? "healthy" : "down";
    }

    private static String weight(final NodeStatus.BackendStatus backend)
    {
        if (backend.drained())
        {
            return "drained";
        }
        return Integer.toString(backend.weight());
    }

    private static String share(final NodeStatus.BackendStatus backend, final NodeStatus.Forwarder forwarder)
    {
        if (backend.maglevSlots() < 0)
        {
            return "?";
        }
        return String.format("%.1f%%", 100.0 * backend.maglevSlots() / forwarder.maglevTableSize());
    }

    /**
     * Renders the status as one JSON object.
     *
     * @param status the snapshot.
     * @return the JSON text, ending in a newline.
     */
    public static String json(final NodeStatus status)
    {
        final StringBuilder out = new StringBuilder(1024);
        out.append("{\"node\":");
        JsonStrings.quote(out, status.node());
        out.append(",\"time_ms\":").append(status.timeMs());
        final NodeStatus.Forwarder f = status.forwarder();
        out.append(",\"forwarder\":{\"alive\":").append(f.alive()).append(",\"reason\":");
        JsonStrings.quote(out, f.reason());
        out.append(",\"synchronized\":").append(f.synced()).append(",\"control_channel_open\":").append(f.linked())
            .append(",\"unconfirmed_commands\":").append(f.unconfirmedCommands())
            .append(",\"maglev_table_size\":").append(f.maglevTableSize()).append('}');
        final NodeStatus.Bgp bgp = status.bgp();
        out.append(",\"bgp\":{\"configured\":").append(bgp.configured()).append(",\"state\":");
        JsonStrings.quote(out, bgp.state());
        out.append(",\"neighbors\":{");
        String separator = "";
        for (final Map.Entry<String, String> neighbor : bgp.neighbors().entrySet())
        {
            out.append(separator);
            JsonStrings.quote(out, neighbor.getKey());
            out.append(':');
            JsonStrings.quote(out, neighbor.getValue());
            separator = ",";
        }
        out.append("},\"announced\":[");
        separator = "";
        for (final String prefix : bgp.announced())
        {
            out.append(separator);
            JsonStrings.quote(out, prefix);
            separator = ",";
        }
        out.append("],\"sessions\":");
        stringMap(out, bgp.sessions());
        out.append(",\"routes\":");
        stringMap(out, bgp.routes());
        out.append("},\"vips\":[");
        separator = "";
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            out.append(separator);
            vipJson(out, vip, f);
            separator = ",";
        }
        return out.append("]}\n").toString();
    }

    private static void vipJson(final StringBuilder out, final NodeStatus.VipStatus vip,
        final NodeStatus.Forwarder forwarder)
    {
        out.append("{\"name\":");
        JsonStrings.quote(out, vip.name());
        out.append(",\"address\":");
        JsonStrings.quote(out, IpLiterals.format(vip.address()));
        out.append(",\"port\":").append(vip.port()).append(",\"protocol\":");
        JsonStrings.quote(out, vip.protocol());
        out.append(",\"announced\":").append(vip.announced()).append(",\"announce_reason\":");
        JsonStrings.quote(out, vip.announceReason());
        out.append(",\"fail_open\":").append(vip.failOpen()).append(",\"eligible_backends\":").append(vip.eligible())
            .append(",\"backends\":[");
        String separator = "";
        for (final NodeStatus.BackendStatus backend : vip.backends())
        {
            out.append(separator).append("{\"name\":");
            JsonStrings.quote(out, backend.name());
            out.append(",\"address\":");
            JsonStrings.quote(out, IpLiterals.format(backend.address()));
            out.append(",\"healthy\":").append(backend.healthy()).append(",\"held_down\":").append(backend.heldDown())
                .append(",\"eligible\":").append(backend.eligible()).append(",\"last_check\":");
            if (backend.lastCheck() == null)
            {
                out.append("null");
            }
            else
            {
                JsonStrings.quote(out, backend.lastCheck());
            }
            out.append(",\"last_check_passed\":").append(backend.lastCheckPassed())
                .append(",\"last_check_latency_ms\":").append(backend.lastCheckLatencyNs() / 1e6)
                .append(",\"checks\":").append(backend.checks()).append(",\"failed_checks\":")
                .append(backend.failedChecks()).append(",\"flaps\":").append(backend.flaps())
                .append(",\"configured_weight\":").append(backend.configuredWeight())
                .append(",\"weight\":").append(backend.weight()).append(",\"drained\":").append(backend.drained())
                .append(",\"maglev_slots\":").append(backend.maglevSlots()).append(",\"maglev_share\":")
                .append(backend.maglevSlots() < 0 ? "null" :
                    Double.toString((double)backend.maglevSlots() / forwarder.maglevTableSize()))
                .append('}');
            separator = ",";
        }
        out.append("]}");
    }

    private static void stringMap(final StringBuilder out, final Map<String, String> map)
    {
        out.append('{');
        String separator = "";
        for (final Map.Entry<String, String> entry : map.entrySet())
        {
            out.append(separator);
            JsonStrings.quote(out, entry.getKey());
            out.append(':');
            JsonStrings.quote(out, entry.getValue().trim());
            separator = ",";
        }
        out.append('}');
    }
}
