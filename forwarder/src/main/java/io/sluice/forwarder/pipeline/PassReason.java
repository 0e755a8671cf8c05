package io.sluice.forwarder.pipeline;

/**
 * Why a frame was handed to the kernel instead of a backend.
 */
public enum PassReason
{
    NOT_IP("neither IPv4 nor IPv6 (ARP, LLDP, ...)"),
    NO_VIP("destination, port and protocol match no VIP"),
    NOT_LOAD_BALANCED("IP protocol that no VIP carries (ICMP echo, OSPF, ...)");

    private final String description;

    PassReason(final String description)
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
}
