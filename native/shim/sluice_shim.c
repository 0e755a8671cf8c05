/*
 * sluice_shim.c: DPDK behind the per-burst API of sluice_shim.h (read that first).
 *
 * Only functions declared there with SLUICE_API are exported; everything else here is static and the
 * library is built with -fvisibility=hidden.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_version.h>

#include "sluice_shim.h"

#if RTE_VERSION < RTE_VERSION_NUM(22, 11, 0, 0)
#error "Sluice's shim needs DPDK 22.11 or newer"
#endif

_Static_assert(RTE_MBUF_F_RX_RSS_HASH == SLUICE_MBUF_F_RX_RSS_HASH, "RTE_MBUF_F_RX_RSS_HASH's bit");
_Static_assert(offsetof(struct rte_mbuf, buf_len) + sizeof(uint16_t) <= RTE_CACHE_LINE_MIN_SIZE,
	       "the mbuf fields Java uses sit in its first cache line");
_Static_assert(sizeof(struct sluice_port_stats) == 64, "struct sluice_port_stats is 8 x uint64_t");
_Static_assert(sizeof(void *) == sizeof(uint64_t), "pointers travel as uint64_t");
_Static_assert(RTE_PKTMBUF_HEADROOM <= UINT16_MAX, "headroom fits data_off");

#define DEFAULT_RING_SIZE 1024

/* RSS over addresses and ports, as an ECMP router hashes; masked by what the device supports. */
#define SLUICE_RSS_HF (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP)

static inline struct rte_mbuf **as_mbufs(uint64_t *mbufs)
{
	return (struct rte_mbuf **)(void *)mbufs;
}

static inline struct rte_mempool *as_pool(uint64_t pool)
{
	return (struct rte_mempool *)(uintptr_t)pool;
}

/* Negative errno from rte_errno, never 0 on a failure path. */
static int32_t rte_failure(void)
{
	return rte_errno > 0 ? -rte_errno : -EINVAL;
}

/* ---- Layout and version ---------------------------------------------------------------------------- */

SLUICE_API int32_t sluice_layout(int32_t *out, int32_t capacity)
{
	const int32_t layout[SLUICE_LAYOUT_COUNT] = {
		[SLUICE_LAYOUT_ABI_VERSION] = SLUICE_ABI_VERSION,
		[SLUICE_LAYOUT_BURST_MAX] = SLUICE_BURST_MAX,
		[SLUICE_LAYOUT_MBUF_HEADROOM] = RTE_PKTMBUF_HEADROOM,
		[SLUICE_LAYOUT_MBUF_BUF_ADDR] = offsetof(struct rte_mbuf, buf_addr),
		[SLUICE_LAYOUT_MBUF_DATA_OFF] = offsetof(struct rte_mbuf, data_off),
		[SLUICE_LAYOUT_MBUF_NB_SEGS] = offsetof(struct rte_mbuf, nb_segs),
		[SLUICE_LAYOUT_MBUF_OL_FLAGS] = offsetof(struct rte_mbuf, ol_flags),
		[SLUICE_LAYOUT_MBUF_PKT_LEN] = offsetof(struct rte_mbuf, pkt_len),
		[SLUICE_LAYOUT_MBUF_DATA_LEN] = offsetof(struct rte_mbuf, data_len),
		[SLUICE_LAYOUT_MBUF_HASH_RSS] = offsetof(struct rte_mbuf, hash.rss),
		[SLUICE_LAYOUT_MBUF_BUF_LEN] = offsetof(struct rte_mbuf, buf_len),
		[SLUICE_LAYOUT_MBUF_F_RX_RSS_HASH] = (int32_t)RTE_MBUF_F_RX_RSS_HASH,
		[SLUICE_LAYOUT_STATS_SIZE] = sizeof(struct sluice_port_stats),
		[SLUICE_LAYOUT_STATS_IPACKETS] = offsetof(struct sluice_port_stats, ipackets),
		[SLUICE_LAYOUT_STATS_OPACKETS] = offsetof(struct sluice_port_stats, opackets),
		[SLUICE_LAYOUT_STATS_IBYTES] = offsetof(struct sluice_port_stats, ibytes),
		[SLUICE_LAYOUT_STATS_OBYTES] = offsetof(struct sluice_port_stats, obytes),
		[SLUICE_LAYOUT_STATS_IMISSED] = offsetof(struct sluice_port_stats, imissed),
		[SLUICE_LAYOUT_STATS_IERRORS] = offsetof(struct sluice_port_stats, ierrors),
		[SLUICE_LAYOUT_STATS_OERRORS] = offsetof(struct sluice_port_stats, oerrors),
		[SLUICE_LAYOUT_STATS_RX_NOMBUF] = offsetof(struct sluice_port_stats, rx_nombuf),
	};

	if (out != NULL && capacity > 0) {
		int32_t n = capacity < SLUICE_LAYOUT_COUNT ? capacity : SLUICE_LAYOUT_COUNT;
		memcpy(out, layout, (size_t)n * sizeof(int32_t));
	}
	return SLUICE_LAYOUT_COUNT;
}

SLUICE_API const char *sluice_version(void)
{
	return rte_version();
}

SLUICE_API const char *sluice_strerror(int32_t err)
{
	return rte_strerror(err < 0 ? -err : err);
}

SLUICE_API int32_t sluice_last_error(void)
{
	return -rte_errno;
}

/* ---- EAL ------------------------------------------------------------------------------------------- */

enum eal_state { EAL_NEVER, EAL_RUNNING, EAL_DONE };

static enum eal_state eal_state = EAL_NEVER;
/* EAL may keep pointers into argv, so it gets copies that live until cleanup. It also rewrites its argv
 * (argv[parsed] = argv[0], for the application's own getopt), so the strings are freed from a list of
 * their own. */
static char **eal_strings;
static char **eal_argv;
static int eal_argc;
/* EAL's runtime directory (/var/run/dpdk/<file-prefix> for root), removed at cleanup. */
static char eal_runtime_dir[PATH_MAX];

static void free_eal_args(void)
{
	for (int i = 0; i < eal_argc; i++)
		free(eal_strings[i]);
	free(eal_strings);
	free(eal_argv);
	eal_strings = NULL;
	eal_argv = NULL;
	eal_argc = 0;
}

static int copy_eal_args(int32_t argc, const char **argv)
{
	/* One spare slot: getopt wants argv[argc] == NULL. */
	eal_strings = calloc((size_t)argc + 1, sizeof(char *));
	eal_argv = calloc((size_t)argc + 1, sizeof(char *));
	if (eal_strings == NULL || eal_argv == NULL) {
		free_eal_args();
		return -ENOMEM;
	}
	for (eal_argc = 0; eal_argc < argc; eal_argc++) {
		eal_strings[eal_argc] = strdup(argv[eal_argc] != NULL ? argv[eal_argc] : "");
		if (eal_strings[eal_argc] == NULL) {
			free_eal_args();
			return -ENOMEM;
		}
		eal_argv[eal_argc] = eal_strings[eal_argc];
	}
	return 0;
}

SLUICE_API int32_t sluice_eal_init(int32_t argc, const char **argv)
{
	cpu_set_t affinity;
	int have_affinity;
	int ret;

	if (argc < 1 || argv == NULL)
		return -EINVAL;
	if (eal_state != EAL_NEVER)
		return -EALREADY;
	ret = copy_eal_args(argc, argv);
	if (ret != 0)
		return ret;

	have_affinity = pthread_getaffinity_np(pthread_self(), sizeof(affinity), &affinity) == 0;
	ret = rte_eal_init(eal_argc, eal_argv);
	if (ret < 0) {
		/* A failed init may still hold pointers into the copies: leave them (a few bytes) rather than
		 * free them under EAL. EAL itself decides whether a retry is allowed. */
		eal_strings = NULL;
		eal_argv = NULL;
		eal_argc = 0;
		return rte_failure();
	}
	eal_state = EAL_RUNNING;
	snprintf(eal_runtime_dir, sizeof(eal_runtime_dir), "%s", rte_eal_get_runtime_dir());
	/* EAL pinned this thread to the main lcore's CPU; in a JVM, later threads would inherit it. */
	if (have_affinity)
		pthread_setaffinity_np(pthread_self(), sizeof(affinity), &affinity);
	return ret;
}

/*
 * rte_eal_cleanup() leaves its runtime files behind (config, fbarray_*, the telemetry socket), one directory
 * per file prefix per run. A primary process holds its prefix exclusively, so after cleanup they are stale.
 */
static void remove_runtime_dir(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (dir[0] == '\0' || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

SLUICE_API int32_t sluice_eal_cleanup(void)
{
	int ret;

	if (eal_state != EAL_RUNNING)
		return eal_state == EAL_DONE ? -EALREADY : -EINVAL;
	ret = rte_eal_cleanup();
	if (ret < 0)
		return ret == -1 ? rte_failure() : ret;
	eal_state = EAL_DONE;
	free_eal_args();
	remove_runtime_dir(eal_runtime_dir);
	return 0;
}

/* ---- Threads --------------------------------------------------------------------------------------- */

SLUICE_API int32_t sluice_thread_register(void)
{
	unsigned int lcore = rte_lcore_id();

	if (lcore != LCORE_ID_ANY)
		return (int32_t)lcore;
	if (rte_thread_register() != 0)
		return rte_failure();
	lcore = rte_lcore_id();
	if (lcore == LCORE_ID_ANY) {
		/* Registered but without an lcore id: no cache, so say it failed. */
		rte_thread_unregister();
		return -ENOSPC;
	}
	return (int32_t)lcore;
}

static void flush_lcore_cache(struct rte_mempool *mp, void *arg)
{
	struct rte_mempool_cache *cache = rte_mempool_default_cache(mp, *(unsigned int *)arg);

	if (cache != NULL)
		rte_mempool_cache_flush(cache, mp);
}

SLUICE_API void sluice_thread_unregister(void)
{
	unsigned int lcore = rte_lcore_id();

	if (lcore == LCORE_ID_ANY)
		return;
	/* The next thread to get this lcore id would otherwise inherit the cached mbufs; a leak check would
	 * count them as missing until then. */
	rte_mempool_walk(flush_lcore_cache, &lcore);
	rte_thread_unregister();
}

SLUICE_API int32_t sluice_lcore_id(void)
{
	unsigned int lcore = rte_lcore_id();

	return lcore == LCORE_ID_ANY ? -1 : (int32_t)lcore;
}

SLUICE_API int32_t sluice_pin_thread(int32_t cpu)
{
	cpu_set_t set;
	int ret;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	return ret == 0 ? 0 : -ret;
}

/* ---- Mempools -------------------------------------------------------------------------------------- */

SLUICE_API uint64_t sluice_mempool_create(const char *name, uint32_t n_mbufs, uint32_t cache_size,
					  uint16_t data_room_size, int32_t socket_id)
{
	struct rte_mempool *mp;

	if (name == NULL || n_mbufs == 0 || data_room_size <= RTE_PKTMBUF_HEADROOM) {
		rte_errno = EINVAL;
		return 0;
	}
	mp = rte_pktmbuf_pool_create(name, n_mbufs, cache_size, 0, data_room_size,
				     socket_id < 0 ? SOCKET_ID_ANY : socket_id);
	return (uint64_t)(uintptr_t)mp;
}

SLUICE_API void sluice_mempool_free(uint64_t pool)
{
	if (pool != 0)
		rte_mempool_free(as_pool(pool));
}

SLUICE_API uint32_t sluice_mempool_avail(uint64_t pool)
{
	return pool == 0 ? 0 : rte_mempool_avail_count(as_pool(pool));
}

SLUICE_API uint32_t sluice_mempool_size(uint64_t pool)
{
	return pool == 0 ? 0 : as_pool(pool)->size;
}

/* ---- Ports ----------------------------------------------------------------------------------------- */

SLUICE_API int32_t sluice_port_count(void)
{
	return (int32_t)rte_eth_dev_count_avail();
}

SLUICE_API int32_t sluice_port_by_name(const char *name)
{
	uint16_t port;

	if (name == NULL)
		return -EINVAL;
	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return -ENODEV;
	return port;
}

/* Fills conf for RSS when asked and possible; a device without RSS keeps a single-queue-style config. */
static void configure_rss(struct rte_eth_conf *conf, const struct rte_eth_dev_info *info,
			  uint16_t rx_queues, int32_t rss)
{
	uint64_t hf = SLUICE_RSS_HF & info->flow_type_rss_offloads;

	if (rss == 0 || rx_queues < 2 || hf == 0)
		return;
	conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf->rx_adv_conf.rss_conf.rss_key = NULL; /* the driver's default key */
	conf->rx_adv_conf.rss_conf.rss_hf = hf;
	if (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_RSS_HASH)
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
}

SLUICE_API int32_t sluice_port_configure(uint16_t port, uint64_t pool, uint16_t rx_queues,
					 uint16_t tx_queues, uint16_t rx_ring, uint16_t tx_ring, uint16_t mtu,
					 int32_t rss)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	struct rte_eth_rxconf rxconf;
	struct rte_eth_txconf txconf;
	uint16_t nb_rxd = rx_ring != 0 ? rx_ring : DEFAULT_RING_SIZE;
	uint16_t nb_txd = tx_ring != 0 ? tx_ring : DEFAULT_RING_SIZE;
	int socket;
	int ret;

	if (!rte_eth_dev_is_valid_port(port))
		return -ENODEV;
	if ((pool == 0 && rx_queues > 0) || (rx_queues == 0 && tx_queues == 0))
		return -EINVAL;
	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	if (rx_queues > info.max_rx_queues || tx_queues > info.max_tx_queues)
		return -EINVAL;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_NONE;
	conf.txmode.mq_mode = RTE_ETH_MQ_TX_NONE;
	/* Since 21.11 the MTU is part of the configuration: ethdev checks it against the device's range and
	 * the driver applies it at start, so no driver answers -ENOTSUP as rte_eth_dev_set_mtu() may. */
	conf.rxmode.mtu = mtu;
	configure_rss(&conf, &info, rx_queues, rss);

	ret = rte_eth_dev_configure(port, rx_queues, tx_queues, &conf);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret != 0)
		return ret;

	socket = rte_eth_dev_socket_id(port);
	if (socket < 0)
		socket = SOCKET_ID_ANY;
	rxconf = info.default_rxconf;
	rxconf.offloads = conf.rxmode.offloads;
	for (uint16_t q = 0; q < rx_queues; q++) {
		ret = rte_eth_rx_queue_setup(port, q, nb_rxd, (unsigned int)socket, &rxconf, as_pool(pool));
		if (ret != 0)
			return ret;
	}
	txconf = info.default_txconf;
	txconf.offloads = conf.txmode.offloads;
	for (uint16_t q = 0; q < tx_queues; q++) {
		ret = rte_eth_tx_queue_setup(port, q, nb_txd, (unsigned int)socket, &txconf);
		if (ret != 0)
			return ret;
	}
	return 0;
}

SLUICE_API int32_t sluice_port_info(uint16_t port, int32_t *out, int32_t out_length, char *driver,
				    int32_t driver_capacity)
{
	struct rte_eth_dev_info info;
	int ret;

	if (!rte_eth_dev_is_valid_port(port))
		return -ENODEV;
	if (out == NULL || out_length < SLUICE_PORT_INFO_LENGTH)
		return -EINVAL;
	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	out[SLUICE_PORT_INFO_MAX_RX_QUEUES] = info.max_rx_queues;
	out[SLUICE_PORT_INFO_MAX_TX_QUEUES] = info.max_tx_queues;
	out[SLUICE_PORT_INFO_MIN_MTU] = info.min_mtu;
	out[SLUICE_PORT_INFO_MAX_MTU] = info.max_mtu;
	out[SLUICE_PORT_INFO_RX_DESC_MAX] = info.rx_desc_lim.nb_max;
	out[SLUICE_PORT_INFO_TX_DESC_MAX] = info.tx_desc_lim.nb_max;
	out[SLUICE_PORT_INFO_RSS] = (SLUICE_RSS_HF & info.flow_type_rss_offloads) != 0;
	if (driver != NULL && driver_capacity > 0)
		snprintf(driver, (size_t)driver_capacity, "%s", info.driver_name != NULL ? info.driver_name : "?");
	return 0;
}

SLUICE_API int32_t sluice_port_start(uint16_t port)
{
	return rte_eth_dev_start(port);
}

SLUICE_API int32_t sluice_port_stop(uint16_t port)
{
	return rte_eth_dev_stop(port);
}

SLUICE_API int32_t sluice_port_close(uint16_t port)
{
	return rte_eth_dev_close(port);
}

SLUICE_API int32_t sluice_port_socket(uint16_t port)
{
	if (!rte_eth_dev_is_valid_port(port))
		return -ENODEV;
	/* SOCKET_ID_ANY (-1) when unknown; DPDK 22.11 also returns -1 (rte_errno EINVAL) for a bad port. */
	return rte_eth_dev_socket_id(port);
}

SLUICE_API int32_t sluice_port_mac(uint16_t port, uint8_t *mac6)
{
	struct rte_ether_addr addr;
	int ret;

	if (mac6 == NULL)
		return -EINVAL;
	ret = rte_eth_macaddr_get(port, &addr);
	if (ret != 0)
		return ret;
	memcpy(mac6, addr.addr_bytes, RTE_ETHER_ADDR_LEN);
	return 0;
}

SLUICE_API int32_t sluice_port_set_mac(uint16_t port, const uint8_t *mac6)
{
	struct rte_ether_addr addr;

	if (mac6 == NULL)
		return -EINVAL;
	memcpy(addr.addr_bytes, mac6, RTE_ETHER_ADDR_LEN);
	return rte_eth_dev_default_mac_addr_set(port, &addr);
}

SLUICE_API int32_t sluice_port_stats(uint16_t port, struct sluice_port_stats *out)
{
	struct rte_eth_stats stats;
	int ret;

	if (out == NULL)
		return -EINVAL;
	ret = rte_eth_stats_get(port, &stats);
	if (ret != 0)
		return ret;
	out->ipackets = stats.ipackets;
	out->opackets = stats.opackets;
	out->ibytes = stats.ibytes;
	out->obytes = stats.obytes;
	out->imissed = stats.imissed;
	out->ierrors = stats.ierrors;
	out->oerrors = stats.oerrors;
	out->rx_nombuf = stats.rx_nombuf;
	return 0;
}

SLUICE_API int32_t sluice_port_stats_reset(uint16_t port)
{
	return rte_eth_stats_reset(port);
}

SLUICE_API int32_t sluice_port_link(uint16_t port, uint32_t *speed_mbps, int32_t *up)
{
	struct rte_eth_link link;
	int ret;

	ret = rte_eth_link_get_nowait(port, &link);
	if (ret != 0)
		return ret;
	if (speed_mbps != NULL)
		*speed_mbps = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed;
	if (up != NULL)
		*up = link.link_status == RTE_ETH_LINK_UP;
	return 0;
}

/* ---- Bursts (hot path) ----------------------------------------------------------------------------- */

SLUICE_API uint16_t sluice_rx_burst(uint16_t port, uint16_t queue, uint64_t *mbufs, uint16_t max)
{
	/* Bounds of ethdev's fast-path tables, so a wrong id returns 0 instead of reading past them. */
	if (unlikely(port >= RTE_MAX_ETHPORTS || queue >= RTE_MAX_QUEUES_PER_PORT))
		return 0;
	if (max > SLUICE_BURST_MAX)
		max = SLUICE_BURST_MAX;
	return rte_eth_rx_burst(port, queue, as_mbufs(mbufs), max);
}

/* Whether the driver may be given m: a zero-length frame can hang some NICs' TX rings, so it is refused like
 * an overrun. */
static inline int tx_sendable(const struct rte_mbuf *m)
{
	return m != NULL && m->nb_segs == 1 && m->data_len != 0 &&
	       (uint32_t)m->data_off + m->data_len <= m->buf_len;
}

/* Sends pkts[0..k) (k <= SLUICE_BURST_MAX) from the caller's array when every one may be sent, else what may
 * be sent from a copy, the others freed and their entries zeroed; frees what the queue did not take. */
static uint16_t tx_chunk(uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t k)
{
	struct rte_mbuf *kept[SLUICE_BURST_MAX];
	struct rte_mbuf **out = pkts;
	uint16_t bad = 0;
	uint16_t done;

	for (uint16_t i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[i];

		if (likely(tx_sendable(m)))
			m->pkt_len = m->data_len;
		else
			bad++;
	}
	if (unlikely(bad != 0)) {
		uint16_t j = 0;

		for (uint16_t i = 0; i < k; i++) {
			if (tx_sendable(pkts[i])) {
				kept[j++] = pkts[i];
			} else {
				if (pkts[i] != NULL)
					rte_pktmbuf_free(pkts[i]);
				pkts[i] = NULL;
			}
		}
		out = kept;
		k = j;
		if (k == 0)
			return 0;
	}
	done = rte_eth_tx_burst(port, queue, out, k);
	if (unlikely(done < k))
		rte_pktmbuf_free_bulk(&out[done], k - done);
	return done;
}

SLUICE_API uint16_t sluice_tx_burst(uint16_t port, uint16_t queue, uint64_t *mbufs, uint16_t n)
{
	struct rte_mbuf **pkts = as_mbufs(mbufs);
	uint16_t sent = 0;

	if (unlikely(port >= RTE_MAX_ETHPORTS || queue >= RTE_MAX_QUEUES_PER_PORT)) {
		sluice_free_burst(mbufs, n);
		return 0;
	}
	for (uint16_t i = 0; i < n; i += SLUICE_BURST_MAX) {
		uint16_t k = n - i < SLUICE_BURST_MAX ? n - i : SLUICE_BURST_MAX;

		sent += tx_chunk(port, queue, &pkts[i], k);
	}
	return sent;
}

SLUICE_API void sluice_free_burst(uint64_t *mbufs, uint16_t n)
{
	if (mbufs != NULL && n > 0)
		rte_pktmbuf_free_bulk(as_mbufs(mbufs), n);
}

SLUICE_API int32_t sluice_alloc_burst(uint64_t pool, uint64_t *mbufs, uint16_t n)
{
	struct rte_mbuf **pkts = as_mbufs(mbufs);
	uint16_t i = 0;

	if (pool == 0 || (mbufs == NULL && n > 0))
		return -EINVAL;
	while (i < n) {
		uint16_t k = n - i < SLUICE_BURST_MAX ? n - i : SLUICE_BURST_MAX;

		if (rte_pktmbuf_alloc_bulk(as_pool(pool), &pkts[i], k) != 0) {
			sluice_free_burst(mbufs, i); /* all or nothing */
			return -ENOBUFS;
		}
		i += k;
	}
	return n;
}
