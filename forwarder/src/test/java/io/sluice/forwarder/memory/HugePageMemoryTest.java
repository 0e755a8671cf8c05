package io.sluice.forwarder.memory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link HugePageMemory} says about its pages: counted from smaps, the mappings that overlap the memory
 * only and each at most up to the overlap; and on this machine (THP madvise or always) the kernel's own answer.
 */
class HugePageMemoryTest
{
    @Test
    void countsTheHugePagesOfTheMappingsThatOverlapTheMemory(@TempDir final Path dir) throws IOException
    {
        final HugePageMemory memory = HugePageMemory.allocate(4 * HugePageMemory.HUGE_PAGE);
        final long start = memory.address();
        final long end = start + memory.length();
        final long page = HugePageMemory.HUGE_PAGE;
        final Path smaps = dir.resolve("smaps");
        Files.writeString(smaps, String.join("\n",
            mapping(start - 8 * page, start - page, 6 * page), // before: not counted
            mapping(start - page, start + page, 2 * page), // overlaps one page of the memory: at most that
            "VmFlags: rd wr mr mw me ac hg",
            mapping(start + page, end, 2 * page), // inside: 2 of its 3 pages huge
            mapping(end, end + 4 * page, 4 * page)) + "\n"); // after: not counted
        assertEquals(3 * page, memory.hugePageBytes(smaps));
    }

    @Test
    void saysWhetherTheKernelReallyGaveHugePages() throws IOException
    {
        final HugePageMemory memory = HugePageMemory.allocate(16 * HugePageMemory.HUGE_PAGE);
        final long huge = memory.hugePageBytes(Path.of("/proc/self/smaps"));
        final String mode = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
        if (memory.hugePages() && !mode.contains("[never]"))
        {
            // Advised and zeroed after the advice: every page faulted in huge unless memory is fragmented.
            assertTrue(huge > 0, "the kernel put none of 32 MiB in huge pages: " + memory.describe());
            if (huge == memory.length())
            {
                assertEquals("32 MiB, all in 2 MiB pages", memory.describe());
            }
        }
        else
        {
            assertTrue(memory.describe().contains("NOT all in huge pages"), memory.describe());
        }
        final HugePageMemory small = HugePageMemory.allocate(4096);
        // smaps counts huge pages per mapping: a 4 KiB allocation the kernel merged into a neighbour's mapping that
        // holds huge pages reports its overlap (seen once in CI), never more than its own length.
        final long smallHuge = small.hugePageBytes(Path.of("/proc/self/smaps"));
        assertTrue(smallHuge == 0 || smallHuge == 4096, "huge bytes of a 4 KiB allocation: " + smallHuge);
        assertEquals("0 MiB, in 4 KiB pages (smaller than a huge page)", small.describe());
    }

    private static String mapping(final long from, final long to, final long hugeBytes)
    {
        return Long.toHexString(from) + "-" + Long.toHexString(to) + " rw-p 00000000 00:00 0\n" +
            "Size:           " + (to - from) / 1024 + " kB\n" +
            "AnonHugePages:  " + hugeBytes / 1024 + " kB";
    }
}
