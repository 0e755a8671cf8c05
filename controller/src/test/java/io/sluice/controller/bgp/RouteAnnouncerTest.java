package io.sluice.controller.bgp;

import io.sluice.common.config.IpLiterals;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RouteAnnouncerTest
{
    private static final InetAddress VIP1 = IpLiterals.parse("10.100.0.1");
    private static final InetAddress VIP2 = IpLiterals.parse("10.100.0.2");
    private static final InetAddress VIP6 = IpLiterals.parse("fd00::10");

    private final RouteAnnouncer announcer = new RouteAnnouncer();

    @Test
    void writesHostRoutesWithNextHopSelf()
    {
        assertEquals("announce route 10.100.0.1/32 next-hop self", RouteAnnouncer.announceCommand(VIP1));
        assertEquals("withdraw route fd00::10/128 next-hop self", RouteAnnouncer.withdrawCommand(VIP6));
    }

    @Test
    void sendsNothingUntilConnected()
    {
        announcer.setDesired(Set.of(VIP1));
        assertEquals(List.of(), announcer.drainCommands());
        assertFalse(announcer.isCurrent());

        announcer.onConnected();

        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
        assertEquals(Set.of(VIP1), announcer.announced());
        assertTrue(announcer.isCurrent());
    }

    @Test
    void sendsOnlyTheDifferencesInAddressOrder()
    {
        announcer.onConnected();
        announcer.setDesired(Set.of(VIP6, VIP2, VIP1));
        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self",
            "announce route 10.100.0.2/32 next-hop self", "announce route fd00::10/128 next-hop self"),
            announcer.drainCommands());

        announcer.setDesired(Set.of(VIP2, VIP6));
        announcer.setDesired(Set.of(VIP2, VIP6));

        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
        assertEquals(Set.of(VIP2, VIP6), announcer.announced());
    }

    @Test
    void announcesTheWholeSetAgainOnEachNewConnection()
    {
        announcer.onConnected();
        announcer.setDesired(Set.of(VIP1, VIP2));
        announcer.drainCommands();

        announcer.onDisconnected();
        assertEquals(Set.of(), announcer.announced());
        announcer.setDesired(Set.of(VIP2));
        assertEquals(List.of(), announcer.drainCommands());
        announcer.onConnected();

        assertEquals(List.of("announce route 10.100.0.2/32 next-hop self"), announcer.drainCommands());
    }

    @Test
    void dropsUnsentCommandsWhenTheConnectionIsLost()
    {
        announcer.onConnected();
        announcer.setDesired(Set.of(VIP1));
        announcer.onDisconnected();
        announcer.onConnected();

        assertEquals(List.of("announce route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
    }

    @Test
    void withdrawsWhatTheRelayStillAnnouncesButIsNoLongerWanted()
    {
        announcer.setDesired(Set.of(VIP2));
        announcer.onConnected();
        announcer.drainCommands();

        announcer.onRelayAnnounced(Set.of(VIP1, VIP2));

        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
        assertEquals(Set.of(VIP2), announcer.announced());
    }

    @Test
    void leavesTheRelaysRoutesAloneUntilTold()
    {
        announcer.onConnected();
        announcer.onRelayAnnounced(Set.of(VIP1));

        assertEquals(List.of(), announcer.drainCommands());
        assertEquals(Set.of(VIP1), announcer.announced());
        assertFalse(announcer.isCurrent());

        announcer.setDesired(Set.of(VIP1));
        assertEquals(List.of(), announcer.drainCommands());
        assertTrue(announcer.isCurrent());

        announcer.setDesired(Set.of());
        assertEquals(List.of("withdraw route 10.100.0.1/32 next-hop self"), announcer.drainCommands());
    }
}
