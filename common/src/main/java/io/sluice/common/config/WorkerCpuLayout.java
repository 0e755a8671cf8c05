package io.sluice.common.config;

import net.openhft.affinity.CpuLayout;
import net.openhft.affinity.impl.VanillaCpuLayout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine's CPUs as sockets, physical cores and hyperthreads, from OpenHFT affinity's {@link CpuLayout}
 * ({@link VanillaCpuLayout#fromCpuInfo()}: {@code physical id} and {@code core id} of {@code /proc/cpuinfo}), and
 * what it says about the worker cores: two workers on hyperthread siblings (one physical core: same socket, same
 * core id) share its execution units and caches, so each runs slower than on a core of its own. With
 * {@link NumaLayout}, which names the CPU's socket in its remote-port warning.
 */
public final class WorkerCpuLayout
{
    /** The layout of a machine whose {@code /proc/cpuinfo} could not be read: no CPU known, nothing warned. */
    public static final WorkerCpuLayout UNKNOWN = new WorkerCpuLayout(null);

    private final CpuLayout layout;

    private WorkerCpuLayout(final CpuLayout layout)
    {
        this.layout = layout;
    }

    /**
     * Wraps a layout (a {@link VanillaCpuLayout} read from a cpuinfo text in tests).
     *
     * @param layout the CPUs.
     * @return the layout.
     */
    public static WorkerCpuLayout of(final CpuLayout layout)
    {
        return new WorkerCpuLayout(layout);
    }

    /**
     * Reads this machine's layout from {@code /proc/cpuinfo}.
     *
     * @return the layout, or {@link #UNKNOWN} when it cannot be read.
     */
    public static WorkerCpuLayout probe()
    {
        try
        {
            return new WorkerCpuLayout(VanillaCpuLayout.fromCpuInfo());
        }
        catch (final IOException | RuntimeException ex)
        {
            return UNKNOWN; // no cpuinfo, or one without physical/core ids (some VMs, some ARM kernels)
        }
    }

    /**
     * Tells whether the layout says anything about a CPU.
     *
     * @param cpu a CPU number.
     * @return true when the CPU is in the layout.
     */
    public boolean knows(final int cpu)
    {
        return layout != null && cpu >= 0 && cpu < layout.cpus();
    }

    /**
     * Returns the socket of a CPU.
     *
     * @param cpu a CPU the layout {@link #knows(int)}.
     * @return its socket ({@code physical id}).
     */
    public int socketOf(final int cpu)
    {
        return layout.socketId(cpu);
    }

    /**
     * Describes the layout in one phrase: {@code 2 CPU(s): 1 socket(s) x 2 core(s) x 1 thread(s)}.
     *
     * @return the phrase, {@code CPU layout unknown} without one.
     */
    public String describe()
    {
        return layout == null ? "CPU layout unknown" : layout.cpus() + " CPU(s): " + layout.sockets() +
            " socket(s) x " + layout.coresPerSocket() + " core(s) x " + layout.threadsPerCore() + " thread(s)";
    }

    /**
     * Lists the workers whose core is a hyperthread sibling of an earlier worker's core (same socket, same core
     * id). Nothing when the layout is unknown or has one thread per core.
     *
     * @param forwarder the forwarder section.
     * @return one line per later worker of a pair, naming the config field, e.g.
     *         {@code forwarder.workers[1].core: core 3 is a hyperthread sibling of core 1 ...}.
     */
    public List<String> siblingWorkers(final ForwarderConfig forwarder)
    {
        final List<String> warnings = new ArrayList<>();
        final List<WorkerConfig> workers = forwarder.workers();
        for (int j = 1; j < workers.size(); j++)
        {
            final int core = workers.get(j).core();
            for (int i = 0; i < j && knows(core); i++)
            {
                final int other = workers.get(i).core();
                if (knows(other) && layout.socketId(other) == layout.socketId(core) &&
                    layout.coreId(other) == layout.coreId(core))
                {
                    warnings.add("forwarder.workers[" + j + "].core: core " + core + " is a hyperthread sibling of " +
                        "core " + other + " (forwarder.workers[" + i + "].core): both are core id " +
                        layout.coreId(core) + " of socket " + layout.socketId(core) + ", so the two workers share " +
                        "one physical core; pick cores of different physical cores");
                    break;
                }
            }
        }
        return warnings;
    }
}
