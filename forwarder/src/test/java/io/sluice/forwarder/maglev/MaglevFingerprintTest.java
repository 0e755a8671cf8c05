package io.sluice.forwarder.maglev;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MaglevFingerprintTest
{
    private static final int M = 65_537;
    private static final long SEED = 7;

    private static MaglevBackend backend(final int lastOctet, final int id)
    {
        return new MaglevBackend(new byte[]{10, 0, 0, (byte)lastOctet}, 1, id);
    }

    private static long fingerprint(final List<MaglevBackend> backends)
    {
        return MaglevFingerprint.of(new MaglevTableBuilder(M, SEED).build(backends), backends);
    }

    @Test
    void agreesAcrossNodesWhoseSlotIdsDiffer()
    {
        // Node A added the backends in one order, node B in another: same addresses, other slot ids.
        final List<MaglevBackend> nodeA = List.of(backend(1, 0), backend(2, 1), backend(3, 2));
        final List<MaglevBackend> nodeB = List.of(backend(3, 5), backend(1, 9), backend(2, 0));

        assertEquals(fingerprint(nodeA), fingerprint(nodeB));
    }

    @Test
    void differsWhenTheBackendSetDiffers()
    {
        final long three = fingerprint(List.of(backend(1, 0), backend(2, 1), backend(3, 2)));
        final long two = fingerprint(List.of(backend(1, 0), backend(2, 1)));
        final long otherAddress = fingerprint(List.of(backend(1, 0), backend(2, 1), backend(4, 2)));

        assertNotEquals(three, two);
        assertNotEquals(three, otherAddress);
    }

    @Test
    void differsWhenOnlyTheSeedDiffers()
    {
        final List<MaglevBackend> backends = List.of(backend(1, 0), backend(2, 1), backend(3, 2));
        final long a = MaglevFingerprint.of(new MaglevTableBuilder(M, 1).build(backends), backends);
        final long b = MaglevFingerprint.of(new MaglevTableBuilder(M, 2).build(backends), backends);

        assertNotEquals(a, b);
    }

    @Test
    void ignoresBackendsTheTableDoesNotHold()
    {
        final List<MaglevBackend> eligible = List.of(backend(1, 0), backend(2, 1));
        final MaglevTable table = new MaglevTableBuilder(M, SEED).build(eligible);
        final List<MaglevBackend> all = new ArrayList<>(eligible);
        all.add(backend(3, 2)); // a backend marked down: not in the table

        assertEquals(MaglevFingerprint.of(table, eligible), MaglevFingerprint.of(table, all));
    }

    @Test
    void fitsInFiftyTwoBitsSoAFloat64HoldsItExactly()
    {
        for (int n = 1; n <= 20; n++)
        {
            final List<MaglevBackend> backends = new ArrayList<>();
            for (int i = 0; i < n; i++)
            {
                backends.add(backend(i + 1, i));
            }
            final long value = fingerprint(backends);
            assertTrue(value >= 0 && value < 1L << MaglevFingerprint.BITS, Long.toHexString(value));
            assertEquals(value, (long)(double)value);
        }
    }

    @Test
    void emptyTableHasAFingerprintToo()
    {
        final MaglevTable empty = MaglevTable.empty(M);

        assertEquals(MaglevFingerprint.of(empty, List.of()), MaglevFingerprint.of(empty, List.of(backend(1, 0))));
        assertNotEquals(MaglevFingerprint.of(empty, List.of()), fingerprint(List.of(backend(1, 0))));
    }

    @Test
    void refusesASlotIdOfNoBackend()
    {
        final MaglevTable table = new MaglevTableBuilder(M, SEED).build(List.of(backend(1, 4)));

        assertThrows(IllegalArgumentException.class, () -> MaglevFingerprint.of(table, List.of(backend(1, 3))));
    }
}
