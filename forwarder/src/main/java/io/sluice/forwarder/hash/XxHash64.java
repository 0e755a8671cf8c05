package io.sluice.forwarder.hash;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * XXH64 (xxHash, 64-bit variant, Yann Collet), bit-exact with the reference implementation.
 * <p>
 * Every forwarder behind one ECMP router must pick the same backend for the same flow, so the flow hash is a
 * well-known function of the key bytes and a configured seed, never something that varies by JVM or machine.
 * Lanes are read little-endian as the specification requires, whatever the platform order.
 * <p>
 * {@link #hash(DirectBuffer, int, int, long)} hashes any byte range; the {@code hash13}/{@code hash37} variants
 * hash the two flow-key shapes (IPv4 and IPv6 5-tuples) straight from the words the parser produced, without
 * touching memory, and give the same result as hashing those bytes.
 */
public final class XxHash64
{
    static final long P1 = 0x9E3779B185EBCA87L;
    static final long P2 = 0xC2B2AE3D27D4EB4FL;
    static final long P3 = 0x165667B19E3779F9L;
    static final long P4 = 0x85EBCA77C2B2AE63L;
    static final long P5 = 0x27D4EB2F165667C5L;

    private XxHash64()
    {
    }

    /**
     * Hashes {@code length} bytes of {@code buffer} from {@code index}.
     *
     * @param buffer holding the bytes.
     * @param index  of the first byte.
     * @param length number of bytes.
     * @param seed   of the hash.
     * @return the XXH64 value.
     */
    public static long hash(final DirectBuffer buffer, final int index, final int length, final long seed)
    {
        final int end = index + length;
        int i = index;
        long h;
        if (length >= 32)
        {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            final int limit = end - 32;
            do
            {
                v1 = round(v1, buffer.getLong(i, ByteOrder.LITTLE_ENDIAN));
                v2 = round(v2, buffer.getLong(i + 8, ByteOrder.LITTLE_ENDIAN));
                v3 = round(v3, buffer.getLong(i + 16, ByteOrder.LITTLE_ENDIAN));
                v4 = round(v4, buffer.getLong(i + 24, ByteOrder.LITTLE_ENDIAN));
                i += 32;
            }
            while (i <= limit);
            h = mergeLanes(v1, v2, v3, v4);
        }
        else
        {
            h = seed + P5;
        }
        h += length;

        for (; i + 8 <= end; i += 8)
        {
            h = mix8(h, buffer.getLong(i, ByteOrder.LITTLE_ENDIAN));
        }
        if (i + 4 <= end)
        {
            h = mix4(h, buffer.getInt(i, ByteOrder.LITTLE_ENDIAN));
            i += 4;
        }
        for (; i < end; i++)
        {
            h = mix1(h, buffer.getByte(i));
        }
        return avalanche(h);
    }

    /**
     * Hashes a 13-byte key given as its first 8 bytes, the next 4 and the last one, each read little-endian.
     *
     * @param w0   bytes 0..7.
     * @param w1   bytes 8..11 in the low 32 bits and byte 12 in bits 32..39.
     * @param seed of the hash.
     * @return the same value as {@link #hash(DirectBuffer, int, int, long)} over the 13 bytes.
     */
    public static long hash13(final long w0, final long w1, final long seed)
    {
        long h = seed + P5 + 13;
        h = mix8(h, w0);
        h = mix4(h, (int)w1);
        h = mix1(h, (byte)(w1 >>> 32));
        return avalanche(h);
    }

    /**
     * Hashes a 37-byte key given as four 8-byte words, then 4 bytes and one byte packed into {@code w4}.
     *
     * @param w0   bytes 0..7.
     * @param w1   bytes 8..15.
     * @param w2   bytes 16..23.
     * @param w3   bytes 24..31.
     * @param w4   bytes 32..35 in the low 32 bits and byte 36 in bits 32..39.
     * @param seed of the hash.
     * @return the same value as {@link #hash(DirectBuffer, int, int, long)} over the 37 bytes.
     */
    public static long hash37(final long w0, final long w1, final long w2, final long w3, final long w4,
        final long seed)
    {
        long h = mergeLanes(round(seed + P1 + P2, w0), round(seed + P2, w1), round(seed, w2), round(seed - P1, w3));
        h += 37;
        h = mix4(h, (int)w4);
        h = mix1(h, (byte)(w4 >>> 32));
        return avalanche(h);
    }

    private static long round(final long acc, final long lane)
    {
        return Long.rotateLeft(acc + lane * P2, 31) * P1;
    }

    private static long mergeRound(final long acc, final long val)
    {
        return (acc ^ round(0, val)) * P1 + P4;
    }

    private static long mergeLanes(final long v1, final long v2, final long v3, final long v4)
    {
        long h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
        h = mergeRound(h, v1);
        h = mergeRound(h, v2);
        h = mergeRound(h, v3);
        return mergeRound(h, v4);
    }

    private static long mix8(final long h, final long lane)
    {
        return Long.rotateLeft(h ^ round(0, lane), 27) * P1 + P4;
    }

    private static long mix4(final long h, final int lane)
    {
        return Long.rotateLeft(h ^ ((lane & 0xFFFF_FFFFL) * P1), 23) * P2 + P3;
    }

    private static long mix1(final long h, final byte b)
    {
        return Long.rotateLeft(h ^ ((b & 0xFFL) * P5), 11) * P1;
    }

    private static long avalanche(final long hash)
    {
        long h = hash;
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
