package io.sluice.common.counters;

import java.util.Locale;

/**
 * The values of {@link CounterType#FORWARDER_STATE}.
 */
public enum ForwarderState
{
    STARTING,
    RUNNING,
    STOPPING;

    private static final ForwarderState[] VALUES = values();

    /**
     * Returns the value stored in the counter.
     *
     * @return 0 starting, 1 running, 2 stopping.
     */
    public long value()
    {
        return ordinal();
    }

    /**
     * Returns the name of a stored value for operators.
     *
     * @param value the counter's value.
     * @return {@code starting}, {@code running}, {@code stopping}, or {@code unknown(N)}.
     */
    public static String describe(final long value)
    {
        return value >= 0 && value < VALUES.length ?
            VALUES[(int)value].name().toLowerCase(Locale.ROOT) : "unknown(" + value + ")";
    }
}
