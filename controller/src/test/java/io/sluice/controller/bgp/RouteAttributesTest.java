package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.VipRouteConfig;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RouteAttributesTest
{
    private static final InetAddress WEB = IpLiterals.parse("10.100.0.1");
    private static final InetAddress DNS = IpLiterals.parse("10.100.0.2");
    private static final InetAddress WEB6 = IpLiterals.parse("2001:db8::80");

    private static BgpConfig bgp(final long med, final int prepend)
    {
        return new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"), IpLiterals.parse("10.10.1.2"),
            List.of(BgpNeighborConfig.defaults(IpLiterals.parse("10.10.1.1"), IpLiterals.parse("10.10.1.2"))), med,
            prepend, ExaBgpConfig.defaults());
    }

    private static VipConfig vip(final InetAddress address, final VipRouteConfig route)
    {
        return new VipConfig("v" + address.hashCode(), address, 80, TransportProtocol.TCP, List.of(), null, route);
    }

    @Test
    void spellsMedPrependCommunitiesAndLargeCommunitiesAsExaBgpDoes()
    {
        final RouteAttributes attributes = RouteAttributes.of(bgp(100, 2), List.of(
            vip(WEB, new VipRouteConfig(List.of("65000:80", "65000:443"), List.of("65001:0:80"), 5)),
            vip(DNS, VipRouteConfig.NONE)));

        assertEquals(" med 5 as-path [ 65001 65001 65001 ] community [ 65000:80 65000:443 ] " +
            "large-community [ 65001:0:80 ]",
            attributes.of(WEB));
        assertEquals(" med 100 as-path [ 65001 65001 65001 ]", attributes.of(DNS));
        assertEquals(" med 100 as-path [ 65001 65001 65001 ]", attributes.of(WEB6),
            "an address no VIP has: the defaults");
    }

    @Test
    void addsNothingWithoutOptions()
    {
        final RouteAttributes attributes =
            RouteAttributes.of(bgp(VipRouteConfig.NO_MED, 0), List.of(vip(WEB, VipRouteConfig.NONE)));
        assertEquals("", attributes.of(WEB));
        assertEquals(Map.of(), RouteAttributes.describe(bgp(VipRouteConfig.NO_MED, 0), List.of(vip(WEB,
            VipRouteConfig.NONE))));
    }

    @Test
    void announcerSendsTheAttributesAndWithdrawsWithoutThem()
    {
        final RouteAnnouncer announcer = new RouteAnnouncer(RouteAttributes.of(bgp(VipRouteConfig.NO_MED, 0),
            List.of(vip(WEB, new VipRouteConfig(List.of("65000:80"), List.of(), 7)))));
        announcer.onConnected();
        announcer.setDesired(Set.of(WEB, WEB6));
        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self med 7 community [ 65000:80 ]",
            "announce route 2001:db8::80/128 next-hop self"), announcer.drainCommands());
        announcer.setDesired(Set.of(WEB6));
        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
    }

    @Test
    void describesRoutesAndSessionsForStatus()
    {
        final BgpConfig bgp = bgp(VipRouteConfig.NO_MED, 1);
        assertEquals(Map.of("10.100.0.1/32", " as-path [ 65001 65001 ]"),
            RouteAttributes.describe(bgp, List.of(vip(WEB, VipRouteConfig.NONE))));
        assertEquals(Map.of("10.10.1.1", "ipv4 from 10.10.1.2, hold 180s keepalive 60s"),
            RouteAttributes.describeSessions(bgp));
    }
}
