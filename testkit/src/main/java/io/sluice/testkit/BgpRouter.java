package io.sluice.testkit;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A real router in a network namespace that load-balancer nodes announce their VIPs to, whatever its make: tests
 * written against this interface run the same checks against BIRD ({@link BirdRouter}) and FRR
 * ({@link FrrRouter}), so Sluice is not tuned to one router's behaviour. Both accept every route from their peers,
 * export none, and install equal routes from several peers as one multipath route in the namespace's kernel table.
 */
public interface BgpRouter extends AutoCloseable
{
    /**
     * The routers a test can start.
     */
    enum Kind
    {
        /** BIRD 2 with {@code merge paths on}. */
        BIRD,
        /** FRR 8 zebra and bgpd with {@code maximum-paths 16}. */
        FRR;

        /**
         * Starts a router of this kind.
         *
         * @param namespace the router's namespace.
         * @param directory where its configuration, sockets and logs go (keep the path short).
         * @param routerId  the router ID, an IPv4 literal.
         * @param localAs   the router's AS number.
         * @param peers     its BGP peers.
         * @return the running router.
         */
        public BgpRouter start(
            final Namespace namespace, final Path directory, final String routerId, final long localAs,
            final List<BirdRouter.Peer> peers)
        {
            return this == BIRD ? BirdRouter.start(namespace, directory, routerId, localAs, peers) :
                FrrRouter.start(namespace, directory, routerId, localAs, peers);
        }
    }

    /**
     * The path attributes of one route as the router received it, in one spelling for every router.
     *
     * @param nextHop          the next hop, e.g. {@code 10.10.1.2}.
     * @param asPath           the AS path, numbers separated by one blank, e.g. {@code 65001 65001}.
     * @param med              the MULTI_EXIT_DISC, or -1 when the route has none.
     * @param communities      RFC 1997 communities as {@code ASN:VALUE}, in the order received.
     * @param largeCommunities RFC 8092 large communities as {@code GLOBAL:LOCAL1:LOCAL2}.
     */
    record PathAttributes(
        String nextHop, String asPath, long med, List<String> communities, List<String> largeCommunities)
    {
        /**
         * Copies the lists.
         */
        public PathAttributes
        {
            communities = List.copyOf(communities);
            largeCommunities = List.copyOf(largeCommunities);
        }
    }

    /**
     * Returns which router this is.
     *
     * @return its kind.
     */
    Kind kind();

    /**
     * Tells whether the BGP session with a peer is Established.
     *
     * @param peerAddress the peer's address, as configured.
     * @return true when established.
     */
    boolean established(String peerAddress);

    /**
     * Returns the path the router received for a prefix with a next hop, from its BGP table.
     *
     * @param prefix  e.g. {@code 10.100.0.1/32}.
     * @param nextHop the next hop of the path wanted, e.g. {@code 10.10.1.2}.
     * @return the path, or empty when the router has no such path.
     */
    Optional<PathAttributes> path(String prefix, String nextHop);

    /**
     * Returns the router's sessions and BGP table as its own tools print them, for failure reports.
     *
     * @return the text.
     */
    String state();

    /**
     * Returns what the router's daemons logged, for failure reports.
     *
     * @return the log text.
     */
    String logText();

    /**
     * Returns the router's namespace.
     *
     * @return the namespace.
     */
    Namespace namespace();

    /**
     * Stops the router's daemons (SIGTERM, then SIGKILL after the grace time).
     */
    void stop();

    @Override
    void close();
}
