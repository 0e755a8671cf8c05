package io.sluice.controller.health.check;

import java.time.Duration;

/** Argument checks shared by the checkers. */
final class Checks
{
    private Checks()
    {
    }

    static int timeoutMs(final Duration timeout)
    {
        final long ms = timeout.toMillis();
        if (ms < 1 || ms > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("timeout must be 1 ms or more: " + timeout);
        }
        return (int)ms;
    }
}
