/*
 * maglev_ref: single-threaded C reference for the Maglev table build.
 *
 * A speed and correctness baseline for the Java builder
 * (common/src/main/java/io/sluice/common/maglev/MaglevTableBuilder.java):
 * the same algorithm, Maglev paper (Eisenbud et al., NSDI 2016) section 3.4,
 * Pseudocode 1, with weighted turns as Envoy adds them, so that for the same
 * backends and seed both produce the identical table.
 *
 *   maglev_ref --backends N --table-size M [--seed S] [--iterations K]
 *              [--warmup W] [--dump FILE]
 *
 * Backend i (0-based) has identity = the IPv4 address 10.0.0.0 + i + 1 in
 * network order, weight 1, id i. Prints one JSON line with the median and
 * minimum build time and a checksum (64-bit FNV-1a over the slots as
 * little-endian int32) that the Java side can compute too.
 */
#define _POSIX_C_SOURCE 199309L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Header-only xxHash: lets the compiler inline XXH64, and needs no -lxxhash. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#define NO_BACKEND (-1)

/* One backend as the builder sees it (MaglevBackend.java). */
struct backend {
	const uint8_t *identity;
	size_t length;
	uint32_t weight;
	int32_t id;
};

/* Per-backend build state; one struct so the fill loop touches one cache line per turn. */
struct slot_state {
	uint32_t next;
	uint32_t skip;
	uint32_t count;
	uint32_t weight;
	int32_t id;
};

/* Scratch kept between builds, so timed builds allocate nothing. */
struct builder {
	uint32_t size;
	uint64_t seed;
	const struct backend **ordered;
	struct slot_state *state;
	size_t capacity;
};

/* Identity order: by length, then unsigned bytes (MaglevBackend.compareIdentity). */
static int compare_identity(const struct backend *a, const struct backend *b)
{
	if (a->length != b->length)
		return a->length < b->length ? -1 : 1;
	return memcmp(a->identity, b->identity, a->length); /* memcmp compares unsigned chars */
}

static int compare_ordered(const void *pa, const void *pb)
{
	return compare_identity(*(const struct backend *const *)pa, *(const struct backend *const *)pb);
}

static int is_prime(uint64_t n)
{
	if (n < 2)
		return 0;
	if (n % 2 == 0)
		return n == 2;
	for (uint64_t d = 3; d * d <= n; d += 2)
		if (n % d == 0)
			return 0;
	return 1;
}

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (!p) {
		fprintf(stderr, "maglev_ref: out of memory (%zu bytes)\n", bytes);
		exit(1);
	}
	return p;
}

static void builder_init(struct builder *b, uint32_t size, uint64_t seed, size_t max_backends)
{
	b->size = size;
	b->seed = seed;
	b->ordered = xmalloc(max_backends * sizeof(*b->ordered));
	b->state = xmalloc(max_backends * sizeof(*b->state));
	b->capacity = max_backends;
}

static void builder_free(struct builder *b)
{
	free(b->ordered);
	free(b->state);
}

/*
 * Sorts the backends, drops weight-0 ones and computes each one's permutation:
 * offset = xxh64(identity, seed) mod M, skip = xxh64(identity, seed + 1) mod (M - 1) + 1.
 * The seed wraps like a Java long. Returns the number of eligible backends,
 * or -1 if two backends share an identity.
 */
static long prepare(struct builder *b, const struct backend *backends, size_t n)
{
	const uint64_t m = b->size;
	size_t eligible = 0;

	for (size_t i = 0; i < n; i++)
		b->ordered[i] = &backends[i];
	/* Sort every build, as the Java builder does: configured order must never matter. */
	qsort(b->ordered, n, sizeof(*b->ordered), compare_ordered);

	for (size_t i = 0; i < n; i++) {
		const struct backend *be = b->ordered[i];
		if (i > 0 && compare_identity(b->ordered[i - 1], be) == 0) {
			fprintf(stderr, "maglev_ref: two backends share identity: ids %" PRId32 " and %" PRId32 "\n",
				b->ordered[i - 1]->id, be->id);
			return -1;
		}
		if (be->weight == 0)
			continue;
		struct slot_state *s = &b->state[eligible++];
		uint64_t offset = XXH64(be->identity, be->length, b->seed) % m;
		s->skip = (uint32_t)(XXH64(be->identity, be->length, b->seed + 1) % (m - 1) + 1);
		s->next = (uint32_t)offset;
		s->count = 0;
		s->weight = be->weight;
		s->id = be->id;
	}
	return (long)eligible;
}

/*
 * Walks a permutation from slot c by steps of skip to its first empty slot, gives
 * it to id and returns the next slot of the permutation.
 */
static inline uint32_t claim(int32_t *table, uint32_t c, uint32_t skip, uint32_t m, int32_t id)
{
	while (table[c] != NO_BACKEND) {
		c += skip; /* c, skip < M <= INT32_MAX: no uint32 overflow */
		if (c >= m)
			c -= m;
	}
	table[c] = id;
	c += skip;
	return c >= m ? c - m : c;
}

/*
 * Maglev paper section 3.4, Pseudocode 1, with weighted turns: on turn t,
 * backend i may claim a slot only while count[i] * maxWeight < t * weight[i],
 * so each backend's share of the turns follows its weight.
 */
static void fill(struct builder *b, int32_t *table, size_t n, uint32_t max_weight)
{
	const uint32_t m = b->size;
	struct slot_state *state = b->state;
	uint32_t filled = 0;

	/* Equal weights skip nobody on any turn: a loop without the check, as the Java builder has. */
	int equal = 1;
	for (size_t i = 0; i < n; i++)
		equal &= state[i].weight == max_weight;
	if (equal) {
		for (;;) {
			for (size_t i = 0; i < n; i++) {
				struct slot_state *s = &state[i];
				s->next = claim(table, s->next, s->skip, m, s->id);
				if (++filled == m)
					return;
			}
		}
	}

	for (uint64_t turn = 1;; turn++) {
		for (size_t i = 0; i < n; i++) {
			struct slot_state *s = &state[i];
			if ((uint64_t)s->count * max_weight >= turn * s->weight)
				continue;
			s->next = claim(table, s->next, s->skip, m, s->id);
			s->count++;
			if (++filled == m)
				return;
		}
	}
}

/* Builds into table (M slots). Returns 0, or -1 on duplicate identities. */
static int build(struct builder *b, const struct backend *backends, size_t n, int32_t *table)
{
	long eligible = prepare(b, backends, n);
	if (eligible < 0)
		return -1;
	for (uint32_t i = 0; i < b->size; i++)
		table[i] = NO_BACKEND;
	if (eligible == 0)
		return 0;
	uint32_t max_weight = 0;
	for (long i = 0; i < eligible; i++)
		if (b->state[i].weight > max_weight)
			max_weight = b->state[i].weight;
	fill(b, table, (size_t)eligible, max_weight);
	return 0;
}

/* 64-bit FNV-1a over the slots as little-endian int32s, byte by byte, whatever the host order. */
static uint64_t checksum(const int32_t *table, uint32_t m)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (uint32_t i = 0; i < m; i++) {
		uint32_t v = (uint32_t)table[i];
		for (int k = 0; k < 4; k++) {
			h ^= (v >> (8 * k)) & 0xff;
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

static int dump(const char *path, const int32_t *table, uint32_t m)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "maglev_ref: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < m; i++) {
		uint32_t v = (uint32_t)table[i];
		uint8_t le[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };
		if (fwrite(le, 1, 4, f) != 4) {
			fprintf(stderr, "maglev_ref: write to %s failed: %s\n", path, strerror(errno));
			fclose(f);
			return -1;
		}
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "maglev_ref: write to %s failed: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: maglev_ref --backends N --table-size M [--seed S] [--iterations K] [--warmup W] [--dump FILE]\n"
		"  N  backends, 1..16777215 (backend i is 10.0.0.0 + i + 1, weight 1, id i)\n"
		"  M  table size, a prime in 3..2147483647\n"
		"  S  hash seed, a signed 64-bit integer (default 0)\n"
		"  K  timed builds, >= 1 (default 50)\n"
		"  W  untimed warm-up builds, >= 0 (default 10)\n"
		"  FILE  write the table as little-endian int32s\n");
}

static void bad_args(const char *fmt, const char *arg)
{
	fprintf(stderr, "maglev_ref: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	exit(2);
}

/* Parses a whole decimal integer in [min, max]; anything else is a usage error. */
static long long parse_int(const char *opt, const char *arg, long long min, long long max)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "maglev_ref: %s must be an integer in [%lld, %lld], got '%s'\n", opt, min, max, arg);
		usage(stderr);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long long n = -1, m = -1, seed = 0, iterations = 50, warmup = 10;
	const char *dump_path = NULL;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
			usage(stdout);
			return 0;
		}
		if (i + 1 >= argc)
			bad_args("missing value or unknown option: %s", opt);
		const char *arg = argv[++i];
		if (strcmp(opt, "--backends") == 0)
			n = parse_int(opt, arg, 1, 0xFFFFFF); /* beyond 2^24 - 1 the addresses leave 10/8 */
		else if (strcmp(opt, "--table-size") == 0)
			m = parse_int(opt, arg, 3, INT32_MAX); /* slots and ids are int32, as in Java */
		else if (strcmp(opt, "--seed") == 0)
			seed = parse_int(opt, arg, LLONG_MIN, LLONG_MAX);
		else if (strcmp(opt, "--iterations") == 0)
			iterations = parse_int(opt, arg, 1, INT32_MAX);
		else if (strcmp(opt, "--warmup") == 0)
			warmup = parse_int(opt, arg, 0, INT32_MAX);
		else if (strcmp(opt, "--dump") == 0)
			dump_path = arg;
		else
			bad_args("unknown option: %s", opt);
	}
	if (n < 0)
		bad_args("%s is required", "--backends");
	if (m < 0)
		bad_args("%s is required", "--table-size");
	if (!is_prime((uint64_t)m)) {
		/* Prime M makes every permutation visit every slot (section 3.4). */
		fprintf(stderr, "maglev_ref: --table-size must be a prime >= 3, got %lld\n", m);
		usage(stderr);
		exit(2);
	}

	/* Benchmark backend set, reproduced exactly by the Java side. */
	uint8_t *identities = xmalloc((size_t)n * 4);
	struct backend *backends = xmalloc((size_t)n * sizeof(*backends));
	for (long long i = 0; i < n; i++) {
		uint32_t host = (uint32_t)(i + 1);
		uint8_t *ip = &identities[i * 4];
		ip[0] = 10;
		ip[1] = (host >> 16) & 0xff;
		ip[2] = (host >> 8) & 0xff;
		ip[3] = host & 0xff;
		backends[i] = (struct backend){ .identity = ip, .length = 4, .weight = 1, .id = (int32_t)i };
	}

	struct builder b;
	builder_init(&b, (uint32_t)m, (uint64_t)seed, (size_t)n);
	int32_t *table = xmalloc((size_t)m * sizeof(*table));
	double *times = xmalloc((size_t)iterations * sizeof(*times));

	for (long long i = 0; i < warmup; i++)
		if (build(&b, backends, (size_t)n, table) != 0)
			return 1;
	for (long long i = 0; i < iterations; i++) {
		double start = now_ms();
		int rc = build(&b, backends, (size_t)n, table);
		times[i] = now_ms() - start;
		if (rc != 0)
			return 1;
	}

	qsort(times, (size_t)iterations, sizeof(*times), compare_double);
	double median = iterations % 2 ? times[iterations / 2]
				       : (times[iterations / 2 - 1] + times[iterations / 2]) / 2;

	if (dump_path && dump(dump_path, table, (uint32_t)m) != 0)
		return 1;

	printf("{\"impl\":\"c\",\"backends\":%lld,\"table_size\":%lld,\"seed\":%lld,"
	       "\"build_ms_median\":%.4f,\"build_ms_min\":%.4f,\"checksum\":\"%016" PRIx64 "\"}\n",
	       n, m, seed, median, times[0], checksum(table, (uint32_t)m));

	free(times);
	free(table);
	builder_free(&b);
	free(backends);
	free(identities);
	return 0;
}
