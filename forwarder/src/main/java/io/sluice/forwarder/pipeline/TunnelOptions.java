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
 * @param vlanPcp              the tag's 802.1p priority code point, 0..7 (0 without a tag).
 */
public record TunnelOptions(
    boolean greKey,
    Inet4Address sourcePrefixV4,
    int sourcePrefixV4Length,
    Inet6Address sourcePrefixV6,
    int sourcePrefixV6Length,
    int vlan,
    int vlanPcp)
{
    public static final TunnelOptions NONE = new TunnelOptions(false, null, 0, null, 0, 0, 0);
    public static final int MIN_PREFIX_V4 = 8;
    public static final int MAX_PREFIX_V4 = 31;
    public static final int MIN_PREFIX_V6 = 64;
    public static final int MAX_PREFIX_V6 = 127;
    public static final int MAX_VLAN = 4094;
    public static final int MAX_VLAN_PCP = 7;
    private static final int PCP_SHIFT = 13;

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
        if (vlanPcp < 0 || vlanPcp > MAX_VLAN_PCP || vlanPcp != 0 && vlan == 0)
        {
            throw new IllegalArgumentException("VLAN PCP must be 0.." + MAX_VLAN_PCP + ", and 0 without a VLAN id, " +
                "got " + vlanPcp + " with VLAN " + vlan);
        }
    }

    /**
     * Creates options whose tag (if any) has priority 0.
     *
     * @param greKey               GRE key on.
     * @param sourcePrefixV4       IPv4 source prefix, or null.
     * @param sourcePrefixV4Length its length.
     * @param sourcePrefixV6       IPv6 source prefix, or null.
     * @param sourcePrefixV6Length its length.
     * @param vlan                 VLAN id, or 0.
     */
    public TunnelOptions(final boolean greKey, final Inet4Address sourcePrefixV4, final int sourcePrefixV4Length,
        final Inet6Address sourcePrefixV6, final int sourcePrefixV6Length, final int vlan)
    {
        this(greKey, sourcePrefixV4, sourcePrefixV4Length, sourcePrefixV6, sourcePrefixV6Length, vlan, 0);
    }

    /**
     * Returns the 802.1Q tag control information written after the TPID: PCP, DEI 0, VLAN id.
     *
     * @return the 16-bit TCI, 0 without a tag.
     */
    public int vlanTci()
    {
        return vlanPcp << PCP_SHIFT | vlan;
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
            vlanId, vlanId == 0 ? 0 : vlanPcp);
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
