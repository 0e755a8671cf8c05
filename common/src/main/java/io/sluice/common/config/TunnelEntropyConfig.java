package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.Inet6Address;

/**
 * The {@code forwarder.tunnel_entropy} section: what varies per flow in the outer headers, so that backend NICs (RSS)
 * and the fabric (ECMP) see many flows instead of one per forwarder-backend pair. The IPv6 outer flow label always
 * carries 20 bits of the flow hash (RFC 6438); these add to it.
 *
 * @param greKey               whether GRE carries an RFC 2890 key of 32 flow-hash bits (4 more bytes per packet).
 * @param sourcePrefixV4       the prefix IPv4 outer sources are taken from, one address per flow (Katran's
 *                             approach), or null for the fixed {@code tunnel_source_v4}.
 * @param sourcePrefixV4Length its length, {@value #MIN_PREFIX_V4}..{@value #MAX_PREFIX_V4}.
 * @param sourcePrefixV6       the same for IPv6 outer sources, or null.
 * @param sourcePrefixV6Length its length, {@value #MIN_PREFIX_V6}..{@value #MAX_PREFIX_V6}.
 */
public record TunnelEntropyConfig(
    boolean greKey,
    Inet4Address sourcePrefixV4,
    int sourcePrefixV4Length,
    Inet6Address sourcePrefixV6,
    int sourcePrefixV6Length)
{
    public static final TunnelEntropyConfig NONE = new TunnelEntropyConfig(false, null, 0, null, 0);
    public static final int MIN_PREFIX_V4 = 8;
    public static final int MAX_PREFIX_V4 = 31;
    // IPv6 host bits come from one 64-bit word of the hash: at most the low 64 bits of the address vary.
    public static final int MIN_PREFIX_V6 = 64;
    public static final int MAX_PREFIX_V6 = 127;

    /**
     * Tells whether the outer headers are the fixed ones (no key, fixed sources).
     *
     * @return true when nothing varies per flow but the IPv6 flow label.
     */
    public boolean isNone()
    {
        return !greKey && sourcePrefixV4 == null && sourcePrefixV6 == null;
    }
}
