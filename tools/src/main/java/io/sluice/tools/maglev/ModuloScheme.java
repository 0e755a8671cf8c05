package io.sluice.tools.maglev;

/**
 * Plain modulo placement: flow hash mod the number of backends, as an unsigned 64-bit value. Balances well and
 * moves almost every flow when the set changes: the baseline consistent hashing improves on.
 */
final class ModuloScheme implements PlacementScheme
{
    @Override
    public String name()
    {
        return "modulo";
    }

    @Override
    public String label()
    {
        return "modulo";
    }

    @Override
    public Placement build(final int[] backends)
    {
        final int[] chosen = backends.clone();
        final int n = chosen.length;
        return (flowHash) -> chosen[(int)Long.remainderUnsigned(flowHash, n)];
    }
}
