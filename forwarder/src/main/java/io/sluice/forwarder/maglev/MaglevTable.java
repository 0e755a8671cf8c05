package io.sluice.forwarder.maglev;

/**
 * An immutable Maglev lookup table: {@code M} slots, each holding the id of the backend that owns it, or
 * {@link #NO_BACKEND} when the table was built from no eligible backend.
 * <p>
 * A lookup maps a 64-bit flow hash to a slot with a multiply-shift range reduction of the hash's upper 32 bits
 * (Lemire, "A fast alternative to the modulo reduction") instead of {@code hash % M}: one multiplication, no
 * division, and just as uniform. Every Sluice forwarder uses the same reduction, so they agree on the slot.
 */
public final class MaglevTable
{
    /**
     * Slot value when no backend is eligible.
     */
    public static final int NO_BACKEND = -1;

    private final int[] slots;
    private final int size;

    MaglevTable(final int[] slots)
    {
        this.slots = slots;
        this.size = slots.length;
    }

    /**
     * Creates a table of {@code size} slots with no backend.
     *
     * @param size number of slots.
     * @return an empty table.
     */
    public static MaglevTable empty(final int size)
    {
        final int[] slots = new int[size];
        java.util.Arrays.fill(slots, NO_BACKEND);
        return new MaglevTable(slots);
    }

    /**
     * Finds the backend for a flow hash.
     *
     * @param hash the flow's 64-bit hash.
     * @return the backend id in the flow's slot, or {@link #NO_BACKEND}.
     */
    public int lookup(final long hash)
    {
        return slots[slotOf(hash, size)];
    }

    /**
     * Maps a hash to a slot index in {@code [0, size)}.
     *
     * @param hash the flow's 64-bit hash.
     * @param size the number of slots.
     * @return the slot index.
     */
    public static int slotOf(final long hash, final int size)
    {
        return (int)(((hash >>> 32) * size) >>> 32);
    }

    /**
     * Returns the number of slots.
     *
     * @return the number of slots, M.
     */
    public int size()
    {
        return size;
    }

    /**
     * Returns the backend id in one slot.
     *
     * @param slot index in {@code [0, size)}.
     * @return the id, or {@link #NO_BACKEND}.
     */
    public int slot(final int slot)
    {
        return slots[slot];
    }

    /**
     * Counts the slots each backend id owns.
     *
     * @param maxId the largest id that can appear.
     * @return an array indexed by id.
     */
    public int[] slotCounts(final int maxId)
    {
        final int[] counts = new int[maxId + 1];
        for (final int id : slots)
        {
            if (id != NO_BACKEND)
            {
                counts[id]++;
            }
        }
        return counts;
    }
}
