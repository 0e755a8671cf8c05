package io.sluice.forwarder.protocol;

/**
 * Numbers assigned by IANA that the data path needs: EtherTypes and IP protocol numbers.
 */
public final class Protocols
{
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_IPV6 = 0x86DD;

    public static final int IPPROTO_HOPOPTS = 0;
    public static final int IPPROTO_ICMP = 1;
    public static final int IPPROTO_TCP = 6;
    public static final int IPPROTO_UDP = 17;
    public static final int IPPROTO_ROUTING = 43;
    public static final int IPPROTO_FRAGMENT = 44;
    public static final int IPPROTO_GRE = 47;
    public static final int IPPROTO_ICMPV6 = 58;
    public static final int IPPROTO_NONE = 59;
    public static final int IPPROTO_DSTOPTS = 60;

    private Protocols()
    {
    }
}
