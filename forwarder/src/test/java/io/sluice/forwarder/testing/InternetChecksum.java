package io.sluice.forwarder.testing;

/**
 * The Internet checksum (RFC 1071), written from the RFC and independently of the main code, so an expected
 * header checks the forwarder's checksum rather than repeating it.
 */
public final class InternetChecksum
{
    private InternetChecksum()
    {
    }

    /**
     * Computes the one's complement of the one's complement sum of the 16-bit big-endian words of a range; an odd
     * last byte is padded with a zero byte (RFC 1071 §4.1).
     *
     * @param bytes  data.
     * @param offset first byte.
     * @param length bytes to sum.
     * @return the checksum, 16 bits.
     */
    public static int checksum(final byte[] bytes, final int offset, final int length)
    {
        return (int)(~fold(sum(0, bytes, offset, length)) & 0xFFFF);
    }

    /**
     * Adds the 16-bit big-endian words of a range to a running sum, without folding.
     *
     * @param sum    running sum.
     * @param bytes  data.
     * @param offset first byte.
     * @param length bytes to add.
     * @return the new running sum.
     */
    public static long sum(final long sum, final byte[] bytes, final int offset, final int length)
    {
        long total = sum;
        int i = 0;
        for (; i + 1 < length; i += 2)
        {
            total += ((bytes[offset + i] & 0xFF) << 8) | (bytes[offset + i + 1] & 0xFF);
        }
        if (i < length)
        {
            total += (bytes[offset + i] & 0xFF) << 8;
        }
        return total;
    }

    /**
     * Folds the carries of a running sum into 16 bits and complements it.
     *
     * @param sum running sum.
     * @return the checksum, 16 bits.
     */
    public static int finish(final long sum)
    {
        return (int)(~fold(sum) & 0xFFFF);
    }

    private static long fold(final long sum)
    {
        long folded = sum;
        while ((folded >>> 16) != 0)
        {
            folded = (folded & 0xFFFF) + (folded >>> 16);
        }
        return folded;
    }
}
