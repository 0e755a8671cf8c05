package io.sluice.forwarder.pipeline;

import java.net.Inet4Address;
import java.net.Inet6Address;

/**
 * How one worker's encapsulated frames differ from the plain default (fixed outer source, 4-byte GRE, untagged):
 * entropy for the fabric and the backends' NICs, and the 802.1Q tag of the transmit port.
 *
 * @param greKey               whether GRE carries an RFC 2890 key holding 32 bits of the flow hash (+4 bytes).
 * @param sourcePrefixV4       a per-flow IPv4 outer source from this prefix (host bits from the flow hash), or null
 *                             for the fixed {@code tunnelSourceV4}.
 * @param sourcePrefixV4Length its length, 8..31.
 * @param sourcePrefixV6       the same for IPv6 outer headers, or null.
 * @param sourcePrefixV6Length its length, 64..127.
 * @param vlan                 the 802.1Q VLAN id written in front of the outer header (+4 bytes), 1..4094, or 0 for
 *                             an untagged frame.
 */
public record TunnelOptions(
    boolean greKey,
    Inet4Address sourcePrefixV4,
    int sourcePrefixV4Length,
    Inet6Address sourcePrefixV6,
    int sourcePrefixV6Length,
    int vlan)
{
    public static final TunnelOptions NONE = new TunnelOptions(false, null, 0, null, 0, 0);
    public static final int MIN_PREFIX_V4 = 8;
    public static final int MAX_PREFIX_V4 = 31;
    public static final int MIN_PREFIX_V6 = 64;
    public static final int MAX_PREFIX_V6 = 127;
    public static final int MAX_VLAN = 4094;

    /**
     * Checks the fields.
     */
    public TunnelOptions
    {
        if (sourcePrefixV4 != null && (sourcePrefixV4Length < MIN_PREFIX_V4 || sourcePrefixV4Length > MAX_PREFIX_V4))
        {
            throw new IllegalArgumentException("IPv4 source prefix length must be " + MIN_PREFIX_V4 + ".." +
                MAX_PREFIX_V4 + ", got " + sourcePrefixV4Length);
        }
        if (sourcePrefixV6 != null && (sourcePrefixV6Length < MIN_PREFIX_V6 || sourcePrefixV6Length > MAX_PREFIX_V6))
        {
            throw new IllegalArgumentException("IPv6 source prefix length must be " + MIN_PREFIX_V6 + ".." +
                MAX_PREFIX_V6 + ", got " + sourcePrefixV6Length);
        }
        if (vlan < 0 || vlan > MAX_VLAN)
        {
            throw new IllegalArgumentException("VLAN id must be 1.." + MAX_VLAN + " or 0 for none, got " + vlan);
        }
    }

    /**
     * Returns these options with another VLAN id (the transmit port's).
     *
     * @param vlanId 1..4094, or 0 for none.
     * @return the options.
     */
    public TunnelOptions withVlan(final int vlanId)
    {
        return new TunnelOptions(greKey, sourcePrefixV4, sourcePrefixV4Length, sourcePrefixV6, sourcePrefixV6Length,
            vlanId);
    }

    /**
     * Tells whether frames are written exactly as without options.
     *
     * @return true for no key, fixed sources and no tag.
     */
    public boolean isPlain()
    {
        return !greKey && sourcePrefixV4 == null && sourcePrefixV6 == null && vlan == 0;
    }
}
