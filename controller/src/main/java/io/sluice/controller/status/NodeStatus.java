package io.sluice.controller.status;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * One snapshot of what the controller knows, published by its agent and read by the HTTP threads.
 *
 * @param node        the node's name.
 * @param timeMs      when it was taken, epoch milliseconds.
 * @param forwarder   the forwarder's liveness and synchronization.
 * @param bgp         the BGP speaker's state.
 * @param vips        every VIP, in configuration order.
 */
public record NodeStatus(String node, long timeMs, Forwarder forwarder, Bgp bgp, List<VipStatus> vips)
{
    /**
     * The forwarder as the controller sees it.
     *
     * @param alive     whether its heartbeat is fresh and its process runs.
     * @param reason    why it is (not) alive.
     * @param synced    whether it confirmed the controller's whole state since it came alive.
     * @param linked    whether the control channel is open.
     * @param unconfirmedCommands commands not yet confirmed.
     * @param maglevTableSize the table size M, for slot shares.
     */
    public record Forwarder(boolean alive, String reason, boolean synced, boolean linked, int unconfirmedCommands,
        int maglevTableSize)
    {
    }

    /**
     * The BGP speaker.
     *
     * @param configured whether the node speaks BGP at all.
     * @param state      e.g. {@code ExaBGP pid 123, relay connected}.
     * @param neighbors  neighbor address → session state.
     * @param announced  the prefixes announced now.
     * @param sessions   neighbor address → the session's configured options (family, source, hold time,
     *                   keepalive, MD5 file, graceful restart).
     * @param routes     VIP prefix → the path attributes its route carries (MED, AS path, communities), for the
     *                   prefixes that carry any.
     */
    public record Bgp(boolean configured, String state, Map<String, String> neighbors, List<String> announced,
        Map<String, String> sessions, Map<String, String> routes)
    {
        /**
         * Creates a snapshot without configured options.
         *
         * @param configured whether the node speaks BGP at all.
         * @param state      the speaker's state.
         * @param neighbors  neighbor address → session state.
         * @param announced  the prefixes announced now.
         */
        public Bgp(final boolean configured, final String state, final Map<String, String> neighbors,
            final List<String> announced)
        {
            this(configured, state, neighbors, announced, Map.of(), Map.of());
        }
    }

    /**
     * One VIP.
     *
     * @param name           its name.
     * @param address        its address.
     * @param port           its port, 0 for all.
     * @param protocol       tcp or udp.
     * @param announced      whether its route is announced.
     * @param announceReason why (not).
     * @param failOpen       whether all backends take traffic because too few are healthy.
     * @param eligible       backends that may take flows.
     * @param backends       its backends.
     */
    public record VipStatus(String name, InetAddress address, int port, String protocol, boolean announced,
        String announceReason, boolean failOpen, int eligible, List<BackendStatus> backends)
    {
    }

    /**
     * One backend.
     *
     * @param name             its name.
     * @param address          its address.
     * @param healthy          whether its checks say up.
     * @param heldDown         whether flap damping holds it down.
     * @param eligible         whether the forwarder was told it may take flows.
     * @param lastCheck        the last check's outcome, or null before the first.
     * @param lastCheckPassed  whether it passed.
     * @param lastCheckLatencyNs how long it took.
     * @param checks           checks so far.
     * @param failedChecks     failed checks so far.
     * @param flaps            times flap damping triggered.
     * @param configuredWeight the weight in the config.
     * @param weight           the weight the controller wants (0 when drained).
     * @param drained          whether an operator drained it.
     * @param maglevSlots      its entries in the forwarder's Maglev table, or -1 when unknown.
     */
    public record BackendStatus(String name, InetAddress address, boolean healthy, boolean heldDown, boolean eligible,
        String lastCheck, boolean lastCheckPassed, long lastCheckLatencyNs, long checks, long failedChecks, long flaps,
        int configuredWeight, int weight, boolean drained, int maglevSlots)
    {
    }
}
