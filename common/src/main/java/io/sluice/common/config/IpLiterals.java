package io.sluice.common.config;

import com.google.common.net.InetAddresses;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Parses and prints IP address literals without ever touching DNS: Guava's {@link InetAddresses} parses the text
 * itself, so a host name in a configuration is an error, never a lookup (a lookup would make startup depend on a
 * resolver and could give two forwarders different answers).
 * <p>
 * On top of Guava, Sluice refuses what it accepts but a configuration should not say: a zone id ({@code fe80::1%eth0}),
 * an IPv4-mapped address ({@code ::ffff:10.0.0.1}, which Guava returns as IPv4; write the IPv4 address instead) and
 * digits other than ASCII ones (Guava reads {@code ١.٢.٣.٤} as {@code 1.2.3.4}). Like Guava, IPv4 is strict dotted
 * decimal without leading zeros, because {@code inet_aton} reads {@code 010} as octal and Java reads it as decimal;
 * IPv6 is RFC 4291 §2.2 text. The messages say which of these rules a text broke.
 */
public final class IpLiterals
{
    private IpLiterals()
    {
    }

    /**
     * Parses an IPv4 or IPv6 literal; a text with a colon is IPv6.
     *
     * @param text the literal.
     * @return an {@link Inet4Address} or {@link Inet6Address}.
     * @throws IllegalArgumentException with the reason when the text is not an address literal.
     */
    public static InetAddress parse(final String text)
    {
        return text.indexOf(':') >= 0 ? parseIpv6(text) : parseIpv4(text);
    }

    /**
     * Parses a dotted-decimal IPv4 literal.
     *
     * @param text e.g. {@code 10.0.0.1}.
     * @return the address.
     * @throws IllegalArgumentException with the reason when the text is not an IPv4 literal.
     */
    public static Inet4Address parseIpv4(final String text)
    {
        if (text.indexOf(':') >= 0)
        {
            throw new IllegalArgumentException("\"" + text + "\" is an IPv6 address, expected IPv4");
        }
        if (!consistsOf(text, "0123456789."))
        {
            throw notALiteral(text);
        }
        // Without a colon Guava parses IPv4 only.
        if (!(literal(text) instanceof Inet4Address address))
        {
            throw new IllegalArgumentException("\"" + text + "\" is not an IPv4 address " +
                "(expected four decimal numbers 0-255 without leading zeros, e.g. 10.0.0.1)");
        }
        return address;
    }

    /**
     * Parses an IPv6 literal such as {@code fd00::1} or {@code 64:ff9b::10.0.0.1}.
     *
     * @param text the literal, without brackets or zone id.
     * @return the address.
     * @throws IllegalArgumentException with the reason when the text is not an IPv6 literal.
     */
    public static Inet6Address parseIpv6(final String text)
    {
        if (text.indexOf(':') < 0)
        {
            if (consistsOf(text, "0123456789."))
            {
                throw new IllegalArgumentException("\"" + text + "\" is an IPv4 address, expected IPv6");
            }
            throw notALiteral(text);
        }
        if (text.indexOf('%') >= 0 || text.startsWith("["))
        {
            throw new IllegalArgumentException(
                "\"" + text + "\" is not a plain IPv6 address (write it without brackets and without a %zone)");
        }
        final InetAddress address = consistsOf(text, "0123456789abcdefABCDEF:.") ? literal(text) : null;
        if (address instanceof Inet4Address mapped)
        {
            throw new IllegalArgumentException("\"" + text + "\" is an IPv4-mapped IPv6 address: write the IPv4 " +
                "address " + mapped.getHostAddress() + " instead");
        }
        if (!(address instanceof Inet6Address ipv6))
        {
            throw new IllegalArgumentException("\"" + text + "\" is not an IPv6 address (RFC 4291 section 2.2)");
        }
        return ipv6;
    }

    /**
     * Prints an address: dotted decimal for IPv4, RFC 5952 text for IPv6 (lower case, the longest run of two or more
     * zero groups shortened to {@code ::}), unlike {@link InetAddress#getHostAddress()} which never shortens.
     *
     * @param address the address.
     * @return e.g. {@code 10.0.0.1} or {@code fd00::1}.
     */
    public static String format(final InetAddress address)
    {
        return InetAddresses.toAddrString(address);
    }

    /**
     * Prints an address the way it is written after a port: IPv6 in brackets.
     *
     * @param address the address.
     * @return e.g. {@code 10.0.0.1} or {@code [fd00::1]}.
     */
    public static String formatForPort(final InetAddress address)
    {
        return address instanceof Inet6Address ? "[" + format(address) + "]" : format(address);
    }

    /** Guava's parse, or null when the text is not a literal. */
    private static InetAddress literal(final String text)
    {
        try
        {
            return InetAddresses.forString(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static IllegalArgumentException notALiteral(final String text)
    {
        return new IllegalArgumentException("\"" + text + "\" is not an IP address literal " +
            "(host names are never resolved: write the address itself)");
    }

    private static boolean consistsOf(final String text, final String allowed)
    {
        for (int i = 0; i < text.length(); i++)
        {
            if (allowed.indexOf(text.charAt(i)) < 0)
            {
                return false;
            }
        }
        return !text.isEmpty();
    }
}
