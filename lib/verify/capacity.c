/*
 * The fake-capacity probe. Positions are in blocks; every block written is
 * a verify block (seed of this probe, its own offset, a generation per step)
 * so a read tells apart "kept", "lost" and "landed elsewhere".
 *
 *   1. cache: write 1, 2, 4, ... blocks growing down from the end (at most
 *      1 GiB, never below half the device) and read 64 random ones of all
 *      written so far; the first loss bounds the usable size, and what was
 *      written before it is the cache it overflowed (unless the lost block
 *      held another position's block: then the addresses wrap, and a cache
 *      would not show);
 *   2. wrap: write block g (first after 1 MiB), flush the cache, and read
 *      g + 2^k for growing k: finding g's block there means the addresses
 *      wrap at 2^k;
 *   3. search: between the last good and the first bad position, write 64
 *      evenly spaced blocks, flush the cache, read them in order: the first
 *      bad one and the last good one before it bound the next round;
 *   4. confirm: 64, 256, 1024 random blocks below the bound; a loss restarts
 *      the search below it (devices whose good part is not one prefix).
 * "Flush the cache" writes twice the cache found past the first loss of
 * step 1, where the device keeps nothing and nothing is tested (round and
 * round when there is less room: a cache that keeps rewritten positions in
 * place may then keep some test blocks, and the size found errs high).
 */
#include "lib/verify/capacity.h"
#include "lib/verify/block.h"
#include "lib/job/buffer.h"
#include "lib/base/rng.h"

#define MIB (1ull << 20)
#define CACHE_SAMPLES 64
#define SEARCH_POINTS 64
#define SEARCH_ROUNDS 8
#define NONE UINT64_MAX

struct probe {
	const struct sb_capacity_dev *d;
	struct sb_capacity_result *r;
	struct sb_verify_fmt fmt;
	struct sb_rng rng;
	unsigned char *buf;
	uint32_t chunk;	  /* blocks that fit in buf */
	uint64_t g;	  /* first block the probe may write */
	uint64_t hi;	  /* lowest position known bad (or the end) */
	uint64_t scratch; /* where writes that flush a cache go */
	uint64_t nflush;  /* how many */
};

const char *sb_capacity_kind_name(enum sb_capacity_kind k)
{
	static const char *const names[] = { "good", "damaged", "limbo", "wraparound", "chain" };
	return (unsigned)k < SB_ARRAY_SIZE(names) ? names[k] : "?";
}

uint64_t sb_capacity_first_block(uint32_t block_size)
{
	return (MIB + block_size - 1) / block_size;
}

static int stopped(const struct probe *pr)
{
	if (pr->r->interrupted)
		return 1;
	if (pr->d->stop && pr->d->stop(pr->d->ctx))
		pr->r->interrupted = 1;
	return pr->r->interrupted;
}

/* n blocks from pos on, all of generation gen. */
static void write_run(struct probe *pr, uint64_t pos, uint64_t n, uint64_t gen)
{
	const uint32_t bs = pr->d->block_size;

	pr->fmt.generation = gen;
	while (n && !stopped(pr)) {
		const uint32_t k = (uint32_t)SB_MIN(n, (uint64_t)pr->chunk);
		sb_verify_fill(&pr->fmt, pr->buf, (size_t)k * bs, pos * bs, 0);
		if (pr->d->write(pr->d->ctx, pos, pr->buf, k) < 0)
			pr->r->io_errors++;
		pr->r->blocks_written += k;
		pos += k;
		n -= k;
	}
}

/* Read one block and classify it against generation gen. */
static enum sb_verify_class read_one(struct probe *pr, uint64_t pos, uint64_t gen,
				     struct sb_verify_finding *f)
{
	pr->r->blocks_read++;
	if (pr->d->read(pr->d->ctx, pos, pr->buf, 1) < 0) {
		pr->r->io_errors++;
		return f->cls = SB_VERIFY_UNREADABLE;
	}
	pr->fmt.generation = gen;
	return sb_verify_check_block(&pr->fmt, pr->buf, pos * pr->d->block_size, f);
}

static int kept(struct probe *pr, uint64_t pos, uint64_t gen)
{
	struct sb_verify_finding f;
	return read_one(pr, pos, gen, &f) == SB_VERIFY_INTACT;
}

/* Write nflush blocks to the scratch area past the first loss, round and
 * round when it is smaller. */
static void flush_cache(struct probe *pr, uint64_t gen)
{
	const uint64_t room = pr->d->nblocks - pr->scratch;

	for (uint64_t done = 0; done < pr->nflush && room; done += room)
		write_run(pr, pr->scratch, SB_MIN(room, pr->nflush - done), gen);
}

static uint64_t random_in(struct probe *pr, uint64_t lo, uint64_t hi)
{
	return lo + sb_rng_below(&pr->rng, hi - lo);
}

/* Lowest lost block among samples of [lo, hi) (both ends included);
 * *alias set when a lost block held another position's block. */
static uint64_t sample(struct probe *pr, uint64_t lo, uint64_t hi, uint64_t gen, unsigned n,
		       int *alias)
{
	struct sb_verify_finding f;
	uint64_t bad = NONE;

	for (unsigned i = 0; i < n + 2 && !stopped(pr); i++) {
		const uint64_t p = i == 0 ? lo : i == 1 ? hi - 1 : random_in(pr, lo, hi);
		if (p >= bad || read_one(pr, p, gen, &f) == SB_VERIFY_INTACT)
			continue;
		bad = p;
		*alias |= f.cls == SB_VERIFY_MISPLACED;
	}
	return bad;
}

static void find_cache(struct probe *pr, uint64_t *gen)
{
	const uint64_t end = pr->hi;
	const uint64_t mid = SB_MAX(end / 2, pr->g + 1);
	const uint64_t most = SB_MIN((1ull << 30) / pr->d->block_size, end - mid);
	uint64_t low = end, target = 1;
	const uint64_t g = ++*gen;

	while (end - low < most && !stopped(pr)) {
		const uint64_t before = end - low;
		const uint64_t n = SB_MIN(SB_MIN(target, low - mid), most - before);
		write_run(pr, low - n, n, g);
		low -= n;
		int alias = 0;
		const uint64_t bad = sample(pr, low, end, g, CACHE_SAMPLES, &alias);
		if (bad != NONE) {
			/* blocks overwritten by others written later: the addresses
			 * wrap, which hides any cache (its size stays unknown) */
			pr->hi = bad;
			pr->r->cache_blocks = alias ? 0 : before;
			return;
		}
		target *= 2;
	}
}

static int log2_floor(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/* 0, or -1 when even block g is not kept. */
static int find_wrap(struct probe *pr, uint64_t *gen)
{
	const uint64_t g = ++*gen;
	struct sb_verify_finding f;

	write_run(pr, pr->g, 1, g);
	flush_cache(pr, ++*gen);
	if (!kept(pr, pr->g, g))
		return -1;
	for (int k = log2_floor(pr->g) + 1; k < 63 && !stopped(pr); k++) {
		const uint64_t p = pr->g + (1ull << k);
		if (p >= pr->hi)
			break;
		if (read_one(pr, p, g, &f) == SB_VERIFY_MISPLACED && f.generation == g &&
		    f.expected_offset == pr->g * pr->d->block_size) {
			pr->hi = SB_MIN(pr->hi, 1ull << k);
			pr->r->wrap_order = k + log2_floor(pr->d->block_size);
			break;
		}
	}
	return 0;
}

/* Narrow (lo, hi) to one step: lo kept, hi lost (or the end). */
static void search(struct probe *pr, uint64_t lo, uint64_t *gen)
{
	uint64_t pos[SEARCH_POINTS];

	while (pr->hi - lo > 1 && !stopped(pr)) {
		const uint64_t span = pr->hi - lo;
		const unsigned k = (unsigned)SB_MIN(span - 1, (uint64_t)SEARCH_POINTS);
		const uint64_t g = ++*gen;
		unsigned n = 0, bad;

		for (unsigned j = 1; j <= k; j++) {
			const uint64_t p = lo + span * j / (k + 1);
			if (p > lo && p < pr->hi && (!n || p > pos[n - 1]))
				pos[n++] = p;
		}
		for (unsigned i = 0; i < n; i++)
			write_run(pr, pos[i], 1, g);
		flush_cache(pr, ++*gen);
		for (bad = 0; bad < n && kept(pr, pos[bad], g); bad++)
			;
		if (bad < n) {
			pr->hi = pos[bad];
			lo = bad ? pos[bad - 1] : lo;
		} else {
			lo = pos[n - 1];
		}
	}
}

/* Random blocks of (lo, hi): 1 when one was lost (hi moved below it). */
static int confirm(struct probe *pr, uint64_t lo, uint64_t *gen)
{
	for (unsigned n = 64; n <= 1024 && pr->hi - lo > 1 && !stopped(pr); n *= 4) {
		const uint64_t g = ++*gen;
		const struct sb_rng saved = pr->rng;
		uint64_t bad = NONE;

		for (unsigned i = 0; i < n; i++)
			write_run(pr, random_in(pr, lo + 1, pr->hi), 1, g);
		flush_cache(pr, ++*gen);
		pr->rng = saved; /* the same positions again */
		for (unsigned i = 0; i < n; i++) {
			const uint64_t p = random_in(pr, lo + 1, pr->hi);
			if (p < bad && !kept(pr, p, g))
				bad = p;
		}
		if (bad != NONE) {
			pr->hi = bad;
			return 1;
		}
	}
	return 0;
}

static enum sb_capacity_kind kind_of(const struct sb_capacity_result *r, uint32_t bs)
{
	if (r->usable_blocks == r->announced_blocks)
		return SB_CAPACITY_GOOD;
	if (!r->usable_blocks)
		return SB_CAPACITY_DAMAGED;
	if (!r->wrap_order)
		return SB_CAPACITY_LIMBO;
	return r->usable_blocks * bs == 1ull << r->wrap_order ? SB_CAPACITY_WRAPAROUND
							      : SB_CAPACITY_CHAIN;
}

static void probe(struct probe *pr)
{
	uint64_t gen = 0;

	find_cache(pr, &gen);
	/* a cache was found in front of lost blocks at the end: flush it by
	 * writing there, where nothing is kept and nothing is tested */
	pr->scratch = pr->hi;
	pr->nflush = pr->r->cache_blocks ? 2 * pr->r->cache_blocks + 2 : 0;
	if (find_wrap(pr, &gen) < 0) {
		pr->hi = 0;
		return;
	}
	const uint64_t lo = pr->g;
	for (int i = 0; i < SEARCH_ROUNDS && !stopped(pr); i++) {
		search(pr, lo, &gen);
		if (!confirm(pr, lo, &gen))
			break;
	}
}

int sb_capacity_run(const struct sb_capacity_dev *d, uint64_t seed, struct sb_capacity_result *out)
{
	struct probe pr = { .d = d, .r = out };
	const uint32_t bs = d->block_size;

	memset(out, 0, sizeof(*out));
	if (bs < 512 || bs % 512 || bs > SB_VERIFY_MAX_BS || !d->read || !d->write ||
	    d->nblocks < 2 * MIB / bs)
		return -EINVAL;
	pr.chunk = (uint32_t)SB_MAX(1ull, MIB / bs);
	pr.buf = sb_buf_alloc((size_t)pr.chunk * bs, 4096);
	if (!pr.buf)
		return -ENOMEM;
	sb_verify_fmt_init(&pr.fmt, seed, 0, bs);
	sb_rng_seed(&pr.rng, seed);
	pr.g = sb_capacity_first_block(bs);
	pr.hi = d->nblocks;
	out->announced_blocks = d->nblocks;
	probe(&pr);
	out->usable_blocks = pr.hi;
	out->kind = kind_of(out, bs);
	free(pr.buf);
	return 0;
}
