package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

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
}
