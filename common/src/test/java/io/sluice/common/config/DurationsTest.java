package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DurationsTest
{
    @Test
    void parsesEveryUnit()
    {
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250), Durations.parseNanos("250ms"));
        assertEquals(TimeUnit.SECONDS.toNanos(300), Durations.parseNanos("300s"));
        assertEquals(TimeUnit.MINUTES.toNanos(5), Durations.parseNanos("5m"));
        assertEquals(TimeUnit.HOURS.toNanos(1), Durations.parseNanos("1h"));
        assertEquals(TimeUnit.SECONDS.toNanos(45), Durations.secondsToNanos(45));
    }

    @Test
    void rejectsOtherSyntax()
    {
        for (final String text : new String[]{"5", "5 m", "5min", "1.5s", "-5s", "s", "5d", "", "300S"})
        {
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos(text), text);
        }
    }

    @Test
    void rejectsOverflow()
    {
        assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("3000000h"));
        assertThrows(IllegalArgumentException.class, () -> Durations.secondsToNanos(Long.MAX_VALUE / 10));
    }

    @Test
    void formatsInLargestWholeUnit()
    {
        assertEquals("5m", Durations.format(TimeUnit.SECONDS.toNanos(300)));
        assertEquals("2h", Durations.format(TimeUnit.HOURS.toNanos(2)));
        assertEquals("90s", Durations.format(TimeUnit.SECONDS.toNanos(90)));
        assertEquals("250ms", Durations.format(TimeUnit.MILLISECONDS.toNanos(250)));
        assertEquals("1500ns", Durations.format(1500));
    }
}
