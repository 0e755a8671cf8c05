package io.sluice.forwarder.agent;

import java.util.Arrays;

/**
 * Which shared counter ids belong to which VIP and backend slot, per worker: an immutable map the control thread
 * publishes whenever a VIP or backend comes or goes, and workers read at each counters flush.
 * <p>
 * Each entry records the slot generation it was allocated for. A worker writes a slot's counters only when that
 * generation equals the generation of the snapshot it forwards with, so a map and a snapshot published a moment
 * apart never attribute one backend's packets to another.
 */
final class SlotCounterMap
{
    static final SlotCounterMap EMPTY = new SlotCounterMap(new int[0], new int[0], new int[0][0], new int[0],
        new int[0], new int[0][0]);

    final int[] vipSlots;
    final int[] vipGenerations;
    // [worker][i] -> {packets id, bytes id} interleaved, i indexing vipSlots
    final int[][] vipIds;
    final int[] backendSlots;
    final int[] backendGenerations;
    final int[][] backendIds;

    SlotCounterMap(
        final int[] vipSlots,
        final int[] vipGenerations,
        final int[][] vipIds,
        final int[] backendSlots,
        final int[] backendGenerations,
        final int[][] backendIds)
    {
        this.vipSlots = vipSlots;
        this.vipGenerations = vipGenerations;
        this.vipIds = vipIds;
        this.backendSlots = backendSlots;
        this.backendGenerations = backendGenerations;
        this.backendIds = backendIds;
    }

    @Override
    public String toString()
    {
        return "SlotCounterMap{vips=" + Arrays.toString(vipSlots) + ", backends=" + Arrays.toString(backendSlots) +
            '}';
    }
}
