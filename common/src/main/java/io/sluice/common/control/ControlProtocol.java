package io.sluice.common.control;

/**
 * Message type ids and limits of the control channel. Commands travel the command ring (clients to the forwarder),
 * responses the response broadcast buffer (forwarder to every client); {@code docs/control-channel.md} has every
 * layout. Agrona reserves type ids below 1 (padding records), so ids start at 1.
 */
public final class ControlProtocol
{
    /** Adds a VIP with no backends: {@link VipCommandFlyweight}. */
    public static final int ADD_VIP = 0x01;
    /** Removes a VIP and its backends: {@link VipCommandFlyweight}. */
    public static final int REMOVE_VIP = 0x02;
    /** Adds a backend to a VIP: {@link BackendCommandFlyweight}. */
    public static final int ADD_BACKEND = 0x03;
    /** Removes a backend; its flows move to others: {@link BackendCommandFlyweight}. */
    public static final int REMOVE_BACKEND = 0x04;
    /** Sets a backend's weight: {@link BackendCommandFlyweight}. */
    public static final int SET_BACKEND_WEIGHT = 0x05;
    /** Marks a backend up or down: {@link BackendCommandFlyweight}. */
    public static final int SET_BACKEND_HEALTH = 0x06;
    /** Sets a backend's weight to 0; its established flows stay: {@link BackendCommandFlyweight}. */
    public static final int DRAIN_BACKEND = 0x07;
    /** Asks for the forwarder's VIPs and backends: {@link CommandFlyweight}. */
    public static final int GET_STATE = 0x08;

    /** The command was applied: {@link CorrelatedFlyweight}. */
    public static final int ACK = 0x101;
    /** The command was refused, with a reason: {@link RejectFlyweight}. */
    public static final int REJECT = 0x102;
    /** One VIP of a GET_STATE answer: {@link StateVipFlyweight}. */
    public static final int STATE_VIP = 0x103;
    /** One backend of a GET_STATE answer: {@link StateBackendFlyweight}. */
    public static final int STATE_BACKEND = 0x104;
    /** Ends a GET_STATE answer with its entry count: {@link StateEndFlyweight}. */
    public static final int STATE_END = 0x105;

    /** The address family byte of an IPv4 address. */
    public static final int FAMILY_IPV4 = 4;
    /** The address family byte of an IPv6 address. */
    public static final int FAMILY_IPV6 = 6;

    /** Longest string on the wire, in UTF-8 bytes: the length prefix is one byte. */
    public static final int MAX_STRING_LENGTH = 255;

    /** Largest backend weight, as {@code LoadBalancerState} accepts it. */
    public static final int MAX_WEIGHT = 65_535;

    private ControlProtocol()
    {
    }

    /**
     * Returns the name of a message type, for logs and errors.
     *
     * @param msgTypeId the type id.
     * @return e.g. {@code ADD_VIP}, or {@code UNKNOWN(99)}.
     */
    public static String typeName(final int msgTypeId)
    {
        return switch (msgTypeId)
        {
            case ADD_VIP -> "ADD_VIP";
            case REMOVE_VIP -> "REMOVE_VIP";
            case ADD_BACKEND -> "ADD_BACKEND";
            case REMOVE_BACKEND -> "REMOVE_BACKEND";
            case SET_BACKEND_WEIGHT -> "SET_BACKEND_WEIGHT";
            case SET_BACKEND_HEALTH -> "SET_BACKEND_HEALTH";
            case DRAIN_BACKEND -> "DRAIN_BACKEND";
            case GET_STATE -> "GET_STATE";
            case ACK -> "ACK";
            case REJECT -> "REJECT";
            case STATE_VIP -> "STATE_VIP";
            case STATE_BACKEND -> "STATE_BACKEND";
            case STATE_END -> "STATE_END";
            default -> "UNKNOWN(" + msgTypeId + ")";
        };
    }
}
