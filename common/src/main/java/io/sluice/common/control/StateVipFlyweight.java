package io.sluice.common.control;

import io.sluice.common.Vip;

/**
 * {@link ControlProtocol#STATE_VIP STATE_VIP}: one VIP of a GET_STATE answer.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Correlation ID (i64 LE)                    |  0..7
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  VIP block (20 bytes)                         |  8..27
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Name length  |  Name (UTF-8) ...                             |  28, 29
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * 29 bytes plus the name's length.
 */
public final class StateVipFlyweight extends CorrelatedFlyweight
{
    public static final int VIP_FIELD_OFFSET = 8;
    public static final int NAME_FIELD_OFFSET = 28;
    public static final int MIN_LENGTH = NAME_FIELD_OFFSET + WireFields.STRING_LENGTH_PREFIX;

    /**
     * Returns the VIP; allocates it.
     *
     * @return the service.
     */
    public Vip vip()
    {
        return WireFields.getVip(buffer, offset + VIP_FIELD_OFFSET);
    }

    /**
     * Sets the VIP.
     *
     * @param vip the service.
     * @return this.
     */
    public StateVipFlyweight vip(final Vip vip)
    {
        WireFields.putVip(buffer, offset + VIP_FIELD_OFFSET, vip);
        return this;
    }

    /**
     * Returns the name.
     *
     * @return the name, or null for none.
     */
    public String name()
    {
        return WireFields.getString(buffer, offset + NAME_FIELD_OFFSET);
    }

    /**
     * Sets the name, cut to 255 bytes of UTF-8 if longer.
     *
     * @param name the name, or null for none.
     * @return the message length.
     */
    public int name(final String name)
    {
        return NAME_FIELD_OFFSET +
            WireFields.putString(buffer, offset + NAME_FIELD_OFFSET, WireFields.utf8Truncated(name));
    }

    @Override
    public String validate(final int msgTypeId)
    {
        String problem = checkMinLength(msgTypeId, MIN_LENGTH);
        if (problem == null)
        {
            problem = WireFields.checkVip(buffer, offset + VIP_FIELD_OFFSET, "vip");
        }
        return problem != null ? problem :
            WireFields.checkString(buffer, offset + NAME_FIELD_OFFSET, offset + length, "name");
    }
}
