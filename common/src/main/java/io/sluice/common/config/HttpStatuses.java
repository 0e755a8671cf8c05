package io.sluice.common.config;

import java.util.BitSet;

/**
 * A set of HTTP statuses (100..599) that an HTTP health check accepts, such as {@code 200-399} (the default) or
 * {@code 200,204,301-302}. Equal when they hold the same statuses, whatever the text they were written as.
 */
public final class HttpStatuses
{
    /**
     * The lowest status a set may hold.
     */
    public static final int MIN = 100;

    /**
     * The highest status a set may hold.
     */
    public static final int MAX = 599;

    private final BitSet statuses;

    private HttpStatuses(final BitSet statuses)
    {
        this.statuses = statuses;
    }

    /**
     * Returns the statuses {@code low..high}.
     *
     * @param low  the lowest, 100..599.
     * @param high the highest (inclusive), low..599.
     * @return the set.
     * @throws IllegalArgumentException when the bounds are outside 100..599 or backwards.
     */
    public static HttpStatuses range(final int low, final int high)
    {
        check(low, Integer.toString(low));
        check(high, Integer.toString(high));
        if (high < low)
        {
            throw new IllegalArgumentException("backwards range " + low + "-" + high);
        }
        final BitSet statuses = new BitSet(MAX + 1);
        statuses.set(low, high + 1);
        return new HttpStatuses(statuses);
    }

    /**
     * Parses statuses and inclusive ranges separated by commas, e.g. {@code 200,204,301-302}.
     *
     * @param text the list.
     * @return the set.
     * @throws IllegalArgumentException naming the first bad item.
     */
    public static HttpStatuses parse(final String text)
    {
        final BitSet statuses = new BitSet(MAX + 1);
        for (final String part : text.split(",", -1))
        {
            final String item = part.strip();
            final int dash = item.indexOf('-');
            final int low = status(dash < 0 ? item : item.substring(0, dash));
            final int high = dash < 0 ? low : status(item.substring(dash + 1));
            if (high < low)
            {
                throw new IllegalArgumentException("backwards range \"" + item + "\"");
            }
            statuses.set(low, high + 1);
        }
        return new HttpStatuses(statuses);
    }

    private static int status(final String digits)
    {
        final String text = digits.strip();
        final int status;
        try
        {
            status = Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("\"" + text + "\" is not an HTTP status");
        }
        check(status, text);
        return status;
    }

    private static void check(final int status, final String text)
    {
        if (status < MIN || status > MAX)
        {
            throw new IllegalArgumentException("HTTP status " + text + " is outside " + MIN + ".." + MAX);
        }
    }

    /**
     * Tells whether a status is in the set.
     *
     * @param status an HTTP status.
     * @return true when it passes.
     */
    public boolean contains(final int status)
    {
        return status >= MIN && status <= MAX && statuses.get(status);
    }

    /**
     * Returns the set as the shortest list of statuses and ranges, e.g. {@code 200-299,304}.
     *
     * @return the text, which {@link #parse} reads back to an equal set.
     */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (int low = statuses.nextSetBit(MIN); low >= 0; low = statuses.nextSetBit(low))
        {
            final int end = statuses.nextClearBit(low);
            text.append(text.length() == 0 ? "" : ",").append(low);
            if (end - 1 > low)
            {
                text.append('-').append(end - 1);
            }
            low = end;
        }
        return text.toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof HttpStatuses that && statuses.equals(that.statuses);
    }

    @Override
    public int hashCode()
    {
        return statuses.hashCode();
    }
}
