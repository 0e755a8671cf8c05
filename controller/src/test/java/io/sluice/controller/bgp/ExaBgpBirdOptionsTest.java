package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.Md5PasswordFile;
import io.sluice.common.config.TransportProtocol;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.VipRouteConfig;
import io.sluice.testkit.BirdRouter;
import io.sluice.testkit.Eventually;
import io.sluice.testkit.Namespace;
import io.sluice.testkit.NetNs;
import io.sluice.testkit.tags.NeedsDaemon;
import io.sluice.testkit.tags.NeedsNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BGP options end to end: a dual-stack node (one IPv4 and one IPv6 session to the same router) with a TCP MD5
 * password, per-session hold times and graceful restart, MED, AS-path prepending, communities and large
 * communities, checked on a real BIRD 2 ({@code birdc show route all}, {@code show protocols all}). Root needed,
 * as CI has; namespaces are created, so run under the shared lock.
 * <pre>
 *   router ns: BIRD, AS 65000                  lb1 ns: ExaBGP, AS 65001
 *   r1 10.10.1.1/24 fd00:10:1::1/64 ----------- lb1 10.10.1.2/24 fd00:10:1::2/64
 * </pre>
 */
@NeedsNetns
@NeedsDaemon
class ExaBgpBirdOptionsTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String PASSWORD = "sluice md5 #1";

    @TempDir
    Path directory;

    private NetNs net;
    private Namespace router;
    private BirdRouter bird;
    private LbNode lb1;

    @BeforeEach
    void buildTopology()
    {
        net = NetNs.create("bgpo");
        try
        {
            router = net.namespace("router");
            final Namespace lb1Namespace = net.namespace("lb1");
            net.veth(router, "r1", lb1Namespace, "lb1");
            router.addAddress("r1", "10.10.1.1/24");
            lb1Namespace.addAddress("lb1", "10.10.1.2/24");
            // nodad: the addresses are usable at once, not after duplicate address detection.
            router.exec("ip", "address", "add", "fd00:10:1::1/64", "dev", "r1", "nodad");
            lb1Namespace.exec("ip", "address", "add", "fd00:10:1::2/64", "dev", "lb1", "nodad");
            bird = BirdRouter.start(router, directory.resolve("bird"), "10.10.1.1", 65000, List.of(
                new BirdRouter.Peer("lb1", "10.10.1.2", 65001, PASSWORD),
                new BirdRouter.Peer("lb1v6", "fd00:10:1::2", 65001)));
            lb1 = startNode(lb1Namespace);
        }
        catch (final Exception | Error ex)
        {
            tearDown();
            throw new IllegalStateException(ex);
        }
    }

    @AfterEach
    void tearDown()
    {
        try
        {
            if (lb1 != null)
            {
                lb1.close();
            }
        }
        finally
        {
            try
            {
                if (bird != null)
                {
                    bird.stop();
                }
            }
            finally
            {
                net.close();
            }
        }
    }

    private LbNode startNode(final Namespace namespace) throws Exception
    {
        final Path secret = directory.resolve("lb1-r1.md5");
        Files.writeString(secret, PASSWORD + "\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.of(
            new BgpNeighborConfig(IpLiterals.parse("10.10.1.1"), IpLiterals.parse("10.10.1.2"), 9, secret, true),
            new BgpNeighborConfig(IpLiterals.parse("fd00:10:1::1"), IpLiterals.parse("fd00:10:1::2"), 6, null,
                false)),
            100, 2, ExaBgpConfig.defaults());
        final List<VipConfig> vips = List.of(
            new VipConfig("web", IpLiterals.parse("10.100.0.1"), 80, TransportProtocol.TCP, List.of(), null,
                new VipRouteConfig(List.of("65000:80", "65000:443"), List.of("65001:0:80"), 5)),
            new VipConfig("web6", IpLiterals.parse("2001:db8::80"), 80, TransportProtocol.TCP, List.of()));
        return LbNode.start("lb1", namespace, directory.resolve("lb1"), bgp, RouteAttributes.of(bgp, vips),
            Map.of(secret, Md5PasswordFile.read("test", "md5", secret)), Duration.ofSeconds(30));
    }

    @Test
    void dualStackSessionsCarryTheirFamilyWithMedCommunitiesAndPrependOverMd5()
    {
        try
        {
            run();
        }
        catch (final AssertionError | RuntimeException ex)
        {
            System.out.println("---- BIRD log\n" + bird.logText());
            System.out.println("---- birdc show protocols all\n" + bird.birdc("show", "protocols", "all"));
            System.out.println("---- birdc show route all\n" + bird.birdc("show", "route", "all"));
            System.out.println("---- ExaBGP log\n" + lb1.exaBgpLog());
            throw ex;
        }
    }

    private void run()
    {
        // BIRD has the MD5 password on the IPv4 session: it comes up only if ExaBGP signs its segments too.
        Eventually.await(WAIT, () -> bird.protocols().get("lb1"), BirdRouter.Protocol::established,
            "BIRD's IPv4 session (TCP MD5) with lb1 established");
        Eventually.await(WAIT, () -> bird.protocols().get("lb1v6"), BirdRouter.Protocol::established,
            "BIRD's IPv6 session with lb1 established");
        final String v4 = bird.birdc("show", "protocols", "all", "lb1");
        final String v6 = bird.birdc("show", "protocols", "all", "lb1v6");
        assertTrue(v4.matches("(?s).*Hold timer:\\s+[0-9.]+/9\\b.*"), v4);
        assertTrue(v6.matches("(?s).*Hold timer:\\s+[0-9.]+/6\\b.*"), "the IPv6 session's own hold time: " + v6);
        assertTrue(neighborCapabilities(v4).contains("Graceful restart\n        Restart time: 9\n"),
            "graceful restart offered with the hold time as restart time: " + v4);
        assertFalse(neighborCapabilities(v6).contains("Graceful restart"), "graceful restart off: " + v6);

        lb1.setAnnounced(Set.of(IpLiterals.parse("10.100.0.1"), IpLiterals.parse("2001:db8::80")));
        final String route4 = Eventually.await(WAIT, () -> bird.birdc("show", "route", "all", "10.100.0.1/32"),
            text -> text.contains("BGP.community"), "the IPv4 VIP's route with its communities");
        assertTrue(route4.contains("BGP.med: 5"), route4);
        assertTrue(route4.contains("BGP.community: (65000,80) (65000,443)"), route4);
        assertTrue(route4.contains("BGP.large_community: (65001, 0, 80)"), route4);
        assertTrue(route4.contains("BGP.as_path: 65001 65001 65001"), "prepended twice: " + route4);
        assertTrue(route4.contains("BGP.next_hop: 10.10.1.2"), route4);
        assertTrue(route4.contains("lb1 "), route4);

        final String route6 = Eventually.await(WAIT, () -> bird.birdc("show", "route", "all", "2001:db8::80/128"),
            text -> text.contains("BGP.next_hop"), "the IPv6 VIP's route over the IPv6 session");
        assertTrue(route6.contains("BGP.next_hop: fd00:10:1::2"), route6);
        assertTrue(route6.contains("BGP.med: 100"), "the node's MED: " + route6);
        assertTrue(route6.contains("BGP.as_path: 65001 65001 65001"), route6);
        assertFalse(route6.contains("BGP.community"), route6);
        assertTrue(route6.contains("lb1v6 "), route6);
        assertFalse(bird.birdc("show", "route", "protocol", "lb1v6").contains("10.100.0.1"),
            "one family per session");

        lb1.setAnnounced(Set.of(IpLiterals.parse("2001:db8::80")));
        // birdc exits 1 for a prefix it has no route to: read the whole table instead.
        Eventually.await(WAIT, () -> bird.birdc("show", "route"), text -> !text.contains("10.100.0.1/32"),
            "the IPv4 VIP withdrawn");
        assertTrue(bird.birdc("show", "route", "all", "2001:db8::80/128").contains("BGP.med: 100"));
    }

    // BIRD 2 lists what the peer's OPEN offered between "Neighbor capabilities" and "Session:".
    private static String neighborCapabilities(final String protocol)
    {
        final int from = protocol.indexOf("Neighbor capabilities");
        final int to = protocol.indexOf("Session:", Math.max(from, 0));
        return from < 0 || to < 0 ? "" : protocol.substring(from, to);
    }
}
