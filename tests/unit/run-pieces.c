/* needs: none */
/*
 * A bssplit job's random pieces: each pass covers the region once, every
 * piece of a chunk has the chunk's block size, one draw of the generator
 * a piece, passes differ in sizes and order, a region too large for the
 * prefix sums' budget is grouped and still covered once, and a split for
 * each direction gives each chunk one direction with its own sizes.
 */
#include "tests/lib/sbtest.h"
#include "lib/run/pieces.h"

static void job_of(struct sb_job_opts *o, const uint32_t *bs, const unsigned *pct, unsigned n)
{
	memset(o, 0, sizeof(*o));
	o->dist = SB_DIST_UNIFORM;
	o->nbssplit = n;
	for (unsigned i = 0; i < n; i++) {
		o->bssplit[i].bs = bs[i];
		o->bssplit[i].pct = pct[i];
	}
}

/* One pass of p: every unit (the smallest block) of the region in exactly
 * one piece, the pieces of a chunk of one size; returns how many pieces
 * had each size (sizes[i] of o's bssplit). */
static void one_pass(struct sb_pieces *p, const struct sb_job_opts *o, uint32_t unit, uint8_t *seen,
		     uint32_t *cbs, uint64_t *count)
{
	const uint64_t units = (p->size + unit - 1) / unit;
	uint64_t n = 1;

	memset(seen, 0, units);
	memset(cbs, 0, p->nchunks * sizeof(*cbs));
	for (uint64_t i = 0; i < n; i++) {
		struct sb_piece pc;
		sb_pieces_next(p, &pc);
		if (!i) /* the pass's pieces, known once it started */
			n = p->sum[p->ngroups];
		const uint64_t c = pc.off / p->chunk;
		assert_true(pc.off < p->size);
		assert_int_equal(pc.off % pc.bs, (c * p->chunk) % pc.bs);
		assert_int_equal(pc.room, SB_MIN((c + 1) * p->chunk, p->size) - pc.off);
		if (cbs[c] && cbs[c] != pc.bs)
			fail_msg("chunk %llu: pieces of %u and %u bytes", (unsigned long long)c,
				 cbs[c], pc.bs);
		cbs[c] = pc.bs;
		const uint64_t len = SB_MIN((uint64_t)pc.bs, pc.room);
		for (uint64_t u = pc.off / unit; u < (pc.off + len + unit - 1) / unit; u++) {
			if (seen[u])
				fail_msg("unit %llu twice in a pass", (unsigned long long)u);
			seen[u] = 1;
		}
		for (unsigned k = 0; k < o->nbssplit; k++)
			count[k] += o->bssplit[k].bs == pc.bs;
	}
	for (uint64_t u = 0; u < units; u++)
		if (!seen[u])
			fail_msg("unit %llu of %llu not in the pass", (unsigned long long)u,
				 (unsigned long long)units);
	assert_int_equal(p->left, 0);
	/* one draw a piece: the generator's pass is over its own pieces */
	assert_int_equal(p->gen.nblocks, n);
}

static void cover(const struct sb_job_opts *o, uint64_t size, uint64_t chunk, uint64_t share,
		  uint32_t unit, uint64_t want_group)
{
	struct sb_pieces p;
	const uint64_t nch = (size + chunk - 1) / chunk;
	uint8_t *seen = malloc((size + unit - 1) / unit);
	uint32_t *cbs = malloc(nch * sizeof(*cbs));
	uint32_t *first = malloc(nch * sizeof(*first));
	uint64_t count[SB_BSSPLIT_MAX] = { 0 };

	assert_non_null(seen);
	assert_non_null(cbs);
	assert_non_null(first);
	assert_int_equal(sb_pieces_init(&p, o, size, chunk, share), 0);
	assert_int_equal(p.group, want_group);
	assert_true(p.ngroups <= SB_MAX(SB_PIECES_GROUPS / share, 1));
	assert_int_equal(sb_pieces_start(&p, size ^ chunk), 0);
	one_pass(&p, o, unit, seen, first, count);
	int differs = 0;
	for (int pass = 1; pass < 4; pass++) {
		one_pass(&p, o, unit, seen, cbs, count);
		differs += memcmp(first, cbs, nch * sizeof(*cbs)) != 0;
	}
	if (nch >= 16 && !differs)
		fail_msg("size %llu: every pass cuts the chunks alike", (unsigned long long)size);
	/* every size is drawn where chunks are enough (4k: 0.9% of the 1m
	 * chunks, so about 9 in 4 passes of 256 chunks) */
	for (unsigned k = 0; nch >= 256 && k < o->nbssplit; k++)
		if (!count[k])
			fail_msg("size %llu: no piece of %u bytes", (unsigned long long)size,
				 o->bssplit[k].bs);
	sb_pieces_free(&p);
	free(seen);
	free(cbs);
	free(first);
}

static void test_cover_once(void **state)
{
	static const uint32_t bs[] = { 4096, 65536, 1 << 20 };
	static const unsigned pct[] = { 50, 30, 20 };
	struct sb_job_opts o;

	(void)state;
	job_of(&o, bs, pct, 3);
	assert_true(sb_pieces_apply(&o));
	cover(&o, 1 << 20, 1 << 20, 1, 4096, 1);		 /* one chunk */
	cover(&o, (64 << 20) + (68 << 10), 1 << 20, 1, 4096, 1); /* a tail chunk */
	cover(&o, 256 << 20, 1 << 20, 1, 4096, 1);
	/* the budget shared by 2^12 files: 64 groups of 4 chunks */
	cover(&o, 256 << 20, 1 << 20, SB_PIECES_GROUPS / 64, 4096, 4);
	/* a region of more chunks than groups: 3 chunks a group, the last short */
	cover(&o, (uint64_t)(SB_PIECES_GROUPS / 64 * 3 - 1) << 12, 1 << 12, 64, 4096, 3);
}

/* Sizes that do not divide the chunk (3k in an 8k chunk): the last piece
 * of a chunk is shorter than its size, as the old generator's. */
static void test_odd_sizes(void **state)
{
	static const uint32_t bs[] = { 3072, 8192 };
	static const unsigned pct[] = { 70, 30 };
	struct sb_job_opts o;

	(void)state;
	job_of(&o, bs, pct, 2);
	cover(&o, (4 << 20) + 1024, 8192, 1, 1024, 1);
}

static void test_applies(void **state)
{
	static const uint32_t bs[] = { 4096, 4096 };
	static const unsigned pct[] = { 50, 50 };
	static const uint32_t two[] = { 4096, 65536 };
	struct sb_job_opts o;

	(void)state;
	job_of(&o, bs, pct, 2);
	assert_false(sb_pieces_apply(&o)); /* one size: no rejection to remove */
	job_of(&o, two, pct, 2);
	assert_true(sb_pieces_apply(&o));
	o.dist = SB_DIST_ZIPF;
	assert_false(sb_pieces_apply(&o));
	o.dist = SB_DIST_ZONED;
	assert_false(sb_pieces_apply(&o));
	o.dist = SB_DIST_UNIFORM;
	o.blockalign = 4096;
	assert_false(sb_pieces_apply(&o));
}

/* fio's bssplit=READ,WRITE (examples/cmdprio-bssplit.fio): a chunk's
 * pieces are one direction's and one of its sizes; a pass covers the
 * region once, the reads about rwmixread percent of the requests, each
 * direction's sizes in its shares. */
static void test_directions(void **state)
{
	static const uint32_t bs[] = { 65536, 1 << 20 };
	static const unsigned pct[] = { 40, 60 };
	const uint64_t size = 1ull << 30, chunk = 1 << 20, unit = 65536;
	const uint64_t nch = size / chunk;
	struct sb_job_opts o;
	struct sb_pieces p;
	uint64_t n[2][2] = { { 0, 0 }, { 0, 0 } }; /* [dir][64k, 1m] */
	uint8_t *seen = malloc(size / unit);
	int8_t *cdir = malloc(nch);

	(void)state;
	job_of(&o, bs, pct, 2);
	o.rw = SB_RW_RANDRW;
	o.rwmixread = 50;
	o.nwbssplit = 1;
	o.wbssplit[0].bs = 1 << 20;
	o.wbssplit[0].pct = 100;
	assert_non_null(seen);
	assert_non_null(cdir);
	assert_true(sb_pieces_apply(&o));
	assert_int_equal(sb_pieces_init(&p, &o, size, chunk, 1), 0);
	assert_int_equal(sb_pieces_start(&p, 29), 0);
	for (int pass = 0; pass < 4; pass++) {
		memset(seen, 0, size / unit);
		memset(cdir, -1, nch);
		uint64_t left = 1;
		for (uint64_t i = 0; i < left; i++) {
			struct sb_piece pc;
			sb_pieces_next(&p, &pc);
			if (!i)
				left = p.sum[p.ngroups];
			const uint64_t c = pc.off / chunk;
			assert_true(pc.ddir == 0 || pc.ddir == 1);
			assert_true(pc.ddir == 0 || pc.bs == 1 << 20); /* writes: 1m only */
			if (cdir[c] >= 0 && cdir[c] != pc.ddir)
				fail_msg("chunk %llu: reads and writes", (unsigned long long)c);
			cdir[c] = (int8_t)pc.ddir;
			for (uint64_t u = pc.off / unit; u < (pc.off + pc.bs) / unit; u++) {
				if (seen[u])
					fail_msg("unit %llu twice in a pass",
						 (unsigned long long)u);
				seen[u] = 1;
			}
			n[pc.ddir][pc.bs == 1 << 20]++;
		}
		assert_int_equal(memchr(seen, 0, size / unit) == NULL, 1);
	}
	const double reads = (double)(n[0][0] + n[0][1]), all = reads + (double)n[1][1];
	assert_int_equal(n[1][0], 0);
	if (reads / all < 0.4 || reads / all > 0.6 || n[0][0] / reads < 0.3 ||
	    n[0][0] / reads > 0.5)
		fail_msg("reads 64k %llu, 1m %llu, writes %llu: not 50%% reads, 40%% of them 64k",
			 (unsigned long long)n[0][0], (unsigned long long)n[0][1],
			 (unsigned long long)n[1][1]);
	/* one split again: the pieces say no direction */
	sb_pieces_free(&p);
	o.nwbssplit = 0;
	assert_int_equal(sb_pieces_init(&p, &o, size, chunk, 1), 0);
	assert_int_equal(sb_pieces_start(&p, 29), 0);
	struct sb_piece pc;
	sb_pieces_next(&p, &pc);
	assert_int_equal(pc.ddir, -1);
	sb_pieces_free(&p);
	free(seen);
	free(cdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover_once),
		cmocka_unit_test(test_odd_sizes),
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_directions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
