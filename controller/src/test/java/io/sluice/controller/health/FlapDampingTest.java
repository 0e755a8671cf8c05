package io.sluice.controller.health;

import io.sluice.controller.health.check.CheckResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlapDampingTest
{
    private static final CheckResult PASS = CheckResult.pass("HTTP 200", 0);
    private static final CheckResult FAIL = CheckResult.fail("HTTP 500", 0);
    /** More than 3 changes in 60 s holds down 30 s, growing to 240 s, halving per 300 s between triggers. */
    private static final FlapDamping POLICY = new FlapDamping(3, 60_000, 30_000, 240_000, 300_000);

    private long now = 10_000_000;
    private final BackendHealth b3 = new BackendHealth("b3", 1, 1, true, POLICY);

    /** Four state changes one second apart, ending with checks passing: down, up, down, up. */
    private Transition flapEndingUp()
    {
        b3.onResult(FAIL, now += 1_000);
        b3.onResult(PASS, now += 1_000);
        b3.onResult(FAIL, now += 1_000);
        return b3.onResult(PASS, now += 1_000);
    }

    @Test
    void holdsFlappingBackendDownWhileChecksPass()
    {
        assertNull(flapEndingUp());
        assertEquals(1, b3.flaps());
        assertFalse(b3.isUp(now));
        assertTrue(b3.isHeldDown(now));
        assertEquals("backend b3 held down for 30 s: 4 state changes in 60 s (flapping)", b3.lastHoldDownReason());
        assertNull(b3.onResult(PASS, now + 1_000));
        assertFalse(b3.isUp(now + 1_000));
    }

    @Test
    void comesUpOnTickWhenHoldDownEndsAndChecksPass()
    {
        flapEndingUp();
        final long heldUntil = b3.heldUntilMs();
        assertEquals(now + 30_000, heldUntil);
        assertNull(b3.onTick(heldUntil - 1));
        final Transition up = b3.onTick(heldUntil);
        assertTrue(up.up());
        assertEquals("backend b3 up: hold-down ended, 1 consecutive passed check", up.reason());
        assertTrue(b3.isUp(heldUntil));
        assertNull(b3.onTick(heldUntil + 1));
    }

    @Test
    void staysDownAfterHoldDownWhenChecksFail()
    {
        b3.onResult(FAIL, now += 1_000);
        b3.onResult(PASS, now += 1_000);
        b3.onResult(FAIL, now += 1_000);
        b3.onResult(PASS, now += 1_000);
        b3.onResult(FAIL, now += 1_000); // a fifth change while held: counted, not yet a re-trigger
        assertEquals(1, b3.flaps());
        assertNull(b3.onTick(b3.heldUntilMs()));
        assertFalse(b3.isUp(b3.heldUntilMs()));
    }

    @Test
    void triggeringOnFailureReportsTheFailureAndHolds()
    {
        final BackendHealth b4 = new BackendHealth("b4", 1, 1, false, POLICY);
        b4.onResult(PASS, now += 1_000);
        b4.onResult(FAIL, now += 1_000);
        b4.onResult(PASS, now += 1_000);
        final Transition down = b4.onResult(FAIL, now += 1_000);
        assertEquals("backend b4 down: 1 consecutive failed check (last: HTTP 500)", down.reason());
        assertEquals(1, b4.flaps());
        assertNull(b4.onResult(PASS, now += 1_000)); // held: passing checks do not bring it up
        assertTrue(b4.onTick(b4.heldUntilMs()).up());
    }

    @Test
    void holdDownDoublesOnEachRetriggerUpToMax()
    {
        final long[] expected = {30_000, 60_000, 120_000, 240_000, 240_000};
        for (int i = 0; i < expected.length; i++)
        {
            flapEndingUp();
            assertEquals(i + 1, b3.flaps());
            assertEquals(now + expected[i], b3.heldUntilMs(), "trigger " + (i + 1));
            now += 61_000; // out of the window, well inside the quiet period
        }
        assertEquals("backend b3 held down for 240 s: 4 state changes in 60 s (flapping)", b3.lastHoldDownReason());
    }

    @Test
    void holdDownDecaysAfterQuietPeriods()
    {
        flapEndingUp();
        now += 61_000;
        flapEndingUp();
        assertEquals(now + 60_000, b3.heldUntilMs());
        now += 300_000; // one quiet period: doubled to 120 s, halved back to 60 s
        flapEndingUp();
        assertEquals(now + 60_000, b3.heldUntilMs());
        now += 3_600_000; // long quiet: back to the initial hold-down
        flapEndingUp();
        assertEquals(now + 30_000, b3.heldUntilMs());
        assertEquals(4, b3.flaps());
    }

    @Test
    void slowStateChangesDoNotTriggerDamping()
    {
        for (int i = 0; i < 10; i++)
        {
            assertTrue(b3.onResult(i % 2 == 0 ? FAIL : PASS, now += 20_000) != null);
        }
        assertEquals(0, b3.flaps());
        assertEquals(10, b3.transitions());
    }

    @Test
    void disabledPolicyNeverHoldsDown()
    {
        final BackendHealth b1 = new BackendHealth("b1", 1, 1, true, FlapDamping.disabled());
        for (int i = 0; i < 50; i++)
        {
            assertTrue(b1.onResult(i % 2 == 0 ? FAIL : PASS, now += 1) != null);
        }
        assertEquals(0, b1.flaps());
        assertTrue(b1.isUp(now));
    }

    @Test
    void rejectsInconsistentPolicy()
    {
        assertThrows(IllegalArgumentException.class, () -> new FlapDamping(0, 60_000, 30_000, 60_000, 1));
        assertThrows(IllegalArgumentException.class, () -> new FlapDamping(3, 60_000, 30_000, 10_000, 1));
        assertThrows(IllegalArgumentException.class, () -> new FlapDamping(3, 0, 30_000, 60_000, 1));
        assertThrows(IllegalArgumentException.class, () -> new FlapDamping(5_000, 60_000, 30_000, 60_000, 1));
        assertFalse(new FlapDamping(3, 60_000, 0, 0, 1).enabled());
    }
}
