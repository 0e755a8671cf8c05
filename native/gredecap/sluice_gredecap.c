/*
 * sluice_gredecap.c: a userspace GRE decapsulator for Sluice's test and demo backends.
 *
 * The forwarder sends each client packet to its backend as outer IPv4 (DF set) or IPv6, a plain 4-byte GRE
 * header (RFC 2784) and the client's IP packet; the backend answers the client directly (Direct Server Return)
 * with the VIP as source. A backend whose kernel has ip_gre/ip6_gre uses a kernel GRE device; this daemon is for
 * kernels without them. It reads GRE from raw sockets, checks it (gre_parse.c), and writes the inner packet into
 * a TUN device, so the kernel receives it as if it had arrived on that link and delivers it to the VIP on lo.
 * It never sends anything itself: replies leave through the backend's normal route, with the VIP as source.
 *
 * What a backend (namespace) needs:
 *   - the VIPs on lo (ip addr add 10.100.0.1/32 dev lo; ip addr add 2001:db8:100::1/128 dev lo), lo up;
 *   - net.ipv4.conf.{all,default,TUN}.rp_filter=0: the inner source is the client, whose route is via another
 *     link. The kernel applies the larger of all and TUN, and both strict (1) and loose (2) drop every
 *     decapsulated IPv4 packet (loose too, because the TUN has no IPv4 address). Set default before starting
 *     this daemon, so the TUN it creates inherits 0. IPv6 has no rp_filter;
 *   - the TUN up (this daemon brings it up; it needs no address);
 *   - a route back to the clients through the normal link; on a shared L2 segment also arp_ignore=1 and
 *     arp_announce=2 (the usual DSR settings), so the backend neither answers ARP for the VIP nor uses the VIP
 *     as ARP source.
 *
 * Linux raw socket behaviour this relies on: an AF_INET raw socket delivers the outer IPv4 header too (after
 * reassembly), an AF_INET6 one only what follows the IPv6 header and its extension headers; each gets a copy of
 * every GRE packet for a local address (only those to its address when bound), and the kernel sends no
 * "protocol unreachable" for a packet that a raw socket took.
 *
 * usage: see usage() below. Needs CAP_NET_ADMIN (TUN) and CAP_NET_RAW.
 */
#define _GNU_SOURCE

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gre_parse.h"

#ifndef IPPROTO_GRE
#define IPPROTO_GRE 47
#endif

#define DEFAULT_TUN_NAME "gre-decap0"
#define BURST 32                        /* packets per recvmmsg() */
#define BURSTS_PER_CYCLE 8              /* then let the other socket, the TUN and signals have a turn */
#define PACKET_BUFFER 65536             /* an IPv4 datagram or a non-jumbo IPv6 payload always fits */
#define RECEIVE_BUFFER_BYTES (4 << 20)  /* asked for; the kernel caps it at net.core.rmem_max */
#define STATS_PERIOD_MS 1000

struct options {
	const char *tun_name;
	const char *stats_path;
	bool ipv4;
	bool ipv6;
	bool bind4_set;
	bool bind6_set;
	struct in_addr bind4;
	struct in6_addr bind6;
};


/* One raw socket per outer family. */
struct gre_socket {
	int fd;
	bool outer_ipv4;       /* the packet starts with the outer IPv4 header */
	uint32_t kernel_drops; /* last SO_RXQ_OVFL value, cumulative per socket */
};

/* Everything the loop owns. One thread: no locks, nothing shared. */
struct decapsulator {
	struct gre_socket sockets[2];
	int socket_count;
	int tun_fd;
	char tun_name[IFNAMSIZ];
	int signal_fd;
	const char *stats_path;
	/* Every packet read ends in exactly one of decapsulated or a drop_* counter. */
	uint64_t counters[GREDECAP_COUNTER_COUNT];
	bool tun_write_error_logged;
	bool rx_error_logged;
	bool stats_error_logged;
};

/* Receive buffers for one burst, allocated once; 2 MiB. */
static uint8_t rx_buffers[BURST][PACKET_BUFFER];
static char rx_control[BURST][CMSG_SPACE(sizeof(uint32_t))];
static struct mmsghdr rx_messages[BURST];
static struct iovec rx_iovecs[BURST];

static void usage(FILE *out)
{
	fprintf(out,
		"usage: sluice_gredecap [--tun NAME] [--bind ADDR]... [--stats FILE] [--no-ipv4 | --no-ipv6]\n"
		"Receives GRE (RFC 2784/2890) over IPv4 and IPv6 and writes the inner IP packet to a TUN device.\n"
		"  --tun NAME     TUN device to create or attach to, brought up (default " DEFAULT_TUN_NAME ")\n"
		"  --bind ADDR    accept only GRE sent to this local address; once per family; with --bind, a family\n"
		"                 without a --bind address is not received at all\n"
		"  --stats FILE   write the counters to FILE every second (atomically, by rename)\n"
		"  --no-ipv4      do not receive GRE over IPv4\n"
		"  --no-ipv6      do not receive GRE over IPv6\n"
		"  --help         print this and exit\n"
		"SIGUSR1 prints the counters as one line of key=value; SIGTERM/SIGINT print them and exit 0.\n"
		"Exit status: 0 after a signal, 1 on a setup failure or when the TUN device is deleted, 2 on bad\n"
		"arguments.\n");
}

static void fail_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail_usage(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	fputs("sluice_gredecap: ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
	va_end(args);
	usage(stderr);
	exit(2);
}

static void fail_setup(const char *what, const char *object) __attribute__((noreturn));

static void fail_setup(const char *what, const char *object)
{
	fprintf(stderr, "sluice_gredecap: %s%s%s: %s\n", what, object ? " " : "", object ? object : "",
		strerror(errno));
	exit(1);
}

/* Linux's dev_valid_name(), so that a bad name is an argument error rather than a setup failure. */
static bool valid_interface_name(const char *name)
{
	size_t length = strlen(name);
	if (length == 0 || length >= IFNAMSIZ || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		return false;
	}
	for (const char *c = name; *c; c++) {
		if (*c == '/' || *c == ':' || *c == ' ' || (*c >= '\t' && *c <= '\r')) {
			return false;
		}
	}
	return true;
}

static struct options parse_options(int argc, char **argv)
{
	enum { OPT_TUN = 256, OPT_BIND, OPT_STATS, OPT_NO_IPV4, OPT_NO_IPV6, OPT_HELP };
	static const struct option long_options[] = {
		{ "tun", required_argument, NULL, OPT_TUN },
		{ "bind", required_argument, NULL, OPT_BIND },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "no-ipv4", no_argument, NULL, OPT_NO_IPV4 },
		{ "no-ipv6", no_argument, NULL, OPT_NO_IPV6 },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .tun_name = DEFAULT_TUN_NAME, .ipv4 = true, .ipv6 = true };
	int opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (opt) {
		case OPT_TUN:
			if (!valid_interface_name(optarg)) {
				fail_usage("--tun: '%s' is not a valid interface name (1-15 characters, no '/', ':' "
					   "or space)", optarg);
			}
			o.tun_name = optarg;
			break;
		case OPT_BIND:
			if (inet_pton(AF_INET, optarg, &o.bind4) == 1) {
				if (o.bind4_set) {
					fail_usage("--bind: a second IPv4 address '%s'", optarg);
				}
				o.bind4_set = true;
			} else if (inet_pton(AF_INET6, optarg, &o.bind6) == 1) {
				if (o.bind6_set) {
					fail_usage("--bind: a second IPv6 address '%s'", optarg);
				}
				o.bind6_set = true;
			} else {
				fail_usage("--bind: '%s' is not an IPv4 or IPv6 address", optarg);
			}
			break;
		case OPT_STATS:
			if (optarg[0] == '\0') {
				fail_usage("--stats: empty file name");
			}
			o.stats_path = optarg;
			break;
		case OPT_NO_IPV4:
			o.ipv4 = false;
			break;
		case OPT_NO_IPV6:
			o.ipv6 = false;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			fail_usage("unknown option or missing value: %s", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		fail_usage("unexpected argument: %s", argv[optind]);
	}
	if (o.bind4_set || o.bind6_set) {
		if ((o.bind4_set && !o.ipv4) || (o.bind6_set && !o.ipv6)) {
			fail_usage("--bind: an address of a family turned off with --no-ipv4/--no-ipv6");
		}
		o.ipv4 = o.bind4_set;
		o.ipv6 = o.bind6_set;
	}
	if (!o.ipv4 && !o.ipv6) {
		fail_usage("nothing to receive: both IPv4 and IPv6 are off");
	}
	return o;
}

static void decapsulate(struct decapsulator *d, const struct gre_socket *from, const uint8_t *packet, size_t length,
			bool truncated)
{
	uint64_t *counters = d->counters;
	counters[GREDECAP_RX_PACKETS]++;
	counters[from->outer_ipv4 ? GREDECAP_RX_OUTER_IPV4 : GREDECAP_RX_OUTER_IPV6]++;
	if (truncated) {
		counters[GREDECAP_DROP_OVERSIZE]++;
		return;
	}
	struct gredecap_inner inner;
	enum gredecap_counter verdict = from->outer_ipv4 ? gredecap_parse_outer_ipv4(packet, length, &inner)
							 : gredecap_parse_gre(packet, length, &inner);
	if (verdict != GREDECAP_OK) {
		counters[verdict]++;
		return;
	}
	ssize_t written = write(d->tun_fd, inner.ip, inner.length);
	if (written != (ssize_t)inner.length) {
		counters[GREDECAP_DROP_TUN_WRITE]++;
		if (!d->tun_write_error_logged) {
			d->tun_write_error_logged = true;
			fprintf(stderr, "sluice_gredecap: write to %s: %s (counted in drop_tun_write, logged once)\n",
				d->tun_name, written < 0 ? strerror(errno) : "short write");
		}
		return;
	}
	counters[GREDECAP_DECAPSULATED]++;
	counters[inner.ipv6 ? GREDECAP_DECAP_INNER_IPV6 : GREDECAP_DECAP_INNER_IPV4]++;
}

/* The kernel reports a socket's queue overflows with the next packet it does queue. */
static void count_kernel_drops(struct decapsulator *d, struct gre_socket *from, struct msghdr *header)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(header); c != NULL; c = CMSG_NXTHDR(header, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
			uint32_t drops;
			memcpy(&drops, CMSG_DATA(c), sizeof(drops));
			/* Cumulative per socket; unsigned subtraction survives its wrap. */
			d->counters[GREDECAP_KERNEL_RX_DROPS] += (uint32_t)(drops - from->kernel_drops);
			from->kernel_drops = drops;
		}
	}
}

/* Drains up to BURSTS_PER_CYCLE bursts from one socket; returns the number of packets read. */
static int poll_gre_socket(struct decapsulator *d, struct gre_socket *from)
{
	int work = 0;
	for (int burst = 0; burst < BURSTS_PER_CYCLE; burst++) {
		for (int i = 0; i < BURST; i++) {
			rx_iovecs[i] = (struct iovec){ .iov_base = rx_buffers[i], .iov_len = PACKET_BUFFER };
			rx_messages[i].msg_hdr = (struct msghdr){
				.msg_iov = &rx_iovecs[i],
				.msg_iovlen = 1,
				.msg_control = rx_control[i],
				.msg_controllen = sizeof(rx_control[i]),
			};
		}
		int received = recvmmsg(from->fd, rx_messages, BURST, MSG_DONTWAIT, NULL);
		if (received < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
				d->counters[GREDECAP_RX_ERRORS]++;
				if (!d->rx_error_logged) {
					d->rx_error_logged = true;
					fprintf(stderr, "sluice_gredecap: recvmmsg: %s (counted in rx_errors, logged "
							"once)\n", strerror(errno));
				}
			}
			break;
		}
		for (int i = 0; i < received; i++) {
			struct msghdr *header = &rx_messages[i].msg_hdr;
			count_kernel_drops(d, from, header);
			decapsulate(d, from, rx_buffers[i], rx_messages[i].msg_len, (header->msg_flags & MSG_TRUNC) != 0);
		}
		work += received;
		if (received < BURST) {
			break;
		}
	}
	return work;
}

/*
 * The kernel may route packets into the TUN (its own IPv6 router solicitations, a misrouted reply): count and
 * discard them. Returns the number read, or -1 when the device is gone (`ip link del`), which ends the daemon:
 * poll() would report the dead descriptor forever.
 */
static int poll_tun(struct decapsulator *d)
{
	int work = 0;
	for (int i = 0; i < BURST; i++) {
		ssize_t n = read(d->tun_fd, rx_buffers[0], PACKET_BUFFER);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
				break;
			}
			fprintf(stderr, "sluice_gredecap: read from %s: %s (device deleted?)\n", d->tun_name,
				strerror(errno));
			return -1;
		}
		d->counters[GREDECAP_TUN_RX_DISCARDED]++;
		work++;
	}
	return work;
}

static void format_counters(const struct decapsulator *d, char *line, size_t size)
{
	size_t used = 0;
	line[0] = '\0';
	for (int i = 0; i < GREDECAP_COUNTER_COUNT && used < size; i++) {
		int n = snprintf(line + used, size - used, "%s%s=%llu", i == 0 ? "" : " ",
				 gredecap_counter_label((enum gredecap_counter)i), (unsigned long long)d->counters[i]);
		if (n < 0) {
			break;
		}
		used += (size_t)n;
	}
}

static void print_counters(const struct decapsulator *d)
{
	char line[1024];
	format_counters(d, line, sizeof(line));
	printf("%s\n", line);
	fflush(stdout);
}

/* Writes FILE.tmp and renames it over FILE, so a reader never sees half a line. */
static int write_stats_file(const struct decapsulator *d)
{
	char temporary[4096];
	char line[1024];
	if (snprintf(temporary, sizeof(temporary), "%s.tmp", d->stats_path) >= (int)sizeof(temporary)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	format_counters(d, line, sizeof(line));
	FILE *f = fopen(temporary, "we");
	if (f == NULL) {
		return -1;
	}
	int written = fprintf(f, "%s\n", line);
	if (fclose(f) != 0 || written < 0) {
		unlink(temporary);
		return -1;
	}
	if (rename(temporary, d->stats_path) != 0) {
		int saved = errno;
		unlink(temporary);
		errno = saved;
		return -1;
	}
	return 0;
}

static void publish_stats(struct decapsulator *d)
{
	if (d->stats_path != NULL && write_stats_file(d) != 0 && !d->stats_error_logged) {
		d->stats_error_logged = true;
		fprintf(stderr, "sluice_gredecap: write stats file %s: %s (logged once)\n", d->stats_path,
			strerror(errno));
	}
}

static struct gre_socket open_gre_socket(int family, const void *bind_address)
{
	int fd = socket(family, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_GRE);
	if (fd < 0) {
		fail_setup(family == AF_INET ? "socket(AF_INET, SOCK_RAW, IPPROTO_GRE)"
					     : "socket(AF_INET6, SOCK_RAW, IPPROTO_GRE)", NULL);
	}
	int one = 1;
	int size = RECEIVE_BUFFER_BYTES;
	if (setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one)) != 0) {
		fail_setup("setsockopt SO_RXQ_OVFL", NULL);
	}
	/* Beyond net.core.rmem_max as root; plain SO_RCVBUF (capped) otherwise. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) != 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) != 0) {
		fail_setup("setsockopt SO_RCVBUF", NULL);
	}
	if (bind_address != NULL) {
		char name[INET6_ADDRSTRLEN];
		inet_ntop(family, bind_address, name, sizeof(name));
		int rc;
		if (family == AF_INET) {
			struct sockaddr_in a = { .sin_family = AF_INET };
			memcpy(&a.sin_addr, bind_address, sizeof(a.sin_addr));
			rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
		} else {
			struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
			memcpy(&a.sin6_addr, bind_address, sizeof(a.sin6_addr));
			rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
		}
		if (rc != 0) {
			fail_setup("bind", name);
		}
	}
	return (struct gre_socket){ .fd = fd, .outer_ipv4 = family == AF_INET };
}

/* Creates the TUN device, or attaches to an existing one (`ip tuntap add mode tun`), and brings it up. */
static void open_tun(struct decapsulator *d, const char *requested)
{
	d->tun_fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (d->tun_fd < 0) {
		fail_setup("open /dev/net/tun", NULL);
	}
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", requested);
	if (ioctl(d->tun_fd, TUNSETIFF, &ifr) != 0) {
		fail_setup("TUNSETIFF (IFF_TUN | IFF_NO_PI)", requested);
	}
	snprintf(d->tun_name, IFNAMSIZ, "%s", ifr.ifr_name);

	int control = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (control < 0) {
		fail_setup("socket(AF_INET, SOCK_DGRAM)", NULL);
	}
	if (ioctl(control, SIOCGIFFLAGS, &ifr) != 0) {
		fail_setup("SIOCGIFFLAGS", d->tun_name);
	}
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(control, SIOCSIFFLAGS, &ifr) != 0) {
		fail_setup("bring up (SIOCSIFFLAGS)", d->tun_name);
	}
	close(control);
}

static int read_sysctl_int(const char *path)
{
	FILE *f = fopen(path, "re");
	int value = -1;
	if (f != NULL) {
		if (fscanf(f, "%d", &value) != 1) {
			value = -1;
		}
		fclose(f);
	}
	return value;
}

/*
 * rp_filter on drops every decapsulated IPv4 packet, and the kernel only counts it (IPReversePathFilter).
 * Loose mode (2) too: the TUN has no IPv4 address, and the kernel fails any source check on such a device.
 */
static void warn_rp_filter(const char *tun_name)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/rp_filter", tun_name);
	int all = read_sysctl_int("/proc/sys/net/ipv4/conf/all/rp_filter");
	int device = read_sysctl_int(path);
	if (all > 0 || device > 0) {
		fprintf(stderr, "sluice_gredecap: warning: rp_filter is on (all=%d, %s=%d), so the kernel drops the "
				"decapsulated IPv4 packets: set net.ipv4.conf.all.rp_filter=0 and "
				"net.ipv4.conf.%s.rp_filter=0\n", all, tun_name, device, tun_name);
	}
}

/* SIGTERM, SIGINT and SIGUSR1 arrive through a signalfd that poll() watches: no async handlers. */
static int open_signalfd(void)
{
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGUSR1);
	/* A non-interactive shell starts background jobs with SIGINT ignored; an ignored signal never queues. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	if (sigprocmask(SIG_BLOCK, &signals, NULL) != 0) {
		fail_setup("sigprocmask", NULL);
	}
	int fd = signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		fail_setup("signalfd", NULL);
	}
	return fd;
}

/* Returns true when asked to exit. */
static bool poll_signals(const struct decapsulator *d)
{
	struct signalfd_siginfo info;
	bool exit_requested = false;
	while (read(d->signal_fd, &info, sizeof(info)) == (ssize_t)sizeof(info)) {
		if (info.ssi_signo == SIGUSR1) {
			print_counters(d);
		} else {
			exit_requested = true;
		}
	}
	return exit_requested;
}

static int64_t monotonic_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Polls until a signal asks to stop; returns the exit status. */
static int run(struct decapsulator *d)
{
	enum { SIGNAL_FD, TUN_FD, FIRST_SOCKET_FD };
	struct pollfd fds[FIRST_SOCKET_FD + 2];
	fds[SIGNAL_FD] = (struct pollfd){ .fd = d->signal_fd, .events = POLLIN };
	fds[TUN_FD] = (struct pollfd){ .fd = d->tun_fd, .events = POLLIN };
	for (int i = 0; i < d->socket_count; i++) {
		fds[FIRST_SOCKET_FD + i] = (struct pollfd){ .fd = d->sockets[i].fd, .events = POLLIN };
	}
	int64_t next_stats = monotonic_ms() + STATS_PERIOD_MS;
	for (;;) {
		int64_t wait = next_stats - monotonic_ms();
		int ready = poll(fds, (nfds_t)(FIRST_SOCKET_FD + d->socket_count), wait < 0 ? 0 : (int)wait);
		if (ready < 0 && errno != EINTR) {
			fail_setup("poll", NULL);
		}
		for (int i = 0; ready > 0 && i < d->socket_count; i++) {
			if (fds[FIRST_SOCKET_FD + i].revents) {
				poll_gre_socket(d, &d->sockets[i]);
			}
		}
		if (ready > 0 && fds[TUN_FD].revents && poll_tun(d) < 0) {
			return 1;
		}
		if (ready > 0 && fds[SIGNAL_FD].revents && poll_signals(d)) {
			return 0;
		}
		int64_t now = monotonic_ms();
		if (now >= next_stats) {
			next_stats = now + STATS_PERIOD_MS;
			publish_stats(d);
		}
	}
}

int main(int argc, char **argv)
{
	struct options options = parse_options(argc, argv);
	static struct decapsulator d; /* zeroed: all counters 0 */
	d.stats_path = options.stats_path;
	d.signal_fd = open_signalfd();
	if (options.ipv4) {
		d.sockets[d.socket_count++] = open_gre_socket(AF_INET, options.bind4_set ? &options.bind4 : NULL);
	}
	if (options.ipv6) {
		d.sockets[d.socket_count++] = open_gre_socket(AF_INET6, options.bind6_set ? &options.bind6 : NULL);
	}
	open_tun(&d, options.tun_name);
	warn_rp_filter(d.tun_name);
	if (d.stats_path != NULL && write_stats_file(&d) != 0) {
		fail_setup("write stats file", d.stats_path);
	}
	fprintf(stderr, "sluice_gredecap: decapsulating GRE over%s%s into %s\n", options.ipv4 ? " IPv4" : "",
		options.ipv6 ? " IPv6" : "", d.tun_name);

	int status = run(&d);
	publish_stats(&d);
	print_counters(&d);
	return status;
}
