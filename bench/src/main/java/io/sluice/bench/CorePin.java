package io.sluice.bench;

import io.sluice.common.cli.CommandLines;

import net.openhft.affinity.AffinityLock;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Pins a benchmark's measuring thread to one CPU, as the forwarder pins a worker (the same OpenHFT affinity call,
 * {@code AffinityLock.acquireLock(int[])}, which takes exactly the CPU asked for).
 */
final class CorePin
{
    private CorePin()
    {
    }

    /**
     * Pins the calling thread.
     *
     * @param spec   the command, for the usage error.
     * @param option the option that named the CPU.
     * @param cpu    the CPU, or -1 for none.
     * @return the lock to close when done, or null when {@code cpu} is -1.
     * @throws picocli.CommandLine.ParameterException when the thread could not be pinned to that CPU.
     */
    static AffinityLock pin(final CommandSpec spec, final String option, final int cpu)
    {
        if (cpu == -1)
        {
            return null;
        }
        final AffinityLock lock = cpu >= 0 ? AffinityLock.acquireLock(new int[] {cpu}) : null;
        if (lock == null || !lock.isAllocated() || lock.cpuId() != cpu)
        {
            if (lock != null)
            {
                lock.release();
            }
            throw CommandLines.usageError(spec, option + " " + cpu + ": could not pin the thread to that CPU");
        }
        return lock;
    }
}
