package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Lines captured from ExaBGP 4.2.21 (Debian 12) talking to BIRD 2.0.12, with {@code encoder json} and
 * {@code neighbor-changes}.
 */
class ExaBgpMessageTest
{
    static final String CONNECTED = "{ \"exabgp\": \"4.0.1\", \"time\": 1795969776.3726022, \"host\" : \"vm\", " +
        "\"pid\" : 31156, \"ppid\" : 1, \"counter\": 1, \"type\": \"state\", \"neighbor\": { \"address\": " +
        "{ \"local\": \"10.10.1.2\", \"peer\": \"10.10.1.1\" }, \"asn\": { \"local\": 65001, \"peer\": 65000 } , " +
        "\"state\": \"connected\" } }";
    static final String UP = "{ \"exabgp\": \"4.0.1\", \"time\": 1795969776.3804324, \"host\" : \"vm\", " +
        "\"pid\" : 31156, \"ppid\" : 1, \"counter\": 2, \"type\": \"state\", \"neighbor\": { \"address\": " +
        "{ \"local\": \"10.10.1.2\", \"peer\": \"10.10.1.1\" }, \"asn\": { \"local\": 65001, \"peer\": 65000 } , " +
        "\"state\": \"up\" } }";
    static final String DOWN = "{ \"exabgp\": \"4.0.1\", \"time\": 1795969784.0222182, \"host\" : \"vm\", " +
        "\"pid\" : 31156, \"ppid\" : 1, \"counter\": 3, \"type\": \"state\", \"neighbor\": { \"address\": " +
        "{ \"local\": \"10.10.1.2\", \"peer\": \"10.10.1.1\" }, \"asn\": { \"local\": 65001, \"peer\": 65000 } , " +
        "\"state\": \"down\", \"reason\": \"peer reset, message (notification received (6,2)) " +
        "error(Cease / Administrative Shutdown)\" } }";

    @Test
    void readsAcks()
    {
        assertEquals(new ExaBgpMessage.Ack(true), ExaBgpMessage.parse("done"));
        assertEquals(new ExaBgpMessage.Ack(false), ExaBgpMessage.parse("error"));
    }

    @Test
    void readsNeighborStates()
    {
        assertEquals(new ExaBgpMessage.NeighborState("10.10.1.1", "connected", ""), ExaBgpMessage.parse(CONNECTED));
        assertEquals(new ExaBgpMessage.NeighborState("10.10.1.1", "up", ""), ExaBgpMessage.parse(UP));
        assertEquals(new ExaBgpMessage.NeighborState("10.10.1.1", "down",
            "peer reset, message (notification received (6,2)) error(Cease / Administrative Shutdown)"),
            ExaBgpMessage.parse(DOWN));
    }

    @Test
    void normalisesIpv6PeerAddresses()
    {
        final String line = UP.replace("\"peer\": \"10.10.1.1\"", "\"peer\": \"FD00:0::1\"");
        assertEquals(new ExaBgpMessage.NeighborState("fd00::1", "up", ""), ExaBgpMessage.parse(line));
    }

    @Test
    void readsTheShutdownNotification()
    {
        assertEquals(new ExaBgpMessage.Shutdown(), ExaBgpMessage.parse("{ \"exabgp\": \"4.0.1\", \"time\": " +
            "1795969790.1, \"host\" : \"vm\", \"pid\" : 31156, \"ppid\" : 1, \"counter\": 9, \"type\": " +
            "\"notification\", \"notification\": \"shutdown\"}"));
    }

    @Test
    void readsTheRelayGreetingKeepingHostRoutesOnly()
    {
        assertEquals(new ExaBgpMessage.RelayAnnounced(Set.of(IpLiterals.parse("10.100.0.1"),
                IpLiterals.parse("fd00::1"))),
            ExaBgpMessage.parse("sluice-relay announced 10.100.0.1/32 fd00::1/128 10.200.0.0/24 junk"));
        assertEquals(new ExaBgpMessage.RelayAnnounced(Set.of()), ExaBgpMessage.parse("sluice-relay announced"));
    }

    @Test
    void passesEverythingElseThroughAsOther()
    {
        assertEquals(new ExaBgpMessage.Other("{ \"type\": \"update\" }"),
            ExaBgpMessage.parse("{ \"type\": \"update\" }"));
        assertEquals(new ExaBgpMessage.Other("{ broken"), ExaBgpMessage.parse("{ broken"));
        assertEquals(new ExaBgpMessage.Other("{ \"type\": \"state\", \"neighbor\": 3 }"),
            ExaBgpMessage.parse("{ \"type\": \"state\", \"neighbor\": 3 }"));
        assertEquals(new ExaBgpMessage.Other("hello"), ExaBgpMessage.parse("hello"));
    }
}
