package io.sluice.controller.health.check;

import java.util.Objects;

/**
 * The outcome of one health check.
 *
 * @param passed    whether the check passed
 * @param detail    what happened, short enough for a log line: "HTTP 500", "connect refused", "timeout after 2000 ms"
 * @param latencyNs how long the check took
 */
public record CheckResult(boolean passed, String detail, long latencyNs)
{
    public CheckResult
    {
        Objects.requireNonNull(detail, "detail");
    }

    /** Returns a passed result. */
    public static CheckResult pass(final String detail, final long latencyNs)
    {
        return new CheckResult(true, detail, latencyNs);
    }

    /** Returns a failed result. */
    public static CheckResult fail(final String detail, final long latencyNs)
    {
        return new CheckResult(false, detail, latencyNs);
    }
}
