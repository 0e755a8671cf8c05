package io.sluice.common.counters;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DutyCycleBucketsTest
{
    @Test
    void boundsArePowersOfTwoFrom256Nanoseconds()
    {
        assertEquals(0, DutyCycleBuckets.lowerBoundNs(0));
        assertEquals(256, DutyCycleBuckets.upperBoundNs(0));
        assertEquals(256, DutyCycleBuckets.lowerBoundNs(1));
        assertEquals(512, DutyCycleBuckets.upperBoundNs(1));
        assertEquals(1L << 27, DutyCycleBuckets.upperBoundNs(19));
        assertEquals(1L << 27, DutyCycleBuckets.lowerBoundNs(20));
        assertEquals(Long.MAX_VALUE, DutyCycleBuckets.upperBoundNs(20));
        for (int bucket = 1; bucket < DutyCycleBuckets.COUNT; bucket++)
        {
            assertEquals(DutyCycleBuckets.upperBoundNs(bucket - 1), DutyCycleBuckets.lowerBoundNs(bucket));
        }
    }

    @Test
    void placesDurationsBelowTheirBucketsUpperBound()
    {
        assertEquals(0, DutyCycleBuckets.bucketOf(-1));
        assertEquals(0, DutyCycleBuckets.bucketOf(255));
        assertEquals(1, DutyCycleBuckets.bucketOf(256));
        assertEquals(1, DutyCycleBuckets.bucketOf(511));
        assertEquals(2, DutyCycleBuckets.bucketOf(512));
        assertEquals(19, DutyCycleBuckets.bucketOf((1L << 27) - 1));
        assertEquals(20, DutyCycleBuckets.bucketOf(1L << 27));
        assertEquals(20, DutyCycleBuckets.bucketOf(Long.MAX_VALUE));
    }

    @Test
    void namesBucketsByTheirBound()
    {
        assertEquals("lt_256ns", DutyCycleBuckets.name(0));
        assertEquals("lt_1024ns", DutyCycleBuckets.name(2));
        assertEquals("ge_134217728ns", DutyCycleBuckets.name(20));
    }

    @Test
    void givesTheBucketBoundOfAQuantile()
    {
        final long[] counts = new long[DutyCycleBuckets.COUNT];
        counts[0] = 90;
        counts[3] = 9;
        counts[10] = 1;

        assertEquals(256, DutyCycleBuckets.quantileUpperBoundNs(counts, 0.5));
        assertEquals(256, DutyCycleBuckets.quantileUpperBoundNs(counts, 0.9));
        assertEquals(2048, DutyCycleBuckets.quantileUpperBoundNs(counts, 0.99));
        assertEquals(1L << 18, DutyCycleBuckets.quantileUpperBoundNs(counts, 1.0));
        assertEquals(-1, DutyCycleBuckets.quantileUpperBoundNs(new long[DutyCycleBuckets.COUNT], 0.5));
    }
}
