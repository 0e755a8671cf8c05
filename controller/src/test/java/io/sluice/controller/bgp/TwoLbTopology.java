package io.sluice.controller.bgp;

import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;

import java.util.List;

/**
 * The router and the two load-balancer namespaces of the ExaBGP tests against a real router (BIRD or FRR):
 * <pre>
 *   router r1 10.10.1.1/24 ---- lb1 10.10.1.2/24
 *   router r2 10.10.2.1/24 ---- lb2 10.10.2.2/24
 * </pre>
 * The router spreads flows over its next hops by 5-tuple, as an ECMP router does. {@link #PEERS} are the two
 * nodes as the router's BGP peers (AS 65001; the router is AS 65000 at 10.10.1.1).
 */
record TwoLbTopology(Namespace router, Namespace lb1, Namespace lb2)
{
    static final List<BirdRouter.Peer> PEERS = List.of(
        new BirdRouter.Peer("lb1", "10.10.1.2", 65001), new BirdRouter.Peer("lb2", "10.10.2.2", 65001));

    /** Creates the three namespaces in NET and links and addresses them (NET's close removes them). */
    static TwoLbTopology build(final NetNs net)
    {
        final Namespace router = net.namespace("router");
        final Namespace lb1 = net.namespace("lb1");
        final Namespace lb2 = net.namespace("lb2");
        net.veth(router, "r1", lb1, "lb1");
        net.veth(router, "r2", lb2, "lb2");
        router.addAddress("r1", "10.10.1.1/24");
        router.addAddress("r2", "10.10.2.1/24");
        lb1.addAddress("lb1", "10.10.1.2/24");
        lb2.addAddress("lb2", "10.10.2.2/24");
        router.sysctl("net.ipv4.fib_multipath_hash_policy", "1");
        return new TwoLbTopology(router, lb1, lb2);
    }
}
