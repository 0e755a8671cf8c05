package io.sluice.common.control;

import io.sluice.common.Vip;

/**
 * {@link ControlProtocol#ADD_VIP ADD_VIP} and {@link ControlProtocol#REMOVE_VIP REMOVE_VIP}: the command header and a
 * VIP block ({@link WireFields}); ADD_VIP adds the VIP's name as a length-prefixed string (length 0 for none).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Command header: correlation id, sender pid        |  0..15
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Family     |   Protocol    |         Port (u16 LE)         |  16
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  VIP address (16 bytes)                       |  20..35
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Name length  |  Name (UTF-8) ...                  ADD_VIP only  36
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * REMOVE_VIP is exactly 36 bytes; ADD_VIP is 37 plus the name's length.
 */
public final class VipCommandFlyweight extends CommandFlyweight
{
    public static final int VIP_FIELD_OFFSET = 16;
    public static final int NAME_FIELD_OFFSET = 36;
    public static final int REMOVE_VIP_LENGTH = 36;
    public static final int ADD_VIP_MIN_LENGTH = NAME_FIELD_OFFSET + WireFields.STRING_LENGTH_PREFIX;

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
    public VipCommandFlyweight vip(final Vip vip)
    {
        WireFields.putVip(buffer, offset + VIP_FIELD_OFFSET, vip);
        return this;
    }

    /**
     * Returns the name of an ADD_VIP.
     *
     * @return the name, or null for none.
     */
    public String name()
    {
        return WireFields.getString(buffer, offset + NAME_FIELD_OFFSET);
    }

    /**
     * Sets the name of an ADD_VIP.
     *
     * @param utf8 the name's bytes, at most {@link ControlProtocol#MAX_STRING_LENGTH}; empty for none.
     * @return the message length, name included.
     */
    public int name(final byte[] utf8)
    {
        return NAME_FIELD_OFFSET + WireFields.putString(buffer, offset + NAME_FIELD_OFFSET, utf8);
    }

    @Override
    public String validate(final int msgTypeId)
    {
        if (msgTypeId == ControlProtocol.REMOVE_VIP)
        {
            final String problem = checkExactLength(msgTypeId, REMOVE_VIP_LENGTH);
            return problem != null ? problem : WireFields.checkVip(buffer, offset + VIP_FIELD_OFFSET, "vip");
        }
        String problem = checkMinLength(msgTypeId, ADD_VIP_MIN_LENGTH);
        if (problem == null)
        {
            problem = WireFields.checkVip(buffer, offset + VIP_FIELD_OFFSET, "vip");
        }
        return problem != null ? problem :
            WireFields.checkString(buffer, offset + NAME_FIELD_OFFSET, offset + length, "name");
    }
}
