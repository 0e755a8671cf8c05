package io.sluice.common.control;

import io.sluice.common.Vip;

import java.net.InetAddress;

/**
 * {@link ControlProtocol#STATE_BACKEND STATE_BACKEND}: one backend of a GET_STATE answer.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Correlation ID (i64 LE)                    |  0..7
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  VIP block (20 bytes)                         |  8..27
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                Backend address block (20 bytes)               |  28..47
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Weight (i32 LE)                        |  48
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Maglev slots owned (i32 LE)                   |  52
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Healthy (u8) |  Name length  |  Name (UTF-8) ...             |  56, 57, 58
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * 58 bytes plus the name's length. Maglev slots are the entries of the VIP's table that point at this backend in
 * the forwarder's current table (0 for a drained or unhealthy backend).
 */
public final class StateBackendFlyweight extends CorrelatedFlyweight
{
    public static final int VIP_FIELD_OFFSET = 8;
    public static final int BACKEND_FIELD_OFFSET = 28;
    public static final int WEIGHT_FIELD_OFFSET = 48;
    public static final int MAGLEV_SLOTS_FIELD_OFFSET = 52;
    public static final int HEALTHY_FIELD_OFFSET = 56;
    public static final int NAME_FIELD_OFFSET = 57;
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
    public StateBackendFlyweight vip(final Vip vip)
    {
        WireFields.putVip(buffer, offset + VIP_FIELD_OFFSET, vip);
        return this;
    }

    /**
     * Returns the backend address; allocates it.
     *
     * @return the address.
     */
    public InetAddress backend()
    {
        return WireFields.getAddress(buffer, offset + BACKEND_FIELD_OFFSET);
    }

    /**
     * Sets the backend address.
     *
     * @param address the address.
     * @return this.
     */
    public StateBackendFlyweight backend(final InetAddress address)
    {
        WireFields.putAddress(buffer, offset + BACKEND_FIELD_OFFSET, address);
        return this;
    }

    /**
     * Returns the weight.
     *
     * @return the weight.
     */
    public int weight()
    {
        return buffer.getInt(offset + WEIGHT_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the weight.
     *
     * @param weight the weight.
     * @return this.
     */
    public StateBackendFlyweight weight(final int weight)
    {
        buffer.putInt(offset + WEIGHT_FIELD_OFFSET, weight, ORDER);
        return this;
    }

    /**
     * Returns the Maglev slots the backend owns.
     *
     * @return the slot count.
     */
    public int maglevSlots()
    {
        return buffer.getInt(offset + MAGLEV_SLOTS_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the Maglev slots the backend owns.
     *
     * @param slots the slot count.
     * @return this.
     */
    public StateBackendFlyweight maglevSlots(final int slots)
    {
        buffer.putInt(offset + MAGLEV_SLOTS_FIELD_OFFSET, slots, ORDER);
        return this;
    }

    /**
     * Returns the health.
     *
     * @return true when healthy.
     */
    public boolean healthy()
    {
        return buffer.getByte(offset + HEALTHY_FIELD_OFFSET) != 0;
    }

    /**
     * Sets the health.
     *
     * @param healthy the health.
     * @return this.
     */
    public StateBackendFlyweight healthy(final boolean healthy)
    {
        buffer.putByte(offset + HEALTHY_FIELD_OFFSET, (byte)(healthy ? 1 : 0));
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
        if (problem == null)
        {
            problem = WireFields.checkAddress(buffer, offset + BACKEND_FIELD_OFFSET, "backend");
        }
        if (problem == null)
        {
            problem = checkBoolean(HEALTHY_FIELD_OFFSET, "healthy");
        }
        return problem != null ? problem :
            WireFields.checkString(buffer, offset + NAME_FIELD_OFFSET, offset + length, "name");
    }
}
