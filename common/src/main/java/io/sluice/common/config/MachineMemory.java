package io.sluice.common.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The memory a forwarder starting now could have: RAM the kernel can hand out without swapping
 * ({@code MemAvailable}), free hugepages of every size, and free space on the filesystem of {@code counters_dir}
 * (a tmpfs, whose pages are RAM too), and the Java heap the forwarder's JVM may grow to. {@link #UNKNOWN} where a
 * figure cannot be read: nothing is refused for it.
 * <p>
 * The heap is this JVM's {@code Runtime.maxMemory()} ({@code -Xmx}, else the JVM's default share of RAM): the
 * launcher ({@code scripts/sluice}, the systemd units) starts the forwarder, the controller and {@code check-config}
 * with the same JVM options ({@code SLUICE_JAVA_OPTS}), so the heap this process has is the one the forwarder runs
 * with; the forwarder itself checks its own.
 *
 * @param availableBytes     {@code MemAvailable} of {@code /proc/meminfo}.
 * @param freeHugePageBytes  free hugepages of all sizes ({@code /sys/kernel/mm/hugepages/hugepages-*}), in bytes.
 * @param sharedFreeBytes    usable space of the filesystem holding {@code counters_dir} (or its nearest ancestor).
 * @param maxHeapBytes       the JVM's maximum heap ({@code -Xmx} / {@code MaxHeapSize}).
 */
public record MachineMemory(long availableBytes, long freeHugePageBytes, long sharedFreeBytes, long maxHeapBytes)
{
    /** A figure that could not be read. */
    public static final long UNKNOWN = Long.MAX_VALUE;

    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final Path HUGEPAGES = Path.of("/sys/kernel/mm/hugepages");

    /**
     * Figures with the heap unknown (not checked).
     *
     * @param availableBytes    {@code MemAvailable}.
     * @param freeHugePageBytes free hugepages, in bytes.
     * @param sharedFreeBytes   usable space of {@code counters_dir}'s filesystem.
     */
    public MachineMemory(final long availableBytes, final long freeHugePageBytes, final long sharedFreeBytes)
    {
        this(availableBytes, freeHugePageBytes, sharedFreeBytes, UNKNOWN);
    }

    /**
     * Reads this machine's figures.
     *
     * @param countersDir the configured {@code counters_dir}; it need not exist yet.
     * @return the figures.
     */
    public static MachineMemory probe(final Path countersDir)
    {
        // maxMemory() is Long.MAX_VALUE when the heap has no limit: UNKNOWN, nothing refused.
        return new MachineMemory(memAvailable(), freeHugePages(), usableSpace(countersDir),
            Runtime.getRuntime().maxMemory());
    }

    private static long memAvailable()
    {
        try
        {
            for (final String line : Files.readAllLines(MEMINFO))
            {
                if (line.startsWith("MemAvailable:"))
                {
                    return kib(line.substring("MemAvailable:".length()));
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // unknown
        }
        return UNKNOWN;
    }

    private static long kib(final String text)
    {
        final String value = text.strip();
        final String number = value.endsWith("kB") ? value.substring(0, value.length() - 2).strip() : value;
        return Long.parseLong(number) * 1024;
    }

    // hugepages-2048kB/free_hugepages, hugepages-1048576kB/free_hugepages, ...
    private static long freeHugePages()
    {
        if (!Files.isDirectory(HUGEPAGES))
        {
            return 0;
        }
        long total = 0;
        try (Stream<Path> sizes = Files.list(HUGEPAGES))
        {
            for (final Path size : (Iterable<Path>)sizes::iterator)
            {
                final String name = size.getFileName().toString();
                if (name.startsWith("hugepages-") && name.endsWith("kB"))
                {
                    final long pageBytes = Long.parseLong(name.substring("hugepages-".length(), name.length() - 2)) *
                        1024;
                    total += Long.parseLong(Files.readString(size.resolve("free_hugepages")).strip()) * pageBytes;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return UNKNOWN;
        }
        return total;
    }

    private static long usableSpace(final Path dir)
    {
        for (Path at = dir.toAbsolutePath(); at != null; at = at.getParent())
        {
            if (Files.exists(at))
            {
                try
                {
                    return Files.getFileStore(at).getUsableSpace();
                }
                catch (final IOException ex)
                {
                    return UNKNOWN;
                }
            }
        }
        return UNKNOWN;
    }
}
