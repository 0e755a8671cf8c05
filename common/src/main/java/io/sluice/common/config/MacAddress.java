package io.sluice.common.config;

import java.util.regex.Pattern;

/**
 * An Ethernet MAC address as configured.
 *
 * @param value the address in the low 48 bits, first octet most significant (the order on the wire).
 * @param text  the address as written in the configuration, for messages.
 */
public record MacAddress(long value, String text)
{
    private static final Pattern SYNTAX = Pattern.compile("[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}");

    /**
     * Checks the fields.
     */
    public MacAddress
    {
        if ((value >>> 48) != 0)
        {
            throw new IllegalArgumentException("a MAC address has 48 bits, got 0x" + Long.toHexString(value));
        }
    }

    /**
     * Parses {@code aa:bb:cc:dd:ee:ff} (either case).
     *
     * @param text the address.
     * @return the address.
     * @throws IllegalArgumentException with the reason when the text is not a MAC address.
     */
    public static MacAddress parse(final String text)
    {
        if (!SYNTAX.matcher(text).matches())
        {
            throw new IllegalArgumentException(
                "\"" + text + "\" is not a MAC address (write six hex octets separated by colons, " +
                "e.g. 02:00:00:00:00:01)");
        }
        long value = 0;
        for (int i = 0; i < 6; i++)
        {
            value = (value << 8) | Integer.parseInt(text.substring(i * 3, i * 3 + 2), 16);
        }
        return new MacAddress(value, text);
    }

    /**
     * Tells whether this is a group address: the I/G bit (lowest bit of the first octet) is set. Broadcast is one.
     *
     * @return true for multicast and broadcast addresses.
     */
    public boolean isMulticast()
    {
        return ((value >>> 40) & 1) != 0;
    }

    /**
     * Tells whether this is 00:00:00:00:00:00, which no interface has.
     *
     * @return true for the zero address.
     */
    public boolean isZero()
    {
        return value == 0;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
