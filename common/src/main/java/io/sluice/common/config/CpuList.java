package io.sluice.common.config;

import java.util.BitSet;

/**
 * A set of CPUs in the kernel's list format ({@code 0-3,8,10-11}), as in {@code /sys/devices/system/cpu/online},
 * {@code Cpus_allowed_list} of {@code /proc/self/status} and cgroup {@code cpuset} files. Immutable.
 */
public final class CpuList
{
    private final BitSet cpus;

    private CpuList(final BitSet cpus)
    {
        this.cpus = cpus;
    }

    /**
     * Returns CPUs 0 to count - 1.
     *
     * @param count how many; at least 1.
     * @return the set.
     */
    public static CpuList firstCores(final int count)
    {
        final BitSet cpus = new BitSet();
        cpus.set(0, count);
        return new CpuList(cpus);
    }

    /**
     * Parses the kernel's list format.
     *
     * @param text e.g. {@code 0-3,8}; blanks around it are ignored.
     * @return the set.
     * @throws IllegalArgumentException when the text is not a CPU list.
     */
    public static CpuList parse(final String text)
    {
        final BitSet cpus = new BitSet();
        final String trimmed = text.strip();
        if (trimmed.isEmpty())
        {
            return new CpuList(cpus);
        }
        for (final String part : trimmed.split(","))
        {
            final int dash = part.indexOf('-');
            try
            {
                final int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                final int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                if (from < 0 || to < from || to > 1 << 16)
                {
                    throw new IllegalArgumentException("not a CPU list: \"" + text + "\"");
                }
                cpus.set(from, to + 1);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("not a CPU list: \"" + text + "\"", ex);
            }
        }
        return new CpuList(cpus);
    }

    /**
     * Tells whether a CPU is in the set.
     *
     * @param cpu the CPU number.
     * @return true when it is.
     */
    public boolean contains(final int cpu)
    {
        return cpu >= 0 && cpus.get(cpu);
    }

    /**
     * Returns how many CPUs the set holds.
     *
     * @return the count.
     */
    public int count()
    {
        return cpus.cardinality();
    }

    /**
     * Tells whether every CPU of this set is in another.
     *
     * @param other the other set.
     * @return true when this is a subset of other.
     */
    public boolean isSubsetOf(final CpuList other)
    {
        final BitSet rest = (BitSet)cpus.clone();
        rest.andNot(other.cpus);
        return rest.isEmpty();
    }

    /**
     * Describes the set for a message: {@code only core 0}, {@code cores 0-1}.
     *
     * @return the description.
     */
    public String describe()
    {
        return count() == 1 ? "only core " + this : "cores " + this;
    }

    /**
     * Formats the set in the kernel's list format.
     *
     * @return e.g. {@code 0-3,8}; empty for no CPU.
     */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (int from = cpus.nextSetBit(0); from >= 0; from = cpus.nextSetBit(from))
        {
            final int end = cpus.nextClearBit(from);
            text.append(text.length() == 0 ? "" : ",").append(from);
            if (end - 1 > from)
            {
                text.append('-').append(end - 1);
            }
            from = end;
        }
        return text.toString();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof CpuList list && list.cpus.equals(cpus);
    }

    @Override
    public int hashCode()
    {
        return cpus.hashCode();
    }
}
