package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the configuration's own value types (addresses, MACs, powers of two, labels) through a {@link MapReader},
 * so every failure carries the field path.
 */
final class ConfigValues
{
    private static final int MAX_LABEL_LENGTH = 64;
    private static final Pattern LABEL = Pattern.compile("[\\p{Graph} ]{1," + MAX_LABEL_LENGTH + "}");

    private ConfigValues()
    {
    }

    static Inet4Address ipv4(final MapReader reader, final String key) throws ConfigException
    {
        return unicast(reader, key, literal(reader, key, reader.requiredString(key), IpLiterals::parseIpv4));
    }

    static Inet6Address ipv6(final MapReader reader, final String key) throws ConfigException
    {
        return unicast(reader, key, literal(reader, key, reader.requiredString(key), IpLiterals::parseIpv6));
    }

    static InetAddress ip(final MapReader reader, final String key) throws ConfigException
    {
        return unicast(reader, key, literal(reader, key, reader.requiredString(key), IpLiterals::parse));
    }

    /** Parses an address literal of {@code key}; why the text is none (a host name, say) is the field's error. */
    static <T extends InetAddress> T literal(final MapReader reader, final String key, final String text,
        final Function<String, T> parser) throws ConfigException
    {
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw reader.error(key, ex.getMessage());
        }
    }

    /** Refuses addresses that cannot be a VIP, a backend or a tunnel endpoint. */
    private static <T extends InetAddress> T unicast(final MapReader reader, final String key, final T address)
        throws ConfigException
    {
        final String text = IpLiterals.format(address);
        if (address.isAnyLocalAddress())
        {
            throw reader.error(key, text + " is the unspecified address, not a host");
        }
        if (address.isMulticastAddress())
        {
            throw reader.error(key, text + " is a multicast address, expected a unicast one");
        }
        if ("255.255.255.255".equals(text))
        {
            throw reader.error(key, text + " is the broadcast address, expected a unicast one");
        }
        return address;
    }

    static MacAddress unicastMac(final MapReader reader, final String key) throws ConfigException
    {
        return unicastMac(reader, key, reader.requiredString(key));
    }

    static MacAddress unicastMac(final MapReader reader, final String key, final String text) throws ConfigException
    {
        final MacAddress mac;
        try
        {
            mac = MacAddress.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw reader.error(key, ex.getMessage());
        }
        if (mac.isMulticast())
        {
            throw reader.error(key, text + " is a multicast MAC (the lowest bit of the first octet is set); " +
                "expected the unicast MAC of one interface");
        }
        if (mac.isZero())
        {
            throw reader.error(key, text + " is the zero MAC, expected the MAC of an interface");
        }
        return mac;
    }

    static int powerOfTwo(final MapReader reader, final String key, final int defaultValue, final int min,
        final int max) throws ConfigException
    {
        if (!reader.has(key))
        {
            return defaultValue;
        }
        final long value = reader.integer(key, reader.get(key), Long.MIN_VALUE, Long.MAX_VALUE);
        if (value < min || value > max || Long.bitCount(value) != 1)
        {
            final String nearest = value > min && value < max ?
                " (nearest: " + Long.highestOneBit(value) + ", " + (Long.highestOneBit(value) << 1) + ")" : "";
            throw reader.error(key, "must be a power of two from " + min + " to " + max + ", got " + value + nearest);
        }
        return (int)value;
    }

    /** Reads a name for logs and counters: printable, short, since it ends up in counter labels. */
    static String label(final MapReader reader, final String key, final String defaultValue) throws ConfigException
    {
        final String label = reader.optionalString(key, defaultValue);
        if (!LABEL.matcher(label).matches())
        {
            throw reader.error(key, "must be 1 to " + MAX_LABEL_LENGTH +
                " printable ASCII characters, got \"" + label + "\"");
        }
        return label;
    }
}
