package io.sluice.controller.bgp;

import io.sluice.common.config.BfdConfig;
import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.IpLiterals;

import java.util.List;

/**
 * Writes the configuration of the node's BFD speaker: BIRD 2 with a device protocol (BFD single hop needs to know
 * the interfaces, RFC 5881 §4) and one {@code protocol bfd} holding an explicit session per BGP neighbor with BFD
 * on, from that neighbor's local address. No routing protocol and no kernel protocol: this BIRD never touches a
 * route; the router ties its BGP session to the BFD session ({@code bfd on} in BIRD, {@code neighbor X bfd} in
 * FRR) and drops the node's routes when the session goes down.
 *
 * <p>BIRD 2.0 takes timers per interface, not per explicit neighbor, so all sessions share the first one's timers
 * (the configuration check refuses neighbors whose timers differ). Pure: the same inputs give the same text.
 */
public final class BfdConfigWriter
{
    /** The BFD protocol's name in the speaker, as {@code birdc show bfd sessions} names it. */
    public static final String PROTOCOL_NAME = "sluice_bfd";

    private BfdConfigWriter()
    {
    }

    /**
     * Returns the BIRD configuration for the BGP settings' BFD sessions.
     *
     * @param bgp the node's BGP settings, at least one neighbor with BFD on.
     * @return the configuration text.
     * @throws IllegalArgumentException when no neighbor has BFD on.
     */
    public static String write(final BgpConfig bgp)
    {
        final List<BgpNeighborConfig> sessions = bgp.bfdSessions();
        if (sessions.isEmpty())
        {
            throw new IllegalArgumentException("no neighbor has BFD on");
        }
        final BfdConfig timers = sessions.get(0).bfd();
        final StringBuilder text = new StringBuilder()
            .append("# Written by the Sluice controller: the node's BFD speaker (RFC 5880, 5881); it routes nothing.\n")
            .append("router id ").append(IpLiterals.format(bgp.routerId())).append(";\n")
            .append("log stderr { info, remote, warning, error, auth, fatal, bug };\n")
            .append("protocol device { scan time 10; }\n")
            .append("protocol bfd ").append(PROTOCOL_NAME).append(" {\n")
            .append("    interface \"*\" { min rx interval ").append(timers.minRxMs())
            .append(" ms; min tx interval ").append(timers.minTxMs())
            .append(" ms; multiplier ").append(timers.multiplier()).append("; };\n");
        for (final BgpNeighborConfig session : sessions)
        {
            text.append("    neighbor ").append(IpLiterals.format(session.address()))
                .append(" local ").append(IpLiterals.format(session.localAddress())).append(";\n");
        }
        return text.append("}\n").toString();
    }
}
