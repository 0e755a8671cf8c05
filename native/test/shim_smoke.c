/*
 * shim_smoke: end-to-end smoke test of libsluice_shim.so over DPDK virtual devices, using only
 * sluice_shim.h (as the Java binding does: no DPDK header).
 *
 *   net_ring0  loopback (each queue's TX ring is its RX ring): byte-exact round trips, prepending in the
 *              headroom, refused mbufs, a full TX queue, a registered worker thread
 *   net_null0  endless 64-byte RX, TX that frees: mbuf accounting
 *   net_pcap0  rx_pcap=IN.pcap tx_pcap=OUT.pcap: RX everything, TX everything, OUT.pcap == IN.pcap
 *              except each record's timestamp (the driver stamps TX time)
 *   net_pcap1  rx_pcap=JUMBO.pcap, no TX file: a frame larger than an mbuf arrives chained and is refused
 *
 * EAL runs with --no-huge and a per-run --file-prefix; the test removes its temporary directory and the
 * EAL runtime directory it leaves behind. Prints one line per check and "N passed, M failed" at the end;
 * exits 1 on any failure.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sluice_shim.h"

#define POOL_MBUFS 4095u
#define POOL_CACHE 32u
#define DATA_ROOM 2176 /* 2048 + RTE_PKTMBUF_HEADROOM */
#define PREPEND 24     /* outer IPv4 + GRE: what GreEncapsulator prepends */
#define RING_FRAMES 4
#define FLOOD_FRAMES 1100 /* more than net_ring's 1024-slot ring */
#define NULL_FRAME_LEN 64 /* net_null's default packet size */

static int passed;
static int failed;

static void check(int ok, const char *name, const char *fmt, ...)
{
	if (ok) {
		passed++;
		printf("ok - %s\n", name);
		return;
	}
	failed++;
	printf("not ok - %s: ", name);
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* The mbuf offsets sluice_layout() reports, read once in main(): the test reaches each mbuf's fields as Java
 * does, by offset, without DPDK's headers. */
static int32_t layout[SLUICE_LAYOUT_COUNT];

static uint8_t *mbuf_field(uint64_t m, int index)
{
	return (uint8_t *)(uintptr_t)m + layout[index];
}

static uint16_t get16(uint64_t m, int index)
{
	uint16_t v;

	memcpy(&v, mbuf_field(m, index), sizeof(v));
	return v;
}

static void set16(uint64_t m, int index, uint16_t v)
{
	memcpy(mbuf_field(m, index), &v, sizeof(v));
}

static uint32_t get32(uint64_t m, int index)
{
	uint32_t v;

	memcpy(&v, mbuf_field(m, index), sizeof(v));
	return v;
}

static uint64_t get64(uint64_t m, int index)
{
	uint64_t v;

	memcpy(&v, mbuf_field(m, index), sizeof(v));
	return v;
}

#define DATA_OFF(m) get16((m), SLUICE_LAYOUT_MBUF_DATA_OFF)
#define DATA_LEN(m) get16((m), SLUICE_LAYOUT_MBUF_DATA_LEN)
#define BUF_LEN(m) get16((m), SLUICE_LAYOUT_MBUF_BUF_LEN)
#define NB_SEGS(m) get16((m), SLUICE_LAYOUT_MBUF_NB_SEGS)
#define PKT_LEN(m) get32((m), SLUICE_LAYOUT_MBUF_PKT_LEN)
#define SET_DATA_OFF(m, v) set16((m), SLUICE_LAYOUT_MBUF_DATA_OFF, (uint16_t)(v))
#define SET_DATA_LEN(m, v) set16((m), SLUICE_LAYOUT_MBUF_DATA_LEN, (uint16_t)(v))

static uint8_t *frame_at(uint64_t m)
{
	return (uint8_t *)(uintptr_t)(get64(m, SLUICE_LAYOUT_MBUF_BUF_ADDR) + DATA_OFF(m));
}

/* Frame i: an Ethernet header (locally administered MACs, IPv4 ethertype) and a payload pattern. */
static void fill_frame(uint8_t *p, uint16_t len, uint32_t i)
{
	static const uint8_t eth[14] = { 0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00 };

	memcpy(p, eth, len < sizeof(eth) ? len : sizeof(eth));
	for (uint16_t b = sizeof(eth); b < len; b++)
		p[b] = (uint8_t)(i * 31u + b);
}

/* ---- Temporary files --------------------------------------------------------------------------------- */

static char tmp_dir[64];
static char eal_prefix[64];

static void path_in_tmp(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", tmp_dir, name);
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* Where EAL keeps its runtime files for our prefix (eal_get_runtime_dir() logic). */
static void eal_runtime_dir(char *out, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0)
		snprintf(out, size, "/var/run/dpdk/%s", eal_prefix);
	else
		snprintf(out, size, "%s/dpdk/%s", xdg != NULL ? xdg : "/tmp", eal_prefix);
}

/* Hugepage files EAL would name <prefix>map_<n>; with --no-huge there must be none. */
static int hugepage_files_left(void)
{
	DIR *d = opendir("/dev/hugepages");
	struct dirent *e;
	int n = 0;
	size_t len = strlen(eal_prefix);

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, eal_prefix, len) == 0)
			n++;
	closedir(d);
	return n;
}

static void cleanup_files(void)
{
	char dir[256];

	if (tmp_dir[0] != '\0')
		remove_dir(tmp_dir);
	if (eal_prefix[0] != '\0') {
		eal_runtime_dir(dir, sizeof(dir));
		remove_dir(dir);
	}
}

/* ---- pcap files (libpcap's format, nanosecond variant as net_pcap writes it) --------------------------- */

#define PCAP_MAGIC_NSEC 0xa1b23c4du
#define PCAP_SNAPLEN 65535u
#define PCAP_LINKTYPE_ETHERNET 1u
#define PCAP_FILE_HEADER 24
#define PCAP_RECORD_HEADER 16

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, sizeof(v), 1, f); /* host order, as libpcap writes */
}

static int write_pcap(const char *path, const uint16_t *lens, int n)
{
	FILE *f = fopen(path, "wb");
	uint8_t frame[4096];

	if (f == NULL)
		return -1;
	put32(f, PCAP_MAGIC_NSEC);
	put32(f, 2u | (4u << 16)); /* version 2.4 */
	put32(f, 0);               /* thiszone */
	put32(f, 0);               /* sigfigs */
	put32(f, PCAP_SNAPLEN);
	put32(f, PCAP_LINKTYPE_ETHERNET);
	for (int i = 0; i < n; i++) {
		fill_frame(frame, lens[i], (uint32_t)i);
		put32(f, 1700000000u + (uint32_t)i); /* ts seconds */
		put32(f, 1000u * (uint32_t)i);       /* ts nanoseconds */
		put32(f, lens[i]);
		put32(f, lens[i]);
		fwrite(frame, 1, lens[i], f);
	}
	return fclose(f);
}

static uint8_t *read_file(const char *path, long *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	*size = -1;
	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)*size + 1);
	if (buf != NULL && fread(buf, 1, (size_t)*size, f) != (size_t)*size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Compares two pcap files byte for byte, except the 8 timestamp bytes of each record. Returns the offset
 * of the first difference, or -1 when equal. */
static long pcap_diff(const uint8_t *a, long a_size, const uint8_t *b, long b_size)
{
	long off = PCAP_FILE_HEADER;

	if (a_size != b_size)
		return a_size < b_size ? a_size : b_size;
	if (a_size < PCAP_FILE_HEADER)
		return 0;
	for (long i = 0; i < PCAP_FILE_HEADER; i++)
		if (a[i] != b[i])
			return i;
	while (off + PCAP_RECORD_HEADER <= a_size) {
		uint32_t caplen;

		memcpy(&caplen, a + off + 8, sizeof(caplen));
		for (long i = off + 8; i < off + PCAP_RECORD_HEADER + (long)caplen && i < a_size; i++)
			if (a[i] != b[i])
				return i;
		off += PCAP_RECORD_HEADER + (long)caplen;
	}
	return off == a_size ? -1 : off;
}

/* ---- Checks ------------------------------------------------------------------------------------------ */

static void check_layout(void)
{
	int32_t v[SLUICE_LAYOUT_COUNT + 1];
	int32_t count;
	int ok;

	for (int i = 0; i <= SLUICE_LAYOUT_COUNT; i++)
		v[i] = -7;
	count = sluice_layout(v, 3);
	check(count == SLUICE_LAYOUT_COUNT && v[2] != -7 && v[3] == -7, "layout honours capacity",
	      "count %d, v[2] %d, v[3] %d", count, v[2], v[3]);
	check(sluice_layout(NULL, 0) == SLUICE_LAYOUT_COUNT, "layout count without buffer", "");

	sluice_layout(v, SLUICE_LAYOUT_COUNT + 1);
	ok = v[SLUICE_LAYOUT_COUNT] == -7 && v[SLUICE_LAYOUT_ABI_VERSION] == SLUICE_ABI_VERSION &&
	     v[SLUICE_LAYOUT_BURST_MAX] == SLUICE_BURST_MAX && v[SLUICE_LAYOUT_MBUF_HEADROOM] > 0 &&
	     v[SLUICE_LAYOUT_MBUF_BUF_ADDR] == 0 && v[SLUICE_LAYOUT_MBUF_DATA_OFF] == 16 &&
	     v[SLUICE_LAYOUT_MBUF_NB_SEGS] == 20 && v[SLUICE_LAYOUT_MBUF_OL_FLAGS] == 24 &&
	     v[SLUICE_LAYOUT_MBUF_PKT_LEN] == 36 && v[SLUICE_LAYOUT_MBUF_DATA_LEN] == 40 &&
	     v[SLUICE_LAYOUT_MBUF_HASH_RSS] == 44 && v[SLUICE_LAYOUT_MBUF_BUF_LEN] == 54 &&
	     v[SLUICE_LAYOUT_MBUF_F_RX_RSS_HASH] == SLUICE_MBUF_F_RX_RSS_HASH &&
	     v[SLUICE_LAYOUT_STATS_SIZE] == 64;
	for (int f = 0; f < 8; f++)
		ok = ok && v[SLUICE_LAYOUT_STATS_IPACKETS + f] == 8 * f;
	printf("# layout:");
	for (int i = 0; i < SLUICE_LAYOUT_COUNT; i++)
		printf(" %d", v[i]);
	printf("\n");
	check(ok, "layout matches sluice_shim.h", "see the line above");
}

static int same_affinity(const cpu_set_t *a)
{
	cpu_set_t now;

	if (pthread_getaffinity_np(pthread_self(), sizeof(now), &now) != 0)
		return 0;
	return CPU_EQUAL(a, &now);
}

static int port_of(const char *name)
{
	int32_t port = sluice_port_by_name(name);

	check(port >= 0, name, "sluice_port_by_name: %d (%s)", port, sluice_strerror(port));
	return port;
}

static int start_port(int port, uint64_t pool, uint16_t queues, int32_t rss, const char *name)
{
	int32_t ret = sluice_port_configure((uint16_t)port, pool, queues, queues, 0, 0, 1500, rss);

	if (ret == 0)
		ret = sluice_port_start((uint16_t)port);
	check(ret == 0, name, "%d (%s)", ret, sluice_strerror(ret));
	return ret;
}

static void check_pool_full(uint64_t pool, const char *name)
{
	uint32_t avail = sluice_mempool_avail(pool);

	check(avail == POOL_MBUFS, name, "%" PRIu32 " of %u mbufs free", avail, POOL_MBUFS);
	check(sluice_mempool_size(pool) == POOL_MBUFS, "sluice_mempool_size is the pool's size", "%" PRIu32,
	      sluice_mempool_size(pool));
}

/* Receives until a poll comes back empty (vdevs deliver at once). */
static uint16_t rx_all(uint16_t port, uint16_t queue, uint64_t *mbufs, uint16_t max)
{
	uint16_t n = 0;

	while (n < max) {
		uint16_t want = max - n < SLUICE_BURST_MAX ? max - n : SLUICE_BURST_MAX;
		uint16_t got = sluice_rx_burst(port, queue, mbufs + n, want);

		if (got == 0)
			break;
		n += got;
	}
	return n;
}

static void test_ring(uint16_t port, uint64_t pool)
{
	static const uint16_t lens[RING_FRAMES] = { 60, 64, 512, 1514 };
	static const uint8_t prefix[PREPEND] = { 0x45, 0, 0, 0, 0, 0, 0x40, 0, 0x40, 0x2f, 0, 0, 10, 0, 0, 1,
						 10, 1, 0, 1, 0, 0, 0x08, 0x00 };
	uint64_t tx[RING_FRAMES + 3];
	uint64_t sent_mbuf[RING_FRAMES + 3];
	uint64_t rx[SLUICE_BURST_MAX];
	struct sluice_port_stats stats;
	uint8_t mac[6];
	uint32_t speed = 0;
	int32_t up = 0;
	int32_t ret;
	uint16_t headroom;
	uint16_t sent, got;
	int ok;

	if (start_port(port, pool, 2, 1, "net_ring0 starts with 2 queues and RSS asked (it has none)") != 0)
		return;
	ret = sluice_port_link(port, &speed, &up);
	check(ret == 0 && up == 1, "net_ring0 link up", "ret %d up %d speed %" PRIu32, ret, up, speed);
	ret = sluice_port_mac(port, mac);
	printf("# net_ring0 mac %02x:%02x:%02x:%02x:%02x:%02x, speed %" PRIu32 " Mbps\n", mac[0], mac[1],
	       mac[2], mac[3], mac[4], mac[5], speed);
	check(ret == 0, "net_ring0 mac", "%d", ret);
	/* A vdev has no NUMA node of its own: -1 (SOCKET_ID_ANY), or a socket where EAL placed it. */
	ret = sluice_port_socket(port);
	check(ret >= -1, "net_ring0 socket", "%d", ret);
	check(sluice_port_socket(UINT16_MAX) == -ENODEV, "socket of no port is -ENODEV", "");

	ret = sluice_alloc_burst(pool, tx, RING_FRAMES + 2);
	check(ret == RING_FRAMES + 2, "alloc_burst fills the array", "%d", ret);
	headroom = DATA_OFF(tx[0]);
	check(DATA_LEN(tx[0]) == 0 && BUF_LEN(tx[0]) == DATA_ROOM && NB_SEGS(tx[0]) == 1, "allocated mbuf",
	      "data_off %u data_len %u buf_len %u", DATA_OFF(tx[0]), DATA_LEN(tx[0]), BUF_LEN(tx[0]));
	for (int i = 0; i < RING_FRAMES; i++) {
		fill_frame(frame_at(tx[i]), lens[i], (uint32_t)i);
		SET_DATA_LEN(tx[i], lens[i]);
	}
	/* Frame 0 gets a 24-byte header in its headroom, as GRE encapsulation does. */
	SET_DATA_OFF(tx[0], DATA_OFF(tx[0]) - PREPEND);
	memcpy(frame_at(tx[0]), prefix, PREPEND);
	SET_DATA_LEN(tx[0], DATA_LEN(tx[0]) + PREPEND);
	/* Mbuf 4 overruns its buffer, 5 is empty, entry 6 has no mbuf: all must be refused. Entry 1 goes between
	 * two refused ones, so the valid frames do not lead the array. */
	tx[RING_FRAMES + 2] = 0;
	memcpy(sent_mbuf, tx, sizeof(tx));
	SET_DATA_OFF(tx[RING_FRAMES], 2000);
	SET_DATA_LEN(tx[RING_FRAMES], 200);
	SET_DATA_LEN(tx[RING_FRAMES + 1], 0);
	tx[1] = sent_mbuf[RING_FRAMES];
	tx[RING_FRAMES] = sent_mbuf[1];

	sent = sluice_tx_burst(port, 0, tx, RING_FRAMES + 3);
	check(sent == RING_FRAMES, "tx_burst sends the valid frames", "sent %u", sent);
	ok = tx[1] == 0 && tx[RING_FRAMES] == sent_mbuf[1] && tx[RING_FRAMES + 1] == 0 && tx[RING_FRAMES + 2] == 0;
	for (int i = 0; i < RING_FRAMES; i++)
		ok = ok && (i == 1 || tx[i] == sent_mbuf[i]);
	check(ok, "tx_burst zeroes exactly the refused entries", "");

	got = sluice_rx_burst(port, 1, rx, SLUICE_BURST_MAX);
	check(got == 0, "net_ring0 queue 1 is its own loop", "got %u", got);
	got = sluice_rx_burst(port, 0, rx, SLUICE_BURST_MAX);
	check(got == RING_FRAMES, "net_ring0 loops frames back", "got %u", got);
	for (int i = 0; i < got && i < RING_FRAMES; i++) {
		static const int order[RING_FRAMES] = { 0, 2, 3, 1 }; /* the array's order, refused ones left out */
		const int f = order[i];
		uint8_t want[2048];
		uint16_t want_len = lens[f];
		uint16_t want_off = headroom;

		fill_frame(want, lens[f], (uint32_t)f);
		if (f == 0) {
			memmove(want + PREPEND, want, lens[f]);
			memcpy(want, prefix, PREPEND);
			want_len += PREPEND;
			want_off -= PREPEND;
		}
		ok = DATA_LEN(rx[i]) == want_len && PKT_LEN(rx[i]) == want_len && DATA_OFF(rx[i]) == want_off &&
		     BUF_LEN(rx[i]) == DATA_ROOM && NB_SEGS(rx[i]) == 1 && rx[i] == sent_mbuf[f] &&
		     memcmp(frame_at(rx[i]), want, want_len) == 0;
		check(ok, f == 0 ? "prepended frame comes back byte for byte" : "frame comes back byte for byte",
		      "frame %d: len %u pkt_len %" PRIu32 " off %u", f, DATA_LEN(rx[i]), PKT_LEN(rx[i]),
		      DATA_OFF(rx[i]));
	}
	sluice_free_burst(rx, got);
	check_pool_full(pool, "sent, rejected and received mbufs all return to the pool");

	ret = sluice_port_stats(port, &stats);
	check(ret == 0 && stats.opackets == RING_FRAMES && stats.ipackets == RING_FRAMES && stats.oerrors == 0,
	      "net_ring0 counts packets", "ret %d ipackets %" PRIu64 " opackets %" PRIu64 " oerrors %" PRIu64, ret,
	      stats.ipackets, stats.opackets, stats.oerrors);
	printf("# net_ring0 stats: ipackets %" PRIu64 " ibytes %" PRIu64 " opackets %" PRIu64 " obytes %" PRIu64
	       "\n", stats.ipackets, stats.ibytes, stats.opackets, stats.obytes);
}

/* TX more than the ring holds: what does not fit is freed by tx_burst, the rest comes back. */
static void test_ring_full(uint16_t port, uint64_t pool)
{
	static uint64_t descs[FLOOD_FRAMES];
	struct sluice_port_stats stats;
	int32_t ret;
	uint16_t sent, got;

	sluice_port_stats_reset(port);
	ret = sluice_alloc_burst(pool, descs, FLOOD_FRAMES);
	check(ret == FLOOD_FRAMES, "alloc_burst beyond one burst", "%d", ret);
	for (int i = 0; i < FLOOD_FRAMES; i++) {
		fill_frame(frame_at(descs[i]), 60, (uint32_t)i);
		SET_DATA_LEN(descs[i], 60);
	}
	sent = sluice_tx_burst(port, 0, descs, FLOOD_FRAMES);
	check(sent > 0 && sent < FLOOD_FRAMES, "tx_burst stops when the queue is full", "sent %u", sent);
	check(sluice_mempool_avail(pool) == POOL_MBUFS - sent, "unsent frames are freed", "avail %" PRIu32,
	      sluice_mempool_avail(pool));
	got = rx_all(port, 0, descs, FLOOD_FRAMES);
	check(got == sent, "every sent frame comes back", "got %u of %u", got, sent);
	sluice_free_burst(descs, got);
	ret = sluice_port_stats(port, &stats);
	printf("# net_ring0 after the flood: opackets %" PRIu64 " oerrors %" PRIu64 "\n", stats.opackets,
	       stats.oerrors);
	check(ret == 0 && stats.opackets == sent, "net_ring0 counts what it took", "opackets %" PRIu64,
	      stats.opackets);
	check_pool_full(pool, "pool full after the flood");
}

struct worker_result {
	uint16_t port;
	uint64_t pool;
	int32_t lcore_before;
	int32_t lcore;
	int32_t pinned;
	int32_t lcore_after;
	uint16_t looped;
};

/* A non-EAL thread, as a Java worker is: register, pin, one round trip on queue 1, unregister. */
static void *worker(void *arg)
{
	struct worker_result *r = arg;
	uint64_t d[8];

	r->lcore_before = sluice_lcore_id();
	r->pinned = sluice_pin_thread(0);
	r->lcore = sluice_thread_register();
	if (sluice_alloc_burst(r->pool, d, 8) == 8) {
		for (int i = 0; i < 8; i++) {
			fill_frame(frame_at(d[i]), 60, (uint32_t)i);
			SET_DATA_LEN(d[i], 60);
		}
		if (sluice_tx_burst(r->port, 1, d, 8) == 8) {
			r->looped = sluice_rx_burst(r->port, 1, d, 8);
			sluice_free_burst(d, r->looped);
		}
	}
	sluice_thread_unregister();
	r->lcore_after = sluice_lcore_id();
	return NULL;
}

static void test_worker_thread(uint16_t port, uint64_t pool)
{
	struct worker_result r = { .port = port, .pool = pool };
	pthread_t t;

	if (pthread_create(&t, NULL, worker, &r) != 0 || pthread_join(t, NULL) != 0) {
		check(0, "worker thread", "pthread_create/join failed");
		return;
	}
	check(r.lcore_before == -1 && r.lcore > 0 && r.lcore_after == -1, "thread_register gives a worker an lcore",
	      "before %d, registered %d (%s), after unregister %d", r.lcore_before, r.lcore,
	      sluice_strerror(r.lcore), r.lcore_after);
	check(r.pinned == 0, "pin_thread", "%d", r.pinned);
	check(r.looped == 8, "worker round trip on queue 1", "%u", r.looped);
	check_pool_full(pool, "worker's mbufs return to the pool");
}

static void test_null(uint16_t port, uint64_t pool)
{
	uint64_t d[SLUICE_BURST_MAX];
	struct sluice_port_stats stats;
	uint16_t got, sent;
	int ok = 1;

	if (start_port(port, pool, 1, 0, "net_null0 starts") != 0)
		return;
	got = sluice_rx_burst(port, 0, d, 64); /* more than SLUICE_BURST_MAX: clamped */
	for (int i = 0; i < got; i++)
		ok = ok && DATA_LEN(d[i]) == NULL_FRAME_LEN && NB_SEGS(d[i]) == 1;
	check(got == SLUICE_BURST_MAX && ok, "net_null0 fills a whole burst", "got %u", got);
	sent = sluice_tx_burst(port, 0, d, got);
	check(sent == got, "net_null0 takes the burst", "sent %u", sent);
	sluice_port_stats(port, &stats);
	printf("# net_null0 stats: ipackets %" PRIu64 " ibytes %" PRIu64 " opackets %" PRIu64 " obytes %" PRIu64
	       "\n", stats.ipackets, stats.ibytes, stats.opackets, stats.obytes);
	check(stats.ipackets == got && stats.opackets == sent, "net_null0 counts packets", "");
	check_pool_full(pool, "net_null0 frees what it sends");
}

static void test_pcap(uint16_t port, uint64_t pool, const char *in, const char *out, int frames)
{
	static uint64_t d[64];
	struct sluice_port_stats stats;
	uint8_t *a, *b;
	long a_size, b_size, diff;
	uint16_t got, sent;
	int32_t ret;

	ret = sluice_port_configure(port, pool, 2, 2, 0, 0, 0, 1);
	check(ret == -EINVAL, "configure refuses more queues than net_pcap0 has", "%d", ret);
	if (start_port(port, pool, 1, 0, "net_pcap0 starts") != 0)
		return;
	got = rx_all(port, 0, d, 64);
	check(got == frames, "net_pcap0 reads every record", "got %u of %d", got, frames);
	sent = sluice_tx_burst(port, 0, d, got);
	check(sent == got, "net_pcap0 writes every frame", "sent %u", sent);
	sluice_port_stats(port, &stats);
	printf("# net_pcap0 stats: ipackets %" PRIu64 " ibytes %" PRIu64 " opackets %" PRIu64 " obytes %" PRIu64
	       "\n", stats.ipackets, stats.ibytes, stats.opackets, stats.obytes);
	ret = sluice_port_stop(port);
	check(ret == 0, "net_pcap0 stops (closes OUT.pcap)", "%d", ret);

	a = read_file(in, &a_size);
	b = read_file(out, &b_size);
	diff = a != NULL && b != NULL ? pcap_diff(a, a_size, b, b_size) : 0;
	check(diff == -1, "OUT.pcap equals IN.pcap but for timestamps",
	      "IN %ld bytes, OUT %ld bytes, first difference at %ld", a_size, b_size, diff);
	free(a);
	free(b);
	check_pool_full(pool, "pcap frames return to the pool");
}

static void test_pcap_jumbo(uint16_t port, uint64_t pool)
{
	uint64_t d[4];
	uint16_t got, sent;

	if (start_port(port, pool, 1, 0, "net_pcap1 starts") != 0)
		return;
	got = rx_all(port, 0, d, 4);
	check(got == 1 && NB_SEGS(d[0]) > 1 && DATA_LEN(d[0]) < 3000 && PKT_LEN(d[0]) == 3000,
	      "a frame larger than an mbuf arrives chained", "got %u nb_segs %u data_len %u", got,
	      got ? NB_SEGS(d[0]) : 0, got ? DATA_LEN(d[0]) : 0);
	sent = sluice_tx_burst(port, 0, d, got);
	check(sent == 0 && (got == 0 || d[0] == 0), "tx_burst refuses a chain", "sent %u", sent);
	check_pool_full(pool, "the refused chain is freed whole");
}

int main(void)
{
	static const uint16_t pcap_lens[] = { 60, 64, 98, 128, 590, 1000, 1514, 60, 74, 1514 };
	const int pcap_frames = (int)(sizeof(pcap_lens) / sizeof(pcap_lens[0]));
	const uint16_t jumbo_len = 3000;
	char in[128], out[128], jumbo[128], dir[256];
	char prefix_arg[96], pcap0_arg[320], pcap1_arg[320];
	cpu_set_t affinity_before;
	uint64_t pool;
	int32_t ret;
	int ring, null, pcap0, pcap1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/sluice-smoke-XXXXXX");
	if (mkdtemp(tmp_dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(eal_prefix, sizeof(eal_prefix), "sluice-smoke-%d", (int)getpid());
	atexit(cleanup_files);
	path_in_tmp(in, sizeof(in), "IN.pcap");
	path_in_tmp(out, sizeof(out), "OUT.pcap");
	path_in_tmp(jumbo, sizeof(jumbo), "JUMBO.pcap");
	if (write_pcap(in, pcap_lens, pcap_frames) != 0 || write_pcap(jumbo, &jumbo_len, 1) != 0) {
		perror("write pcap");
		return 1;
	}

	printf("# %s\n", sluice_version());
	check(strncmp(sluice_version(), "DPDK ", 5) == 0, "version before EAL init", "%s", sluice_version());
	check_layout();
	sluice_layout(layout, SLUICE_LAYOUT_COUNT);

	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", eal_prefix);
	snprintf(pcap0_arg, sizeof(pcap0_arg), "--vdev=net_pcap0,rx_pcap=%s,tx_pcap=%s", in, out);
	snprintf(pcap1_arg, sizeof(pcap1_arg), "--vdev=net_pcap1,rx_pcap=%s", jumbo);
	const char *eal_args[] = {
		"shim_smoke", "-l", "0", "--no-huge", "-m", "256", "--no-pci", prefix_arg, "--log-level=warning",
		"--vdev=net_ring0", "--vdev=net_null0", pcap0_arg, pcap1_arg,
	};
	const int eal_argc = (int)(sizeof(eal_args) / sizeof(eal_args[0]));

	pthread_getaffinity_np(pthread_self(), sizeof(affinity_before), &affinity_before);
	ret = sluice_eal_init(eal_argc, eal_args);
	check(ret == eal_argc - 1, "eal_init parses every argument", "%d (%s)", ret, sluice_strerror(ret));
	if (ret < 0) {
		printf("%d passed, %d failed\n", passed, failed);
		return 1;
	}
	check(sluice_eal_init(eal_argc, eal_args) == -EALREADY, "second eal_init refused", "");
	check(same_affinity(&affinity_before), "eal_init keeps the caller's CPU affinity", "");
	check(sluice_lcore_id() == 0 && sluice_thread_register() == 0, "init thread is lcore 0", "%d",
	      sluice_lcore_id());
	check(sluice_port_count() == 4, "four vdev ports", "%d", sluice_port_count());
	check(sluice_port_by_name("net_nothing9") == -ENODEV, "unknown port name", "");
	check(sluice_port_configure(77, 0, 1, 1, 0, 0, 0, 0) == -ENODEV, "configure unknown port", "");

	pool = sluice_mempool_create("smoke_pool", POOL_MBUFS, POOL_CACHE, DATA_ROOM, -1);
	check(pool != 0, "mempool_create", "");
	if (pool == 0) {
		printf("%d passed, %d failed\n", passed, failed);
		return 1;
	}
	check(sluice_mempool_create("smoke_pool", 63, 0, DATA_ROOM, -1) == 0 && sluice_last_error() == -EEXIST,
	      "pool names are unique", "last error %d", sluice_last_error());
	check_pool_full(pool, "new pool is full");

	ring = port_of("net_ring0");
	null = port_of("net_null0");
	pcap0 = port_of("net_pcap0");
	pcap1 = port_of("net_pcap1");
	if (ring >= 0) {
		test_ring((uint16_t)ring, pool);
		test_ring_full((uint16_t)ring, pool);
		test_worker_thread((uint16_t)ring, pool);
	}
	if (null >= 0)
		test_null((uint16_t)null, pool);
	if (pcap0 >= 0)
		test_pcap((uint16_t)pcap0, pool, in, out, pcap_frames);
	if (pcap1 >= 0)
		test_pcap_jumbo((uint16_t)pcap1, pool);

	ret = 0;
	for (int port = 0; port < 4; port++) {
		int32_t stop = sluice_port_stop((uint16_t)port);
		int32_t close = sluice_port_close((uint16_t)port);

		if (stop != 0 || close != 0)
			ret = stop != 0 ? stop : close;
	}
	check(ret == 0, "ports stop and close", "%d (%s)", ret, sluice_strerror(ret));
	check(sluice_port_count() == 0, "closed vdevs release their ports", "%d", sluice_port_count());
	sluice_mempool_free(pool);
	ret = sluice_eal_cleanup();
	check(ret == 0, "eal_cleanup", "%d (%s)", ret, sluice_strerror(ret));
	check(sluice_eal_cleanup() == -EALREADY, "second eal_cleanup refused", "");
	check(sluice_eal_init(eal_argc, eal_args) == -EALREADY, "no EAL re-init after cleanup", "");

	eal_runtime_dir(dir, sizeof(dir));
	check(access(dir, F_OK) != 0, "eal_cleanup removes EAL's runtime directory", "%s is still there", dir);
	check(hugepage_files_left() == 0, "no hugepage files left", "%d", hugepage_files_left());

	printf("shim_smoke: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
