package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BirdRouterTest
{
    @Test
    void parsesShowProtocols()
    {
        final String output = String.join("\n",
            "BIRD 2.0.12 ready.",
            "Name       Proto      Table      State  Since         Info",
            "device1    Device     ---        up     16:29:32.327  ",
            "lb1        BGP        ---        start  16:29:32.327  Active        Socket: Connection refused",
            "lb2        BGP        ---        up     16:29:36.377  Established   ",
            "");
        final Map<String, BirdRouter.Protocol> protocols = BirdRouter.parseProtocols(output);

        assertEquals(List.of("device1", "lb1", "lb2"), List.copyOf(protocols.keySet()));
        assertEquals(new BirdRouter.Protocol("device1", "Device", "---", "up", "16:29:32.327", ""),
            protocols.get("device1"));
        assertEquals("Active        Socket: Connection refused", protocols.get("lb1").info());
        assertFalse(protocols.get("lb1").established());
        assertTrue(protocols.get("lb2").established());
    }

    @Test
    void configuresOneChannelPerPeerFamilyAndMergesPaths()
    {
        final String config = BirdRouter.config("10.10.1.1", 65000, List.of(
            new BirdRouter.Peer("lb1", "10.10.1.2", 65001), new BirdRouter.Peer("lb6", "fd00::2", 65001)));

        assertTrue(config.startsWith("router id 10.10.1.1;\n"), config);
        assertTrue(config.contains("protocol kernel kernel4 { ipv4 { export all; }; merge paths on;"), config);
        assertTrue(config.contains("protocol bgp lb1 from peers {\n    neighbor 10.10.1.2 as 65001;\n" +
            "    ipv4 { import all; export none; };\n}\n"), config);
        assertTrue(config.contains("    neighbor fd00::2 as 65001;\n    ipv6 { import all; export none; };"), config);
    }

    @Test
    void parsesEachPathOfShowRouteAll()
    {
        // As BIRD 2.0.12 printed it in ControllerBgpTest, lb1's path prepended for the test.
        final String output = String.join("\n",
            "BIRD 2.0.12 ready.",
            "Table master4:",
            "10.100.0.1/32        unicast [lb1 23:54:43.301] * (100) [AS65001i]",
            "\tvia 10.10.1.2 on r1",
            "\tType: BGP univ",
            "\tBGP.origin: IGP",
            "\tBGP.as_path: 65001 65001 65001",
            "\tBGP.next_hop: 10.10.1.2",
            "\tBGP.med: 5",
            "\tBGP.local_pref: 100",
            "\tBGP.community: (65000,80) (65000,443)",
            "\tBGP.large_community: (65001, 0, 80)",
            "                     unicast [lb2 23:54:43.019] (100) [AS65001i]",
            "\tvia 10.10.2.2 on r2",
            "\tType: BGP univ",
            "\tBGP.origin: IGP",
            "\tBGP.as_path: 65001",
            "\tBGP.next_hop: 10.10.2.2",
            "\tBGP.local_pref: 100",
            "");

        assertEquals(Optional.of(new BgpRouter.PathAttributes("10.10.1.2", "65001 65001 65001", 5,
            List.of("65000:80", "65000:443"), List.of("65001:0:80"))), BirdRouter.parsePath(output, "10.10.1.2"));
        assertEquals(Optional.of(new BgpRouter.PathAttributes("10.10.2.2", "65001", -1, List.of(), List.of())),
            BirdRouter.parsePath(output, "10.10.2.2"));
        assertEquals(Optional.empty(), BirdRouter.parsePath(output, "10.10.3.2"));
    }
}
