package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.VipRouteConfig;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The path attributes of each VIP's route as ExaBGP 4.2's API spells them after {@code next-hop self}: MED, the AS
 * path that prepends the local AS, communities and large communities. Built once from the configuration; VIPs of
 * one address share one route, so the configuration check makes them agree. Pure and immutable.
 */
public final class RouteAttributes
{
    /**
     * No attributes: routes go out with next-hop self only.
     */
    public static final RouteAttributes NONE = new RouteAttributes("", Map.of());

    private final String defaults;
    private final Map<InetAddress, String> byAddress;

    private RouteAttributes(final String defaults, final Map<InetAddress, String> byAddress)
    {
        this.defaults = defaults;
        this.byAddress = Map.copyOf(byAddress);
    }

    /**
     * Builds the attributes of every VIP's route.
     *
     * @param bgp  the node's BGP settings (MED and prepending for every route).
     * @param vips the VIPs (their own MED, communities and large communities).
     * @return the attributes.
     */
    public static RouteAttributes of(final BgpConfig bgp, final List<VipConfig> vips)
    {
        final Map<InetAddress, String> byAddress = new HashMap<>();
        for (final VipConfig vip : vips)
        {
            byAddress.putIfAbsent(vip.address(), text(bgp, vip.route()));
        }
        return new RouteAttributes(text(bgp, VipRouteConfig.NONE), byAddress);
    }

    /**
     * Returns the attributes of an address's route.
     *
     * @param address a VIP address.
     * @return e.g. {@code " med 100 as-path [ 65001 65001 ] community [ 65000:80 ]"}, empty for none.
     */
    public String of(final InetAddress address)
    {
        return byAddress.getOrDefault(address, defaults);
    }

    /**
     * Describes the attributes for {@code sluice status}.
     *
     * @param bgp  the node's BGP settings, or null when it speaks none.
     * @param vips the VIPs.
     * @return VIP prefix to its attributes (as {@link #of(InetAddress)}), in VIP order, for prefixes that have any.
     */
    public static Map<String, String> describe(final BgpConfig bgp, final List<VipConfig> vips)
    {
        final Map<String, String> byPrefix = new LinkedHashMap<>();
        if (bgp == null)
        {
            return byPrefix;
        }
        final RouteAttributes attributes = of(bgp, vips);
        for (final VipConfig vip : vips)
        {
            final String text = attributes.of(vip.address());
            if (!text.isEmpty())
            {
                byPrefix.putIfAbsent(RouteAnnouncer.prefix(vip.address()), text);
            }
        }
        return byPrefix;
    }

    /**
     * Describes each session's options for {@code sluice status}.
     *
     * @param bgp the node's BGP settings, or null when it speaks none.
     * @return neighbor address to {@link BgpNeighborConfig#describe()}, in configuration order.
     */
    public static Map<String, String> describeSessions(final BgpConfig bgp)
    {
        final Map<String, String> sessions = new LinkedHashMap<>();
        if (bgp != null)
        {
            for (final BgpNeighborConfig session : bgp.sessions())
            {
                sessions.put(IpLiterals.format(session.address()), session.describe());
            }
        }
        return sessions;
    }

    // An as-path given in the command replaces ExaBGP's own (which holds the local AS once on eBGP sessions; seen
    // on BIRD in ExaBgpBirdOptionsTest), so prepending N times sends N + 1 copies. The configuration refuses
    // prepending on iBGP, where the local AS must not be in the path at all.
    private static String text(final BgpConfig bgp, final VipRouteConfig route)
    {
        final StringBuilder text = new StringBuilder();
        final long med = route.med() != VipRouteConfig.NO_MED ? route.med() : bgp.med();
        if (med != VipRouteConfig.NO_MED)
        {
            text.append(" med ").append(med);
        }
        if (bgp.asPathPrepend() > 0)
        {
            text.append(" as-path [");
            for (int i = 0; i <= bgp.asPathPrepend(); i++)
            {
                text.append(' ').append(bgp.localAs());
            }
            text.append(" ]");
        }
        list(text, "community", route.communities());
        list(text, "large-community", route.largeCommunities());
        return text.toString();
    }

    private static void list(final StringBuilder text, final String name, final List<String> values)
    {
        if (!values.isEmpty())
        {
            text.append(' ').append(name).append(" [ ").append(String.join(" ", values)).append(" ]");
        }
    }
}
