package io.sluice.common.control;

import io.sluice.common.Vip;

import java.net.InetAddress;

/**
 * The five backend commands: the command header, a VIP block and a backend address block ({@link WireFields}),
 * then fields that depend on the type.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Command header: correlation id, sender pid        |  0..15
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  VIP block (20 bytes)                         |  16..35
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Family     |               Reserved (0)                    |  36
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                Backend address (16 bytes)                     |  40..55
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * REMOVE_BACKEND, DRAIN_BACKEND: nothing more, 56 bytes.
 * SET_BACKEND_WEIGHT:                                                   56: Weight (i32 LE), 60 bytes.
 * SET_BACKEND_HEALTH:                                                   56: Up (u8, 0 or 1), 57 bytes.
 * ADD_BACKEND:
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Weight (i32 LE)                        |  56
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Healthy (u8) |  Name length  |  Name (UTF-8) ...             |  60, 61, 62
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * ADD_BACKEND is 62 bytes plus the name's length. The weight is signed on the wire; the decoder refuses values
 * outside 0..{@link ControlProtocol#MAX_WEIGHT}.
 */
public final class BackendCommandFlyweight extends CommandFlyweight
{
    public static final int VIP_FIELD_OFFSET = 16;
    public static final int BACKEND_FIELD_OFFSET = 36;
    public static final int WEIGHT_FIELD_OFFSET = 56;
    public static final int UP_FIELD_OFFSET = 56;
    public static final int HEALTHY_FIELD_OFFSET = 60;
    public static final int NAME_FIELD_OFFSET = 61;

    public static final int BACKEND_COMMAND_LENGTH = 56;
    public static final int SET_BACKEND_WEIGHT_LENGTH = 60;
    public static final int SET_BACKEND_HEALTH_LENGTH = 57;
    public static final int ADD_BACKEND_MIN_LENGTH = NAME_FIELD_OFFSET + WireFields.STRING_LENGTH_PREFIX;

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
    public BackendCommandFlyweight vip(final Vip vip)
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
    public BackendCommandFlyweight backend(final InetAddress address)
    {
        WireFields.putAddress(buffer, offset + BACKEND_FIELD_OFFSET, address);
        return this;
    }

    /**
     * Returns the weight of ADD_BACKEND or SET_BACKEND_WEIGHT.
     *
     * @return the weight.
     */
    public int weight()
    {
        return buffer.getInt(offset + WEIGHT_FIELD_OFFSET, ORDER);
    }

    /**
     * Sets the weight of ADD_BACKEND or SET_BACKEND_WEIGHT.
     *
     * @param weight the weight.
     * @return this.
     */
    public BackendCommandFlyweight weight(final int weight)
    {
        buffer.putInt(offset + WEIGHT_FIELD_OFFSET, weight, ORDER);
        return this;
    }

    /**
     * Returns the health of ADD_BACKEND.
     *
     * @return true when the backend starts healthy.
     */
    public boolean healthy()
    {
        return buffer.getByte(offset + HEALTHY_FIELD_OFFSET) != 0;
    }

    /**
     * Sets the health of ADD_BACKEND.
     *
     * @param healthy whether the backend starts healthy.
     * @return this.
     */
    public BackendCommandFlyweight healthy(final boolean healthy)
    {
        buffer.putByte(offset + HEALTHY_FIELD_OFFSET, (byte)(healthy ? 1 : 0));
        return this;
    }

    /**
     * Returns the new health of SET_BACKEND_HEALTH.
     *
     * @return true for up.
     */
    public boolean up()
    {
        return buffer.getByte(offset + UP_FIELD_OFFSET) != 0;
    }

    /**
     * Sets the new health of SET_BACKEND_HEALTH.
     *
     * @param up true for up.
     * @return this.
     */
    public BackendCommandFlyweight up(final boolean up)
    {
        buffer.putByte(offset + UP_FIELD_OFFSET, (byte)(up ? 1 : 0));
        return this;
    }

    /**
     * Returns the name of ADD_BACKEND.
     *
     * @return the name, or null for none.
     */
    public String name()
    {
        return WireFields.getString(buffer, offset + NAME_FIELD_OFFSET);
    }

    /**
     * Sets the name of ADD_BACKEND.
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
        String problem = switch (msgTypeId)
        {
            case ControlProtocol.ADD_BACKEND -> checkMinLength(msgTypeId, ADD_BACKEND_MIN_LENGTH);
            case ControlProtocol.SET_BACKEND_WEIGHT -> checkExactLength(msgTypeId, SET_BACKEND_WEIGHT_LENGTH);
            case ControlProtocol.SET_BACKEND_HEALTH -> checkExactLength(msgTypeId, SET_BACKEND_HEALTH_LENGTH);
            default -> checkExactLength(msgTypeId, BACKEND_COMMAND_LENGTH);
        };
        if (problem == null)
        {
            problem = WireFields.checkVip(buffer, offset + VIP_FIELD_OFFSET, "vip");
        }
        if (problem == null)
        {
            problem = WireFields.checkAddress(buffer, offset + BACKEND_FIELD_OFFSET, "backend");
        }
        if (problem != null)
        {
            return problem;
        }
        return switch (msgTypeId)
        {
            case ControlProtocol.ADD_BACKEND -> checkAddBackendTail();
            case ControlProtocol.SET_BACKEND_WEIGHT -> checkWeight();
            case ControlProtocol.SET_BACKEND_HEALTH -> checkBoolean(UP_FIELD_OFFSET, "up");
            default -> null;
        };
    }

    private String checkAddBackendTail()
    {
        String problem = checkWeight();
        if (problem == null)
        {
            problem = checkBoolean(HEALTHY_FIELD_OFFSET, "healthy");
        }
        return problem != null ? problem :
            WireFields.checkString(buffer, offset + NAME_FIELD_OFFSET, offset + length, "name");
    }

    private String checkWeight()
    {
        final int weight = weight();
        return weight >= 0 && weight <= ControlProtocol.MAX_WEIGHT ? null :
            "weight must be 0.." + ControlProtocol.MAX_WEIGHT + ", got " + weight;
    }
}
