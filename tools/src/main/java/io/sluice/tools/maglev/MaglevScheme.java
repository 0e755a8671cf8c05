package io.sluice.tools.maglev;

import io.sluice.forwarder.maglev.MaglevBackend;
import io.sluice.forwarder.maglev.MaglevTable;
import io.sluice.forwarder.maglev.MaglevTableBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Maglev placement exactly as the forwarder does it: a {@link MaglevTableBuilder} table over the backends'
 * addresses ({@link BenchmarkBackends}), and {@link MaglevTable#lookup} for the flow-to-slot mapping.
 */
final class MaglevScheme implements PlacementScheme
{
    private final MaglevTableBuilder builder;

    /**
     * Creates the scheme.
     *
     * @param tableSize M, a prime.
     * @param seed      hash seed of the permutations.
     */
    MaglevScheme(final int tableSize, final long seed)
    {
        builder = new MaglevTableBuilder(tableSize, seed);
    }

    @Override
    public String name()
    {
        return "maglev";
    }

    @Override
    public String label()
    {
        return "maglev M=" + builder.size();
    }

    @Override
    public Placement build(final int[] backends)
    {
        final List<MaglevBackend> list = new ArrayList<>(backends.length);
        for (final int backend : backends)
        {
            list.add(new MaglevBackend(BenchmarkBackends.identity(backend), 1, backend));
        }
        final MaglevTable table = builder.build(list);
        return table::lookup;
    }
}
