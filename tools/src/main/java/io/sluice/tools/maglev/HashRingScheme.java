package io.sluice.tools.maglev;

import io.sluice.forwarder.hash.XxHash64;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A consistent-hash ring (Karger et al. 1997): each backend owns {@code vnodes} points on the 64-bit circle,
 * point {@code v} of backend {@code i} at {@code xxh64("b<i>#<v>", seed)}, and a flow goes to the owner of the
 * first point after its hash, wrapping at the top. Moves only the flows it must, but the arcs between random
 * points are uneven, so the load is too.
 */
final class HashRingScheme implements PlacementScheme
{
    private final int vnodes;
    private final long seed;

    /**
     * Creates the scheme.
     *
     * @param vnodes points per backend.
     * @param seed   hash seed of the points.
     */
    HashRingScheme(final int vnodes, final long seed)
    {
        this.vnodes = vnodes;
        this.seed = seed;
    }

    @Override
    public String name()
    {
        return "ring";
    }

    @Override
    public String label()
    {
        return "ring, " + vnodes + " vnodes";
    }

    @Override
    public Placement build(final int[] backends)
    {
        // Points are kept as unsigned values with the sign bit flipped, so signed sorting and search order them
        // as unsigned 64-bit positions.
        final int count = backends.length * vnodes;
        final long[] unsortedKeys = new long[count];
        final int[] unsortedOwners = new int[count];
        final Integer[] order = new Integer[count];
        int p = 0;
        for (final int backend : backends)
        {
            for (int v = 0; v < vnodes; v++)
            {
                unsortedKeys[p] = pointHash(backend, v, seed) ^ Long.MIN_VALUE;
                unsortedOwners[p] = backend;
                order[p] = p;
                p++;
            }
        }
        Arrays.sort(order, (a, b) -> Long.compare(unsortedKeys[a], unsortedKeys[b]));
        final long[] keys = new long[count];
        final int[] owners = new int[count];
        for (int i = 0; i < count; i++)
        {
            keys[i] = unsortedKeys[order[i]];
            owners[i] = unsortedOwners[order[i]];
        }
        return (flowHash) -> owners[firstAfter(keys, flowHash ^ Long.MIN_VALUE)];
    }

    /**
     * Hashes a ring point's name.
     *
     * @param backend backend index.
     * @param vnode   point number.
     * @param seed    hash seed.
     * @return the point's position on the circle.
     */
    static long pointHash(final int backend, final int vnode, final long seed)
    {
        final byte[] name = ("b" + backend + "#" + vnode).getBytes(StandardCharsets.US_ASCII);
        return XxHash64.hash(new UnsafeBuffer(name), 0, name.length, seed);
    }

    // Index of the first key greater than the flow's (Python's bisect_right), wrapping to 0 past the last point.
    private static int firstAfter(final long[] keys, final long key)
    {
        int low = 0;
        int high = keys.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (keys[mid] <= key)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low == keys.length ? 0 : low;
    }
}
