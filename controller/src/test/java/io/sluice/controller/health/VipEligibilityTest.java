package io.sluice.controller.health;

import io.sluice.controller.health.check.CheckResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VipEligibilityTest
{
    private static final List<String> NAMES = List.of("b1", "b2", "b3");

    @Test
    void sendsOnlyToHealthyBackends()
    {
        final VipEligibility web = new VipEligibility("web");
        final VipEligibility.Decision decision = web.evaluate(NAMES, new boolean[] {true, false, true});
        assertEquals(List.of("b1", "b3"), decision.eligible());
        assertFalse(decision.failOpen());
        assertNull(decision.transition());
        assertEquals(2, decision.healthy());
        assertEquals(3, decision.total());
    }

    @Test
    void neverFailsOpenWithTheDefaultShare()
    {
        final VipEligibility web = new VipEligibility("web");
        final VipEligibility.Decision decision = web.evaluate(NAMES, new boolean[3]);
        assertFalse(decision.failOpen());
        assertEquals(List.of(), decision.eligible());
        assertNull(decision.transition());
        assertEquals(0, web.failOpenEntries());
    }

    @Test
    void failsOpenWhenNoneHealthyAndReportsOnce()
    {
        final VipEligibility web = new VipEligibility("web", 0.3);
        final VipEligibility.Decision decision = web.evaluate(NAMES, new boolean[3]);
        assertTrue(decision.failOpen());
        assertEquals(NAMES, decision.eligible());
        assertEquals("VIP web fail-open: 0 of 3 backends healthy (below 30%), sending to all",
            decision.transition());
        assertNull(web.evaluate(NAMES, new boolean[3]).transition());
        assertTrue(web.isFailOpen());
        assertEquals(1, web.failOpenEntries());
    }

    @Test
    void leavesFailOpenWhenABackendRecovers()
    {
        final VipEligibility web = new VipEligibility("web", 0.3);
        web.evaluate(NAMES, new boolean[3]);
        final VipEligibility.Decision decision = web.evaluate(NAMES, new boolean[] {false, true, false});
        assertFalse(decision.failOpen());
        assertEquals(List.of("b2"), decision.eligible());
        assertEquals("VIP web fail-open over: 1 of 3 backends healthy, sending to healthy only",
            decision.transition());
        assertNull(web.evaluate(NAMES, new boolean[] {false, true, false}).transition());
        assertEquals(1, web.failOpenEntries());
    }

    @Test
    void failsOpenBelowConfiguredShare()
    {
        final VipEligibility api = new VipEligibility("api", 0.5);
        final List<String> four = List.of("a", "b", "c", "d");
        final VipEligibility.Decision below = api.evaluate(four, new boolean[] {true, false, false, false});
        assertTrue(below.failOpen());
        assertEquals(four, below.eligible());
        assertEquals("VIP api fail-open: 1 of 4 backends healthy (below 50%), sending to all", below.transition());
        final VipEligibility.Decision atShare = api.evaluate(four, new boolean[] {true, true, false, false});
        assertFalse(atShare.failOpen());
        assertEquals(List.of("a", "b"), atShare.eligible());
    }

    @Test
    void vipWithoutBackendsIsNotFailOpen()
    {
        final VipEligibility empty = new VipEligibility("empty");
        final VipEligibility.Decision decision = empty.evaluate(List.of(), new boolean[0]);
        assertFalse(decision.failOpen());
        assertTrue(decision.eligible().isEmpty());
        assertNull(decision.transition());
    }

    @Test
    void evaluatesBackendHealthAtTheGivenTime()
    {
        final BackendHealth b1 = new BackendHealth("b1", 1, 1, true, FlapDamping.disabled());
        final BackendHealth b2 = new BackendHealth("b2", 1, 1, false, FlapDamping.disabled());
        final VipEligibility web = new VipEligibility("web", 0.5);
        assertEquals(List.of("b1"), web.evaluate(List.of(b1, b2), 0).eligible());
        b1.onResult(CheckResult.fail("HTTP 503", 0), 1_000);
        final VipEligibility.Decision decision = web.evaluate(List.of(b1, b2), 1_000);
        assertTrue(decision.failOpen());
        assertEquals(List.of("b1", "b2"), decision.eligible());
        assertEquals("VIP web fail-open: 0 of 2 backends healthy (below 50%), sending to all", decision.transition());
    }

    @Test
    void rejectsShareOutsideUnitRangeAndMismatchedInput()
    {
        assertThrows(IllegalArgumentException.class, () -> new VipEligibility("web", 1.5));
        assertThrows(IllegalArgumentException.class, () -> new VipEligibility("web", Double.NaN));
        assertThrows(IllegalArgumentException.class,
            () -> new VipEligibility("web").evaluate(NAMES, new boolean[2]));
    }
}
