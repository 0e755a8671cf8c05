/*
 * gre_parse_test.c: byte-exact fixtures for gre_parse.c, including what cannot be sent through a kernel
 * (outer IPv4 headers that the kernel would have refused). Prints the packet in hex on a mismatch.
 * Run by make -C native gredecap-test, before the namespace test.
 */
#include <stdio.h>
#include <string.h>

#include "gre_parse.h"

/* Inner packets: IPv4/UDP 10.0.0.1 -> 10.100.0.1 with total length 28, IPv6/UDP with payload length 8. */
#define INNER4 "4500001c 00004000 40110000 0a000001 0a640001 30391e61 00080000"
#define INNER6                                                                                                  \
	"60000000 00081140 fd53001c e0000000 00000000 00000001 fd53001c e1000100 00000000 00000001 "           \
	"30391e61 00080000"
/* Outer IPv4 as an AF_INET raw socket delivers it (protocol 47); the parser reads only the version and IHL. */
#define OUTER4 "45000000 00004000 402f0000 0a0a0001 0a0a0002"

enum packet_start { GRE_FIRST, OUTER_IPV4_FIRST };

struct fixture {
	const char *description;
	enum packet_start start;
	const char *hex;
	enum gredecap_counter verdict;
	size_t inner_offset; /* checked when the verdict is GREDECAP_OK */
	size_t inner_length;
};

static const struct fixture fixtures[] = {
	{ "plain GRE, IPv4 inner (what GreEncapsulator emits)", GRE_FIRST, "00000800" INNER4, GREDECAP_OK, 4, 28 },
	{ "plain GRE, IPv6 inner", GRE_FIRST, "000086dd" INNER6, GREDECAP_OK, 4, 48 },
	{ "outer IPv4 + GRE + IPv4", OUTER_IPV4_FIRST, OUTER4 "00000800" INNER4, GREDECAP_OK, 24, 28 },
	{ "outer IPv4 with options (IHL 6)", OUTER_IPV4_FIRST,
	  "46000000 00004000 402f0000 0a0a0001 0a0a0002 01010101 00000800" INNER4, GREDECAP_OK, 28, 28 },
	{ "outer IPv4 with IHL 4", OUTER_IPV4_FIRST, "44000000 00004000 402f0000 0a0a0001 0a0a0002 00000800" INNER4,
	  GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "outer IPv4 with IHL 15 in 24 bytes", OUTER_IPV4_FIRST, "4f000000 00004000 402f0000 0a0a0001 0a0a0002 0000",
	  GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "outer IPv4 of 19 bytes", OUTER_IPV4_FIRST, "45000000 00004000 402f0000 0a0a0001 0a0a00",
	  GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "outer IPv4 and no GRE", OUTER_IPV4_FIRST, OUTER4, GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "GRE of 3 bytes", GRE_FIRST, "000008", GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "version 7", GRE_FIRST, "00070800" INNER4, GREDECAP_DROP_BAD_VERSION, 0, 0 },
	{ "version 1 with routing: the version decides", GRE_FIRST, "40010800" INNER4, GREDECAP_DROP_BAD_VERSION, 0, 0 },
	{ "routing bit", GRE_FIRST, "40000800" INNER4, GREDECAP_DROP_ROUTING, 0, 0 },
	{ "strict source route bit (bit 4)", GRE_FIRST, "08000800" INNER4, GREDECAP_DROP_RESERVED_FLAGS, 0, 0 },
	{ "recursion bit 5", GRE_FIRST, "04000800" INNER4, GREDECAP_DROP_RESERVED_FLAGS, 0, 0 },
	{ "bits 6-12 set: ignored (RFC 2784 2.3)", GRE_FIRST, "03f80800" INNER4, GREDECAP_OK, 4, 28 },
	{ "key and sequence number skipped", GRE_FIRST, "30000800 deadbeef 00000007" INNER4, GREDECAP_OK, 12, 28 },
	{ "key only, IPv4 inner (GreEncapsulator with gre_key)", GRE_FIRST, "20000800 9e3779b9" INNER4, GREDECAP_OK, 8,
	  28 },
	{ "key only, IPv6 inner", GRE_FIRST, "200086dd 00000000" INNER6, GREDECAP_OK, 8, 48 },
	{ "outer IPv4 from a source prefix + keyed GRE", OUTER_IPV4_FIRST,
	  "45000000 00004000 402f0000 0ac879b9 0a0a0002 20000800 9e3779b9" INNER4, GREDECAP_OK, 28, 28 },
	{ "key bit, key cut short", GRE_FIRST, "20000800 dead", GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "checksum bit, checksum cut short", GRE_FIRST, "80000800 00", GREDECAP_DROP_TRUNCATED, 0, 0 },
	{ "good checksum", GRE_FIRST, "80000800 4fc90000" INNER4, GREDECAP_OK, 8, 28 },
	{ "good checksum + key + sequence, odd length", GRE_FIRST,
	  "b0000800 58220000 deadbeef 00000007 4500001d 00004000 40110000 0a000001 0a640001 30391e61 00090000 2a",
	  GREDECAP_OK, 16, 29 },
	{ "bad checksum", GRE_FIRST, "80000800 4fc80000" INNER4, GREDECAP_DROP_BAD_CHECKSUM, 0, 0 },
	{ "checksum right but a payload byte flipped", GRE_FIRST,
	  "80000800 4fc90000 4500001c 00004000 40110000 0a000001 0a640001 30391e61 00080001",
	  GREDECAP_DROP_BAD_CHECKSUM, 0, 0 },
	{ "protocol 0x6558", GRE_FIRST, "00006558" INNER4, GREDECAP_DROP_UNKNOWN_PROTOCOL, 0, 0 },
	{ "protocol 0x0800, nothing inside", GRE_FIRST, "00000800", GREDECAP_DROP_INNER_HEADER, 0, 0 },
	{ "protocol 0x0800 carrying IPv6", GRE_FIRST, "00000800" INNER6, GREDECAP_DROP_INNER_HEADER, 0, 0 },
	{ "protocol 0x86dd carrying IPv4", GRE_FIRST, "000086dd" INNER4, GREDECAP_DROP_INNER_HEADER, 0, 0 },
	{ "inner IPv4 with IHL 4", GRE_FIRST, "00000800 4400001c 00004000 40110000 0a000001 0a640001 30391e61 00080000",
	  GREDECAP_DROP_INNER_HEADER, 0, 0 },
	{ "inner IPv4 with IHL 15 in 28 bytes", GRE_FIRST,
	  "00000800 4f00001c 00004000 40110000 0a000001 0a640001 30391e61 00080000", GREDECAP_DROP_INNER_HEADER, 0, 0 },
	{ "inner IPv4 total length 29, 28 carried", GRE_FIRST,
	  "00000800 4500001d 00004000 40110000 0a000001 0a640001 30391e61 00080000", GREDECAP_DROP_INNER_LENGTH, 0, 0 },
	{ "inner IPv4 total length 27, 28 carried", GRE_FIRST,
	  "00000800 4500001b 00004000 40110000 0a000001 0a640001 30391e61 00080000", GREDECAP_DROP_INNER_LENGTH, 0, 0 },
	{ "inner IPv6 payload length 9, 8 carried", GRE_FIRST,
	  "000086dd 60000000 00091140 fd53001c e0000000 00000000 00000001 fd53001c e1000100 00000000 00000001 "
	  "30391e61 00080000", GREDECAP_DROP_INNER_LENGTH, 0, 0 },
	{ "inner IPv6 payload length 0 (jumbogram)", GRE_FIRST,
	  "000086dd 60000000 00001140 fd53001c e0000000 00000000 00000001 fd53001c e1000100 00000000 00000001 "
	  "30391e61 00080000", GREDECAP_DROP_INNER_LENGTH, 0, 0 },
	{ "inner IPv6 of 39 bytes", GRE_FIRST,
	  "000086dd 60000000 00001140 fd53001c e0000000 00000000 00000001 fd53001c e1000100 00000000 000000",
	  GREDECAP_DROP_INNER_HEADER, 0, 0 },
};

static size_t parse_hex(const char *hex, unsigned char *out, size_t capacity)
{
	size_t n = 0;
	int high = -1;
	for (const char *c = hex; *c; c++) {
		int v = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10 : -1;
		if (v < 0) {
			continue;
		}
		if (high < 0) {
			high = v;
		} else if (n < capacity) {
			out[n++] = (unsigned char)(high << 4 | v);
			high = -1;
		}
	}
	return n;
}

static void print_hex(const unsigned char *bytes, size_t length)
{
	for (size_t i = 0; i < length; i++) {
		printf("%02x%s", bytes[i], i % 16 == 15 ? "\n            " : i % 4 == 3 ? " " : "");
	}
	printf("\n");
}

static int check_fixture(const struct fixture *f)
{
	unsigned char packet[256];
	size_t length = parse_hex(f->hex, packet, sizeof(packet));
	struct gredecap_inner inner = { 0 };
	enum gredecap_counter verdict = f->start == GRE_FIRST ? gredecap_parse_gre(packet, length, &inner)
							      : gredecap_parse_outer_ipv4(packet, length, &inner);
	size_t offset = inner.ip != NULL ? (size_t)(inner.ip - packet) : 0;
	bool ok = verdict == f->verdict;
	if (ok && verdict == GREDECAP_OK) {
		ok = offset == f->inner_offset && inner.length == f->inner_length;
	}
	if (ok) {
		printf("  PASS  %s: %s\n", f->description, gredecap_counter_label(verdict));
		return 0;
	}
	printf("  FAIL  %s\n    expected %s (inner at %zu, %zu bytes)\n    actual   %s (inner at %zu, %zu bytes)\n"
	       "    input   ", f->description, gredecap_counter_label(f->verdict), f->inner_offset, f->inner_length,
	       gredecap_counter_label(verdict), offset, inner.length);
	print_hex(packet, length);
	return 1;
}

int main(void)
{
	int failed = 0;
	int count = (int)(sizeof(fixtures) / sizeof(fixtures[0]));
	printf("gre_parse fixtures\n");
	/* RFC 1071 §3's worked example. */
	unsigned char rfc1071[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	uint16_t sum = gredecap_ones_complement_sum(rfc1071, sizeof(rfc1071));
	printf("  %s  one's complement sum of RFC 1071's example: 0x%04x (want 0xddf2)\n",
	       sum == 0xddf2 ? "PASS" : "FAIL", sum);
	failed += sum != 0xddf2;
	for (int i = 0; i < count; i++) {
		failed += check_fixture(&fixtures[i]);
	}
	printf("gre_parse fixtures: %s (%d passed, %d failed)\n", failed ? "FAILED" : "PASSED", count + 1 - failed,
	       failed);
	return failed ? 1 : 0;
}
