package io.sluice.forwarder.maglev;

import io.sluice.forwarder.hash.XxHash64;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * A 52-bit fingerprint of a Maglev table that two nodes can compare: XXH64 over the identities (addresses) of the
 * backends the table holds, in identity order, then over every slot as the rank of its backend in that order
 * ({@code -1} for {@link MaglevTable#NO_BACKEND}). Slot ids are local to a forwarder (they depend on the order
 * backends were added), ranks are not: every node that built its table from the same eligible backends, table size
 * and seed gets the same fingerprint, so a fleet can alert when nodes disagree. 52 bits, so a float64 (a Prometheus
 * sample) holds it exactly. Built off the hot path: it allocates a buffer of {@code 4 x M} bytes.
 */
public final class MaglevFingerprint
{
    /**
     * Bits kept of the XXH64 value.
     */
    public static final int BITS = 52;

    private static final long MASK = (1L << BITS) - 1;

    private MaglevFingerprint()
    {
    }

    /**
     * Returns the fingerprint of a table.
     *
     * @param table    the table.
     * @param backends the backends its slot ids name (others may be listed too; those not in the table are ignored).
     * @return a value in {@code [0, 2^52)}.
     * @throws IllegalArgumentException when the table holds an id none of the backends has.
     */
    public static long of(final MaglevTable table, final List<MaglevBackend> backends)
    {
        int maxId = -1;
        for (final MaglevBackend backend : backends)
        {
            maxId = Math.max(maxId, backend.id());
        }
        final MaglevBackend[] byId = new MaglevBackend[maxId + 1];
        for (final MaglevBackend backend : backends)
        {
            byId[backend.id()] = backend;
        }
        final boolean[] present = new boolean[maxId + 1];
        int distinct = 0;
        for (int i = 0; i < table.size(); i++)
        {
            final int id = table.slot(i);
            if (id == MaglevTable.NO_BACKEND)
            {
                continue;
            }
            if (id > maxId || byId[id] == null)
            {
                throw new IllegalArgumentException("table slot " + i + " holds backend id " + id + " of no backend");
            }
            if (!present[id])
            {
                present[id] = true;
                distinct++;
            }
        }
        final MaglevBackend[] ordered = new MaglevBackend[distinct];
        int identityBytes = 0;
        for (int id = 0, n = 0; id <= maxId; id++)
        {
            if (present[id])
            {
                ordered[n++] = byId[id];
                identityBytes += 1 + byId[id].identity().length;
            }
        }
        Arrays.sort(ordered, MaglevBackend::compareIdentity);
        final int[] rank = new int[maxId + 1];
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[identityBytes + 4 * table.size()]);
        int offset = 0;
        for (int r = 0; r < ordered.length; r++)
        {
            rank[ordered[r].id()] = r;
            final byte[] identity = ordered[r].identity();
            buffer.putByte(offset++, (byte)identity.length);
            buffer.putBytes(offset, identity);
            offset += identity.length;
        }
        for (int i = 0; i < table.size(); i++)
        {
            final int id = table.slot(i);
            buffer.putInt(offset, id == MaglevTable.NO_BACKEND ? -1 : rank[id], ByteOrder.LITTLE_ENDIAN);
            offset += 4;
        }
        return XxHash64.hash(buffer, 0, buffer.capacity(), 0) & MASK;
    }
}
