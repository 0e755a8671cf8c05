package io.sluice.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dual-stack sessions, the VIP family check and the per-neighbor and per-VIP BGP options: values, and one test per
 * mistake with the exact field path and part of the reason.
 */
class BgpOptionsConfigTest
{
    private static final String VIP6 = """
          - name: web6
            address: "2001:db8::80"
            port: 80
            protocol: tcp
        """;

    @TempDir
    Path dir;

    private static String node(final String extraVips, final String bgp)
    {
        return NodeConfigErrorsTest.BASE + extraVips + "controller:\n  bgp:\n" + bgp.indent(4);
    }

    private static String bgp(final String neighbors)
    {
        return "local_as: 65001\npeer_as: 65000\nrouter_id: 10.10.1.2\nlocal_address: 10.10.1.2\n" +
            "neighbors:\n" + neighbors.indent(2);
    }

    private static NodeConfig parse(final String yaml) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", yaml, 2);
    }

    private static void fails(final String yaml, final String field, final String... reasonParts)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> parse(yaml));
        assertEquals(field, ex.field(), ex.getMessage());
        for (final String part : reasonParts)
        {
            assertTrue(ex.reason().contains(part), "reason \"" + ex.reason() + "\" lacks \"" + part + "\"");
        }
    }

    private static InetAddress ip(final String text)
    {
        return IpLiterals.parse(text);
    }

    @Test
    void readsDualStackNeighborsWithOptions() throws Exception
    {
        final NodeConfig config = parse(node(VIP6, bgp("""
            - 10.10.1.1
            - {address: "fd00:10::1", local_address: "fd00:10::2", hold_time: 9s, keepalive: 3s,
               graceful_restart: true}
            """) + "med: 10\nas_path_prepend: 3\n"));
        final BgpConfig bgp = config.controller().bgp();
        assertEquals(List.of(BgpNeighborConfig.defaults(ip("10.10.1.1"), ip("10.10.1.2")),
            new BgpNeighborConfig(ip("fd00:10::1"), ip("fd00:10::2"), 9, null, true)), bgp.sessions());
        assertEquals(List.of(ip("10.10.1.1"), ip("fd00:10::1")), bgp.neighbors());
        assertEquals(3, bgp.sessions().get(1).keepaliveSeconds());
        assertEquals(10, bgp.med());
        assertEquals(3, bgp.asPathPrepend());
    }

    @Test
    void refusesIpv6VipWithoutIpv6Neighbor()
    {
        fails(node(VIP6, bgp("- 10.10.1.1\n- 10.10.1.3\n")), "vips[1].address",
            "VIP web6 (2001:db8::80) is IPv6", "no BGP neighbor of this node carries IPv6", "10.10.1.1, 10.10.1.3");
    }

    @Test
    void refusesIpv4VipWithOnlyIpv6Neighbors()
    {
        fails(node("", bgp("- {address: \"fd00:10::1\", local_address: \"fd00:10::2\"}\n")), "vips[0].address",
            "VIP web (10.100.0.1) is IPv4", "no BGP neighbor of this node carries IPv4", "fd00:10::1");
    }

    @Test
    void acceptsIpv6VipWithoutBgp() throws Exception
    {
        assertEquals(2, parse(NodeConfigErrorsTest.BASE + VIP6).vips().size());
    }

    @Test
    void refusesNeighborOfTheOtherFamilyWithoutItsOwnLocalAddress()
    {
        fails(node("", bgp("- 10.10.1.1\n- {address: \"fd00:10::1\"}\n")), "controller.bgp.neighbors[1].address",
            "not of the family of controller.bgp.local_address 10.10.1.2");
        fails(node("", bgp("- {address: \"fd00:10::1\", local_address: 10.10.1.9}\n")),
            "controller.bgp.neighbors[0].local_address", "not of the family");
    }

    @Test
    void refusesBadHoldTimeAndKeepalive()
    {
        fails(node("", bgp("- {address: 10.10.1.1, hold_time: 2s}\n")), "controller.bgp.neighbors[0].hold_time",
            "from 3s to 65535s");
        fails(node("", bgp("- {address: 10.10.1.1, hold_time: 1500ms}\n")), "controller.bgp.neighbors[0].hold_time",
            "whole seconds");
        fails(node("", bgp("- {address: 10.10.1.1, hold_time: 70000}\n")), "controller.bgp.neighbors[0].hold_time",
            "65535s");
        fails(node("", bgp("- {address: 10.10.1.1, hold_time: 9s, keepalive: 2s}\n")),
            "controller.bgp.neighbors[0].keepalive", "every third of the hold time, 3s");
        fails(node("", bgp("- {address: 10.10.1.1, hold: 9s}\n")), "controller.bgp.neighbors[0].hold", "unknown");
    }

    @Test
    void readsMd5PasswordFileOwnedAndPrivate() throws Exception
    {
        final Path secret = dir.resolve("r1.md5");
        Files.writeString(secret, "s3cret pass\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final NodeConfig config = parse(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + secret + "}\n")));
        assertEquals(secret, config.controller().bgp().sessions().get(0).md5PasswordFile());
        assertEquals("s3cret pass", new String(Md5PasswordFile.read("f", "x", secret)));
    }

    @Test
    void refusesMd5PasswordFileReadableByOthers() throws Exception
    {
        final Path secret = dir.resolve("r1.md5");
        Files.writeString(secret, "s3cret\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r-----"));
        final String field = "controller.bgp.neighbors[0].md5_password_file";
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + secret + "}\n")), field,
            "accessible to group or others (rw-r-----)", "chmod 600");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(secret, "a".repeat(81));
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + secret + "}\n")), field, "81 bytes");
        Files.writeString(secret, "one\ntwo\n");
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + secret + "}\n")), field, "one line");
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + dir.resolve("none") + "}\n")), field,
            "cannot read");
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: r1.md5}\n")), field, "absolute path");
        final Path link = dir.resolve("link.md5");
        Files.createSymbolicLink(link, secret);
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: " + link + "}\n")), field,
            "not a regular file");
    }

    @Test
    void refusesMd5PasswordFileOfAnotherUser()
    {
        // /etc/passwd is owned by root: only meaningful when the tests do not run as root.
        if ("root".equals(System.getProperty("user.name")))
        {
            fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: /etc/passwd}\n")),
                "controller.bgp.neighbors[0].md5_password_file", "accessible to group or others");
            return;
        }
        fails(node("", bgp("- {address: 10.10.1.1, md5_password_file: /etc/passwd}\n")),
            "controller.bgp.neighbors[0].md5_password_file", "owned by root");
    }

    @Test
    void readsVipCommunitiesAndMed() throws Exception
    {
        final String vips = NodeConfigErrorsTest.BASE.replace("    backends:\n",
            "    bgp: {communities: [\"65000:100\"], large_communities: [\"65000:1:4294967295\"], med: 0}\n" +
            "    backends:\n");
        final NodeConfig config = parse(vips + "controller:\n  bgp:\n" + bgp("- 10.10.1.1\n").indent(4));
        assertEquals(new VipRouteConfig(List.of("65000:100"), List.of("65000:1:4294967295"), 0),
            config.vips().get(0).route());
    }

    @Test
    void refusesBadCommunitiesMedAndPrepend()
    {
        fails(node("", bgp("- 10.10.1.1\n") + "med: -1\n"), "controller.bgp.med", "0..4294967295");
        fails(node("", bgp("- 10.10.1.1\n") + "as_path_prepend: 11\n"), "controller.bgp.as_path_prepend", "0..10");
        fails(node("", bgp("- 10.10.1.1\n").replace("peer_as: 65000", "peer_as: 65001") + "as_path_prepend: 1\n"),
            "controller.bgp.as_path_prepend", "only for eBGP");
        final String vip = NodeConfigErrorsTest.BASE + "  - {name: dns, address: 10.100.0.2, port: 53, protocol: udp," +
            " bgp: %s}\ncontroller:\n  bgp:\n" + bgp("- 10.10.1.1\n").indent(4);
        fails(String.format(vip, "{communities: [\"65536:1\"]}"), "vips[1].bgp.communities[0]", "RFC 1997");
        fails(String.format(vip, "{communities: [\"no-export\"]}"), "vips[1].bgp.communities[0]", "ASN:VALUE");
        fails(String.format(vip, "{large_communities: [\"1:2\"]}"), "vips[1].bgp.large_communities[0]", "RFC 8092");
        fails(String.format(vip, "{large_communities: [\"1:2:4294967296\"]}"), "vips[1].bgp.large_communities[0]",
            "GLOBAL:LOCAL1:LOCAL2");
        fails(String.format(vip, "{med: 4294967296}"), "vips[1].bgp.med", "0..4294967295");
        fails(String.format(vip, "{prepend: 1}"), "vips[1].bgp.prepend", "unknown");
    }

    @Test
    void readsTheRelayOrphanTimeout() throws Exception
    {
        assertEquals(ExaBgpConfig.DEFAULT_ORPHAN_TIMEOUT_NS,
            parse(node("", bgp("- 10.10.1.1\n"))).controller().bgp().exabgp().orphanTimeoutNs());
        assertEquals(2_500_000_000L, parse(node("", bgp("- 10.10.1.1\n") + "exabgp: {orphan_timeout: 2500ms}\n"))
            .controller().bgp().exabgp().orphanTimeoutNs());
        fails(node("", bgp("- 10.10.1.1\n") + "exabgp: {orphan_timeout: 0s}\n"),
            "controller.bgp.exabgp.orphan_timeout", "longer than zero");
    }

    @Test
    void refusesVipBgpWithoutControllerBgp()
    {
        fails(NodeConfigErrorsTest.BASE + "  - {name: dns, address: 10.100.0.2, port: 53, protocol: udp, " +
            "bgp: {med: 5}}\n", "vips[1].bgp", "controller.bgp is absent");
    }

    @Test
    void refusesVipsSharingAnAddressWithDifferentAttributes()
    {
        fails(NodeConfigErrorsTest.BASE + "  - {name: web443, address: 10.100.0.1, port: 443, protocol: tcp, " +
            "bgp: {med: 5}}\ncontroller:\n  bgp:\n" + bgp("- 10.10.1.1\n").indent(4), "vips[1].bgp",
            "shares address 10.100.0.1 (one BGP route) with vips[0] (web)");
    }
}
