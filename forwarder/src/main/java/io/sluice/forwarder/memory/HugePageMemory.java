package io.sluice.forwarder.memory;

import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.IgnoreError;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;

/**
 * Off-heap memory for large tables, backed by transparent huge pages where the kernel offers them.
 * <p>
 * A connection table of 2^20 entries spans 64 MiB: with 4 KiB pages nearly every lookup of a cold flow misses
 * the TLB as well as the cache. Memory from {@code malloc} marked {@code MADV_HUGEPAGE}
 * before it is first touched is faulted in as 2 MiB pages (THP "madvise" mode, the common default), which
 * takes the TLB misses away. Where that is not possible (no libc binding, another OS) the memory comes from
 * an aligned direct buffer instead, as it does with {@code -Dsluice.hugepages=false}. The memory is freed when
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

    private final UnsafeBuffer buffer;
    private final boolean hugePages;
    // Keeps a direct buffer reachable for as long as its memory is used.
    @SuppressWarnings("unused")
    private final ByteBuffer direct;

    private HugePageMemory(final UnsafeBuffer buffer, final boolean hugePages, final ByteBuffer direct)
    {
        this.buffer = buffer;
        this.hugePages = hugePages;
        this.direct = direct;
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
     * Allocates zeroed memory; requests of at least one huge page are mapped with {@code MADV_HUGEPAGE}.
     *
     * @param length bytes, at most {@link Integer#MAX_VALUE}.
     * @return the memory; it is released once the returned object is unreachable.
     */
    public static HugePageMemory allocate(final int length)
    {
        if (LIBC != null && length >= HUGE_PAGE)
        {
            // malloc'd, not yet touched: advise first, then zero, so the first touch faults in huge pages.
            final long allocated = length + HUGE_PAGE;
            final long base = UnsafeApi.allocateMemory(allocated);
            final long aligned = BitUtil.align(base, HUGE_PAGE);
            final boolean advised = LIBC.madvise(aligned, BitUtil.align(length, (int)HUGE_PAGE), MADV_HUGEPAGE) == 0;
            UnsafeApi.setMemory(aligned, length, (byte)0);
            final HugePageMemory memory = new HugePageMemory(new UnsafeBuffer(aligned, length), advised, null);
            CLEANER.register(memory, () -> UnsafeApi.freeMemory(base));
            return memory;
        }
        final ByteBuffer direct = BufferUtil.allocateDirectAligned(length, BitUtil.CACHE_LINE_LENGTH);
        return new HugePageMemory(new UnsafeBuffer(direct), false, direct);
    }

    /**
     * Returns the memory as a buffer.
     *
     * @return the buffer.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
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
