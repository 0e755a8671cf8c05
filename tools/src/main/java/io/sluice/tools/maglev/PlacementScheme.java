package io.sluice.tools.maglev;

/**
 * A way of placing flows on backends, compared by {@link RemapTool}. Backends are named by their index
 * {@code 0..N-1}; a scheme builds a placement for any subset of them.
 */
interface PlacementScheme
{
    /**
     * Returns the scheme's short name, as printed in JSON.
     *
     * @return "modulo", "ring" or "maglev".
     */
    String name();

    /**
     * Returns a description with the scheme's parameters, for the human-readable table.
     *
     * @return label such as "ring, 100 vnodes".
     */
    String label();

    /**
     * Builds the placement for a set of backends.
     *
     * @param backends backend indices, ascending.
     * @return the placement.
     */
    Placement build(int[] backends);

    /**
     * Flow to backend, for one set of backends.
     */
    @FunctionalInterface
    interface Placement
    {
        /**
         * Picks a flow's backend.
         *
         * @param flowHash the flow's 64-bit hash.
         * @return the backend index.
         */
        int backendOf(long flowHash);
    }
}
