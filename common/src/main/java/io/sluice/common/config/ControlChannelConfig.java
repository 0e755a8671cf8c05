package io.sluice.common.config;

/**
 * The shared-memory command channel from the controller to the forwarder ({@code forwarder.control}).
 *
 * @param ringCapacity the command ring's capacity in bytes, a power of two >= 4096.
 */
public record ControlChannelConfig(int ringCapacity)
{
    public static final int DEFAULT_RING_CAPACITY = 65536;
    public static final int MIN_RING_CAPACITY = 4096;
}
