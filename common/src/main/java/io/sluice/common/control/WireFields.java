package io.sluice.common.control;

import io.sluice.common.Vip;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The blocks that several control messages share: a VIP, an address and a length-prefixed string. Integers are
 * little-endian; address bytes are in network order, as {@link InetAddress#getAddress()} gives them.
 * <p>
 * VIP block, 20 bytes:
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Family     |   Protocol    |         Port (u16 LE)         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * +          Address, 16 bytes: IPv4 in the first 4, then         +
 * |                       12 zero bytes                           |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Address block, 20 bytes: the same with protocol and port replaced by three zero bytes. Family is 4 or 6,
 * protocol 6 (TCP) or 17 (UDP), port 0 for all ports.
 * <p>
 * String: one length byte (0..255) and that many bytes of UTF-8; length 0 stands for "none".
 */
public final class WireFields
{
    static final int FAMILY_FIELD_OFFSET = 0;
    static final int PROTOCOL_FIELD_OFFSET = 1;
    static final int PORT_FIELD_OFFSET = 2;
    static final int ADDRESS_FIELD_OFFSET = 4;
    static final int VIP_LENGTH = 20;
    static final int ADDRESS_BLOCK_LENGTH = 20;
    static final int STRING_LENGTH_PREFIX = 1;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private WireFields()
    {
    }

    static void putVip(final MutableDirectBuffer buffer, final int offset, final Vip vip)
    {
        putAddress(buffer, offset, vip.address());
        buffer.putByte(offset + PROTOCOL_FIELD_OFFSET, (byte)vip.protocol());
        buffer.putShort(offset + PORT_FIELD_OFFSET, (short)vip.port(), ORDER);
    }

    static void putAddress(final MutableDirectBuffer buffer, final int offset, final InetAddress address)
    {
        final byte[] octets = address.getAddress();
        buffer.setMemory(offset, ADDRESS_BLOCK_LENGTH, (byte)0);
        buffer.putByte(offset + FAMILY_FIELD_OFFSET,
            (byte)(octets.length == 4 ? ControlProtocol.FAMILY_IPV4 : ControlProtocol.FAMILY_IPV6));
        buffer.putBytes(offset + ADDRESS_FIELD_OFFSET, octets);
    }

    /**
     * Checks a VIP block.
     *
     * @return null when it decodes, else the reason.
     */
    static String checkVip(final DirectBuffer buffer, final int offset, final String what)
    {
        final String addressProblem = checkAddressBytes(buffer, offset, what);
        if (addressProblem != null)
        {
            return addressProblem;
        }
        final int protocol = buffer.getByte(offset + PROTOCOL_FIELD_OFFSET) & 0xFF;
        if (protocol != Vip.TCP && protocol != Vip.UDP)
        {
            return what + ": protocol must be 6 (TCP) or 17 (UDP), got " + protocol;
        }
        return null;
    }

    /**
     * Checks an address block, including its three reserved bytes.
     *
     * @return null when it decodes, else the reason.
     */
    static String checkAddress(final DirectBuffer buffer, final int offset, final String what)
    {
        final String problem = checkAddressBytes(buffer, offset, what);
        if (problem != null)
        {
            return problem;
        }
        for (int i = 1; i < ADDRESS_FIELD_OFFSET; i++)
        {
            if (buffer.getByte(offset + i) != 0)
            {
                return what + ": reserved byte " + i + " must be 0";
            }
        }
        return null;
    }

    private static String checkAddressBytes(final DirectBuffer buffer, final int offset, final String what)
    {
        final int family = buffer.getByte(offset + FAMILY_FIELD_OFFSET) & 0xFF;
        if (family == ControlProtocol.FAMILY_IPV4)
        {
            for (int i = 4; i < 16; i++)
            {
                if (buffer.getByte(offset + ADDRESS_FIELD_OFFSET + i) != 0)
                {
                    return what + ": IPv4 address with non-zero bytes after the first 4";
                }
            }
            return null;
        }
        return family == ControlProtocol.FAMILY_IPV6 ? null :
            what + ": address family must be 4 or 6, got " + family;
    }

    /** Reads a VIP block that {@link #checkVip} accepted. */
    static Vip getVip(final DirectBuffer buffer, final int offset)
    {
        return new Vip(getAddress(buffer, offset), buffer.getShort(offset + PORT_FIELD_OFFSET, ORDER) & 0xFFFF,
            buffer.getByte(offset + PROTOCOL_FIELD_OFFSET) & 0xFF);
    }

    /** Reads the address of a VIP or address block whose family was checked. */
    static InetAddress getAddress(final DirectBuffer buffer, final int offset)
    {
        final boolean ipv4 = (buffer.getByte(offset + FAMILY_FIELD_OFFSET) & 0xFF) == ControlProtocol.FAMILY_IPV4;
        final byte[] octets = new byte[ipv4 ? 4 : 16];
        buffer.getBytes(offset + ADDRESS_FIELD_OFFSET, octets);
        try
        {
            // Inet6Address.getByAddress keeps an IPv4-mapped address IPv6, as it was sent.
            return ipv4 ? InetAddress.getByAddress(octets) : Inet6Address.getByAddress(null, octets, -1);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("4 or 16 bytes are always an address", ex);
        }
    }

    /**
     * Encodes a string as UTF-8, refusing one longer than {@link ControlProtocol#MAX_STRING_LENGTH} bytes.
     *
     * @param text the string, or null for none.
     * @param what what the string is, for the error.
     * @return the bytes, empty for null.
     */
    public static byte[] utf8(final String text, final String what)
    {
        final byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > ControlProtocol.MAX_STRING_LENGTH)
        {
            throw new IllegalArgumentException(what + " must be at most " + ControlProtocol.MAX_STRING_LENGTH +
                " bytes of UTF-8, got " + bytes.length);
        }
        return bytes;
    }

    /**
     * Encodes a string as UTF-8, cut at a character boundary to fit {@link ControlProtocol#MAX_STRING_LENGTH} bytes;
     * for reasons and names the forwarder reports, which must never fail to send.
     *
     * @param text the string, or null for none.
     * @return the bytes, empty for null.
     */
    static byte[] utf8Truncated(final String text)
    {
        final byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= ControlProtocol.MAX_STRING_LENGTH)
        {
            return bytes;
        }
        int end = ControlProtocol.MAX_STRING_LENGTH;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80)
        {
            end--; // never split a multi-byte sequence: back up to the byte that starts one
        }
        final byte[] cut = new byte[end];
        System.arraycopy(bytes, 0, cut, 0, end);
        return cut;
    }

    /**
     * Writes a length-prefixed string.
     *
     * @return the bytes written, prefix included.
     */
    static int putString(final MutableDirectBuffer buffer, final int offset, final byte[] utf8)
    {
        buffer.putByte(offset, (byte)utf8.length);
        buffer.putBytes(offset + STRING_LENGTH_PREFIX, utf8);
        return STRING_LENGTH_PREFIX + utf8.length;
    }

    /**
     * Returns the encoded length of the string at an offset, prefix included.
     */
    static int stringLength(final DirectBuffer buffer, final int offset)
    {
        return STRING_LENGTH_PREFIX + (buffer.getByte(offset) & 0xFF);
    }

    /**
     * Checks that a string starts at {@code offset} and ends exactly at {@code end}, in valid UTF-8.
     *
     * @return null when it decodes, else the reason.
     */
    static String checkString(final DirectBuffer buffer, final int offset, final int end, final String what)
    {
        if (end - offset < STRING_LENGTH_PREFIX)
        {
            return what + ": missing length byte";
        }
        final int length = buffer.getByte(offset) & 0xFF;
        if (offset + STRING_LENGTH_PREFIX + length != end)
        {
            return what + ": string of " + length + " bytes does not fit the message (" +
                (end - offset - STRING_LENGTH_PREFIX) + " bytes left)";
        }
        return decode(buffer, offset) == null ? what + ": not valid UTF-8" : null;
    }

    /**
     * Reads a length-prefixed string that {@link #checkString} accepted.
     *
     * @return the string, or null for length 0.
     */
    static String getString(final DirectBuffer buffer, final int offset)
    {
        final String text = decode(buffer, offset);
        return text == null || text.isEmpty() ? null : text;
    }

    private static String decode(final DirectBuffer buffer, final int offset)
    {
        final byte[] bytes = new byte[buffer.getByte(offset) & 0xFF];
        buffer.getBytes(offset + STRING_LENGTH_PREFIX, bytes);
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        try
        {
            final CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes));
            return chars.toString();
        }
        catch (final CharacterCodingException ex)
        {
            return null;
        }
    }
}
