package io.sluice.tools.maglev;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MaglevToolTest
{
    private static String json(final String... args)
    {
        final ToolRun run = ToolRun.of(MaglevTool::run, args);
        assertEquals(0, run.status(), run.err());
        return run.out().strip();
    }

    // Expected checksums printed by the independent C reference, native/build/maglev_ref.
    @ParameterizedTest
    @CsvSource({"10, 65537, 0, 70c9a3f043c78633", "1000, 65537, 0, 189da88888f43087"})
    void buildsTheSameTableAsTheCReference(final int backends, final int tableSize, final long seed,
        final String checksum)
    {
        final String line = json("--backends", Integer.toString(backends), "--table-size",
            Integer.toString(tableSize), "--seed", Long.toString(seed), "--iterations", "1", "--warmup", "0",
            "--json");
        assertEquals(checksum, ToolRun.field(line, "checksum"), line);
        assertEquals(backends, (int)ToolRun.number(line, "backends"));
        assertEquals(tableSize, (int)ToolRun.number(line, "table_size"));
        assertTrue(ToolRun.number(line, "build_ms") > 0, line);
    }

    @Test
    void givesEveryBackendItsShareWithinOneSlot()
    {
        final String line = json("--backends", "10", "--table-size", "65537", "--iterations", "1", "--warmup", "0",
            "--json");
        assertEquals(6553, (int)ToolRun.number(line, "min_slots"), line);
        assertEquals(6554, (int)ToolRun.number(line, "max_slots"), line);
    }

    @Test
    void checksumsSlotsAsLittleEndianInt32WithFnv1a()
    {
        assertEquals(0xcbf29ce484222325L, MaglevTool.checksum(new int[0]));
        // bytes "abcd": FNV-1a 64 of "abcd" is fc179f83ee0724dd
        assertEquals(0xfc179f83ee0724ddL, MaglevTool.checksum(new int[]{0x64636261}));
    }

    @Test
    void printsTextByDefault()
    {
        final ToolRun run = ToolRun.of(MaglevTool::run, "--backends", "10", "--table-size", "65537",
            "--iterations", "1", "--warmup", "0");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("70c9a3f043c78633"), run.out());
        assertTrue(run.out().contains("min 6553, max 6554"), run.out());
    }

    @Test
    void rejectsNonPrimeTableSize()
    {
        final ToolRun run = assertRejected("--table-size", "--backends", "10", "--table-size", "65536");
        assertTrue(run.err().contains("prime"), run.err());
        assertTrue(run.err().contains("65521, 65537"), run.err());
    }

    @Test
    void rejectsMissingTableSize()
    {
        assertRejected("--table-size is required", "--backends", "10");
    }

    @Test
    void rejectsZeroIterations()
    {
        assertRejected("--iterations must be an integer in [1, ", "--backends", "10", "--table-size", "65537",
            "--iterations", "0");
    }

    @Test
    void rejectsOptionGivenTwice()
    {
        assertRejected("--backends is given twice", "--backends", "10", "--backends", "11", "--table-size", "7");
    }

    private static ToolRun assertRejected(final String expected, final String... args)
    {
        final ToolRun run = ToolRun.of(MaglevTool::run, args);
        assertEquals(2, run.status(), run.out());
        assertTrue(run.err().contains(expected), run.err());
        assertTrue(run.err().contains("usage: MaglevTool"), run.err());
        return run;
    }
}
