package io.sluice.forwarder.memory;

import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.IgnoreError;
import org.agrona.BitUtil;
import org.agrona.UnsafeApi;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Off-heap memory for large tables, backed by transparent huge pages where the kernel offers them.
 * <p>
 * A connection table of 2^20 entries spans 64 MiB: with 4 KiB pages nearly every lookup of a cold flow misses
 * the TLB as well as the cache. Memory from {@code malloc} marked {@code MADV_HUGEPAGE}
 * before it is first touched is faulted in as 2 MiB pages (THP "madvise" mode, the common default), which
 * takes the TLB misses away. Where that is not possible (no libc binding, another OS) the memory comes from
 * ordinary pages instead, as it does with {@code -Dsluice.hugepages=false}. The memory is freed when
 * its owner becomes unreachable.
 */
public final class HugePageMemory
{
    /**
     * Size of a transparent huge page on x86-64.
     */
    public static final long HUGE_PAGE = 2L * 1024 * 1024;

    private static final int MADV_HUGEPAGE = 14;
    private static final Cleaner CLEANER = Cleaner.create();
    private static final LibC LIBC = Boolean.parseBoolean(System.getProperty("sluice.hugepages", "true")) ?
        loadLibC() : null;

    /**
     * The libc calls used here.
     */
    @IgnoreError
    public interface LibC
    {
        int madvise(long address, long length, int advice);
    }

    private final long address;
    private final long length;
    private final boolean hugePages;

    private HugePageMemory(final long address, final long length, final boolean hugePages)
    {
        this.address = address;
        this.length = length;
        this.hugePages = hugePages;
    }

    private static LibC loadLibC()
    {
        try
        {
            return LibraryLoader.create(LibC.class).failImmediately().load("c");
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
    }

    /**
     * Allocates zeroed memory, aligned to a cache line; requests of at least one huge page are aligned to one and
     * mapped with {@code MADV_HUGEPAGE}.
     *
     * @param length bytes, any positive size (a connection table of 2^30 entries is 64 GiB).
     * @return the memory; it is released once the returned object is unreachable.
     * @throws OutOfMemoryError when the memory cannot be had.
     */
    public static HugePageMemory allocate(final long length)
    {
        if (length <= 0)
        {
            throw new IllegalArgumentException("length must be > 0, got " + length);
        }
        final boolean huge = LIBC != null && length >= HUGE_PAGE;
        final long alignment = huge ? HUGE_PAGE : BitUtil.CACHE_LINE_LENGTH;
        // malloc'd, not yet touched: advise first, then zero, so the first touch faults in huge pages.
        final long base = UnsafeApi.allocateMemory(length + alignment);
        final long aligned = BitUtil.align(base, alignment);
        final boolean advised = huge && LIBC.madvise(aligned, BitUtil.align(length, HUGE_PAGE), MADV_HUGEPAGE) == 0;
        UnsafeApi.setMemory(aligned, length, (byte)0);
        final HugePageMemory memory = new HugePageMemory(aligned, length, advised);
        CLEANER.register(memory, () -> UnsafeApi.freeMemory(base));
        return memory;
    }

    /**
     * Returns the address of the first byte.
     *
     * @return the address, valid while this object is reachable.
     */
    public long address()
    {
        return address;
    }

    /**
     * Returns the length.
     *
     * @return bytes.
     */
    public long length()
    {
        return length;
    }

    /**
     * Counts the bytes of this memory the kernel holds in transparent huge pages, from {@code /proc/self/smaps}
     * (the {@code AnonHugePages} of every mapping that overlaps it, each counted at most up to the overlap): what
     * {@link #hugePages()} only asked for. Reads a file of a few hundred kilobytes; for start-up checks, never
     * for the hot path.
     *
     * @param smaps the smaps file ({@code /proc/self/smaps}).
     * @return bytes in huge pages, 0 when none (or the file cannot be read: see {@link #hugePageBytes()}).
     * @throws IOException when the file cannot be read.
     */
    public long hugePageBytes(final Path smaps) throws IOException
    {
        final long start = address;
        final long end = address + length;
        long total = 0;
        long overlap = 0;
        try (BufferedReader reader = Files.newBufferedReader(smaps))
        {
            for (String line = reader.readLine(); line != null; line = reader.readLine())
            {
                final int dash = line.indexOf('-');
                final int space = line.indexOf(' ');
                if (dash > 0 && space > dash && isHex(line, 0, dash))
                {
                    final long from = Long.parseUnsignedLong(line.substring(0, dash), 16);
                    final long to = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                    overlap = Math.max(0, Math.min(to, end) - Math.max(from, start));
                }
                else if (overlap > 0 && line.startsWith("AnonHugePages:"))
                {
                    final String kib = line.substring("AnonHugePages:".length()).replace("kB", "").trim();
                    total += Math.min(overlap, Long.parseLong(kib) * 1024);
                }
            }
        }
        return total;
    }

    /**
     * {@link #hugePageBytes(Path)} of {@code /proc/self/smaps}, or -1 when it cannot be read (not Linux).
     *
     * @return bytes in huge pages, or -1 when unknown.
     */
    public long hugePageBytes()
    {
        try
        {
            return hugePageBytes(Path.of("/proc/self/smaps"));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    /**
     * Describes where the memory lies, for a start-up line: its size and how much of it is in huge pages, and when
     * not all of it is, why that may be (THP mode, madvise refused, the kernel found no free huge pages).
     *
     * @return e.g. {@code "64 MiB, all in 2 MiB pages"}.
     */
    public String describe()
    {
        final String size = (length >> 20) + " MiB";
        if (length < HUGE_PAGE)
        {
            // Never advised; smaps may still count huge pages of a neighbour's mapping the kernel merged it into.
            return size + ", in 4 KiB pages (smaller than a huge page)";
        }
        final long huge = hugePageBytes();
        if (huge >= length - length % HUGE_PAGE && huge > 0)
        {
            return size + ", all in 2 MiB pages";
        }
        final String why;
        if (LIBC == null)
        {
            why = "no madvise (-Dsluice.hugepages=false, or libc not found)";
        }
        else if (!hugePages)
        {
            why = "madvise(MADV_HUGEPAGE) failed (transparent huge pages " + thpMode() + ")";
        }
        else
        {
            why = "the kernel gave 4 KiB pages (transparent huge pages " + thpMode() +
                "; fragmented memory, see /proc/buddyinfo)";
        }
        return size + ", " + (huge < 0 ? "unknown" : (huge >> 20) + " MiB") + " in 2 MiB pages: NOT all in huge " +
            "pages, expect TLB misses: " + why;
    }

    private static String thpMode()
    {
        try
        {
            final String modes = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).trim();
            final int open = modes.indexOf('[');
            final int close = modes.indexOf(']');
            return open >= 0 && close > open ? "'" + modes.substring(open + 1, close) + "'" : "'" + modes + "'";
        }
        catch (final IOException | RuntimeException ex)
        {
            return "mode unknown";
        }
    }

    private static boolean isHex(final String line, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (Character.digit(line.charAt(i), 16) < 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Tells whether the memory was advised to use huge pages.
     *
     * @return true when mapped with {@code MADV_HUGEPAGE}.
     */
    public boolean hugePages()
    {
        return hugePages;
    }
}
