package io.sluice.forwarder.agent;

import net.openhft.affinity.Affinity;
import net.openhft.affinity.AffinityLock;
import net.openhft.affinity.LockCheck;
import net.openhft.affinity.impl.NullAffinity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Worker cores reserved with OpenHFT affinity's {@link AffinityLock}: the lock is a file lock on
 * {@code cpu-N.lock} in {@code java.io.tmpdir} ({@code /tmp}), so every process on the machine that reserves cores
 * this way sees it, and the kernel drops it when the holder dies. The file names the holder's pid.
 * <p>
 * {@code AffinityLock.acquireLock(int[])} is the call that takes exactly the core asked for: it takes core 0 too and
 * never falls back to another core ({@code acquireLock(int)} refuses core 0 and moves to any free core, and the
 * reservable set {@code affinity.reserved} does not apply). It pins the calling thread with
 * {@code sched_setaffinity}, also to a core outside the affinity the process started with (within its cpuset;
 * a core outside the cpuset fails with EINVAL, which {@code NodeCheck} refuses before anything starts).
 */
public final class AffinityWorkerCores implements WorkerCores
{
    /** The one instance: the lock inventory is per JVM anyway. */
    public static final AffinityWorkerCores INSTANCE = new AffinityWorkerCores();

    private AffinityWorkerCores()
    {
    }

    @Override
    public Reservation reserve(final int core)
    {
        if (Affinity.getAffinityImpl() instanceof NullAffinity)
        {
            // JNA did not load (a noexec /tmp, say): nothing could pin the thread, so say so rather than run unpinned.
            throw new IllegalStateException("cannot reserve core " + core + ": OpenHFT affinity has no native " +
                "affinity support here (JNA did not load)");
        }
        // The library's off-by-one: a core equal to the number of CPUs throws inside instead of refusing.
        if (core < 0 || core >= AffinityLock.cpuLayout().cpus())
        {
            throw new IllegalStateException("cannot reserve core " + core + ": the machine has " +
                AffinityLock.cpuLayout().cpus() + " CPUs");
        }
        final AffinityLock lock = AffinityLock.acquireLock(new int[] {core});
        if (lock.isAllocated() && lock.cpuId() == core)
        {
            return lock::release;
        }
        final CoreHolder holder = holder(core);
        throw new CoreHeldException(holder != null ? holder :
            new CoreHolder(core, CoreHolder.NO_PID, "", "", lockFile(core)));
    }

    /**
     * Tells who holds a core, from its lock file; what the forwarder checks for every worker core before EAL starts.
     *
     * @param core the CPU.
     * @return the holder, or null when the core is free.
     */
    public static CoreHolder holder(final int core)
    {
        if (LockCheck.isCpuFree(core))
        {
            return null;
        }
        final Path file = lockFile(core);
        long pid = CoreHolder.NO_PID;
        try
        {
            final int lockPid = LockCheck.getProcessForCpu(core);
            pid = lockPid > 0 ? lockPid : CoreHolder.NO_PID;
        }
        catch (final IOException ex)
        {
            // no pid
        }
        return new CoreHolder(core, pid, since(file), pid == CoreHolder.NO_PID ? "" : command(pid), file);
    }

    /**
     * Returns a core's lock file, where OpenHFT affinity keeps it.
     *
     * @param core the CPU.
     * @return {@code java.io.tmpdir/cpu-N.lock}.
     */
    public static Path lockFile(final int core)
    {
        return Path.of(System.getProperty("java.io.tmpdir"), "cpu-" + core + ".lock");
    }

    // The second line of the lock file: when the holder took the core.
    private static String since(final Path file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.size() > 1 ? lines.get(1).strip() : "";
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static String command(final long pid)
    {
        try
        {
            final byte[] bytes = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            final List<String> argv = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < bytes.length; i++)
            {
                if (bytes[i] == 0)
                {
                    argv.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            return CoreHolder.shortCommand(argv);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
