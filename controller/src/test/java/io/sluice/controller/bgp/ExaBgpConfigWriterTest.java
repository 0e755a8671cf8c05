package io.sluice.controller.bgp;

import io.sluice.common.config.BgpConfig;
import io.sluice.common.config.ExaBgpConfig;
import io.sluice.common.config.IpLiterals;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            # as a /32 (IPv4) or /128 (IPv6) with next-hop self.

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
                family {
                    ipv6 unicast;
                }
            """), text);
    }

    @Test
    void refusesPathsExaBgpWouldSplit()
    {
        final BgpConfig bgp = new BgpConfig(65001, 65000, IpLiterals.parseIpv4("10.10.1.2"),
            IpLiterals.parse("10.10.1.2"), List.<InetAddress>of(IpLiterals.parse("10.10.1.1")), ExaBgpConfig.defaults());

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> ExaBgpConfigWriter.fromClasspath().write(bgp, RELAY, Path.of("/tmp/my dir/exabgp.sock")));
        assertTrue(error.getMessage().contains("'/tmp/my dir/exabgp.sock'"), error.getMessage());
    }

    @Test
    void refusesATemplateWithoutTheNeighborBlock()
    {
        assertThrows(IllegalArgumentException.class, () -> new ExaBgpConfigWriter("process x { run ${relay_command}; }"));
    }
}
