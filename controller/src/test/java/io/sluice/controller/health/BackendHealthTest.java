package io.sluice.controller.health;

import io.sluice.controller.health.check.CheckResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackendHealthTest
{
    private static final CheckResult PASS = CheckResult.pass("HTTP 200", 1_000);
    private static final CheckResult HTTP_500 = CheckResult.fail("HTTP 500", 1_000);

    private long now = 1_000_000;

    private Transition feed(final BackendHealth health, final CheckResult result)
    {
        now += 1_000;
        return health.onResult(result, now);
    }

    @Test
    void startsDownUntilRisePassedChecks()
    {
        final BackendHealth b3 = new BackendHealth("b3", 2, 3, false, FlapDamping.disabled());
        assertFalse(b3.isUp(now));
        assertNull(feed(b3, PASS));
        assertFalse(b3.isUp(now));
        final Transition up = feed(b3, PASS);
        assertEquals(new Transition("b3", true, "backend b3 up: 2 consecutive passed checks"), up);
        assertTrue(b3.isUp(now));
        assertEquals(1, b3.transitions());
        assertEquals(2, b3.checks());
    }

    @Test
    void startsUpWhenConfigured()
    {
        final BackendHealth b1 = new BackendHealth("b1", 2, 3, true, FlapDamping.disabled());
        assertTrue(b1.isUp(now));
        assertNull(feed(b1, PASS));
        assertEquals(0, b1.transitions());
    }

    @Test
    void goesDownAfterFallFailedChecksWithLastDetail()
    {
        final BackendHealth b3 = new BackendHealth("b3", 2, 3, true, FlapDamping.disabled());
        assertNull(feed(b3, HTTP_500));
        assertNull(feed(b3, CheckResult.fail("timeout after 2000 ms", 0)));
        final Transition down = feed(b3, HTTP_500);
        assertFalse(down.up());
        assertEquals("backend b3 down: 3 consecutive failed checks (last: HTTP 500)", down.reason());
        assertFalse(b3.isUp(now));
        assertEquals(3, b3.failedChecks());
    }

    @Test
    void passInBetweenResetsFailureCount()
    {
        final BackendHealth b3 = new BackendHealth("b3", 2, 3, true, FlapDamping.disabled());
        feed(b3, HTTP_500);
        feed(b3, HTTP_500);
        assertNull(feed(b3, PASS));
        assertNull(feed(b3, HTTP_500));
        assertNull(feed(b3, HTTP_500));
        assertTrue(b3.isUp(now));
        assertFalse(feed(b3, HTTP_500).up());
    }

    @Test
    void failureInBetweenResetsPassCount()
    {
        final BackendHealth b3 = new BackendHealth("b3", 3, 1, false, FlapDamping.disabled());
        feed(b3, PASS);
        feed(b3, PASS);
        assertNull(feed(b3, HTTP_500));
        feed(b3, PASS);
        feed(b3, PASS);
        assertFalse(b3.isUp(now));
        assertEquals("backend b3 up: 3 consecutive passed checks", feed(b3, PASS).reason());
    }

    @Test
    void singularReasonForRiseAndFallOfOne()
    {
        final BackendHealth b2 = new BackendHealth("b2", 1, 1, false, FlapDamping.disabled());
        assertEquals("backend b2 up: 1 consecutive passed check", feed(b2, PASS).reason());
        assertEquals("backend b2 down: 1 consecutive failed check (last: connect refused)",
            feed(b2, CheckResult.fail("connect refused", 0)).reason());
    }

    @Test
    void rejectsZeroRiseOrFall()
    {
        assertThrows(IllegalArgumentException.class, () -> new BackendHealth("b", 0, 1, false, FlapDamping.disabled()));
        assertThrows(IllegalArgumentException.class, () -> new BackendHealth("b", 1, 0, false, FlapDamping.disabled()));
    }

    @Test
    void onTickWithoutHoldDownChangesNothing()
    {
        final BackendHealth b3 = new BackendHealth("b3", 1, 1, false, FlapDamping.disabled());
        feed(b3, PASS);
        assertNull(b3.onTick(now + 100_000));
        assertTrue(b3.isUp(now + 100_000));
    }
}
