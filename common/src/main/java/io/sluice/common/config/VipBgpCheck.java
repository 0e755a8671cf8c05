package io.sluice.common.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the VIPs against the node's BGP sessions, after both are read: each VIP's family has a session that can
 * carry it (one session carries one family, see {@link BgpNeighborConfig}), so no VIP is reported announced while
 * its route goes nowhere; VIPs sharing an address (one route) agree on its attributes; {@code vips[i].bgp} needs
 * {@code controller.bgp}. Self-contained: it reads only the two parsed sections.
 */
final class VipBgpCheck
{
    private VipBgpCheck()
    {
    }

    /**
     * Runs the checks.
     *
     * @param file the configuration file, for messages.
     * @param vips the VIPs in file order.
     * @param bgp  the BGP settings, or null when the node does not speak BGP.
     * @throws ConfigException on the first VIP that fails.
     */
    static void check(final String file, final List<VipConfig> vips, final BgpConfig bgp) throws ConfigException
    {
        final Map<InetAddress, Integer> firstByAddress = new HashMap<>();
        for (int i = 0; i < vips.size(); i++)
        {
            final VipConfig vip = vips.get(i);
            final String path = "vips[" + i + "]";
            if (bgp == null)
            {
                if (vip.route() != VipRouteConfig.NONE)
                {
                    throw new ConfigException(file, path + ".bgp", "VIP " + vip.name() + " sets BGP attributes " +
                        "but controller.bgp is absent (this node does not speak BGP)");
                }
                continue;
            }
            checkFamily(file, path, vip, bgp);
            final Integer first = firstByAddress.putIfAbsent(vip.address(), i);
            if (first != null && !vips.get(first).route().equals(vip.route()))
            {
                throw new ConfigException(file, path + ".bgp", "VIP " + vip.name() + " shares address " +
                    IpLiterals.format(vip.address()) + " (one BGP route) with vips[" + first + "] (" +
                    vips.get(first).name() + ") but not its bgp attributes; give both the same");
            }
        }
    }

    private static void checkFamily(final String file, final String path, final VipConfig vip, final BgpConfig bgp)
        throws ConfigException
    {
        final boolean ipv6 = vip.address() instanceof Inet6Address;
        final List<String> neighbors = new ArrayList<>(bgp.sessions().size());
        for (final BgpNeighborConfig session : bgp.sessions())
        {
            if (session.ipv6() == ipv6)
            {
                return;
            }
            neighbors.add(IpLiterals.format(session.address()));
        }
        throw new ConfigException(file, path + ".address", "VIP " + vip.name() + " (" +
            IpLiterals.format(vip.address()) + ") is " + (ipv6 ? "IPv6" : "IPv4") + " but no BGP neighbor of this " +
            "node carries " + (ipv6 ? "IPv6" : "IPv4") + " (controller.bgp.neighbors: " +
            String.join(", ", neighbors) + "); add an " + (ipv6 ? "IPv6" : "IPv4") + " neighbor or remove the VIP");
    }
}
