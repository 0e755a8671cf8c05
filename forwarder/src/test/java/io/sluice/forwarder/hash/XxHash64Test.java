package io.sluice.forwarder.hash;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Golden values come from the reference implementation (xxhsum 0.8.1 and python-xxhash), not from this code:
 * every forwarder must compute the same hash for the same key bytes.
 */
class XxHash64Test
{
    private static long hash(final byte[] bytes, final long seed)
    {
        return XxHash64.hash(new UnsafeBuffer(bytes), 0, bytes.length, seed);
    }

    private static byte[] counting(final int length)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)i;
        }
        return bytes;
    }

    @Test
    void matchesReferenceValuesWithSeedZero()
    {
        assertEquals(0xef46db3751d8e999L, hash(new byte[0], 0));
        assertEquals(0xd24ec4f1a98c6e5bL, hash("a".getBytes(StandardCharsets.US_ASCII), 0));
        assertEquals(0x44bc2cf5ad770999L, hash("abc".getBytes(StandardCharsets.US_ASCII), 0));
        assertEquals(0xfbcea83c8a378bf1L,
            hash("Nobody inspects the spammish repetition".getBytes(StandardCharsets.US_ASCII), 0));
        assertEquals(0x13d17c4c779723a8L, hash(counting(13), 0));
        assertEquals(0xd93fa2dfee5c24c9L, hash(counting(37), 0));
        assertEquals(0x6ac1e58032166597L, hash(counting(100), 0));
    }

    @Test
    void matchesReferenceValuesWithSeeds()
    {
        assertEquals(0x1fd5ee4851a8cde5L, hash(counting(13), 0x5eed));
        assertEquals(0xc8ced3dbe3bff419L, hash(counting(37), -1L));
        assertEquals(0x028ba1ae2de4de27L, hash(counting(100), 12345));
    }

    @Test
    void wordFormsEqualByteForms()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        for (int i = 0; i < 1000; i++)
        {
            final byte[] key = new byte[40];
            random.nextBytes(key);
            key[13 + 3] = 0;
            final UnsafeBuffer buffer = new UnsafeBuffer(key);
            final long seed = random.nextLong();

            final long w0 = buffer.getLong(0, ByteOrder.LITTLE_ENDIAN);
            final long w1 = buffer.getInt(8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL | (key[12] & 0xFFL) << 32;
            assertEquals(XxHash64.hash(buffer, 0, 13, seed), XxHash64.hash13(w0, w1, seed));

            final long w4 = buffer.getInt(32, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL | (key[36] & 0xFFL) << 32;
            assertEquals(XxHash64.hash(buffer, 0, 37, seed), XxHash64.hash37(
                buffer.getLong(0, ByteOrder.LITTLE_ENDIAN), buffer.getLong(8, ByteOrder.LITTLE_ENDIAN),
                buffer.getLong(16, ByteOrder.LITTLE_ENDIAN), buffer.getLong(24, ByteOrder.LITTLE_ENDIAN), w4, seed));
        }
    }

    @Test
    void hashesAnOffsetRangeLikeACopy()
    {
        final byte[] framed = new byte[120];
        final byte[] inner = counting(100);
        System.arraycopy(inner, 0, framed, 7, 100);
        assertEquals(hash(inner, 99), XxHash64.hash(new UnsafeBuffer(framed), 7, 100, 99));
    }
}
