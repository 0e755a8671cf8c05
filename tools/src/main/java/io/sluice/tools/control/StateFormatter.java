package io.sluice.tools.control;

import io.sluice.common.control.ForwarderServices;
import io.sluice.common.json.JsonWriter;

import io.sluice.common.Vip;
import io.sluice.common.config.IpLiterals;

/**
 * Prints a {@link ForwarderServices} for operators: aligned text, or one JSON object for scripts.
 */
final class StateFormatter
{
    private StateFormatter()
    {
    }

    /**
     * Formats the state as text: one line per VIP, one indented line per backend.
     *
     * @param state the state.
     * @return the text, ending with a newline; "no VIPs" when empty.
     */
    static String text(final ForwarderServices state)
    {
        if (state.vips().isEmpty())
        {
            return "no VIPs\n";
        }
        final StringBuilder out = new StringBuilder();
        for (final ForwarderServices.VipState vip : state.vips())
        {
            out.append("vip ").append(vipText(vip.vip()));
            if (vip.name() != null)
            {
                out.append("  name=").append(vip.name());
            }
            out.append("  backends=").append(vip.backends().size()).append('\n');
            for (final ForwarderServices.BackendState backend : vip.backends())
            {
                out.append("  backend ").append(IpLiterals.format(backend.address()))
                    .append("  weight=").append(backend.weight())
                    .append("  ").append(status(backend))
                    .append("  slots=").append(backend.maglevSlots());
                if (backend.name() != null)
                {
                    out.append("  name=").append(backend.name());
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Formats the state as one JSON object: {@code {"vips":[{"address":..,"port":..,"protocol":..,"name":..,
     * "backends":[{"address":..,"weight":..,"healthy":..,"draining":..,"maglev_slots":..,"name":..}]}]}}.
     *
     * @param state the state.
     * @return the JSON text, without a trailing newline.
     */
    static String json(final ForwarderServices state)
    {
        final JsonWriter json = new JsonWriter().beginObject().name("vips").beginArray();
        for (final ForwarderServices.VipState vip : state.vips())
        {
            json.beginObject()
                .field("address", IpLiterals.format(vip.vip().address()))
                .field("port", vip.vip().port())
                .field("protocol", vip.vip().protocol() == Vip.TCP ? "tcp" : "udp")
                .field("name", vip.name())
                .name("backends").beginArray();
            for (final ForwarderServices.BackendState backend : vip.backends())
            {
                json.beginObject()
                    .field("address", IpLiterals.format(backend.address()))
                    .field("weight", backend.weight())
                    .field("healthy", backend.healthy())
                    .field("draining", backend.draining())
                    .field("maglev_slots", backend.maglevSlots())
                    .field("name", backend.name())
                    .endObject();
            }
            json.endArray().endObject();
        }
        return json.endArray().endObject().toString();
    }

    private static String vipText(final Vip vip)
    {
        return IpLiterals.formatForPort(vip.address()) + ":" +
            (vip.port() == Vip.ALL_PORTS ? "*" : Integer.toString(vip.port())) + "/" +
            (vip.protocol() == Vip.TCP ? "tcp" : "udp");
    }

    private static String status(final ForwarderServices.BackendState backend)
    {
        if (!backend.healthy())
        {
            return "down";
        }
        return backend.draining() ? "draining" : "up";
    }
}
