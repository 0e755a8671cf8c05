package io.sluice.forwarder.maglev;

import java.util.Arrays;

/**
 * One backend as the Maglev table builder sees it: an identity (the bytes its permutation is derived from),
 * a weight, and the id written into the table slots it wins.
 * <p>
 * The identity is the backend's address, not a configured name: every forwarder knows the address, so every
 * forwarder derives the same permutation for it.
 *
 * @param identity bytes hashed into the backend's offset and skip.
 * @param weight   relative share of slots; 0 takes no slots (a draining backend).
 * @param id       value stored in the slots this backend owns, at least 0.
 */
public record MaglevBackend(byte[] identity, int weight, int id)
{
    /**
     * Checks the fields.
     */
    public MaglevBackend
    {
        if (identity == null || identity.length == 0)
        {
            throw new IllegalArgumentException("backend identity must not be empty");
        }
        if (weight < 0)
        {
            throw new IllegalArgumentException("backend weight must be >= 0: " + weight);
        }
        if (id < 0)
        {
            throw new IllegalArgumentException("backend id must be >= 0: " + id);
        }
    }

    static int compareIdentity(final MaglevBackend a, final MaglevBackend b)
    {
        final int byLength = Integer.compare(a.identity.length, b.identity.length);
        return byLength != 0 ? byLength : Arrays.compareUnsigned(a.identity, b.identity);
    }

    @Override
    public String toString()
    {
        return "MaglevBackend{id=" + id + ", weight=" + weight + ", identity=" + Arrays.toString(identity) + '}';
    }
}
