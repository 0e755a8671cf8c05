package io.sluice.controller.announce;

import io.sluice.common.config.IpLiterals;
import io.sluice.testkit.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AnnouncePolicyTest
{

    private static final InetAddress A = IpLiterals.parse("10.100.0.1");
    private static final InetAddress V6 = IpLiterals.parse("2001:db8::80");
    private static final AnnouncePolicy.NodeInput READY = new AnnouncePolicy.NodeInput(true, "forwarder ready", false);

    @RegisterExtension
    final CapturedLog captured = CapturedLog.of(AnnouncePolicy.class);

    @Test
    void announcesAnAddressWhenAnyOfItsVipsHasAnEligibleBackend()
    {
        final AnnouncePolicy policy = new AnnouncePolicy(false);
        final Set<InetAddress> announced = policy.evaluate(READY, List.of(
            new AnnouncePolicy.VipInput("web", A, 0, 2),
            new AnnouncePolicy.VipInput("tls", A, 1, 2),
            new AnnouncePolicy.VipInput("v6", V6, 0, 1)));

        assertEquals(Set.of(A), announced);
        assertEquals(List.of("VIP tls: announce 10.100.0.1/32 (forwarder ready, 1 of 2 backends eligible)"),
            captured.drain(), "only changes are logged, and a VIP never announced is no change");
        assertEquals(1, policy.changes());
        assertEquals("no eligible backend (0 of 2 backends eligible)", policy.decisions().get(0).reason());
    }

    @Test
    void withdrawsEverythingWhenTheForwarderIsNotReadyOrTheControllerStops()
    {
        final AnnouncePolicy policy = new AnnouncePolicy(false);
        final List<AnnouncePolicy.VipInput> vips = List.of(new AnnouncePolicy.VipInput("v6", V6, 2, 2));
        assertEquals(Set.of(V6), policy.evaluate(READY, vips));
        captured.drain();

        assertEquals(Set.of(), policy.evaluate(
            new AnnouncePolicy.NodeInput(false, "forwarder dead: process 7 gone", false), vips));
        assertEquals(List.of("VIP v6: withdraw 2001:db8::80/128 (forwarder dead: process 7 gone)"),
            captured.drain());
        assertEquals(System.Logger.Level.INFO,
            captured.levelOf("VIP v6: withdraw 2001:db8::80/128 (forwarder dead: process 7 gone)"));
        assertEquals(Set.of(), policy.evaluate(
            new AnnouncePolicy.NodeInput(false, "forwarder dead: process 7 gone", false), vips));
        assertEquals(0, policy.changes(), "the same decision again is no change");

        assertEquals(Set.of(V6), policy.evaluate(READY, vips));
        assertEquals(Set.of(), policy.evaluate(new AnnouncePolicy.NodeInput(true, "forwarder ready", true), vips));
        assertEquals("controller shutting down", policy.decisions().get(0).reason());
    }

    @Test
    void announceRegardlessKeepsAVipWithoutEligibleBackendsButNotADeadForwarder()
    {
        final AnnouncePolicy policy = new AnnouncePolicy(true);
        final List<AnnouncePolicy.VipInput> vips = List.of(new AnnouncePolicy.VipInput("web", A, 0, 3));
        assertEquals(Set.of(A), policy.evaluate(READY, vips));
        assertEquals("announce_regardless, 0 of 3 backends eligible", policy.decisions().get(0).reason());
        assertEquals(Set.of(), policy.evaluate(new AnnouncePolicy.NodeInput(false, "forwarder stopping", false), vips));
    }
}
