package io.sluice.forwarder.protocol;

/**
 * The part TCP and UDP share: source and destination ports in the first four octets. The layout only: the
 * pipeline reads these headers by address ({@link FrameBytes}) with the offsets here.
 */
public abstract class TransportHeader
{
    public static final int SOURCE_PORT_FIELD_OFFSET = 0;
    public static final int DESTINATION_PORT_FIELD_OFFSET = 2;

    TransportHeader()
    {
    }
}
