package io.sluice.common.config;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses and prints IP address literals without ever touching DNS: the bytes are parsed here and handed to
 * {@link InetAddress#getByAddress(byte[])}, so a host name in a configuration is an error, never a lookup (a lookup
 * would make startup depend on a resolver and could give two forwarders different answers).
 * <p>
 * IPv4 is strict dotted decimal: four numbers 0-255 without leading zeros, because {@code inet_aton} reads
 * {@code 010} as octal and Java reads it as decimal. IPv6 is RFC 4291 §2.2 text without zone ids; IPv4-mapped
 * addresses are refused (write the IPv4 address instead).
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
        if (!isDigitsAndDots(text))
        {
            throw notALiteral(text);
        }
        final byte[] bytes = ipv4Bytes(text);
        if (bytes == null)
        {
            throw new IllegalArgumentException("\"" + text + "\" is not an IPv4 address " +
                "(expected four decimal numbers 0-255 without leading zeros, e.g. 10.0.0.1)");
        }
        try
        {
            return (Inet4Address)InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("4 bytes are always an IPv4 address", ex);
        }
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
            if (isDigitsAndDots(text))
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
        final byte[] bytes = ipv6Bytes(text);
        if (bytes == null)
        {
            throw new IllegalArgumentException("\"" + text + "\" is not an IPv6 address (RFC 4291 section 2.2)");
        }
        if (isIpv4Mapped(bytes))
        {
            throw new IllegalArgumentException("\"" + text + "\" is an IPv4-mapped IPv6 address: write the IPv4 " +
                "address " + (bytes[12] & 0xFF) + "." + (bytes[13] & 0xFF) + "." + (bytes[14] & 0xFF) + "." +
                (bytes[15] & 0xFF) + " instead");
        }
        try
        {
            // Not InetAddress.getByAddress: that would turn the bytes into an Inet4Address for some prefixes.
            return Inet6Address.getByAddress(null, bytes, -1);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("16 bytes are always an IPv6 address", ex);
        }
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
        final byte[] bytes = address.getAddress();
        if (bytes.length == 4)
        {
            return address.getHostAddress();
        }
        final int[] groups = new int[8];
        for (int i = 0; i < 8; i++)
        {
            groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++)
        {
            int end = i;
            while (end < 8 && groups[end] == 0)
            {
                end++;
            }
            if (end - i > bestLength)
            {
                bestStart = i;
                bestLength = end - i;
            }
        }
        final StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++)
        {
            if (i == bestStart)
            {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':')
            {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
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

    private static IllegalArgumentException notALiteral(final String text)
    {
        return new IllegalArgumentException("\"" + text + "\" is not an IP address literal " +
            "(host names are never resolved: write the address itself)");
    }

    private static boolean isDigitsAndDots(final String text)
    {
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c != '.' && (c < '0' || c > '9'))
            {
                return false;
            }
        }
        return !text.isEmpty();
    }

    private static byte[] ipv4Bytes(final String text)
    {
        final String[] parts = text.split("\\.", -1);
        if (parts.length != 4 || !isDigitsAndDots(text))
        {
            return null;
        }
        final byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++)
        {
            final String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || (part.length() > 1 && part.charAt(0) == '0'))
            {
                return null;
            }
            final int value = Integer.parseInt(part);
            if (value > 255)
            {
                return null;
            }
            bytes[i] = (byte)value;
        }
        return bytes;
    }

    private static byte[] ipv6Bytes(final String text)
    {
        final int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0)
        {
            return null;
        }
        final String head = gap < 0 ? text : text.substring(0, gap);
        final String tail = gap < 0 ? "" : text.substring(gap + 2);
        final int[] headGroups = groups(head, gap < 0);
        final int[] tailGroups = groups(tail, true);
        if (headGroups == null || tailGroups == null)
        {
            return null;
        }
        final int count = headGroups.length + tailGroups.length;
        if (gap < 0 ? count != 8 : count > 7)
        {
            return null;
        }
        final byte[] bytes = new byte[16];
        for (int i = 0; i < headGroups.length; i++)
        {
            bytes[2 * i] = (byte)(headGroups[i] >>> 8);
            bytes[2 * i + 1] = (byte)headGroups[i];
        }
        final int tailStart = 8 - tailGroups.length;
        for (int i = 0; i < tailGroups.length; i++)
        {
            bytes[2 * (tailStart + i)] = (byte)(tailGroups[i] >>> 8);
            bytes[2 * (tailStart + i) + 1] = (byte)tailGroups[i];
        }
        return bytes;
    }

    /** Parses colon-separated 16-bit groups; the last may be dotted IPv4 (two groups) when it ends the address. */
    private static int[] groups(final String side, final boolean lastMayBeIpv4)
    {
        if (side.isEmpty())
        {
            return new int[0];
        }
        final String[] parts = side.split(":", -1);
        final int n = parts.length;
        final boolean endsWithIpv4 = lastMayBeIpv4 && parts[n - 1].indexOf('.') >= 0;
        final int[] groups = new int[endsWithIpv4 ? n + 1 : n];
        for (int i = 0; i < n; i++)
        {
            if (i == n - 1 && endsWithIpv4)
            {
                final byte[] v4 = ipv4Bytes(parts[i]);
                if (v4 == null)
                {
                    return null;
                }
                groups[i] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
                groups[i + 1] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
            }
            else
            {
                final int group = hexGroup(parts[i]);
                if (group < 0)
                {
                    return null;
                }
                groups[i] = group;
            }
        }
        return groups;
    }

    private static int hexGroup(final String part)
    {
        if (part.isEmpty() || part.length() > 4)
        {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < part.length(); i++)
        {
            final int digit = Character.digit(part.charAt(i), 16);
            if (digit < 0 || part.charAt(i) > 'f')
            {
                return -1;
            }
            value = (value << 4) | digit;
        }
        return value;
    }

    private static boolean isIpv4Mapped(final byte[] bytes)
    {
        for (int i = 0; i < 10; i++)
        {
            if (bytes[i] != 0)
            {
                return false;
            }
        }
        return (bytes[10] & 0xFF) == 0xFF && (bytes[11] & 0xFF) == 0xFF;
    }
}
