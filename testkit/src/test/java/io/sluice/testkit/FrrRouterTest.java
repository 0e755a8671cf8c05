package io.sluice.testkit;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrrRouterTest
{
    @Test
    void parsesEachPathOfShowBgpPrefixJson()
    {
        // As FRR 8.4 printed it in ControllerBgpTest (some keys left out), lb1's path prepended and without MED.
        final String json = """
            {
              "prefix":"10.100.0.1/32",
              "version":2,
              "advertisedTo":{
                "10.10.1.2":{
                },
                "10.10.2.2":{
                }
              },
              "paths":[
                {
                  "aspath":{
                    "string":"65001",
                    "segments":[{"type":"as-sequence", "list":[65001]}],
                    "length":1
                  },
                  "origin":"IGP",
                  "metric":5,
                  "valid":true,
                  "multipath":true,
                  "community":{
                    "string":"65000:80 65000:443",
                    "list":["65000:80", "65000:443"]
                  },
                  "largeCommunity":{
                    "string":"65001:0:80",
                    "list":["65001:0:80"]
                  },
                  "lastUpdate":{
                    "epoch":1796169338,
                    "string":"Tue Dec  1 23:55:38 2026\\n"
                  },
                  "nexthops":[
                    {
                      "ip":"10.10.2.2",
                      "afi":"ipv4",
                      "metric":0,
                      "accessible":true,
                      "used":true
                    }
                  ],
                  "peer":{"peerId":"10.10.2.2", "routerId":"10.10.2.2", "type":"external"}
                },
                {
                  "aspath":{
                    "string":"65001 65001 65001",
                    "length":3
                  },
                  "origin":"IGP",
                  "valid":true,
                  "nexthops":[
                    {
                      "ip":"10.10.1.2",
                      "afi":"ipv4",
                      "used":true
                    }
                  ],
                  "peer":{"peerId":"10.10.1.2", "routerId":"10.10.1.2", "type":"external"}
                }
              ]
            }
            """;

        assertEquals(Optional.of(new BgpRouter.PathAttributes("10.10.2.2", "65001", 5,
            List.of("65000:80", "65000:443"), List.of("65001:0:80"))), FrrRouter.parsePath(json, "10.10.2.2"));
        assertEquals(Optional.of(new BgpRouter.PathAttributes("10.10.1.2", "65001 65001 65001", -1, List.of(),
            List.of())), FrrRouter.parsePath(json, "10.10.1.2"));
        assertEquals(Optional.empty(), FrrRouter.parsePath(json, "10.10.3.2"));
        assertEquals(Optional.empty(), FrrRouter.parsePath("{}\n", "10.10.1.2"), "no route to the prefix");
    }

    @Test
    void tiesEachNeighborToTheBfdProfileAndPutsTheBfdBlockLastWithoutExits()
    {
        final String config = FrrRouter.config("10.10.1.1", 65000,
            List.of(new BirdRouter.Peer("lb1", "10.10.1.2", 65001, null)), true);
        assertTrue(config.contains(" neighbor 10.10.1.2 bfd profile sluice\n"), config);
        final String block = config.substring(config.indexOf("\nbfd\n"));
        assertEquals("\nbfd\n profile sluice\n  receive-interval 100\n  transmit-interval 100\n" +
            "  detect-multiplier 3\n", block, "the bfd block is last, with no exit that would end bgpd's config");
        assertTrue(config.indexOf("router bgp") < config.indexOf("\nbfd\n"), config);
        assertFalse(FrrRouter.config("10.10.1.1", 65000, List.of(new BirdRouter.Peer("lb1", "10.10.1.2", 65001,
            null)), false).contains("bfd"), "no BFD unless asked");
    }

    @Test
    void parsesTheStatusOfEachSessionOfShowBfdPeersJson()
    {
        final String json = "[\n  {\n    \"multihop\":false,\n    \"peer\":\"10.10.1.2\",\n    \"vrf\":\"default\",\n" +
            "    \"status\":\"up\",\n    \"receive-interval\":100\n  },\n" +
            "  {\n    \"peer\":\"10.10.2.2\",\n    \"status\":\"down\"\n  }\n]\n";
        assertEquals("up", FrrRouter.parseBfdState(json, "10.10.1.2"));
        assertEquals("down", FrrRouter.parseBfdState(json, "10.10.2.2"));
        assertEquals("", FrrRouter.parseBfdState(json, "10.10.3.2"));
        assertEquals("", FrrRouter.parseBfdState("[\n]\n", "10.10.1.2"), "bfdd without sessions");
    }
}
