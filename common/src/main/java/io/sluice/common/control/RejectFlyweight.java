package io.sluice.common.control;

/**
 * {@link ControlProtocol#REJECT REJECT}: the command with this correlation id was refused, and why.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +                    Correlation ID (i64 LE)                    +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Reason length |  Reason (UTF-8) ...                           |  8, 9
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * 9 bytes plus the reason's length; a reason longer than 255 bytes is cut at a character boundary.
 */
public final class RejectFlyweight extends CorrelatedFlyweight
{
    public static final int REASON_FIELD_OFFSET = 8;
    public static final int MIN_LENGTH = REASON_FIELD_OFFSET + WireFields.STRING_LENGTH_PREFIX;

    /**
     * Returns the reason.
     *
     * @return the reason, or null when empty.
     */
    public String reason()
    {
        return WireFields.getString(buffer, offset + REASON_FIELD_OFFSET);
    }

    /**
     * Sets the reason, cut to 255 bytes of UTF-8 if longer.
     *
     * @param reason why the command was refused.
     * @return the message length.
     */
    public int reason(final String reason)
    {
        return REASON_FIELD_OFFSET +
            WireFields.putString(buffer, offset + REASON_FIELD_OFFSET, WireFields.utf8Truncated(reason));
    }

    @Override
    public String validate(final int msgTypeId)
    {
        final String problem = checkMinLength(msgTypeId, MIN_LENGTH);
        return problem != null ? problem :
            WireFields.checkString(buffer, offset + REASON_FIELD_OFFSET, offset + length, "reason");
    }
}
