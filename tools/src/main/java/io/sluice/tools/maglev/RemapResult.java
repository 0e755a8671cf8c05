package io.sluice.tools.maglev;

import java.util.Locale;

/**
 * What {@link RemapTool} measured for one scheme: the load spread before the removal and the flows that changed
 * backend because of it.
 *
 * @param scheme      short scheme name ("modulo", "ring", "maglev").
 * @param label       scheme with its parameters, for people.
 * @param backends    backends before the removal, N.
 * @param removed     backends removed, K.
 * @param flows       flows sent through, F.
 * @param maxOverFair flows of the busiest backend before the removal, over the fair share F / N.
 * @param minOverFair flows of the idlest backend before the removal, over F / N.
 * @param movedPct    percent of flows whose backend changed.
 * @param needlessPct percent of flows whose backend changed although it was not removed.
 */
public record RemapResult(
    String scheme,
    String label,
    int backends,
    int removed,
    int flows,
    double maxOverFair,
    double minOverFair,
    double movedPct,
    double needlessPct)
{
    /**
     * Formats the result as one JSON object on one line.
     *
     * @return JSON text.
     */
    public String toJson()
    {
        return String.format(Locale.ROOT,
            "{\"scheme\":\"%s\",\"label\":\"%s\",\"backends\":%d,\"removed\":%d,\"flows\":%d," +
            "\"max_over_fair\":%.4f,\"min_over_fair\":%.4f,\"moved_pct\":%.4f,\"needless_pct\":%.4f}",
            scheme, label, backends, removed, flows, maxOverFair, minOverFair, movedPct, needlessPct);
    }

    /**
     * Formats the result as a row of the human-readable table.
     *
     * @return one line.
     */
    public String toRow()
    {
        return String.format(Locale.ROOT, "N=%-5d K=%-3d %-18s load max/min %.3f/%.3f  flows moved %6.2f%%  " +
            "of which needlessly %6.2f%%", backends, removed, label, maxOverFair, minOverFair, movedPct, needlessPct);
    }
}
