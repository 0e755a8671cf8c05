package io.sluice.common.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPUs a worker may be pinned to, and the CPUs this process started on, which are not the same thing:
 * <ul>
 *   <li>{@code online}: the machine's cores ({@code /sys/devices/system/cpu/online}); a worker core must be one;</li>
 *   <li>{@code pinnable}: the cores the process's cgroup cpuset lets it run on ({@code cpuset.cpus.effective},
 *       the online cores without a cpuset); pinning a thread anywhere else fails with EINVAL;</li>
 *   <li>{@code affinity}: the CPU affinity the process started with ({@code Cpus_allowed_list} of
 *       {@code /proc/self/status}: {@code taskset}, {@code isolcpus}, a systemd {@code CPUAffinity}). A thread may
 *       widen it within the cpuset, so a worker core outside it is allowed: that is how workers reach isolated
 *       cores while the JVM's own threads stay on the housekeeping ones. It is reported, not enforced.</li>
 * </ul>
 *
 * @param online   the machine's online cores.
 * @param pinnable the cores a thread of this process can be pinned to.
 * @param affinity the CPU affinity this process started with.
 */
public record MachineCpus(CpuList online, CpuList pinnable, CpuList affinity)
{
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CGROUPS = Path.of("/proc/self/cgroup");
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

    /**
     * Returns a machine of {@code count} cores, all pinnable and in the affinity (for tests, and for checking a file
     * meant for another machine).
     *
     * @param count the number of cores; at least 1.
     * @return the CPUs.
     */
    public static MachineCpus ofCores(final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("a machine has at least one core, got " + count);
        }
        final CpuList cores = CpuList.firstCores(count);
        return new MachineCpus(cores, cores, cores);
    }

    /**
     * Reads this machine's online cores, this process's cpuset and its CPU affinity. What cannot be read falls back
     * to the cores the JVM sees.
     *
     * @return the CPUs.
     */
    public static MachineCpus probe()
    {
        final CpuList jvm = CpuList.firstCores(Runtime.getRuntime().availableProcessors());
        final CpuList online = read(ONLINE, jvm);
        final CpuList affinity = statusAffinity(online);
        return new MachineCpus(online, cpuset(online), affinity);
    }

    private static CpuList read(final Path file, final CpuList fallback)
    {
        try
        {
            final CpuList cpus = CpuList.parse(Files.readString(file));
            return cpus.count() > 0 ? cpus : fallback;
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return fallback;
        }
    }

    private static CpuList statusAffinity(final CpuList fallback)
    {
        try
        {
            for (final String line : Files.readAllLines(STATUS))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    return CpuList.parse(line.substring("Cpus_allowed_list:".length()));
                }
            }
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            // fall through
        }
        return fallback;
    }

    // cgroup v2 ("0::/path") keeps cpuset.cpus.effective in the unified tree; v1 ("N:cpuset:/path") in its own.
    private static CpuList cpuset(final CpuList online)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(CGROUPS);
        }
        catch (final IOException ex)
        {
            return online;
        }
        for (final String line : lines)
        {
            final String[] fields = line.split(":", 3);
            if (fields.length != 3)
            {
                continue;
            }
            final String path = fields[2].startsWith("/") ? fields[2].substring(1) : fields[2];
            final Path file;
            if (fields[1].isEmpty())
            {
                file = CGROUP_ROOT.resolve(path).resolve("cpuset.cpus.effective");
            }
            else if (List.of(fields[1].split(",")).contains("cpuset"))
            {
                file = CGROUP_ROOT.resolve("cpuset").resolve(path).resolve("cpuset.effective_cpus");
            }
            else
            {
                continue;
            }
            if (Files.isReadable(file))
            {
                return read(file, online);
            }
        }
        return online;
    }
}
