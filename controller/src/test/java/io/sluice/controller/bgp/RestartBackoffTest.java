package io.sluice.controller.bgp;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RestartBackoffTest
{
    @Test
    void doublesUpToThirtySeconds()
    {
        final RestartBackoff backoff = new RestartBackoff();
        final List<Long> delays = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < 7; i++)
        {
            final long delay = backoff.onDeath(now, now + 100);
            delays.add(delay);
            now += 100 + delay;
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L), delays);
    }

    @Test
    void startsOverAfterAMinuteOfRunning()
    {
        final RestartBackoff backoff = new RestartBackoff();
        backoff.onDeath(0, 100);
        backoff.onDeath(1_100, 1_200);
        assertEquals(4_000, backoff.nextDelayMs());

        assertEquals(1_000, backoff.onDeath(10_000, 70_000));
        assertEquals(2_000, backoff.nextDelayMs());
    }
}
