package io.sluice.controller.liveness;

import io.sluice.common.config.ControllerConfig;
import io.sluice.common.counters.ForwarderState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForwarderLivenessTest
{
    private static final long STALE_AFTER_MS = 3_000;
    private static final long PID = 123;
    private static final long START_MS = 1_000_000;

    private final ForwarderLiveness liveness = new ForwarderLiveness(STALE_AFTER_MS);
    private long nowMs = START_MS + 10_000;

    private static Observation running(final long pid, final long startMs, final long heartbeatMs)
    {
        return new Observation(true, pid, startMs, true, heartbeatMs, ForwarderState.RUNNING.value());
    }

    private ForwarderLiveness.Transition observeRunning()
    {
        return liveness.observe(nowMs, running(PID, START_MS, nowMs - 1));
    }

    private void becomeAlive()
    {
        final ForwarderLiveness.Transition transition = observeRunning();
        assertTrue(transition.alive());
        assertFalse(transition.restarted());
    }

    @Test
    void readsLimitFromControllerConfig()
    {
        assertEquals(3_000, ForwarderLiveness.of(ControllerConfig.defaults()).staleAfterMs());
    }

    @Test
    void startsDeadAndReportsFirstAliveWithoutRestart()
    {
        assertFalse(liveness.isAlive());
        becomeAlive();
        assertTrue(liveness.isAlive());
        assertEquals("forwarder alive: process 123", liveness.reason());
    }

    @Test
    void tellsWhetherTheWorkersStartedFromTheFirstHeartbeat()
    {
        final long startMs = nowMs;
        assertTrue(liveness.observe(nowMs, new Observation(true, PID, startMs, true, 0,
            ForwarderState.STARTING.value())).alive());
        assertFalse(liveness.workersStarted());

        nowMs += 500;
        assertNull(liveness.observe(nowMs, running(PID, startMs, nowMs - 1)), "the same instance, still alive");
        assertTrue(liveness.workersStarted());

        nowMs += 3_500;
        assertFalse(liveness.observe(nowMs, running(PID, startMs, startMs + 499)).alive());
        assertFalse(liveness.workersStarted(), "a dead forwarder's workers do not count");
    }

    @Test
    void reportsOnlyChanges()
    {
        becomeAlive();
        nowMs += 100;
        assertNull(observeRunning());
        nowMs += 100;
        assertNull(observeRunning());
    }

    @Test
    void diesWhenHeartbeatIsStale()
    {
        becomeAlive();
        final long heartbeatMs = nowMs;
        nowMs = heartbeatMs + STALE_AFTER_MS;
        assertNull(liveness.observe(nowMs, running(PID, START_MS, heartbeatMs)), "exactly at the limit is alive");

        nowMs = heartbeatMs + 4_200;
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, running(PID, START_MS, heartbeatMs));
        assertFalse(transition.alive());
        assertEquals("forwarder dead: heartbeat 4200 ms old (limit 3000 ms)", transition.reason());
        assertFalse(liveness.isAlive());

        nowMs += 100;
        assertNull(liveness.observe(nowMs, running(PID, START_MS, heartbeatMs)), "still dead is no change");
    }

    @Test
    void diesWhenProcessIsGone()
    {
        becomeAlive();
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs,
            new Observation(true, PID, START_MS, false, nowMs, ForwarderState.RUNNING.value()));
        assertFalse(transition.alive());
        assertEquals("forwarder dead: process 123 gone", transition.reason());
    }

    @Test
    void diesWhenCountersFileIsMissing()
    {
        becomeAlive();
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, Observation.missingFile());
        assertFalse(transition.alive());
        assertEquals("forwarder dead: no counters file", transition.reason());
    }

    @Test
    void diesWhenStopping()
    {
        becomeAlive();
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs,
            new Observation(true, PID, START_MS, true, nowMs, ForwarderState.STOPPING.value()));
        assertFalse(transition.alive());
        assertEquals("forwarder stopping", transition.reason());
    }

    @Test
    void comesBackAliveAsSameInstanceWithoutRestart()
    {
        becomeAlive();
        final long heartbeatMs = nowMs;
        nowMs += 5_000;
        assertFalse(liveness.observe(nowMs, running(PID, START_MS, heartbeatMs)).alive());

        final ForwarderLiveness.Transition transition = observeRunning();
        assertTrue(transition.alive());
        assertFalse(transition.restarted());
    }

    @Test
    void detectsRestartWithNewPid()
    {
        becomeAlive();
        assertFalse(liveness.observe(nowMs, Observation.missingFile()).alive());

        nowMs += 1_000;
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, running(456, nowMs - 500, nowMs));
        assertTrue(transition.alive());
        assertTrue(transition.restarted());
        assertEquals("forwarder alive: process 456", transition.reason());
    }

    @Test
    void detectsRestartNeverSeenDead()
    {
        becomeAlive();
        nowMs += 100;
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, running(PID, START_MS + 50, nowMs));
        assertTrue(transition.alive());
        assertTrue(transition.restarted(), "same pid, new start time");
        nowMs += 100;
        assertNull(liveness.observe(nowMs, running(PID, START_MS + 50, nowMs)));
    }

    @Test
    void givesStartingForwarderGraceBeforeFirstHeartbeat()
    {
        final long startMs = nowMs;
        final Observation noHeartbeat =
            new Observation(true, PID, startMs, true, 0, ForwarderState.STARTING.value());
        assertTrue(liveness.observe(nowMs, noHeartbeat).alive());

        assertFalse(liveness.workersStarted(), "no worker heartbeat yet");

        nowMs = startMs + 3_500;
        final ForwarderLiveness.Transition transition = liveness.observe(nowMs, noHeartbeat);
        assertFalse(transition.alive());
        assertEquals("forwarder dead: no heartbeat 3500 ms after start (limit 3000 ms)", transition.reason());
    }
}
