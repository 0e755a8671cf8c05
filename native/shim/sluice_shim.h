/*
 * sluice_shim.h: the C API that Sluice's Java forwarder binds (jnr-ffi) to reach DPDK.
 *
 * Why a shim: rte_eth_rx_burst() and rte_eth_tx_burst() are static inline in DPDK's headers, so Java cannot
 * bind them; and Java must cross into native code once per burst, never once per packet. Every exported
 * symbol starts with sluice_; nothing else is exported (built with -fvisibility=hidden).
 *
 * This header is the single source of truth for every struct Java reads or writes. It includes no DPDK
 * header: mbufs and mempools travel as opaque uint64_t addresses. sluice_layout() reports sizes and offsets
 * at run time so a Java test can check that its flyweights agree (SLUICE_LAYOUT_* below).
 *
 * Conventions
 *  - Functions returning int32_t return >= 0 on success and a negative errno value on failure
 *    (e.g. -EINVAL, -ENODEV); sluice_strerror() turns one into text.
 *  - Control functions (EAL, mempools, ports) are for one control thread, not the hot path.
 *  - Burst functions (sluice_rx_burst, sluice_tx_burst, sluice_free_burst, sluice_alloc_burst) may run on any
 *    thread, but each (port, queue) pair must be polled by one thread only. They work from threads that
 *    are not registered with EAL, but then every mbuf alloc/free bypasses the mempool's per-lcore cache and
 *    goes to the shared ring: call sluice_thread_register() once on each worker thread first.
 *  - Mbuf ownership: sluice_rx_burst() and sluice_alloc_burst() hand mbufs to the caller; sluice_tx_burst()
 *    and sluice_free_burst() take them back (sent or freed). The caller must not touch such an mbuf again:
 *    a driver may free a sent mbuf before the call returns.
 *  - Single-segment mbufs only: the frame is the bytes [buf_addr + data_off, buf_addr + data_off + data_len).
 *  - Burst functions take a port and queue that were configured and started. They check only that the ids
 *    are below DPDK's compile-time limits (if not, RX returns 0 and TX frees the burst and returns 0); an
 *    unconfigured queue of a valid port is undefined behaviour, as in DPDK: Java validates ids off the hot
 *    path.
 *
 * Builds against DPDK 22.11 and newer.
 */
#ifndef SLUICE_SHIM_H
#define SLUICE_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SLUICE_API __attribute__((visibility("default")))
#else
#define SLUICE_API
#endif

/* Bumped whenever a struct below or a function signature changes; Java refuses a shim of another version. */
#define SLUICE_ABI_VERSION 4

/* Most frames sluice_rx_burst() returns per call; DPDK's customary burst. */
#define SLUICE_BURST_MAX 32

/*
 * Bursts are arrays of mbuf addresses (uint64_t each, struct rte_mbuf *), owned by the caller (off-heap) and
 * reused every burst: sluice_rx_burst() has the driver write them straight into the caller's array and
 * sluice_tx_burst() hands the caller's array straight to the driver, so no per-frame field is copied on
 * either side. Java reads and writes the few fields of each mbuf it needs itself, at the offsets below
 * (SLUICE_LAYOUT_MBUF_*, checked against Java's at start):
 *
 *   field     type      meaning
 *   buf_addr  void *    virtual address of the mbuf's data buffer
 *   data_off  uint16_t  frame start = buf_addr + data_off; the bytes before it are headroom
 *   nb_segs   uint16_t  segments: more than 1 is a chain, whose data_len covers the first segment only
 *   ol_flags  uint64_t  RX offload flags; SLUICE_MBUF_F_RX_RSS_HASH says hash_rss holds the NIC's RSS hash
 *   pkt_len   uint32_t  the whole frame's length over all segments
 *   data_len  uint16_t  the frame's (first segment's) length in bytes
 *   hash_rss  uint32_t  the NIC's RSS hash (mbuf->hash.rss)
 *   buf_len   uint16_t  capacity of the data buffer; data_off + data_len <= buf_len
 *
 * To prepend a header (e.g. GRE encapsulation), Java writes it in front of the frame and lowers data_off; to
 * change the length it sets data_len. sluice_tx_burst() sets pkt_len = data_len. All these fields sit in the
 * mbuf's first cache line, which the driver has just written on RX.
 */

/* The ol_flags bit RTE_MBUF_F_RX_RSS_HASH (bit 1 in every DPDK since 21.11). */
#define SLUICE_MBUF_F_RX_RSS_HASH (1u << 1)

/*
 * Port counters, a copy of struct rte_eth_stats' totals. All uint64_t, 8 fields, 64 bytes:
 * ipackets 0, opackets 8, ibytes 16, obytes 24, imissed 32, ierrors 40, oerrors 48, rx_nombuf 56.
 * Virtual devices fill only some (net_ring counts no bytes).
 */
struct sluice_port_stats {
	uint64_t ipackets;
	uint64_t opackets;
	uint64_t ibytes;
	uint64_t obytes;
	uint64_t imissed;
	uint64_t ierrors;
	uint64_t oerrors;
	uint64_t rx_nombuf;
};

/*
 * Index of each value sluice_layout() writes. Constants first, then per struct its size and each field's
 * offset, in declaration order; for struct rte_mbuf the offsets of the fields Java uses. Within one ABI
 * version entries are only ever appended (before SLUICE_LAYOUT_COUNT).
 */
enum sluice_layout_index {
	SLUICE_LAYOUT_ABI_VERSION = 0,   /* SLUICE_ABI_VERSION */
	SLUICE_LAYOUT_BURST_MAX,         /* SLUICE_BURST_MAX */
	SLUICE_LAYOUT_MBUF_HEADROOM,     /* RTE_PKTMBUF_HEADROOM the shim was built with (128 on Debian) */
	SLUICE_LAYOUT_MBUF_BUF_ADDR,     /* offsetof(struct rte_mbuf, buf_addr) ... */
	SLUICE_LAYOUT_MBUF_DATA_OFF,
	SLUICE_LAYOUT_MBUF_NB_SEGS,
	SLUICE_LAYOUT_MBUF_OL_FLAGS,
	SLUICE_LAYOUT_MBUF_PKT_LEN,
	SLUICE_LAYOUT_MBUF_DATA_LEN,
	SLUICE_LAYOUT_MBUF_HASH_RSS,
	SLUICE_LAYOUT_MBUF_BUF_LEN,
	SLUICE_LAYOUT_MBUF_F_RX_RSS_HASH, /* SLUICE_MBUF_F_RX_RSS_HASH, RTE_MBUF_F_RX_RSS_HASH's value */
	SLUICE_LAYOUT_STATS_SIZE,        /* sizeof(struct sluice_port_stats) = 64 */
	SLUICE_LAYOUT_STATS_IPACKETS,    /* offsetof(struct sluice_port_stats, ipackets) ... */
	SLUICE_LAYOUT_STATS_OPACKETS,
	SLUICE_LAYOUT_STATS_IBYTES,
	SLUICE_LAYOUT_STATS_OBYTES,
	SLUICE_LAYOUT_STATS_IMISSED,
	SLUICE_LAYOUT_STATS_IERRORS,
	SLUICE_LAYOUT_STATS_OERRORS,
	SLUICE_LAYOUT_STATS_RX_NOMBUF,
	SLUICE_LAYOUT_COUNT
};

/* ---- Layout and version ---------------------------------------------------------------------------- */

/* Writes min(capacity, SLUICE_LAYOUT_COUNT) values, indexed by enum sluice_layout_index, into out (nothing
 * when out is NULL or capacity <= 0) and returns SLUICE_LAYOUT_COUNT. */
SLUICE_API int32_t sluice_layout(int32_t *out, int32_t capacity);

/* DPDK's version string, e.g. "DPDK 22.11.11" (rte_version()). Static storage; usable before EAL init. */
SLUICE_API const char *sluice_version(void);

/* Text for an error code; accepts err negative or positive (rte_strerror()). Static storage. */
SLUICE_API const char *sluice_strerror(int32_t err);

/* The calling thread's last DPDK error as a negative errno (-rte_errno), or 0: the reason behind a 0 from
 * sluice_mempool_create() (e.g. -EEXIST for a name in use, -ENOMEM). */
SLUICE_API int32_t sluice_last_error(void);

/* ---- EAL ------------------------------------------------------------------------------------------- */

/*
 * Initialises DPDK's EAL with argv[0..argc) (argv[0] is a program name, e.g. "sluice"; then EAL options such
 * as "--no-pci", "--in-memory", "--file-prefix=X", "--vdev=net_pcap0,..."). The shim copies the strings, so
 * the caller may free them on return. Returns the number of arguments EAL parsed (after argv[0]) or a
 * negative errno. Only once per process: a second call returns -EALREADY, also after sluice_eal_cleanup().
 *
 * The calling thread becomes EAL's main lcore. EAL pins it to that lcore's CPU; the shim restores the
 * caller's previous CPU affinity afterwards, because in a JVM every thread started later from this one
 * would inherit the pin.
 *
 * Arguments that work here (DPDK 22.11): "-l", "0" (one EAL lcore: no idle EAL worker threads; Java workers
 * get lcore ids through sluice_thread_register()); "--no-pci" when only vdevs are used; a --file-prefix of
 * its own per process; with hugepages "--in-memory" (EAL otherwise leaves <prefix>map_* files in
 * /dev/hugepages even after a clean cleanup); without them "--no-huge", "-m", "256", and no --in-memory
 * (EAL refuses that pair); "--log-level=warning" for quiet logs; "--no-telemetry" to skip the telemetry
 * socket.
 */
SLUICE_API int32_t sluice_eal_init(int32_t argc, const char **argv);

/* Releases EAL's resources (rte_eal_cleanup()) and removes the runtime directory EAL leaves behind
 * (/var/run/dpdk/<file-prefix> for root: config, fbarray_*, telemetry socket). Stop and close ports and free
 * pools first. EAL cannot be initialised again in this process. Returns 0, -EINVAL before init, -EALREADY
 * when already cleaned up, or another negative errno. */
SLUICE_API int32_t sluice_eal_cleanup(void);

/* ---- Threads --------------------------------------------------------------------------------------- */

/*
 * Registers the calling (non-EAL, e.g. Java) thread with EAL so it gets an lcore id and with it the mempool's
 * per-lcore cache (rte_thread_register()). Call it on each worker before its first burst, after
 * sluice_pin_thread() (EAL records the thread's CPU set at registration). Returns the lcore id, the existing
 * one when already registered (the thread that called sluice_eal_init() is lcore 0 by default), or a
 * negative errno: -ENOSPC when every lcore id (RTE_MAX_LCORE, 128 on Debian) is in use, -EINVAL before EAL
 * init or when a secondary process is attached.
 */
SLUICE_API int32_t sluice_thread_register(void);

/* Flushes this thread's per-lcore cache of every mempool back to its pool, then unregisters the thread
 * (rte_thread_unregister()). Call it before a registered thread ends. No-op for an unregistered thread. */
SLUICE_API void sluice_thread_unregister(void);

/* The calling thread's lcore id, or -1 when it has none (not registered). */
SLUICE_API int32_t sluice_lcore_id(void);

/* Pins the calling thread to one CPU (pthread_setaffinity_np). Returns 0 or a negative errno. */
SLUICE_API int32_t sluice_pin_thread(int32_t cpu);

/* ---- Mempools -------------------------------------------------------------------------------------- */

/*
 * Creates a pool of n_mbufs packet mbufs (rte_pktmbuf_pool_create()). data_room_size is the whole data
 * buffer including RTE_PKTMBUF_HEADROOM, e.g. 2176 = 2048 + 128; it must hold the headroom plus the
 * largest frame (mtu + 18 bytes of Ethernet header and CRC), as the shim handles single-segment frames only.
 * cache_size is the per-lcore cache (<= 512; n_mbufs should be a multiple of it; 256 is customary),
 * socket_id a NUMA node or -1 for any. The name must be unique. Returns the pool's address, or 0 on failure
 * (sluice_last_error() says why).
 */
SLUICE_API uint64_t sluice_mempool_create(const char *name, uint32_t n_mbufs, uint32_t cache_size,
					  uint16_t data_room_size, int32_t socket_id);

/* Frees a pool; every mbuf must be back and no port may still use it. 0 is ignored. */
SLUICE_API void sluice_mempool_free(uint64_t pool);

/* Mbufs free in the pool, counting those in per-lcore caches (rte_mempool_avail_count()); for leak checks.
 * Returns 0 for pool 0. */
SLUICE_API uint32_t sluice_mempool_avail(uint64_t pool);

/* Mbufs the pool holds in all, free or in use (the pool's size); with sluice_mempool_avail() the fill level a
 * control thread samples for the counters file. Returns 0 for pool 0. */
SLUICE_API uint32_t sluice_mempool_size(uint64_t pool);

/* ---- Ports ----------------------------------------------------------------------------------------- */

/* Number of ports EAL found (PCI devices and --vdev devices). */
SLUICE_API int32_t sluice_port_count(void);

/* Port id of a device by name, e.g. "net_pcap0", "net_ring0" (rte_eth_dev_get_port_by_name()); -ENODEV when
 * there is none. */
SLUICE_API int32_t sluice_port_by_name(const char *name);

/* What sluice_port_info() writes, one int32 each; a config is checked against them before the port is configured
 * (check-config --eal, and the forwarder at start). */
#define SLUICE_PORT_INFO_MAX_RX_QUEUES 0 /* dev_info.max_rx_queues */
#define SLUICE_PORT_INFO_MAX_TX_QUEUES 1 /* dev_info.max_tx_queues */
#define SLUICE_PORT_INFO_MIN_MTU 2       /* dev_info.min_mtu */
#define SLUICE_PORT_INFO_MAX_MTU 3       /* dev_info.max_mtu */
#define SLUICE_PORT_INFO_RX_DESC_MAX 4   /* dev_info.rx_desc_lim.nb_max */
#define SLUICE_PORT_INFO_TX_DESC_MAX 5   /* dev_info.tx_desc_lim.nb_max */
#define SLUICE_PORT_INFO_RSS 6           /* 1 when the device hashes IP/TCP/UDP flows over its queues, else 0 */
#define SLUICE_PORT_INFO_LENGTH 7

/* Writes the device's limits (rte_eth_dev_info_get()) to out[0..SLUICE_PORT_INFO_LENGTH) and its driver's name
 * (at most driver_capacity bytes, NUL-terminated) to driver. 0 or a negative errno (-ENODEV for no such port,
 * -EINVAL when out_length is below SLUICE_PORT_INFO_LENGTH). */
SLUICE_API int32_t sluice_port_info(uint16_t port, int32_t *out, int32_t out_length, char *driver,
				    int32_t driver_capacity);

/*
 * Configures a stopped port: rx_queues receive queues filled from pool, tx_queues transmit queues.
 * rx_ring/tx_ring are descriptor counts (0 = 1024), clamped to the device's limits.
 * rss != 0 with rx_queues > 1 spreads flows over the queues by RSS on IPv4/IPv6 + TCP/UDP, restricted to
 * the hash types the device supports; a device that supports none (most vdevs) gets no RSS and no error.
 * When RSS is on and the device can deliver the hash, mbufs carry it (SLUICE_MBUF_F_RX_RSS_HASH).
 * mtu != 0 sets the MTU (the 22.11 rxmode.mtu, applied by the driver at start; -EINVAL if outside the
 * device's range); 0 keeps 1500.
 * Returns 0 or a negative errno (-EINVAL for more queues than the device has).
 */
SLUICE_API int32_t sluice_port_configure(uint16_t port, uint64_t pool, uint16_t rx_queues,
					 uint16_t tx_queues, uint16_t rx_ring, uint16_t tx_ring, uint16_t mtu,
					 int32_t rss);

/* Starts, stops and closes a port (rte_eth_dev_start/stop/close). Close releases a vdev's port id. Stopping
 * net_pcap closes its tx_pcap file (it is flushed after every burst anyway). 0 or a negative errno. */
SLUICE_API int32_t sluice_port_start(uint16_t port);
SLUICE_API int32_t sluice_port_stop(uint16_t port);
SLUICE_API int32_t sluice_port_close(uint16_t port);

/* The NUMA socket the port's device sits on (rte_eth_dev_socket_id()): its mbuf pool belongs there. -1 when
 * DPDK does not know (virtual devices, a machine without NUMA), -ENODEV for no such port. */
SLUICE_API int32_t sluice_port_socket(uint16_t port);

/* Writes the port's 6-byte MAC address to mac6. 0 or a negative errno. */
SLUICE_API int32_t sluice_port_mac(uint16_t port, uint8_t *mac6);

/* Sets the port's MAC address to the 6 bytes at mac6 (rte_eth_dev_default_mac_addr_set(); a net_tap port sets
 * its kernel interface's). 0 or a negative errno. */
SLUICE_API int32_t sluice_port_set_mac(uint16_t port, const uint8_t *mac6);

/* Copies the port's counters to out (rte_eth_stats_get()). 0 or a negative errno. */
SLUICE_API int32_t sluice_port_stats(uint16_t port, struct sluice_port_stats *out);

/* Zeroes the port's counters (rte_eth_stats_reset()). 0 or a negative errno. */
SLUICE_API int32_t sluice_port_stats_reset(uint16_t port);

/* Link state without waiting (rte_eth_link_get_nowait()): speed in Mbps (0 when unknown), up 1 or 0. Either
 * pointer may be NULL. 0 or a negative errno. */
SLUICE_API int32_t sluice_port_link(uint16_t port, uint32_t *speed_mbps, int32_t *up);

/* ---- Bursts (hot path) ----------------------------------------------------------------------------- */

/*
 * Receives up to max frames (at most SLUICE_BURST_MAX; more is clamped) from one queue: the driver writes their
 * mbuf addresses to mbufs[0..n). Returns n. A frame with nb_segs > 1 is a chain (Java drops it with
 * sluice_free_burst()); ol_flags has SLUICE_MBUF_F_RX_RSS_HASH when hash_rss is valid.
 */
SLUICE_API uint16_t sluice_rx_burst(uint16_t port, uint16_t queue, uint64_t *mbufs, uint16_t max);

/*
 * Transmits mbufs[0..n) on one queue (any n; sent in chunks of SLUICE_BURST_MAX), each with pkt_len set to its
 * data_len. An entry that is 0, a chained mbuf, data_len 0 or data_off + data_len > buf_len is refused: its mbuf
 * is freed and its entry set to 0 (other entries are left as they were). Frames the queue had no room for (the
 * NIC's TX ring is full) are freed too. Returns the number sent; n - sent - (entries now 0 that were not before)
 * = frames dropped because the TX queue was full. The driver frees sent mbufs once they are on the wire: the
 * caller must not touch any of these mbufs again.
 */
SLUICE_API uint16_t sluice_tx_burst(uint16_t port, uint16_t queue, uint64_t *mbufs, uint16_t n);

/* Frees mbufs[0..n) (dropped frames); 0 entries are skipped. */
SLUICE_API void sluice_free_burst(uint64_t *mbufs, uint16_t n);

/*
 * Allocates n single-segment mbufs from pool into mbufs[0..n), each with data_off = headroom and data_len 0, so
 * the caller can write frames and send them with sluice_tx_burst(): test support (inject frames through
 * net_ring) and locally originated frames (outer fragments). All or nothing: returns n or -ENOBUFS (-EINVAL for
 * pool 0).
 */
SLUICE_API int32_t sluice_alloc_burst(uint64_t pool, uint64_t *mbufs, uint16_t n);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_SHIM_H */
