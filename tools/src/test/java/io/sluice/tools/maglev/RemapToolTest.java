package io.sluice.tools.maglev;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemapToolTest
{
    private static String[] jsonLines(final int backends, final int remove, final int flows)
    {
        final ToolRun run = ToolRun.of(RemapTool::run, "--backends", Integer.toString(backends),
            "--remove", Integer.toString(remove), "--flows", Integer.toString(flows), "--json");
        assertEquals(0, run.status(), run.err());
        final String[] lines = run.out().strip().split("\n");
        assertEquals(3, lines.length, run.out());
        return lines;
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 100})
    void maglevMovesFewFlowsNeedlesslyWhileModuloMovesMost(final int backends)
    {
        final String[] lines = jsonLines(backends, 1, 500_000);
        final String modulo = lines[0];
        final String ring = lines[1];
        final String maglev = lines[2];
        assertEquals("modulo", ToolRun.field(modulo, "scheme"));
        assertEquals("ring", ToolRun.field(ring, "scheme"));
        assertEquals("maglev", ToolRun.field(maglev, "scheme"));

        assertTrue(ToolRun.number(modulo, "moved_pct") > 80, modulo);
        assertTrue(ToolRun.number(maglev, "needless_pct") < 1, maglev);
        final double fairPct = 100.0 / backends;
        final double maglevMoved = ToolRun.number(maglev, "moved_pct");
        assertTrue(maglevMoved > 0.95 * fairPct && maglevMoved < fairPct + 1, maglev);
        assertTrue(ToolRun.number(maglev, "max_over_fair") < 1.06, maglev);
        assertTrue(ToolRun.number(maglev, "min_over_fair") > 0.94, maglev);
    }

    @Test
    void ringMovesOnlyTheRemovedBackendsFlows()
    {
        final String ring = jsonLines(20, 3, 100_000)[1];
        assertEquals(0.0, ToolRun.number(ring, "needless_pct"), ring);
        assertTrue(ToolRun.number(ring, "moved_pct") > 5, ring);
    }

    @Test
    void movesNothingWhenNothingIsRemoved()
    {
        for (final String line : jsonLines(10, 0, 10_000))
        {
            assertEquals(0.0, ToolRun.number(line, "moved_pct"), line);
        }
    }

    @Test
    void removesDistinctEvenlySpacedBackends()
    {
        assertArrayEquals(new int[]{5}, RemapTool.removedBackends(10, 1));
        assertArrayEquals(new int[]{50}, RemapTool.removedBackends(100, 1));
        assertArrayEquals(new int[]{1, 3, 5, 7, 9}, RemapTool.removedBackends(10, 5));
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8}, RemapTool.removedBackends(9, 9));
    }

    @Test
    void givesTheSameFiguresForTheSameSeeds()
    {
        final String[] args = {"--backends", "30", "--remove", "2", "--flows", "20000", "--seed", "5", "--json"};
        assertEquals(ToolRun.of(RemapTool::run, args).out(), ToolRun.of(RemapTool::run, args).out());
    }

    @Test
    void printsATableByDefault()
    {
        final ToolRun run = ToolRun.of(RemapTool::run, "--backends", "10", "--remove", "1", "--flows", "1000");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("ring, 100 vnodes"), run.out());
        assertTrue(run.out().contains("maglev M=65537"), run.out());
        assertTrue(run.out().contains("needlessly"), run.out());
    }

    @Test
    void rejectsRemovingEveryBackend()
    {
        assertRejected("--remove", "--backends", "10", "--remove", "10", "--flows", "1000");
    }

    @Test
    void rejectsNonPrimeTableSize()
    {
        final ToolRun run = assertRejected("--table-size", "--backends", "10", "--remove", "1", "--flows", "1000",
            "--table-size", "65536");
        assertTrue(run.err().contains("prime"), run.err());
    }

    @Test
    void rejectsMissingFlows()
    {
        assertRejected("--flows is required", "--backends", "10", "--remove", "1");
    }

    @Test
    void rejectsNonNumericBackends()
    {
        assertRejected("--backends must be an integer", "--backends", "ten", "--remove", "1", "--flows", "10");
    }

    @Test
    void rejectsUnknownOption()
    {
        assertRejected("--frobnicate", "--backends", "10", "--remove", "1", "--flows", "10", "--frobnicate");
    }

    @Test
    void rejectsOptionWithoutValue()
    {
        assertRejected("--flows needs a value", "--backends", "10", "--remove", "1", "--flows");
    }

    @Test
    void printsHelpAndSucceeds()
    {
        final ToolRun run = ToolRun.of(RemapTool::run, "--help");
        assertEquals(0, run.status());
        assertTrue(run.out().startsWith("usage: RemapTool"), run.out());
    }

    private static ToolRun assertRejected(final String expected, final String... args)
    {
        final ToolRun run = ToolRun.of(RemapTool::run, args);
        assertEquals(2, run.status(), run.out());
        assertTrue(run.err().contains(expected), run.err());
        assertTrue(run.err().contains("usage: RemapTool"), run.err());
        assertEquals("", run.out());
        return run;
    }
}
