package io.sluice.forwarder.pipeline;

/**
 * Why a frame was dropped. Every drop has exactly one reason and one counter; nothing is dropped silently.
 */
public enum DropReason
{
    FRAME_TRUNCATED("frame shorter than an Ethernet header"),
    FRAME_CHAINED("frame spans several mbufs (larger than the mbuf data room)"),
    VLAN_TRUNCATED("frame ends inside the 802.1Q tag"),
    IPV4_TRUNCATED("frame ends inside the IPv4 header"),
    IPV4_BAD_VERSION("EtherType IPv4 but version is not 4"),
    IPV4_BAD_IHL("IPv4 IHL below 5"),
    IPV4_OPTIONS_TRUNCATED("frame ends inside the IPv4 options"),
    IPV4_TOTAL_LENGTH_EXCEEDS_FRAME("IPv4 total length beyond the frame"),
    IPV4_TOTAL_LENGTH_TOO_SMALL("IPv4 total length smaller than its header"),
    IPV6_TRUNCATED("frame ends inside the IPv6 header"),
    IPV6_BAD_VERSION("EtherType IPv6 but version is not 6"),
    IPV6_PAYLOAD_LENGTH_EXCEEDS_FRAME("IPv6 payload length beyond the frame"),
    IPV6_EXTENSION_TRUNCATED("IPv6 extension header runs past the packet"),
    IPV6_EXTENSION_CHAIN_TOO_LONG("more IPv6 extension headers than the parser walks"),
    TCP_TRUNCATED("packet ends inside the TCP header"),
    TCP_BAD_DATA_OFFSET("TCP data offset below 5"),
    UDP_TRUNCATED("packet ends inside the UDP header"),
    UDP_BAD_LENGTH("UDP length field disagrees with the packet"),
    ICMP_TRUNCATED("packet ends inside the ICMP header"),
    ICMP_QUOTE_TRUNCATED("ICMP error quotes less than an IP header and 8 bytes"),
    ICMP_QUOTE_MALFORMED("ICMP error quotes a malformed IP header"),
    NO_BACKEND("VIP has no eligible backend"),
    NO_HEADROOM("not enough headroom in front of the frame for the tunnel headers"),
    ENCAPSULATED_TOO_BIG("encapsulated packet would exceed the tunnel MTU"),
    NO_TUNNEL_SOURCE("no tunnel source address of the backend's IP version"),
    ICMP_RATE_LIMITED("ICMP echo request to a VIP over the worker's reply rate limit"),
    ICMP_ECHO_BAD_SOURCE("ICMP echo request to a VIP from a multicast, broadcast or unspecified source"),
    FRAGMENT_NO_BUFFER("no mbufs for the later outer fragments of a packet too big for the tunnel");

    private static final DropReason[] VALUES = values();

    private final String description;

    DropReason(final String description)
    {
        this.description = description;
    }

    /**
     * Returns a one-line description for operators.
     *
     * @return description.
     */
    public String description()
    {
        return description;
    }

    /**
     * Returns the reason with an ordinal, without allocating.
     *
     * @param ordinal reason ordinal.
     * @return the reason.
     */
    public static DropReason get(final int ordinal)
    {
        return VALUES[ordinal];
    }

    /**
     * Returns the number of reasons.
     *
     * @return count.
     */
    public static int count()
    {
        return VALUES.length;
    }
}
