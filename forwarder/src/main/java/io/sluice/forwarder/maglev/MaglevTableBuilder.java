package io.sluice.forwarder.maglev;

import io.sluice.common.config.MaglevTableSize;
import io.sluice.forwarder.hash.XxHash64;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;

/**
 * Builds Maglev lookup tables: Pseudocode 1 of the Maglev paper (Eisenbud et al., NSDI 2016, §3.4), with
 * weights as Envoy adds them.
 * <p>
 * Each backend's preference list is the permutation {@code (offset + j * skip) mod M}, with
 * {@code offset = xxh64(identity, seed) mod M} and {@code skip = xxh64(identity, seed + 1) mod (M - 1) + 1}.
 * Backends take turns in ascending order of identity (so the configured order never matters); on its turn a
 * backend claims its most preferred empty slot, unless its weight says it already has its share of the turns
 * taken so far. {@code M} must be prime, so every permutation visits every slot.
 * <p>
 * A builder keeps its scratch arrays between builds; it is not thread-safe. Build off the hot path.
 */
public final class MaglevTableBuilder
{
    /**
     * Default table size ({@link MaglevTableSize#DEFAULT}).
     */
    public static final int DEFAULT_TABLE_SIZE = MaglevTableSize.DEFAULT;

    /**
     * Largest table size accepted ({@link MaglevTableSize#MAX}).
     */
    public static final int MAX_TABLE_SIZE = MaglevTableSize.MAX;

    private static final long INT_ARRAY_BASE = UnsafeApi.arrayBaseOffset(int[].class);
    private static final long SKIP_MASK = 0xFFFF_FFFF_0000_0000L;

    private final int size;
    private final long seed;
    // Each backend's place in its permutation: the next slot to try in the low 32 bits, its skip in the high 32.
    private long[] cursor = new long[0];
    private int[] count = new int[0];
    private int[] weight = new int[0];
    private int[] id = new int[0];

    /**
     * Creates a builder for tables of {@code size} slots.
     *
     * @param size number of slots, a prime.
     * @param seed hash seed, the same on every forwarder.
     * @throws IllegalArgumentException if size is not prime.
     */
    public MaglevTableBuilder(final int size, final long seed)
    {
        final String problem = checkTableSize(size);
        if (problem != null)
        {
            throw new IllegalArgumentException(problem);
        }
        this.size = size;
        this.seed = seed;
    }

    /**
     * Checks a table size ({@link MaglevTableSize#check}).
     *
     * @param size candidate number of slots.
     * @return null when usable, else the reason it is not.
     */
    public static String checkTableSize(final int size)
    {
        return MaglevTableSize.check(size);
    }

    /**
     * Returns the table size.
     *
     * @return M.
     */
    public int size()
    {
        return size;
    }

    /**
     * Builds a table; backends of weight 0 get no slots. An empty or all-zero-weight list gives an empty table.
     *
     * @param backends the eligible backends, in any order, identities distinct.
     * @return a new table.
     * @throws IllegalArgumentException if two backends share an identity.
     */
    public MaglevTable build(final List<MaglevBackend> backends)
    {
        final int[] table = new int[size];
        build(backends, table);
        return new MaglevTable(table);
    }

    /**
     * Builds into a caller-provided array (used by benchmarks to leave allocation out of the measurement).
     *
     * @param backends the eligible backends.
     * @param table    array of {@link #size()} slots to fill.
     */
    public void build(final List<MaglevBackend> backends, final int[] table)
    {
        if (table.length != size)
        {
            throw new IllegalArgumentException("table has " + table.length + " slots, the builder makes " + size);
        }
        final MaglevBackend[] ordered = backends.toArray(new MaglevBackend[0]);
        Arrays.sort(ordered, MaglevBackend::compareIdentity);
        final int n = prepare(ordered);
        Arrays.fill(table, MaglevTable.NO_BACKEND);
        if (n == 0)
        {
            return;
        }
        int maxWeight = 0;
        int minWeight = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++)
        {
            maxWeight = Math.max(maxWeight, weight[i]);
            minWeight = Math.min(minWeight, weight[i]);
        }
        if (minWeight == maxWeight)
        {
            fillEqualWeights(table, n);
        }
        else
        {
            fillWeighted(table, n, maxWeight);
        }
    }

    private int prepare(final MaglevBackend[] ordered)
    {
        ensureCapacity(ordered.length);
        final UnsafeBuffer identity = new UnsafeBuffer(new byte[0]);
        final long m = size;
        int n = 0;
        for (int i = 0; i < ordered.length; i++)
        {
            final MaglevBackend backend = ordered[i];
            if (i > 0 && MaglevBackend.compareIdentity(ordered[i - 1], backend) == 0)
            {
                throw new IllegalArgumentException("two backends share identity: ids " + ordered[i - 1].id() +
                    " and " + backend.id());
            }
            if (backend.weight() == 0)
            {
                continue;
            }
            identity.wrap(backend.identity());
            final int length = backend.identity().length;
            final long offset = Long.remainderUnsigned(XxHash64.hash(identity, 0, length, seed), m);
            final long skip = Long.remainderUnsigned(XxHash64.hash(identity, 0, length, seed + 1), m - 1) + 1;
            cursor[n] = offset | (skip << 32);
            count[n] = 0;
            weight[n] = backend.weight();
            id[n] = backend.id();
            n++;
        }
        return n;
    }

    // Pseudocode 1 when every backend has the same weight: each takes one slot per turn, in order, until the table
    // is full (the weighted turns below would skip nobody).
    private void fillEqualWeights(final int[] table, final int n)
    {
        final int m = size;
        final long[] cursor = this.cursor;
        final int[] id = this.id;
        int filled = 0;
        while (true)
        {
            for (int i = 0; i < n; i++)
            {
                final long state = cursor[i];
                cursor[i] = (state & SKIP_MASK) | claim(table, (int)state, (int)(state >>> 32), m, id[i]);
                if (++filled == m)
                {
                    return;
                }
            }
        }
    }

    // Pseudocode 1 with weighted turns: backend i may hold at most turn * weight / maxWeight slots after a turn.
    private void fillWeighted(final int[] table, final int n, final int maxWeight)
    {
        final int m = size;
        final long[] cursor = this.cursor;
        final int[] count = this.count;
        final int[] weight = this.weight;
        final int[] id = this.id;
        int filled = 0;
        for (long turn = 1; ; turn++)
        {
            for (int i = 0; i < n; i++)
            {
                if ((long)count[i] * maxWeight >= turn * weight[i])
                {
                    continue;
                }
                final long state = cursor[i];
                cursor[i] = (state & SKIP_MASK) | claim(table, (int)state, (int)(state >>> 32), m, id[i]);
                count[i]++;
                if (++filled == m)
                {
                    return;
                }
            }
        }
    }

    // Walks a permutation from slot c by steps of s to the first empty slot, writes backend id there and
    // returns the slot after it in the permutation. The table has m slots (checked by build) and 0 <= c < m,
    // 1 <= s < m <= MAX_TABLE_SIZE (so c + s never overflows): every access is inside the array, which is why it
    // reads and writes without bounds checks (C2's checks and its spilled registers made this loop 1.3x slower
    // than the C reference's).
    private static long claim(final int[] table, final int start, final int s, final int m, final int id)
    {
        int c = start;
        while (UnsafeApi.getInt(table, INT_ARRAY_BASE + ((long)c << 2)) != MaglevTable.NO_BACKEND)
        {
            c += s;
            if (c >= m)
            {
                c -= m;
            }
        }
        UnsafeApi.putInt(table, INT_ARRAY_BASE + ((long)c << 2), id);
        c += s;
        return c >= m ? c - m : c;
    }

    private void ensureCapacity(final int n)
    {
        if (cursor.length < n)
        {
            cursor = new long[n];
            count = new int[n];
            weight = new int[n];
            id = new int[n];
        }
    }
}
