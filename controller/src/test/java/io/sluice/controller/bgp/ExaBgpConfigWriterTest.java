package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.BgpNeighborConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.VipRouteConfig;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExaBgpConfigWriterTest
{
    private static final List<String> RELAY = List.of("/usr/bin/python3", "/dev/shm/sluice/lb1/sluice-exabgp-relay.py",
        "--orphan-timeout", "30");
    private static final Path SOCKET = Path.of("/dev/shm/sluice/lb1/exabgp.sock");

    @Test
    void writesOneNeighborBlockPerNeighborWithTheRelayAsProcess()
    {
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.of(IpLiterals.parse("10.10.1.1"), IpLiterals.parse("10.10.1.3")),
            ExaBgpConfig.defaults());

        final String text = ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY, SOCKET);

        assertEquals("""
            # ExaBGP 4.2 configuration of a Sluice node, written by the controller from exabgp/exabgp.conf.template.
            # Do not edit the generated exabgp.conf: it is rewritten at every controller start.
            #
            # The relay process connects ExaBGP to the controller's Unix-domain socket; it announces and withdraws each VIP
            # as a /32 (IPv4) or /128 (IPv6) with next-hop self. Each neighbor's session carries its own address's family only:
            # a dual-stack node has one IPv4 and one IPv6 session per router. With a TCP MD5 password the generated file holds
            # it (base64), so the controller writes it readable by its own user only.

            process sluice-relay {
                run /usr/bin/python3 /dev/shm/sluice/lb1/sluice-exabgp-relay.py --orphan-timeout 30 /dev/shm/sluice/lb1/exabgp.sock;
                encoder json;
            }

            neighbor 10.10.1.1 {
                description "sluice 10.10.1.1";
                router-id 10.10.1.2;
                local-address 10.10.1.2;
                local-as 65001;
                peer-as 65000;
                hold-time 180;
                capability {
                    graceful-restart disable;
                }
                family {
                    ipv4 unicast;
                }
                api {
                    processes [ sluice-relay ];
                    neighbor-changes;
                }
            }

            neighbor 10.10.1.3 {
                description "sluice 10.10.1.3";
                router-id 10.10.1.2;
                local-address 10.10.1.2;
                local-as 65001;
                peer-as 65000;
                hold-time 180;
                capability {
                    graceful-restart disable;
                }
                family {
                    ipv4 unicast;
                }
                api {
                    processes [ sluice-relay ];
                    neighbor-changes;
                }
            }
            """, text);
    }

    @Test
    void givesIpv6NeighborsTheIpv6FamilyAndFourByteAsNumbers()
    {
        final BgpConfig bgp = new BgpConfig(4200000001L, 4200000000L, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("fd00:0:0:0::2"), List.of(IpLiterals.parse("fd00::1")), ExaBgpConfig.defaults());

        final String text = ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY, SOCKET);

        assertTrue(text.contains("""
            neighbor fd00::1 {
                description "sluice fd00::1";
                router-id 10.10.1.2;
                local-address fd00::2;
                local-as 4200000001;
                peer-as 4200000000;
                hold-time 180;
                capability {
                    graceful-restart disable;
                }
                family {
                    ipv6 unicast;
                }
            """), text);
    }

    @Test
    void writesDualStackSessionsWithHoldTimeMd5AndGracefulRestart()
    {
        final Path secret = Path.of("/etc/sluice/r1.md5");
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.of(
            new BgpNeighborConfig(IpLiterals.parse("10.10.1.1"), IpLiterals.parse("10.10.1.2"), 9, secret, true),
            new BgpNeighborConfig(IpLiterals.parse("fd00:10::1"), IpLiterals.parse("fd00:10::2"), 30, null, false)),
            VipRouteConfig.NO_MED, 0, ExaBgpConfig.defaults());

        final String text = ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY, SOCKET,
            Map.of(secret, "s3cret \"x\";".getBytes(StandardCharsets.UTF_8)));

        assertTrue(text.contains("""
                local-address 10.10.1.2;
                local-as 65001;
                peer-as 65000;
                hold-time 9;
                md5-password czNjcmV0ICJ4Ijs=;
                md5-base64 true;
                capability {
                    graceful-restart 9;
                }
                family {
                    ipv4 unicast;
                }
            """), text);
        assertTrue(text.contains("""
            neighbor fd00:10::1 {
                description "sluice fd00:10::1";
                router-id 10.10.1.2;
                local-address fd00:10::2;
                local-as 65001;
                peer-as 65000;
                hold-time 30;
                capability {
                    graceful-restart disable;
                }
                family {
                    ipv6 unicast;
                }
            """), text);
        assertFalse(text.contains("s3cret"), "the password goes in base64 only");
        assertThrows(IllegalArgumentException.class, () -> ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY,
            SOCKET));
    }

    @Test
    void refusesPathsExaBgpWouldSplit()
    {
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.<InetAddress>of(IpLiterals.parse("10.10.1.1")),
            ExaBgpConfig.defaults());

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY, Path.of("/tmp/my dir/exabgp.sock")));
        assertTrue(error.getMessage().contains("'/tmp/my dir/exabgp.sock'"), error.getMessage());
    }

    @Test
    void refusesATemplateWithoutTheNeighborBlock()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new ExaBgpConfigWriter("process x { run ${relay_command}; }"));
    }
}
