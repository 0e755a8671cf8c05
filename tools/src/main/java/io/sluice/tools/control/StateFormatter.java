package io.sluice.tools.control;

import io.sluice.common.control.ForwarderServices;
import io.sluice.common.JsonStrings;

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
     * "backends":[{"address":..,"weight":..,"healthy":..,"draining":..,"maglevSlots":..,"name":..}]}]}}.
     *
     * @param state the state.
     * @return the JSON text, without a trailing newline.
     */
    static String json(final ForwarderServices state)
    {
        final StringBuilder out = new StringBuilder("{\"vips\":[");
        for (int i = 0; i < state.vips().size(); i++)
        {
            final ForwarderServices.VipState vip = state.vips().get(i);
            out.append(i == 0 ? "" : ",").append("{\"address\":");
            string(out, IpLiterals.format(vip.vip().address()));
            out.append(",\"port\":").append(vip.vip().port())
                .append(",\"protocol\":\"").append(vip.vip().protocol() == Vip.TCP ? "tcp" : "udp")
                .append("\",\"name\":");
            string(out, vip.name());
            out.append(",\"backends\":[");
            for (int j = 0; j < vip.backends().size(); j++)
            {
                final ForwarderServices.BackendState backend = vip.backends().get(j);
                out.append(j == 0 ? "" : ",").append("{\"address\":");
                string(out, IpLiterals.format(backend.address()));
                out.append(",\"weight\":").append(backend.weight())
                    .append(",\"healthy\":").append(backend.healthy())
                    .append(",\"draining\":").append(backend.draining())
                    .append(",\"maglevSlots\":").append(backend.maglevSlots())
                    .append(",\"name\":");
                string(out, backend.name());
                out.append('}');
            }
            out.append("]}");
        }
        return out.append("]}").toString();
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

    private static void string(final StringBuilder out, final String text)
    {
        if (text == null)
        {
            out.append("null");
            return;
        }
        JsonStrings.quote(out, text);
    }
}
