/*
 * gre_parse.h: checks a received GRE packet and finds the inner IP packet in it, for sluice_gredecap.
 *
 * Pure functions over a byte buffer: no I/O, no allocation. The verdict is the counter the packet ends in, so
 * the daemon counts every packet exactly once, in decapsulated or in one drop reason.
 */
#ifndef SLUICE_GREDECAP_GRE_PARSE_H
#define SLUICE_GREDECAP_GRE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The daemon's counters, in the order it prints them: X(identifier, label). */
#define GREDECAP_COUNTERS(X)                                                                                   \
	X(RX_PACKETS, "rx_packets")                    /* GRE packets read from the raw sockets */            \
	X(RX_OUTER_IPV4, "rx_outer_ipv4")                                                                     \
	X(RX_OUTER_IPV6, "rx_outer_ipv6")                                                                     \
	X(DECAPSULATED, "decapsulated")                /* inner packets written to the TUN */                 \
	X(DECAP_INNER_IPV4, "decap_inner_ipv4")                                                               \
	X(DECAP_INNER_IPV6, "decap_inner_ipv6")                                                               \
	X(DROP_TRUNCATED, "drop_truncated")            /* outer IPv4 or GRE header (with options) cut */     \
	X(DROP_BAD_VERSION, "drop_bad_version")        /* GRE version != 0 */                                 \
	X(DROP_ROUTING, "drop_routing")                /* R bit set */                                        \
	X(DROP_RESERVED_FLAGS, "drop_reserved_flags")  /* strict source route or recursion bit set */        \
	X(DROP_BAD_CHECKSUM, "drop_bad_checksum")      /* C bit set and checksum wrong */                     \
	X(DROP_UNKNOWN_PROTOCOL, "drop_unknown_protocol") /* protocol type not 0x0800 or 0x86DD */            \
	X(DROP_INNER_HEADER, "drop_inner_header")      /* inner IP header cut, malformed, or wrong version */ \
	X(DROP_INNER_LENGTH, "drop_inner_length")      /* inner IP length field != bytes carried */           \
	X(DROP_OVERSIZE, "drop_oversize")              /* larger than the receive buffer (a jumbogram) */     \
	X(DROP_TUN_WRITE, "drop_tun_write")            /* write() to the TUN failed */                        \
	X(KERNEL_RX_DROPS, "kernel_rx_drops")          /* raw socket queue overflows (SO_RXQ_OVFL) */         \
	X(RX_ERRORS, "rx_errors")                      /* recvmmsg() failures */                              \
	X(TUN_RX_DISCARDED, "tun_rx_discarded")        /* packets the kernel routed into the TUN, discarded */

enum gredecap_counter {
#define GREDECAP_COUNTER_ENUM(id, label) GREDECAP_##id,
	GREDECAP_COUNTERS(GREDECAP_COUNTER_ENUM)
#undef GREDECAP_COUNTER_ENUM
	GREDECAP_COUNTER_COUNT,
	GREDECAP_OK = GREDECAP_COUNTER_COUNT /* a verdict, not a counter: the inner packet is good */
};

/* Where the inner IP packet lies in the received packet. */
struct gredecap_inner {
	const uint8_t *ip;
	size_t length;
	bool ipv6;
};

/* Returns the label of a counter ("drop_truncated"). */
const char *gredecap_counter_label(enum gredecap_counter counter);

/* RFC 1071 one's complement sum of data, folded to 16 bits; an odd last byte is padded with zero. */
uint16_t gredecap_ones_complement_sum(const uint8_t *data, size_t length);

/* Checks a GRE packet, header first (what an AF_INET6 raw socket delivers). GREDECAP_OK fills inner. */
enum gredecap_counter gredecap_parse_gre(const uint8_t *gre, size_t length, struct gredecap_inner *inner);

/* Checks an outer IPv4 header + GRE packet (what an AF_INET raw socket delivers). GREDECAP_OK fills inner. */
enum gredecap_counter gredecap_parse_outer_ipv4(const uint8_t *packet, size_t length, struct gredecap_inner *inner);

#endif
