package io.sluice.forwarder.dpdk;

import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * DPDK through the shim: loads {@code libsluice_shim.so}, checks that its struct layouts match
 * {@link ShimLayout}, and wraps the control calls so a failure becomes a {@link DpdkException} naming the
 * call and DPDK's reason. Burst calls are on {@link #library()} directly: no checks, no allocation.
 * <p>
 * EAL can be initialised once per process (a DPDK rule), so one {@code Dpdk} exists per process.
 */
public final class Dpdk
{
    /** DPDK's SOCKET_ID_ANY: memory from whichever NUMA socket has it. */
    public static final int SOCKET_ANY = -1;

    /**
     * System property naming the shim library file; default {@code native/build/libsluice_shim.so} under the
     * working directory or {@code sluice.home}.
     */
    public static final String SHIM_PATH_PROPERTY = "sluice.shim.path";

    private static Dpdk instance;

    private final ShimLibrary library;
    private boolean ealInitialised;
    private boolean ealCleanedUp;

    private Dpdk(final ShimLibrary library)
    {
        this.library = library;
    }

    /**
     * Loads the shim (once per process) and verifies its layout.
     *
     * @return the process's DPDK binding.
     * @throws DpdkException if the library is missing or its layout differs from Java's.
     */
    public static synchronized Dpdk load()
    {
        if (instance == null)
        {
            final Path path = shimPath();
            if (!Files.isReadable(path))
            {
                throw new DpdkException("DPDK shim not found at " + path + " (build it with: make -C native shim," +
                    " or set -D" + SHIM_PATH_PROPERTY + ")", 0);
            }
            final ShimLibrary library = LibraryLoader.create(ShimLibrary.class)
                .option(LibraryOption.IgnoreError, true)
                .failImmediately()
                .load(path.toAbsolutePath().toString());
            final int[] layout = new int[64];
            final String mismatch = ShimLayout.mismatch(layout, library.sluice_layout(layout, layout.length));
            if (mismatch != null)
            {
                throw new DpdkException("DPDK shim " + path + " does not match this forwarder: " + mismatch, 0);
            }
            instance = new Dpdk(library);
        }
        return instance;
    }

    static Path shimPath()
    {
        final String configured = System.getProperty(SHIM_PATH_PROPERTY);
        if (configured != null)
        {
            return Path.of(configured);
        }
        final String home = System.getProperty("sluice.home");
        final Path base = home != null ? Path.of(home) : Path.of("").toAbsolutePath();
        for (Path dir = base; dir != null; dir = dir.getParent())
        {
            final Path candidate = dir.resolve("native/build/libsluice_shim.so");
            if (Files.exists(candidate))
            {
                return candidate;
            }
        }
        return base.resolve("native/build/libsluice_shim.so");
    }

    /**
     * Returns the raw binding, for the burst calls of the hot path.
     *
     * @return the library.
     */
    public ShimLibrary library()
    {
        return library;
    }

    /**
     * Returns DPDK's version string.
     *
     * @return e.g. "DPDK 22.11.11".
     */
    public String version()
    {
        return library.sluice_version();
    }

    /**
     * Initialises EAL.
     *
     * @param args EAL arguments, without a program name.
     * @throws DpdkException if EAL refuses them, or was initialised before.
     */
    public synchronized void initEal(final List<String> args)
    {
        if (ealInitialised)
        {
            throw new DpdkException("EAL is already initialised in this process", 0);
        }
        final List<String> argv = new ArrayList<>(args.size() + 1);
        argv.add("sluice-forwarder");
        argv.addAll(args);
        final int result = library.sluice_eal_init(argv.size(), argv.toArray(new String[0]));
        check(result, "rte_eal_init " + args);
        ealInitialised = true;
    }

    /**
     * Tells whether EAL is initialised (and not cleaned up).
     *
     * @return true while EAL is usable.
     */
    public synchronized boolean isEalInitialised()
    {
        return ealInitialised && !ealCleanedUp;
    }

    /**
     * Releases EAL and removes its runtime directory. Idempotent.
     */
    public synchronized void cleanupEal()
    {
        if (ealInitialised && !ealCleanedUp)
        {
            ealCleanedUp = true;
            check(library.sluice_eal_cleanup(), "rte_eal_cleanup");
        }
    }

    /**
     * Returns the NUMA socket of a port's device ({@code rte_eth_dev_socket_id}).
     *
     * @param port the port id.
     * @return the socket, or {@link #SOCKET_ANY} when DPDK does not know it (virtual devices, one-node machines).
     */
    public int portSocket(final int port)
    {
        final int socket = library.sluice_port_socket(port);
        return socket < 0 ? SOCKET_ANY : socket;
    }

    /**
     * Creates an mbuf pool.
     *
     * @param name       unique pool name.
     * @param mbufs      number of mbufs.
     * @param cacheSize  per-lcore cache.
     * @param dataRoom   data buffer size including the headroom.
     * @return the pool's address.
     */
    public long createMempool(final String name, final int mbufs, final int cacheSize, final int dataRoom)
    {
        return createMempool(name, mbufs, cacheSize, dataRoom, SOCKET_ANY);
    }

    /**
     * Creates a packet-buffer pool on a NUMA socket: the socket of the port that receives into it, so the NIC's
     * DMA and the worker's reads stay on one node.
     *
     * @param name      unique pool name.
     * @param mbufs     number of buffers (2^n - 1 is optimal).
     * @param cacheSize per-lcore cache size.
     * @param dataRoom  bytes per buffer including headroom.
     * @param socket    the NUMA socket, or {@link #SOCKET_ANY}.
     * @return the pool handle.
     * @throws DpdkException when the pool cannot be created.
     */
    public long createMempool(final String name, final int mbufs, final int cacheSize, final int dataRoom,
        final int socket)
    {
        final long pool = library.sluice_mempool_create(name, mbufs, cacheSize, dataRoom, socket);
        if (pool == 0)
        {
            final int error = library.sluice_last_error();
            throw new DpdkException("rte_pktmbuf_pool_create " + name + " (" + mbufs + " mbufs): " +
                library.sluice_strerror(error), error);
        }
        return pool;
    }

    /**
     * Finds a port by device name.
     *
     * @param name DPDK device name, e.g. net_pcap0.
     * @return port id.
     */
    public int portByName(final String name)
    {
        final int port = library.sluice_port_by_name(name);
        if (port < 0)
        {
            throw new DpdkException("no DPDK port named " + name + " (is it in the EAL --vdev arguments?)", port);
        }
        return port;
    }

    /**
     * Throws if a shim call returned a negative errno.
     *
     * @param result the call's result.
     * @param what   the call and its arguments, for the message.
     * @return the result when not an error.
     */
    public int check(final int result, final String what)
    {
        if (result < 0)
        {
            throw new DpdkException(what + ": " + library.sluice_strerror(result) + " (" + result + ")", result);
        }
        return result;
    }
}
