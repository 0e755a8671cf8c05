package io.sluice.common.config;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as the configuration writes them: {@code 250ms}, {@code 300s}, {@code 5m}, {@code 1h}, or a bare whole
 * number of seconds. Held as nanoseconds, the unit of the data path's clock.
 */
public final class Durations
{
    private static final Pattern SYNTAX = Pattern.compile("([0-9]{1,18})(ms|s|m|h)");

    private Durations()
    {
    }

    /**
     * Parses a duration with a unit.
     *
     * @param text e.g. {@code 300s}.
     * @return the duration in nanoseconds.
     * @throws IllegalArgumentException with the reason when the text is not a duration or does not fit 64 bits.
     */
    public static long parseNanos(final String text)
    {
        final Matcher matcher = SYNTAX.matcher(text);
        if (!matcher.matches())
        {
            throw new IllegalArgumentException("\"" + text + "\" is not a duration " +
                "(write a whole number with a unit ms, s, m or h, e.g. 300s, 5m, 250ms, 1h; or a number of seconds)");
        }
        final long amount = Long.parseLong(matcher.group(1));
        final TimeUnit unit = switch (matcher.group(2))
        {
            case "ms" -> TimeUnit.MILLISECONDS;
            case "s" -> TimeUnit.SECONDS;
            case "m" -> TimeUnit.MINUTES;
            default -> TimeUnit.HOURS;
        };
        return toNanosExact(amount, unit, text);
    }

    /**
     * Converts a whole number of seconds.
     *
     * @param seconds the duration in seconds, not negative.
     * @return the duration in nanoseconds.
     * @throws IllegalArgumentException when the duration does not fit 64 bits of nanoseconds.
     */
    public static long secondsToNanos(final long seconds)
    {
        return toNanosExact(seconds, TimeUnit.SECONDS, Long.toString(seconds));
    }

    /**
     * Prints a duration in the largest unit that divides it, in the syntax {@link #parseNanos} reads.
     *
     * @param nanos the duration.
     * @return e.g. {@code 5m}, {@code 250ms}, or {@code 1500ns} for durations below a millisecond.
     */
    public static String format(final long nanos)
    {
        final TimeUnit[] units = {TimeUnit.HOURS, TimeUnit.MINUTES, TimeUnit.SECONDS, TimeUnit.MILLISECONDS};
        final String[] suffixes = {"h", "m", "s", "ms"};
        for (int i = 0; i < units.length; i++)
        {
            final long unitNanos = units[i].toNanos(1);
            if (nanos != 0 && nanos % unitNanos == 0)
            {
                return nanos / unitNanos + suffixes[i];
            }
        }
        return nanos + "ns";
    }

    private static long toNanosExact(final long amount, final TimeUnit unit, final String text)
    {
        final long nanos = unit.toNanos(amount);
        // TimeUnit saturates at Long.MAX_VALUE instead of failing: treat saturation as overflow.
        if (nanos == Long.MAX_VALUE || nanos < 0)
        {
            throw new IllegalArgumentException("duration " + text + " is too long");
        }
        return nanos;
    }
}
