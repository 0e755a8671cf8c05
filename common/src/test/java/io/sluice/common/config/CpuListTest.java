package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuListTest
{
    @Test
    void readsTheKernelListFormat()
    {
        final CpuList cpus = CpuList.parse("0-3,8,10-11\n");
        assertEquals(7, cpus.count());
        assertTrue(cpus.contains(3) && cpus.contains(8) && cpus.contains(11));
        assertFalse(cpus.contains(4) || cpus.contains(9) || cpus.contains(-1));
        assertEquals("0-3,8,10-11", cpus.toString());
        assertEquals("cores 0-3,8,10-11", cpus.describe());
        assertEquals("only core 1", CpuList.parse("1").describe());
        assertEquals(CpuList.firstCores(2), CpuList.parse("0,1"));
        assertTrue(CpuList.parse("1").isSubsetOf(CpuList.parse("0-1")));
        assertFalse(CpuList.parse("0-2").isSubsetOf(CpuList.parse("0-1")));
    }

    @Test
    void refusesWhatIsNoCpuList()
    {
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("0-"));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("a"));
    }

    @Test
    void probesThisMachine()
    {
        final MachineCpus cpus = MachineCpus.probe();
        assertTrue(cpus.online().count() >= Runtime.getRuntime().availableProcessors(), cpus.toString());
        assertTrue(cpus.affinity().isSubsetOf(cpus.online()), cpus.toString());
        assertEquals(Runtime.getRuntime().availableProcessors(), cpus.affinity().count(), cpus.toString());
    }
}
