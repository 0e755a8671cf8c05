package io.sluice.common.control;

/**
 * {@link ControlProtocol#STATE_END STATE_END}: the last message of a GET_STATE answer, with the number of
 * STATE_VIP and STATE_BACKEND messages before it, so a client can tell it lost none.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +                    Correlation ID (i64 LE)                    +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Entry count (i32 LE)                     |  8
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Exactly 12 bytes.
 */
public final class StateEndFlyweight extends CorrelatedFlyweight
{
    public static final int ENTRY_COUNT_FIELD_OFFSET = 8;
    public static final int LENGTH = 12;

    /**
     * Returns the number of entries sent before this message.
     *
     * @return STATE_VIP plus STATE_BACKEND messages.
     */
    public int entryCount()
    {
        return buffer.getInt(offset + ENTRY_COUNT_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the number of entries.
     *
     * @param count STATE_VIP plus STATE_BACKEND messages sent.
     * @return this.
     */
    public StateEndFlyweight entryCount(final int count)
    {
        buffer.putInt(offset + ENTRY_COUNT_FIELD_OFFSET, count, ORDER);
        return this;
    }

    @Override
    public String validate(final int msgTypeId)
    {
        final String problem = checkExactLength(msgTypeId, LENGTH);
        return problem != null || entryCount() >= 0 ? problem : "entry count must not be negative";
    }
}
