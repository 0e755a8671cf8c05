/*
 * gre_parse.c: GRE (RFC 2784, with RFC 2890's key and sequence number) and inner IP checks for sluice_gredecap.
 * See gre_parse.h.
 */
#include "gre_parse.h"

/* RFC 2784 §2 and RFC 2890 §2: flags and version, the first 16 bits of the GRE header. */
#define GRE_BASE_LENGTH 4
#define GRE_OPTION_LENGTH 4
#define GRE_FLAG_CHECKSUM 0x8000 /* C: checksum and reserved1 follow */
#define GRE_FLAG_ROUTING 0x4000  /* R: RFC 1701 source routing, which RFC 2784 receivers drop */
#define GRE_FLAG_KEY 0x2000      /* K: RFC 2890 key follows */
#define GRE_FLAG_SEQUENCE 0x1000 /* S: RFC 2890 sequence number follows */
#define GRE_RFC1701_ONLY 0x0C00  /* bits 4-5 (RFC 1701 s, Recur): RFC 2784 §2.3 says discard */
#define GRE_VERSION_MASK 0x0007
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86DD

#define IPV4_MIN_HEADER 20
#define IPV6_HEADER 40

static const char *const counter_labels[GREDECAP_COUNTER_COUNT] = {
#define GREDECAP_COUNTER_LABEL(id, label) label,
	GREDECAP_COUNTERS(GREDECAP_COUNTER_LABEL)
#undef GREDECAP_COUNTER_LABEL
};

const char *gredecap_counter_label(enum gredecap_counter counter)
{
	return counter < GREDECAP_COUNTER_COUNT ? counter_labels[counter] : "ok";
}

static inline uint16_t read_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

uint16_t gredecap_ones_complement_sum(const uint8_t *data, size_t length)
{
	uint64_t sum = 0;
	size_t i = 0;
	for (; i + 1 < length; i += 2) {
		sum += read_be16(data + i);
	}
	if (i < length) {
		sum += (uint64_t)data[i] << 8;
	}
	while (sum >> 16) {
		sum = (sum & 0xFFFF) + (sum >> 16);
	}
	return (uint16_t)sum;
}

/* The inner packet must carry exactly the bytes its own IP header claims: no more, no fewer. */
static enum gredecap_counter check_inner(const uint8_t *ip, size_t length, bool ipv6)
{
	if (!ipv6) {
		size_t header = (size_t)(ip[0] & 0x0F) * 4;
		if (length < IPV4_MIN_HEADER || ip[0] >> 4 != 4 || header < IPV4_MIN_HEADER || header > length) {
			return GREDECAP_DROP_INNER_HEADER;
		}
		return read_be16(ip + 2) == length ? GREDECAP_OK : GREDECAP_DROP_INNER_LENGTH;
	}
	if (length < IPV6_HEADER || ip[0] >> 4 != 6) {
		return GREDECAP_DROP_INNER_HEADER;
	}
	/* A payload length of 0 would mean a jumbogram (RFC 2675), which a GRE packet here cannot carry. */
	return (size_t)read_be16(ip + 4) + IPV6_HEADER == length ? GREDECAP_OK : GREDECAP_DROP_INNER_LENGTH;
}

/*
 * RFC 2784 §2.1, with RFC 2890's key and sequence number:
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |C|R|K|S|s|r|  Reserved0  | Ver |         Protocol Type         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Checksum (optional)      |       Reserved1 (Optional)    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Key (optional)                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Sequence Number (Optional)                    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * RFC 2784 §2.3: bits 1-5 non-zero means discard, except K and S (bits 2-3), which RFC 2890 defines; bits 6-12
 * are ignored on receipt. The key and sequence number are skipped: a test backend has one tunnel and does not
 * reorder.
 */
enum gredecap_counter gredecap_parse_gre(const uint8_t *gre, size_t length, struct gredecap_inner *inner)
{
	if (length < GRE_BASE_LENGTH) {
		return GREDECAP_DROP_TRUNCATED;
	}
	uint16_t flags = read_be16(gre);
	uint16_t protocol = read_be16(gre + 2);
	if ((flags & GRE_VERSION_MASK) != 0) {
		return GREDECAP_DROP_BAD_VERSION;
	}
	if (flags & GRE_FLAG_ROUTING) {
		return GREDECAP_DROP_ROUTING;
	}
	if (flags & GRE_RFC1701_ONLY) {
		return GREDECAP_DROP_RESERVED_FLAGS;
	}
	size_t header = GRE_BASE_LENGTH;
	header += (flags & GRE_FLAG_CHECKSUM) ? GRE_OPTION_LENGTH : 0;
	header += (flags & GRE_FLAG_KEY) ? GRE_OPTION_LENGTH : 0;
	header += (flags & GRE_FLAG_SEQUENCE) ? GRE_OPTION_LENGTH : 0;
	if (length < header) {
		return GREDECAP_DROP_TRUNCATED;
	}
	/* RFC 2784 §2.5: the checksum covers the GRE header and the payload; summed with it, all ones. */
	if ((flags & GRE_FLAG_CHECKSUM) && gredecap_ones_complement_sum(gre, length) != 0xFFFF) {
		return GREDECAP_DROP_BAD_CHECKSUM;
	}
	if (protocol != ETHERTYPE_IPV4 && protocol != ETHERTYPE_IPV6) {
		return GREDECAP_DROP_UNKNOWN_PROTOCOL;
	}
	inner->ip = gre + header;
	inner->length = length - header;
	inner->ipv6 = protocol == ETHERTYPE_IPV6;
	return check_inner(inner->ip, inner->length, inner->ipv6);
}

/* The kernel has checked the outer header's checksum and lengths; only its IHL is needed here. */
enum gredecap_counter gredecap_parse_outer_ipv4(const uint8_t *packet, size_t length, struct gredecap_inner *inner)
{
	if (length < IPV4_MIN_HEADER) {
		return GREDECAP_DROP_TRUNCATED;
	}
	size_t header = (size_t)(packet[0] & 0x0F) * 4;
	if (header < IPV4_MIN_HEADER || header > length) {
		return GREDECAP_DROP_TRUNCATED;
	}
	return gredecap_parse_gre(packet + header, length - header, inner);
}
