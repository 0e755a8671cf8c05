package io.sluice.forwarder.lb;

import java.net.InetAddress;

/**
 * Converts addresses to the word forms the data path compares and writes.
 * <p>
 * Matching compares the octets read little-endian, exactly as {@link FlowKey} holds them; encapsulation writes
 * big-endian words, the order on the wire.
 */
public final class AddressWords
{
    private AddressWords()
    {
    }

    /**
     * Reads eight octets as a little-endian long.
     *
     * @param octets address octets.
     * @param from   first octet.
     * @return the word.
     */
    public static long littleEndian64(final byte[] octets, final int from)
    {
        long word = 0;
        for (int i = 7; i >= 0; i--)
        {
            word = (word << 8) | (octets[from + i] & 0xFF);
        }
        return word;
    }

    /**
     * Reads four octets as a little-endian int.
     *
     * @param octets address octets.
     * @return the word.
     */
    public static int littleEndian32(final byte[] octets)
    {
        return (octets[0] & 0xFF) | (octets[1] & 0xFF) << 8 | (octets[2] & 0xFF) << 16 | (octets[3] & 0xFF) << 24;
    }

    /**
     * Reads eight octets as a big-endian long.
     *
     * @param octets address octets.
     * @param from   first octet.
     * @return the word.
     */
    public static long bigEndian64(final byte[] octets, final int from)
    {
        long word = 0;
        for (int i = 0; i < 8; i++)
        {
            word = (word << 8) | (octets[from + i] & 0xFF);
        }
        return word;
    }

    /**
     * Reads four octets as a big-endian int.
     *
     * @param octets address octets.
     * @return the word.
     */
    public static int bigEndian32(final byte[] octets)
    {
        return (octets[0] & 0xFF) << 24 | (octets[1] & 0xFF) << 16 | (octets[2] & 0xFF) << 8 | (octets[3] & 0xFF);
    }

    /**
     * Returns the matching word 0 of an address: see {@link FlowKey#destinationWord0()}.
     *
     * @param address IPv4 or IPv6.
     * @return word 0.
     */
    public static long matchWord0(final InetAddress address)
    {
        final byte[] octets = address.getAddress();
        return octets.length == 4 ? littleEndian32(octets) & 0xFFFF_FFFFL : littleEndian64(octets, 0);
    }

    /**
     * Returns the matching word 1 of an address: see {@link FlowKey#destinationWord1()}.
     *
     * @param address IPv4 or IPv6.
     * @return word 1.
     */
    public static long matchWord1(final InetAddress address)
    {
        final byte[] octets = address.getAddress();
        return octets.length == 4 ? 0 : littleEndian64(octets, 8);
    }
}
