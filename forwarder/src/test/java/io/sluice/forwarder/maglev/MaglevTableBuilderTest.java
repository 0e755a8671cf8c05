package io.sluice.forwarder.maglev;

import io.sluice.common.config.MaglevTableSize;
import io.sluice.forwarder.hash.XxHash64;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MaglevTableBuilderTest
{
    private static final int M = 65_537;

    static List<MaglevBackend> backends(final int n)
    {
        final List<MaglevBackend> list = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            final int address = 0x0A00_0000 + i + 1;
            list.add(new MaglevBackend(
                new byte[]{(byte)(address >>> 24), (byte)(address >>> 16), (byte)(address >>> 8), (byte)address},
                1, i));
        }
        return list;
    }

    private static int[] slots(final MaglevTable table)
    {
        final int[] slots = new int[table.size()];
        for (int i = 0; i < slots.length; i++)
        {
            slots[i] = table.slot(i);
        }
        return slots;
    }

    static long fnv1a(final MaglevTable table)
    {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < table.size(); i++)
        {
            final int slot = table.slot(i);
            for (int b = 0; b < 4; b++)
            {
                hash ^= (slot >>> (8 * b)) & 0xFF;
                hash *= 0x100000001b3L;
            }
        }
        return hash;
    }

    @Test
    void leavesNoSlotEmpty()
    {
        final MaglevTable table = new MaglevTableBuilder(M, 0).build(backends(7));
        for (int i = 0; i < M; i++)
        {
            assertNotEquals(MaglevTable.NO_BACKEND, table.slot(i), "slot " + i);
        }
    }

    @Test
    void givesEachUnweightedBackendFloorOrCeilingOfItsShare()
    {
        for (final int n : new int[]{1, 2, 3, 10, 100, 1000})
        {
            final int[] counts = new MaglevTableBuilder(M, 0).build(backends(n)).slotCounts(n - 1);
            for (int id = 0; id < n; id++)
            {
                assertTrue(counts[id] == M / n || counts[id] == (M + n - 1) / n,
                    "n=" + n + " backend " + id + " owns " + counts[id]);
            }
        }
    }

    @Test
    void scalesSharesWithWeights()
    {
        final List<MaglevBackend> list = new ArrayList<>();
        final int[] weights = {1, 2, 3, 4};
        for (int i = 0; i < weights.length; i++)
        {
            list.add(new MaglevBackend(new byte[]{10, 0, 0, (byte)(i + 1)}, weights[i], i));
        }
        final int[] counts = new MaglevTableBuilder(M, 0).build(list).slotCounts(3);
        for (int i = 0; i < weights.length; i++)
        {
            final double expected = M * weights[i] / 10.0;
            assertEquals(expected, counts[i], expected * 0.01, "backend " + i + " weight " + weights[i]);
        }
    }

    @Test
    void givesZeroWeightBackendsNoSlots()
    {
        final List<MaglevBackend> list = new ArrayList<>(backends(3));
        list.set(1, new MaglevBackend(list.get(1).identity(), 0, 1));
        final int[] counts = new MaglevTableBuilder(M, 0).build(list).slotCounts(2);
        assertEquals(0, counts[1]);
        assertEquals(M, counts[0] + counts[2]);
    }

    @Test
    void buildsTheSameTableWhateverTheBackendOrder()
    {
        final List<MaglevBackend> ordered = backends(50);
        final List<MaglevBackend> shuffled = new ArrayList<>(ordered);
        Collections.shuffle(shuffled, new Random(3));
        final MaglevTableBuilder builder = new MaglevTableBuilder(M, 77);
        assertArrayEquals(slots(builder.build(ordered)), slots(builder.build(shuffled)));
        assertArrayEquals(slots(builder.build(ordered)), slots(new MaglevTableBuilder(M, 77).build(shuffled)));
    }

    @Test
    void matchesTheIndependentCImplementation()
    {
        // Checksums printed by native/bench/maglev_ref.c (FNV-1a over the slots as little-endian int32).
        assertEquals(0x70c9a3f043c78633L, fnv1a(new MaglevTableBuilder(M, 0).build(backends(10))));
        assertEquals(0x189da88888f43087L, fnv1a(new MaglevTableBuilder(M, 0).build(backends(1000))));
    }

    @Test
    void movesFewSlotsBeyondTheRemovedBackendsOwn()
    {
        for (final int n : new int[]{10, 100})
        {
            final List<MaglevBackend> all = backends(n);
            final List<MaglevBackend> left = new ArrayList<>(all);
            final int gone = n / 2;
            left.remove(gone);
            final MaglevTableBuilder builder = new MaglevTableBuilder(M, 0);
            final MaglevTable before = builder.build(all);
            final MaglevTable after = builder.build(left);
            int moved = 0;
            int needless = 0;
            for (int i = 0; i < M; i++)
            {
                if (before.slot(i) != after.slot(i))
                {
                    moved++;
                    if (before.slot(i) != gone)
                    {
                        needless++;
                    }
                }
            }
            final double needlessPct = 100.0 * needless / M;
            final double movedPct = 100.0 * moved / M;
            // Seed section 3.4: N=10 moved 10.28% / needless 0.23%; N=100 moved 1.62% / needless 0.63%.
            assertTrue(needlessPct < 1.0, "n=" + n + " needless " + needlessPct + "%");
            assertEquals(100.0 / n, movedPct - needlessPct, 0.2, "n=" + n + " own share moved");
        }
    }

    @Test
    void rejectsNonPrimeTableSize()
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> new MaglevTableBuilder(65_536, 0));
        assertTrue(error.getMessage().contains("prime"), error.getMessage());
        assertTrue(error.getMessage().contains("65537"), error.getMessage());
    }

    @Test
    void rejectsTableSizeAboveTheLimit()
    {
        assertEquals(MaglevTableBuilder.MAX_TABLE_SIZE, MaglevTableSize.previousPrime(1 << 24));
        final String problem = MaglevTableBuilder.checkTableSize(MaglevTableSize.nextPrime(1 << 24));
        assertTrue(problem != null && problem.contains("at most 16777213"), problem);
        assertEquals(null, MaglevTableBuilder.checkTableSize(MaglevTableBuilder.MAX_TABLE_SIZE));
    }

    @Test
    void rejectsATableArrayOfAnotherSize()
    {
        final MaglevTableBuilder builder = new MaglevTableBuilder(M, 0);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> builder.build(backends(3), new int[M - 1]));
        assertTrue(error.getMessage().contains("65536 slots"), error.getMessage());
    }

    @Test
    void matchesAPlainPseudocode1WithEqualAndUnequalWeights()
    {
        // The builder has a fill without the weight check for equal weights, and reads the table without bounds
        // checks: both must give exactly what the paper's loop, written plainly, gives.
        final List<List<MaglevBackend>> sets = new ArrayList<>();
        sets.add(backends(100));
        final List<MaglevBackend> sevens = new ArrayList<>();
        final List<MaglevBackend> mixed = new ArrayList<>();
        for (final MaglevBackend backend : backends(60))
        {
            sevens.add(new MaglevBackend(backend.identity(), 7, backend.id()));
            mixed.add(new MaglevBackend(backend.identity(), 1 + backend.id() % 5, backend.id()));
        }
        sets.add(sevens);
        sets.add(mixed);
        for (final int size : new int[]{M, 251})
        {
            final MaglevTableBuilder builder = new MaglevTableBuilder(size, 5);
            for (final List<MaglevBackend> set : sets)
            {
                assertArrayEquals(plainPseudocode1(set, size, 5), slots(builder.build(set)),
                    set.size() + " backends, M " + size + ", first weight " + set.get(0).weight());
            }
        }
    }

    // Maglev paper Pseudocode 1 with weighted turns, as plainly as it can be written.
    private static int[] plainPseudocode1(final List<MaglevBackend> set, final int m, final long seed)
    {
        final List<MaglevBackend> ordered = new ArrayList<>(set);
        ordered.sort(MaglevBackend::compareIdentity);
        final int n = ordered.size();
        final long[] next = new long[n];
        final long[] skip = new long[n];
        final int[] count = new int[n];
        int maxWeight = 0;
        for (int i = 0; i < n; i++)
        {
            final byte[] identity = ordered.get(i).identity();
            final UnsafeBuffer buffer = new UnsafeBuffer(identity);
            next[i] = Long.remainderUnsigned(XxHash64.hash(buffer, 0, identity.length, seed), m);
            skip[i] = Long.remainderUnsigned(XxHash64.hash(buffer, 0, identity.length, seed + 1), m - 1) + 1;
            maxWeight = Math.max(maxWeight, ordered.get(i).weight());
        }
        final int[] table = new int[m];
        Arrays.fill(table, MaglevTable.NO_BACKEND);
        int filled = 0;
        for (long turn = 1; filled < m; turn++)
        {
            for (int i = 0; i < n && filled < m; i++)
            {
                if ((long)count[i] * maxWeight >= turn * ordered.get(i).weight())
                {
                    continue;
                }
                int c = (int)next[i];
                while (table[c] != MaglevTable.NO_BACKEND)
                {
                    c = (int)((c + skip[i]) % m);
                }
                table[c] = ordered.get(i).id();
                next[i] = (c + skip[i]) % m;
                count[i]++;
                filled++;
            }
        }
        return table;
    }

    @Test
    void rejectsDuplicateIdentities()
    {
        final List<MaglevBackend> list = List.of(
            new MaglevBackend(new byte[]{10, 0, 0, 1}, 1, 0), new MaglevBackend(new byte[]{10, 0, 0, 1}, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MaglevTableBuilder(M, 0).build(list));
    }

    @Test
    void buildsAnEmptyTableFromNoBackends()
    {
        final MaglevTable table = new MaglevTableBuilder(M, 0).build(List.of());
        assertEquals(MaglevTable.NO_BACKEND, table.lookup(12345L));
        assertEquals(MaglevTable.NO_BACKEND, table.slot(M - 1));
    }

    @Test
    void dependsOnTheSeed()
    {
        final List<MaglevBackend> list = backends(10);
        assertNotEquals(fnv1a(new MaglevTableBuilder(M, 0).build(list)), fnv1a(new MaglevTableBuilder(M,
            1).build(list)));
    }

    @Test
    void mapsHashesUniformlyOverSlots()
    {
        final int[] hits = new int[7];
        final java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int i = 0; i < 70_000; i++)
        {
            hits[MaglevTable.slotOf(random.nextLong(), 7)]++;
        }
        for (final int count : hits)
        {
            assertEquals(10_000, count, 400);
        }
        assertEquals(0, MaglevTable.slotOf(0L, M));
        assertEquals(M - 1, MaglevTable.slotOf(-1L, M));
    }
}
