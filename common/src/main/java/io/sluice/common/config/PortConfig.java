package io.sluice.common.config;

/**
 * One DPDK port of the forwarder ({@code forwarder.ports[i]}).
 *
 * @param name   the DPDK device name, e.g. {@code net_pcap0} or a PCI address; unique among the ports.
 * @param mtu    the port's MTU in bytes, 68..9600.
 * @param rxRing descriptors per receive queue, a power of two 64..16384.
 * @param txRing descriptors per transmit queue, a power of two 64..16384.
 * @param kernelPort the port (usually a DPDK {@code net_tap} device) that connects this port to the kernel: frames
 *                   for no VIP go to it, and what the kernel sends through it leaves on the workers' transmit
 *                   ports (ARP, BGP, SSH to the node); null when frames for no VIP are dropped (counted).
 * @param nextHopMac the MAC frames sent on this port go to ({@code next_hop_mac} of the port), or null for the
 *                   forwarder's {@code next_hop_mac}: on a two-armed node each arm has its own router.
 * @param vlan       the 802.1Q VLAN id encapsulated frames sent on this port carry (an uplink that is a trunk),
 *                   1..4094, or 0 for untagged frames.
 * @param vlanPcp    the 802.1p priority (PCP, 0..7) in that tag ({@code vlan_pcp}), 0 by default; only with a vlan.
 */
public record PortConfig(String name, int mtu, int rxRing, int txRing, String kernelPort, MacAddress nextHopMac,
    int vlan, int vlanPcp)
{
    public static final int DEFAULT_MTU = 1500;
    public static final int MIN_MTU = 68;
    public static final int MAX_MTU = 9600;
    public static final int DEFAULT_RING_SIZE = 1024;
    public static final int MIN_RING_SIZE = 64;
    public static final int MAX_RING_SIZE = 16384;
    /** The mbuf data room (without headroom) of a port whose frames fit DPDK's customary 2048 bytes. */
    public static final int STANDARD_FRAME_ROOM = 2048;
    /** What a frame adds to the MTU: Ethernet header, one 802.1Q tag, CRC. */
    public static final int FRAME_OVERHEAD = 14 + 4 + 4;
    public static final int MAX_VLAN = 4094;
    public static final int MAX_VLAN_PCP = 7;

    /**
     * Creates a port whose tag (if any) has priority 0.
     *
     * @param name       the DPDK device name.
     * @param mtu        the MTU.
     * @param rxRing     descriptors per receive queue.
     * @param txRing     descriptors per transmit queue.
     * @param kernelPort the kernel port, or null.
     * @param nextHopMac the port's next hop, or null for the forwarder's.
     * @param vlan       the VLAN id, or 0 for untagged.
     */
    public PortConfig(final String name, final int mtu, final int rxRing, final int txRing, final String kernelPort,
        final MacAddress nextHopMac, final int vlan)
    {
        this(name, mtu, rxRing, txRing, kernelPort, nextHopMac, vlan, 0);
    }

    /**
     * Creates an untagged port.
     *
     * @param name       the DPDK device name.
     * @param mtu        the MTU.
     * @param rxRing     descriptors per receive queue.
     * @param txRing     descriptors per transmit queue.
     * @param kernelPort the kernel port, or null.
     * @param nextHopMac the port's next hop, or null for the forwarder's.
     */
    public PortConfig(final String name, final int mtu, final int rxRing, final int txRing, final String kernelPort,
        final MacAddress nextHopMac)
    {
        this(name, mtu, rxRing, txRing, kernelPort, nextHopMac, 0);
    }

    /**
     * Creates a port without a kernel path.
     *
     * @param name   the DPDK device name.
     * @param mtu    the MTU.
     * @param rxRing descriptors per receive queue.
     * @param txRing descriptors per transmit queue.
     */
    public PortConfig(final String name, final int mtu, final int rxRing, final int txRing)
    {
        this(name, mtu, rxRing, txRing, null, null, 0);
    }

    /**
     * Creates a port that sends to the forwarder's next hop.
     *
     * @param name       the DPDK device name.
     * @param mtu        the MTU.
     * @param rxRing     descriptors per receive queue.
     * @param txRing     descriptors per transmit queue.
     * @param kernelPort the port's kernel port, or null.
     */
    public PortConfig(final String name, final int mtu, final int rxRing, final int txRing, final String kernelPort)
    {
        this(name, mtu, rxRing, txRing, kernelPort, null, 0);
    }

    /**
     * Returns the data room (after the headroom) each of the port's mbufs gets: a whole frame of the MTU, so that a
     * jumbo frame arrives in one mbuf (the pipeline handles single-segment frames only; a chained one is dropped as
     * FRAME_CHAINED). 2048 up to an MTU of 2026, then the frame rounded up to a cache line multiple.
     *
     * @return bytes.
     */
    public int frameRoom()
    {
        return Math.max(STANDARD_FRAME_ROOM, (mtu + FRAME_OVERHEAD + 63) & ~63);
    }

    /**
     * Tells whether frames for no VIP go to the kernel.
     *
     * @return true when a kernel port is set.
     */
    public boolean hasKernelPort()
    {
        return kernelPort != null;
    }
}
