package io.sluice.forwarder.dpdk;

import jnr.ffi.annotations.IgnoreError;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.types.u_int16_t;
import jnr.ffi.types.u_int32_t;

/**
 * The jnr-ffi binding of {@code native/shim/sluice_shim.h}; see that header for what each call does.
 * <p>
 * Burst calls take the mbuf array as a raw address ({@code long}) so no object is converted per call,
 * and every call skips errno capture ({@link IgnoreError}): the shim returns negative errno values instead.
 */
@IgnoreError
public interface ShimLibrary
{
    int sluice_layout(@Out int[] out, int capacity);

    String sluice_version();

    String sluice_strerror(int error);

    int sluice_last_error();

    int sluice_eal_init(int argc, String[] argv);

    int sluice_eal_cleanup();

    int sluice_thread_register();

    void sluice_thread_unregister();

    int sluice_lcore_id();

    long sluice_mempool_create(
        String name, @u_int32_t int mbufs, @u_int32_t int cacheSize, @u_int16_t int dataRoomSize, int socketId);

    void sluice_mempool_free(long pool);

    @u_int32_t int sluice_mempool_avail(long pool);

    @u_int32_t int sluice_mempool_size(long pool);

    int sluice_port_count();

    int sluice_port_by_name(String name);

    int sluice_port_info(@u_int16_t int port, @Out int[] out, int outLength, @Out byte[] driver, int driverCapacity);

    int sluice_port_configure(
        @u_int16_t int port,
        long pool,
        @u_int16_t int rxQueues,
        @u_int16_t int txQueues,
        @u_int16_t int rxRing,
        @u_int16_t int txRing,
        @u_int16_t int mtu,
        int rss);

    int sluice_port_start(@u_int16_t int port);

    int sluice_port_stop(@u_int16_t int port);

    int sluice_port_close(@u_int16_t int port);

    int sluice_port_socket(@u_int16_t int port);

    int sluice_port_mac(@u_int16_t int port, @Out byte[] mac6);

    int sluice_port_set_mac(@u_int16_t int port, @In byte[] mac6);

    int sluice_port_stats(@u_int16_t int port, long statsAddress);

    int sluice_port_stats_reset(@u_int16_t int port);

    int sluice_port_link(@u_int16_t int port, @Out int[] speedMbps, @Out int[] up);

    @u_int16_t int sluice_rx_burst(@u_int16_t int port, @u_int16_t int queue, long mbufs, @u_int16_t int max);

    @u_int16_t int sluice_tx_burst(@u_int16_t int port, @u_int16_t int queue, long mbufs, @u_int16_t int count);

    void sluice_free_burst(long mbufs, @u_int16_t int count);

    int sluice_alloc_burst(long pool, long mbufs, @u_int16_t int count);
}
