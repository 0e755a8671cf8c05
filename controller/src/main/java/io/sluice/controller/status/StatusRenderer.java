package io.sluice.controller.status;

import io.sluice.common.config.IpLiterals;
import io.sluice.common.json.JsonWriter;

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
        final NodeStatus.Forwarder f = status.forwarder();
        final NodeStatus.Bgp bgp = status.bgp();
        final JsonWriter json = new JsonWriter().beginObject()
            .field("node", status.node())
            .field("time_ms", status.timeMs())
            .name("forwarder").beginObject()
            .field("alive", f.alive())
            .field("reason", f.reason())
            .field("synchronized", f.synced())
            .field("control_channel_open", f.linked())
            .field("unconfirmed_commands", f.unconfirmedCommands())
            .field("maglev_table_size", f.maglevTableSize())
            .endObject()
            .name("bgp").beginObject()
            .field("configured", bgp.configured())
            .field("state", bgp.state())
            .name("neighbors");
        stringMap(json, bgp.neighbors(), false);
        json.name("announced").beginArray();
        for (final String prefix : bgp.announced())
        {
            json.value(prefix);
        }
        json.endArray().name("sessions");
        stringMap(json, bgp.sessions(), true);
        json.name("routes");
        stringMap(json, bgp.routes(), true);
        json.endObject().name("vips").beginArray();
        for (final NodeStatus.VipStatus vip : status.vips())
        {
            vipJson(json, vip, f);
        }
        return json.endArray().endObject() + "\n";
    }

    private static void vipJson(final JsonWriter json, final NodeStatus.VipStatus vip,
        final NodeStatus.Forwarder forwarder)
    {
        json.beginObject()
            .field("name", vip.name())
            .field("address", IpLiterals.format(vip.address()))
            .field("port", vip.port())
            .field("protocol", vip.protocol())
            .field("announced", vip.announced())
            .field("announce_reason", vip.announceReason())
            .field("fail_open", vip.failOpen())
            .field("eligible_backends", vip.eligible())
            .name("backends").beginArray();
        for (final NodeStatus.BackendStatus backend : vip.backends())
        {
            json.beginObject()
                .field("name", backend.name())
                .field("address", IpLiterals.format(backend.address()))
                .field("healthy", backend.healthy())
                .field("held_down", backend.heldDown())
                .field("eligible", backend.eligible())
                .field("last_check", backend.lastCheck())
                .field("last_check_passed", backend.lastCheckPassed())
                .name("last_check_latency_ms").exact(backend.lastCheckLatencyNs() / 1e6)
                .field("checks", backend.checks())
                .field("failed_checks", backend.failedChecks())
                .field("flaps", backend.flaps())
                .field("configured_weight", backend.configuredWeight())
                .field("weight", backend.weight())
                .field("drained", backend.drained())
                .field("maglev_slots", backend.maglevSlots())
                .name("maglev_share");
            if (backend.maglevSlots() < 0)
            {
                json.nullValue();
            }
            else
            {
                json.exact((double)backend.maglevSlots() / forwarder.maglevTableSize());
            }
            json.endObject();
        }
        json.endArray().endObject();
    }

    private static void stringMap(final JsonWriter json, final Map<String, String> map, final boolean trim)
    {
        json.beginObject();
        for (final Map.Entry<String, String> entry : map.entrySet())
        {
            json.field(entry.getKey(), trim ? entry.getValue().trim() : entry.getValue());
        }
        json.endObject();
    }
}
