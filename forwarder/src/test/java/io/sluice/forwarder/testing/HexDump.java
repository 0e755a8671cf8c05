package io.sluice.forwarder.testing;

/**
 * Prints bytes the way Wireshark's "Copy as Hex + ASCII" does: offset, 16 bytes in two groups of eight, text.
 */
public final class HexDump
{
    private static final int BYTES_PER_LINE = 16;

    private HexDump()
    {
    }

    /**
     * Formats bytes, 16 per line.
     *
     * @param bytes data, may be null.
     * @return the dump, one line per 16 bytes, each ending in a newline.
     */
    public static String hex(final byte[] bytes)
    {
        if (bytes == null)
        {
            return "(none)\n";
        }
        final StringBuilder out = new StringBuilder(bytes.length * 5 + 16);
        for (int line = 0; line < bytes.length; line += BYTES_PER_LINE)
        {
            out.append(String.format("%04x  ", line));
            final StringBuilder text = new StringBuilder(BYTES_PER_LINE);
            for (int i = line; i < line + BYTES_PER_LINE; i++)
            {
                if (i == line + 8)
                {
                    out.append(' ');
                }
                if (i < bytes.length)
                {
                    final int b = bytes[i] & 0xFF;
                    out.append(String.format("%02x ", b));
                    text.append(b >= 0x20 && b < 0x7F ? (char)b : '.');
                }
                else
                {
                    out.append("   ");
                }
            }
            out.append(' ').append(text).append('\n');
        }
        return out.toString();
    }

    /**
     * Finds the first offset at which two byte arrays differ.
     *
     * @param expected first array.
     * @param actual   second array.
     * @return the offset, the shorter length if one is a prefix of the other, or -1 when equal.
     */
    public static int firstDifference(final byte[] expected, final byte[] actual)
    {
        final int common = Math.min(expected.length, actual.length);
        for (int i = 0; i < common; i++)
        {
            if (expected[i] != actual[i])
            {
                return i;
            }
        }
        return expected.length == actual.length ? -1 : common;
    }
}
