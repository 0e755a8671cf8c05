package io.sluice.forwarder.memory;

import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.IgnoreError;
import org.agrona.BitUtil;
import org.agrona.UnsafeApi;

import java.lang.ref.Cleaner;

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
     * Tells whether the memory was advised to use huge pages.
     *
     * @return true when mapped with {@code MADV_HUGEPAGE}.
     */
    public boolean hugePages()
    {
        return hugePages;
    }
}
