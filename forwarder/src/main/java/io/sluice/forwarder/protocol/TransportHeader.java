package io.sluice.forwarder.protocol;

import java.nio.ByteOrder;

/**
 * The part TCP and UDP share: source and destination ports in the first four octets.
 */
public abstract class TransportHeader extends HeaderFlyweight
{
    public static final int SOURCE_PORT_FIELD_OFFSET = 0;
    public static final int DESTINATION_PORT_FIELD_OFFSET = 2;

    /**
     * Returns the source port.
     *
     * @return port.
     */
    public int sourcePort()
    {
        return buffer.getShort(offset + SOURCE_PORT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Returns the destination port.
     *
     * @return port.
     */
    public int destinationPort()
    {
        return buffer.getShort(offset + DESTINATION_PORT_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Returns the four port octets as they are on the wire, read little-endian: the flow-key layout.
     *
     * @return source port octets in bits 0..15, destination port octets in bits 16..31.
     */
    public int portOctets()
    {
        return buffer.getInt(offset + SOURCE_PORT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }
}
