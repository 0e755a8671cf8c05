package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;

import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExaBgpSessionTest
{

    private static final InetAddress VIP1 = IpLiterals.parse("10.100.0.1");
    private static final InetAddress VIP2 = IpLiterals.parse("10.100.0.2");

    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(ExaBgpSession.class);

    private final ExaBgpSession session = new ExaBgpSession();

    @Test
    void isCurrentOnceExaBgpAcknowledgedEveryCommand()
    {
        session.setAnnounced(Set.of(VIP1, VIP2));
        session.onConnected("relay connected");
        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self",
            "announce route 10.100.0.2/32 next-hop self"), session.drainOutput());
        assertFalse(session.isCurrent());
        assertEquals(2, session.awaitingAck());

        session.onLine("done");
        assertFalse(session.isCurrent());
        session.onLine("done");

        assertTrue(session.isCurrent());
        assertEquals(List.of("BGP: relay connected"), captured.drain());
    }

    @Test
    void logsTheCommandExaBgpRejected()
    {
        session.onConnected("relay connected");
        session.setAnnounced(Set.of(VIP1));
        session.drainOutput();
        captured.drain();

        session.onLine("error");

        assertEquals(List.of("BGP: ExaBGP rejected 'announce route 10.100.0.1/32 next-hop self'"), captured.drain());
        assertEquals(System.Logger.Level.WARNING,
            captured.levelOf("BGP: ExaBGP rejected 'announce route 10.100.0.1/32 next-hop self'"));
    }

    @Test
    void tracksNeighborStatesAndLogsOnlyMovesIntoAndOutOfUp()
    {
        session.onConnected("relay connected");
        captured.drain();

        session.onLine(ExaBgpMessageTest.CONNECTED);
        session.onLine(ExaBgpMessageTest.DOWN.replace("\"counter\": 3", "\"counter\": 2"));
        session.onLine(ExaBgpMessageTest.CONNECTED);
        assertEquals(Map.of("10.10.1.1", "connected"), session.neighborStates());
        session.onLine(ExaBgpMessageTest.UP);
        assertEquals(Map.of("10.10.1.1", "up"), session.neighborStates());
        session.onLine(ExaBgpMessageTest.DOWN);

        assertEquals(List.of("BGP: neighbor 10.10.1.1 connected", "BGP: neighbor 10.10.1.1 up",
                "BGP: neighbor 10.10.1.1 down (peer reset, message (notification received (6,2)) " +
                    "error(Cease / Administrative Shutdown))"),
            captured.drain());
        assertEquals(System.Logger.Level.INFO, captured.levelOf("BGP: neighbor 10.10.1.1 up"));
        assertEquals(System.Logger.Level.WARNING, captured.entries().get(captured.entries().size() - 1).level(),
            "a session that was up and goes down is a warning");
        assertThrows(UnsupportedOperationException.class, () -> session.neighborStates().put("x", "up"));
    }

    @Test
    void forgetsStatesAndAcksWithTheConnection()
    {
        session.onConnected("relay connected");
        session.setAnnounced(Set.of(VIP1));
        session.drainOutput();
        session.onLine(ExaBgpMessageTest.UP);

        session.onDisconnected("closed by the relay", false);

        assertFalse(session.isConnected());
        assertEquals(Map.of(), session.neighborStates());
        assertEquals(Set.of(), session.announced());
        assertEquals(0, session.awaitingAck());
        assertEquals(List.of(), session.drainOutput());
        assertTrue(captured.drain().contains("BGP: relay disconnected: closed by the relay"));
        assertEquals(System.Logger.Level.WARNING, captured.levelOf("BGP: relay disconnected: closed by the relay"));
    }

    @Test
    void withdrawsRoutesTheRelayKeptFromAnEarlierController()
    {
        session.setAnnounced(Set.of(VIP2));
        session.onConnected("relay connected");
        assertEquals(List.of("announce route 10.100.0.2/32 next-hop self"), session.drainOutput());

        session.onLine("sluice-relay announced 10.100.0.1/32 10.100.0.2/32");

        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self"), session.drainOutput());
        assertEquals(Set.of(VIP2), session.announced());
    }
}
