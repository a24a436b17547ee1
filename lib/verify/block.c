/*
 * Verify blocks: filling and classifying. The hot paths are a PRNG stream
 * (eight xorshift128+ lanes in GCC vector types, so the compiler uses
 * whatever SIMD the target has and stays portable) and one checksum per
 * block; the classification of a bad block may take its time.
 */
#include "lib/verify/block.h"
#include "lib/verify/crc32c.h"
#include "lib/base/rng.h"

#include <endian.h>

#ifdef HAVE_XXHASH
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

#define CSUM_FIELD 56 /* the checksum's place in the header */
#define LANES 8
#define CHUNK (LANES * 8) /* bytes per stream step */

typedef uint64_t lanes __attribute__((vector_size(CHUNK)));

struct stream {
	lanes a, b;
};

const char *sb_verify_class_name(int cls)
{
	static const char *const names[] = { "intact",	"corrupted",  "misplaced", "stale",
					     "foreign", "unreadable", "newer",	   "missing" };
	return cls >= 0 && cls < SB_VERIFY_NCLASS ? names[cls] : "?";
}

int sb_verify_class_by_name(const char *name)
{
	for (int c = 0; name && c < SB_VERIFY_NCLASS; c++)
		if (!strcmp(name, sb_verify_class_name(c)))
			return c;
	return -EINVAL;
}

const char *sb_verify_csum_name(unsigned csum)
{
	return csum == SB_VERIFY_CSUM_XXH3 ? "xxh3" : "crc32c";
}

int sb_verify_csum_supported(unsigned csum)
{
#ifdef HAVE_XXHASH
	if (csum == SB_VERIFY_CSUM_XXH3)
		return 1;
#endif
	return csum == SB_VERIFY_CSUM_CRC32C;
}

int sb_verify_fmt_init(struct sb_verify_fmt *f, uint64_t seed, uint64_t generation,
		       uint32_t block_size)
{
	if (block_size < SB_VERIFY_MIN_BS || block_size > SB_VERIFY_MAX_BS || block_size % 512)
		return -EINVAL;
	f->seed = seed;
	f->generation = generation;
	f->region_end = 0;
	f->block_size = block_size;
	f->csum = sb_verify_csum_supported(SB_VERIFY_CSUM_XXH3) ? SB_VERIFY_CSUM_XXH3
								: SB_VERIFY_CSUM_CRC32C;
	return 0;
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return le64toh(v);
}

static inline void store64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

void sb_verify_header_decode(const void *blk, struct sb_verify_header *h)
{
	const unsigned char *p = blk;
	uint16_t v16[2];
	uint32_t v32;

	h->magic = load64(p);
	memcpy(v16, p + 8, 4);
	memcpy(&v32, p + 12, 4);
	h->version = le16toh(v16[0]);
	h->csum = le16toh(v16[1]);
	h->block_size = le32toh(v32);
	h->seed = load64(p + 16);
	h->offset = load64(p + 24);
	h->generation = load64(p + 32);
	h->write_time = load64(p + 40);
	h->region_end = load64(p + 48);
	h->checksum = load64(p + CSUM_FIELD);
}

/* The payload stream of one block: distinct for every (seed, offset,
 * generation), so no two blocks of a device carry the same data (a
 * deduplicating controller must really store each one). */
static void stream_init(struct stream *s, uint64_t seed, uint64_t offset, uint64_t gen)
{
	uint64_t x = seed ^ (offset * 0x9e3779b97f4a7c15ull) ^ (gen * 0xd1b54a32d192ed03ull);

	for (int i = 0; i < LANES; i++) {
		s->a[i] = sb_splitmix64(&x);
		s->b[i] = sb_splitmix64(&x) | 1; /* never an all-zero state */
	}
}

static inline void stream_next(struct stream *s, unsigned char *out)
{
	lanes s1 = s->a;
	const lanes s0 = s->b;

	s->a = s0;
	s1 ^= s1 << 23;
	s->b = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
	lanes r = s->b + s0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (int i = 0; i < LANES; i++)
		r[i] = __builtin_bswap64(r[i]);
#endif
	memcpy(out, &r, CHUNK);
}

/* 8-byte words of the payload that differ from the stream of (seed,
 * offset, gen); counting stops once past limit. */
static size_t payload_diff(const unsigned char *blk, uint32_t bs, uint64_t seed, uint64_t offset,
			   uint64_t gen, size_t limit)
{
	unsigned char want[CHUNK];
	struct stream s;
	size_t diff = 0;

	stream_init(&s, seed, offset, gen);
	for (uint32_t i = SB_VERIFY_HDR_SIZE; i < bs && diff <= limit; i += CHUNK) {
		stream_next(&s, want);
		for (int w = 0; w < CHUNK; w += 8)
			diff += memcmp(blk + i + w, want + w, 8) != 0;
	}
	return diff;
}

static uint64_t csum_of(const unsigned char *b, uint32_t bs, unsigned algo)
{
#ifdef HAVE_XXHASH
	if (algo == SB_VERIFY_CSUM_XXH3)
		return XXH3_64bits_withSeed(b + SB_VERIFY_HDR_SIZE, bs - SB_VERIFY_HDR_SIZE,
					    XXH3_64bits(b, CSUM_FIELD));
#endif
	uint32_t c = sb_crc32c(0, b, CSUM_FIELD);
	(void)algo;
	return sb_crc32c(c, b + SB_VERIFY_HDR_SIZE, bs - SB_VERIFY_HDR_SIZE);
}

/* Is the block what its header says? By checksum, or by regenerating the
 * payload when this build lacks the block's algorithm. */
static int sum_ok(const unsigned char *blk, const struct sb_verify_header *h)
{
	if (sb_verify_csum_supported(h->csum))
		return csum_of(blk, h->block_size, h->csum) == h->checksum;
	return payload_diff(blk, h->block_size, h->seed, h->offset, h->generation, 0) == 0;
}

void sb_verify_fill(const struct sb_verify_fmt *f, void *buf, size_t len, uint64_t offset,
		    uint64_t time_ns)
{
	const uint32_t bs = f->block_size;
	unsigned char *p = buf;

	for (size_t i = 0; i + bs <= len; i += bs, p += bs) {
		const uint64_t off = offset + i;
		const uint32_t ver_csum = htole32(SB_VERIFY_VERSION | (uint32_t)f->csum << 16);
		const uint32_t bsle = htole32(bs);
		struct stream s;

		store64(p, SB_VERIFY_MAGIC);
		memcpy(p + 8, &ver_csum, 4);
		memcpy(p + 12, &bsle, 4);
		store64(p + 16, f->seed);
		store64(p + 24, off);
		store64(p + 32, f->generation);
		store64(p + 40, time_ns);
		store64(p + 48, f->region_end);
		stream_init(&s, f->seed, off, f->generation);
		for (uint32_t k = SB_VERIFY_HDR_SIZE; k < bs; k += CHUNK)
			stream_next(&s, p + k);
		store64(p + CSUM_FIELD, csum_of(p, bs, f->csum));
	}
}

static int header_sane(const struct sb_verify_header *h, uint32_t bs)
{
	return h->magic == SB_VERIFY_MAGIC && h->version == SB_VERIFY_VERSION &&
	       h->block_size == bs &&
	       (h->csum == SB_VERIFY_CSUM_XXH3 || h->csum == SB_VERIFY_CSUM_CRC32C);
}

/* Everything but intact. A block whose header or most of whose payload
 * says "this run, this offset" is corrupted; a self-consistent block is
 * judged by its header; anything else is foreign. */
static enum sb_verify_class classify(const struct sb_verify_fmt *f, const unsigned char *blk,
				     uint64_t offset, const struct sb_verify_header *h,
				     struct sb_verify_finding *out)
{
	const size_t words = (f->block_size - SB_VERIFY_HDR_SIZE) / 8;

	if (header_sane(h, f->block_size) && sum_ok(blk, h)) {
		if (h->seed != f->seed)
			return SB_VERIFY_FOREIGN;
		out->generation = h->generation;
		if (h->offset != offset) {
			out->expected_offset = h->offset;
			return SB_VERIFY_MISPLACED;
		}
		if (h->generation == f->generation)
			return SB_VERIFY_INTACT;
		return h->generation < f->generation ? SB_VERIFY_STALE : SB_VERIFY_NEWER;
	}
	if (h->magic == SB_VERIFY_MAGIC && h->seed == f->seed && h->offset == offset)
		return SB_VERIFY_CORRUPTED;
	/* the header itself was hit: the data may still be ours */
	if (payload_diff(blk, f->block_size, f->seed, offset, f->generation, words / 2) <=
	    words / 2)
		return SB_VERIFY_CORRUPTED;
	return SB_VERIFY_FOREIGN;
}

enum sb_verify_class sb_verify_check_block(const struct sb_verify_fmt *f, const void *blk,
					   uint64_t offset, struct sb_verify_finding *out)
{
	const unsigned char *p = blk;
	struct sb_verify_header h;

	sb_verify_header_decode(p, &h);
	out->expected_offset = 0;
	out->generation = 0;
	out->err = 0;
	if (SB_LIKELY(h.magic == SB_VERIFY_MAGIC && h.seed == f->seed && h.offset == offset &&
		      h.generation == f->generation && header_sane(&h, f->block_size)) &&
	    SB_LIKELY(sum_ok(p, &h)))
		return out->cls = SB_VERIFY_INTACT;
	return out->cls = classify(f, p, offset, &h, out);
}

int sb_verify_block_valid(const void *blk, size_t len, struct sb_verify_header *h)
{
	if (len < SB_VERIFY_MIN_BS)
		return 0;
	sb_verify_header_decode(blk, h);
	if (h->block_size < SB_VERIFY_MIN_BS || h->block_size > SB_VERIFY_MAX_BS ||
	    h->block_size % 512 || h->block_size > len || !header_sane(h, h->block_size))
		return 0;
	return sum_ok(blk, h);
}
