package io.sluice.common.config;

/**
 * One DPDK port of the forwarder ({@code forwarder.ports[i]}).
 *
 * @param name   the DPDK device name, e.g. {@code net_pcap0} or a PCI address; unique among the ports.
 * @param mtu    the port's MTU in bytes, 68..9600.
 * @param rxRing descriptors per receive queue, a power of two 64..16384.
 * @param txRing descriptors per transmit queue, a power of two 64..16384.
 */
public record PortConfig(String name, int mtu, int rxRing, int txRing)
{
    public static final int DEFAULT_MTU = 1500;
    public static final int MIN_MTU = 68;
    public static final int MAX_MTU = 9600;
    public static final int DEFAULT_RING_SIZE = 1024;
    public static final int MIN_RING_SIZE = 64;
    public static final int MAX_RING_SIZE = 16384;
}
