package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The BGP session(s) that announce the VIPs ({@code controller.bgp}).
 *
 * @param localAs       this node's AS number, 1..4294967295.
 * @param peerAs        the neighbors' AS number, 1..4294967295.
 * @param routerId      the BGP router ID, an IPv4 address.
 * @param localAddress  the address sessions of its family start from unless a neighbor sets its own.
 * @param sessions      one per router address, at least one, unique; IPv4 and IPv6 may be mixed.
 * @param med           the MULTI_EXIT_DISC of every VIP's route unless the VIP sets one, or
 *                      {@link VipRouteConfig#NO_MED}.
 * @param asPathPrepend how many extra times the local AS is put in front of the AS path (0..{@link #MAX_PREPEND}):
 *                      routers then prefer other nodes, which drains this one softly.
 * @param exabgp        how ExaBGP runs.
 * @param bfdCommand    the command that starts the BFD speaker (BIRD) when a neighbor has BFD on
 *                      ({@code controller.bgp.bfd_speaker.command}).
 */
public record BgpConfig(
    long localAs, long peerAs, Inet4Address routerId, InetAddress localAddress, List<BgpNeighborConfig> sessions,
    long med, int asPathPrepend, ExaBgpConfig exabgp, String bfdCommand)
{
    /** The BFD speaker's default command: BIRD 2, of which only {@code protocol bfd} runs. */
    public static final String DEFAULT_BFD_COMMAND = "bird";
    public static final long MIN_AS = 1;
    public static final long MAX_AS = 4294967295L;
    public static final int MAX_PREPEND = 10;

    /**
     * Copies the session list, so the record is immutable.
     */
    public BgpConfig
    {
        sessions = List.copyOf(sessions);
    }

    /**
     * Creates the settings with the default BFD speaker command.
     *
     * @param localAs       this node's AS number.
     * @param peerAs        the neighbors' AS number.
     * @param routerId      the BGP router ID.
     * @param localAddress  the default local address.
     * @param sessions      the sessions.
     * @param med           the default MED.
     * @param asPathPrepend the prepend count.
     * @param exabgp        how ExaBGP runs.
     */
    public BgpConfig(
        final long localAs, final long peerAs, final Inet4Address routerId, final InetAddress localAddress,
        final List<BgpNeighborConfig> sessions, final long med, final int asPathPrepend, final ExaBgpConfig exabgp)
    {
        this(localAs, peerAs, routerId, localAddress, sessions, med, asPathPrepend, exabgp, DEFAULT_BFD_COMMAND);
    }

    /**
     * Returns the sessions with BFD on.
     *
     * @return those sessions in configuration order, unmodifiable; empty when no neighbor has BFD.
     */
    public List<BgpNeighborConfig> bfdSessions()
    {
        final List<BgpNeighborConfig> bfd = new ArrayList<>(sessions.size());
        for (final BgpNeighborConfig session : sessions)
        {
            if (session.bfd().enabled())
            {
                bfd.add(session);
            }
        }
        return List.copyOf(bfd);
    }

    /**
     * Creates sessions with default options from the local address to each neighbor, no MED and no prepending.
     *
     * @param localAs      this node's AS number.
     * @param peerAs       the neighbors' AS number.
     * @param routerId     the BGP router ID.
     * @param localAddress the address the sessions start from, of the neighbors' family.
     * @param neighbors    the routers.
     * @param exabgp       how ExaBGP runs.
     */
    public BgpConfig(
        final long localAs, final long peerAs, final Inet4Address routerId, final InetAddress localAddress,
        final List<InetAddress> neighbors, final ExaBgpConfig exabgp)
    {
        this(localAs, peerAs, routerId, localAddress, defaultSessions(neighbors, localAddress), VipRouteConfig.NO_MED,
            0, exabgp);
    }

    /**
     * Returns the neighbors' addresses.
     *
     * @return the addresses in configuration order, unmodifiable.
     */
    public List<InetAddress> neighbors()
    {
        final List<InetAddress> addresses = new ArrayList<>(sessions.size());
        for (final BgpNeighborConfig session : sessions)
        {
            addresses.add(session.address());
        }
        return List.copyOf(addresses);
    }

    private static List<BgpNeighborConfig> defaultSessions(
        final List<InetAddress> neighbors, final InetAddress localAddress)
    {
        final List<BgpNeighborConfig> sessions = new ArrayList<>(neighbors.size());
        for (final InetAddress neighbor : neighbors)
        {
            sessions.add(BgpNeighborConfig.defaults(neighbor, localAddress));
        }
        return sessions;
    }
}
