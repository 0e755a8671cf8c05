package io.sluice.tools.maglev;

import io.sluice.common.json.JsonWriter;

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
        return new JsonWriter().beginObject()
            .field("scheme", scheme)
            .field("label", label)
            .field("backends", backends)
            .field("removed", removed)
            .field("flows", flows)
            .name("max_over_fair").fixed(maxOverFair, 4)
            .name("min_over_fair").fixed(minOverFair, 4)
            .name("moved_pct").fixed(movedPct, 4)
            .name("needless_pct").fixed(needlessPct, 4)
            .endObject().toString();
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
