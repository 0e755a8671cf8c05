package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Reads {@code forwarder.tunnel_entropy}.
 */
final class TunnelEntropyReader
{
    static final String KEY = "tunnel_entropy";

    private TunnelEntropyReader()
    {
    }

    static TunnelEntropyConfig read(
        final MapReader forwarder, final Inet4Address tunnelSourceV4, final Inet6Address tunnelSourceV6)
        throws ConfigException
    {
        final MapReader entropy = forwarder.optionalMap(KEY, "gre_key", "source_prefix_v4", "source_prefix_v6");
        final boolean greKey = entropy.optionalBoolean("gre_key", false);
        Inet4Address v4 = null;
        int v4Length = 0;
        if (entropy.has("source_prefix_v4"))
        {
            final Prefix prefix = prefix(entropy, "source_prefix_v4", false, TunnelEntropyConfig.MIN_PREFIX_V4,
                TunnelEntropyConfig.MAX_PREFIX_V4);
            if (tunnelSourceV4 == null)
            {
                throw entropy.error("source_prefix_v4", "needs forwarder.tunnel_source_v4 too (the node's own " +
                    "address in the tunnel network; the prefix only varies the outer source per flow)");
            }
            v4 = (Inet4Address)prefix.address();
            v4Length = prefix.length();
        }
        Inet6Address v6 = null;
        int v6Length = 0;
        if (entropy.has("source_prefix_v6"))
        {
            final Prefix prefix = prefix(entropy, "source_prefix_v6", true, TunnelEntropyConfig.MIN_PREFIX_V6,
                TunnelEntropyConfig.MAX_PREFIX_V6);
            if (tunnelSourceV6 == null)
            {
                throw entropy.error("source_prefix_v6", "needs forwarder.tunnel_source_v6 too (the node's own " +
                    "address in the tunnel network; the prefix only varies the outer source per flow)");
            }
            v6 = (Inet6Address)prefix.address();
            v6Length = prefix.length();
        }
        return new TunnelEntropyConfig(greKey, v4, v4Length, v6, v6Length);
    }

    private record Prefix(InetAddress address, int length)
    {
    }

    // ADDRESS/LENGTH of the family, within the length bounds, with no host bits set.
    private static Prefix prefix(
        final MapReader reader, final String key, final boolean ipv6, final int minLength, final int maxLength)
        throws ConfigException
    {
        final String text = reader.requiredString(key);
        final String family = ipv6 ? "IPv6" : "IPv4";
        final int slash = text.indexOf('/');
        if (slash < 0)
        {
            throw reader.error(key, "expected an " + family + " prefix ADDRESS/LENGTH (length " + minLength + ".." +
                maxLength + "), got \"" + text + "\"");
        }
        final InetAddress address = ipv6 ?
            ConfigValues.literal(reader, key, text.substring(0, slash), IpLiterals::parseIpv6) :
            ConfigValues.literal(reader, key, text.substring(0, slash), IpLiterals::parseIpv4);
        final int length;
        try
        {
            length = Integer.parseInt(text.substring(slash + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw reader.error(key, "prefix length \"" + text.substring(slash + 1) + "\" is not a number");
        }
        if (length < minLength || length > maxLength)
        {
            throw reader.error(key, family + " prefix length must be " + minLength + ".." + maxLength + " (the " +
                "host bits are the per-flow part), got " + length);
        }
        final byte[] octets = address.getAddress();
        for (int bit = length; bit < octets.length * 8; bit++)
        {
            if ((octets[bit / 8] & (0x80 >>> (bit % 8))) != 0)
            {
                throw reader.error(key, text + " has host bits set: write the prefix with them zero");
            }
        }
        if (address.isMulticastAddress() || address.isLoopbackAddress())
        {
            throw reader.error(key, text + " is not a unicast prefix a forwarder can send from");
        }
        return new Prefix(address, length);
    }
}
