package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

/**
 * The BGP session(s) that announce the VIPs ({@code controller.bgp}).
 *
 * @param localAs      this node's AS number, 1..4294967295.
 * @param peerAs       the neighbors' AS number, 1..4294967295.
 * @param routerId     the BGP router ID, an IPv4 address.
 * @param localAddress the address the sessions start from, of the neighbors' family.
 * @param neighbors    the routers to peer with, at least one, unique.
 * @param exabgp       how ExaBGP runs.
 */
public record BgpConfig(
    long localAs, long peerAs, Inet4Address routerId, InetAddress localAddress, List<InetAddress> neighbors,
    ExaBgpConfig exabgp)
{
    public static final long MIN_AS = 1;
    public static final long MAX_AS = 4294967295L;

    /**
     * Copies the neighbor list, so the record is immutable.
     */
    public BgpConfig
    {
        neighbors = List.copyOf(neighbors);
    }
}
