package io.sluice.tools.maglev;

import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PlacementSchemeTest
{
    @Test
    void moduloTreatsTheHashAsUnsigned()
    {
        final PlacementScheme.Placement placement = new ModuloScheme().build(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        // 2^64 - 1 = 18446744073709551615, which is 5 mod 10; a signed remainder would give -5.
        assertEquals(5, placement.backendOf(-1L));
        assertEquals(7, placement.backendOf(17));
    }

    @Test
    void moduloPicksAmongTheRemainingBackendsInOrder()
    {
        final PlacementScheme.Placement placement = new ModuloScheme().build(new int[]{0, 2, 5});
        assertEquals(0, placement.backendOf(3));
        assertEquals(2, placement.backendOf(4));
        assertEquals(5, placement.backendOf(5));
    }

    @Test
    void ringPicksTheOwnerOfTheNextPointAndWraps()
    {
        final long seed = 3;
        final long first = HashRingScheme.pointHash(0, 0, seed);
        final long second = HashRingScheme.pointHash(1, 0, seed);
        final boolean zeroIsLower = Long.compareUnsigned(first, second) < 0;
        final long lower = zeroIsLower ? first : second;
        final long upper = zeroIsLower ? second : first;
        final int lowerOwner = zeroIsLower ? 0 : 1;
        final int upperOwner = 1 - lowerOwner;

        final PlacementScheme.Placement ring = new HashRingScheme(1, seed).build(new int[]{0, 1});
        assertEquals(lowerOwner, ring.backendOf(lower - 1));
        assertEquals(upperOwner, ring.backendOf(lower), "a point belongs to the arc after it");
        assertEquals(upperOwner, ring.backendOf(upper - 1));
        assertEquals(lowerOwner, ring.backendOf(upper), "past the last point the ring wraps to the first");
        assertEquals(lowerOwner, ring.backendOf(-1L));
    }

    @Test
    void maglevUsesTheProductionLookup()
    {
        final PlacementScheme.Placement maglev = new MaglevScheme(65_537, 0).build(new int[]{0, 1, 2});
        final MaglevTable table = new MaglevTableBuilder(65_537, 0).build(BenchmarkBackends.first(3));
        for (long hash = -1_000_000; hash < 1_000_000; hash += 9_973)
        {
            final long spread = hash * 0x9E3779B97F4A7C15L;
            assertEquals(table.lookup(spread), maglev.backendOf(spread));
        }
    }
}
