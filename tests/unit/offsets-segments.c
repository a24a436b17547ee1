/* needs: none */
/*
 * PTS-C's active-range segments (METHODS.md 3.7): 2048 segments placed at
 * random in a region are aligned, inside it and never touch; a region one
 * alignment unit too small is refused; virtual offsets drawn as the runner
 * draws them (a segment, then a block inside it) land inside a segment,
 * block-aligned, never crossing its end, every segment hit and hit
 * evenly (binomial, within 5 sigma), with a power-of-two segment size
 * (shift) and without (division). And the runner itself: a random-write
 * pass over a zeroed file confined to segments writes every block of
 * every segment and nothing else.
 */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"
#include "lib/job/segments.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#define N SB_PTS_SEGMENTS

/* The segment holding off, or -1. */
static int seg_of(const struct sb_segments *s, uint64_t off)
{
	unsigned lo = 0, hi = s->n;
	while (lo < hi) { /* the first start > off */
		const unsigned m = (lo + hi) / 2;
		if (s->start[m] > off)
			hi = m;
		else
			lo = m + 1;
	}
	if (!lo || off >= s->start[lo - 1] + s->seg_bytes)
		return -1;
	return (int)lo - 1;
}

static void placed_well(const struct sb_segments *s, uint64_t region, uint64_t align)
{
	assert_int_equal(s->n, N);
	for (unsigned i = 0; i < s->n; i++) {
		assert_int_equal(s->start[i] % align, 0);
		assert_true(s->start[i] + s->seg_bytes <= region);
		if (i) /* at least one unit of gap: never touching */
			assert_true(s->start[i] >= s->start[i - 1] + s->seg_bytes + align);
	}
	assert_int_equal(sb_segments_check(s, align, region), 0);
}

static void placement(void **state)
{
	(void)state;
	struct sb_segments s;
	const uint64_t seg = 64u << 10, align = 16u << 10;
	const uint64_t tight = N * seg + (N - 1) * align;
	assert_int_equal(sb_segments_place(&s, 1ull << 30, N, seg, align, 1), 0);
	placed_well(&s, 1ull << 30, align);
	/* spread over the region, not packed at its start */
	assert_true(s.start[N - 1] > (1ull << 30) / 2);
	assert_true(s.start[0] < (1ull << 30) / 16);
	sb_segments_free(&s);
	/* exactly room: every gap one unit */
	assert_int_equal(sb_segments_place(&s, tight, N, seg, align, 2), 0);
	placed_well(&s, tight, align);
	assert_int_equal(s.start[N - 1] + seg, tight);
	sb_segments_free(&s);
	assert_int_equal(sb_segments_place(&s, tight - align, N, seg, align, 2), -EINVAL);
	assert_int_equal(sb_segments_place(&s, 1ull << 30, N, seg + 1, align, 2), -EINVAL);
	/* the same seed, the same map */
	struct sb_segments a, b;
	assert_int_equal(sb_segments_place(&a, 1ull << 30, N, seg, align, 9), 0);
	assert_int_equal(sb_segments_place(&b, 1ull << 30, N, seg, align, 9), 0);
	assert_memory_equal(a.start, b.start, N * sizeof(*a.start));
	sb_segments_free(&a);
	sb_segments_free(&b);
}

/* draws virtual blocks of bs, with replacement (with_gen 0: a block
 * uniformly, i.e. a segment then a block in it) or as the runner's
 * uniform generator (each block once a pass), and checks every offset */
static void draws(uint64_t seg, uint32_t bs, int with_gen)
{
	struct sb_segments s;
	const uint64_t region = 3 * N * seg, nblocks = N * seg / bs;
	const unsigned per = 400; /* draws a segment on average */
	assert_int_equal(sb_segments_place(&s, region, N, seg, bs, 5), 0);
	assert_int_equal(sb_segments_check(&s, bs, region), 0);
	uint64_t *hits = calloc(N, sizeof(*hits));
	assert_non_null(hits);
	struct sb_rng rng;
	struct sb_offgen g;
	sb_rng_seed(&rng, 11);
	assert_int_equal(sb_offgen_init(&g, nblocks, SB_DIST_UNIFORM, 0, 12), 0);
	for (uint64_t i = 0; i < (uint64_t)N * per; i++) {
		const uint64_t v = (with_gen ? sb_offgen_next(&g) : sb_rng_below(&rng, nblocks)) *
				   bs;
		const uint64_t off = sb_segments_map(&s, v);
		const int k = seg_of(&s, off);
		if (k < 0)
			fail_msg("offset %llu lies outside every segment", (unsigned long long)off);
		if (off % bs)
			fail_msg("offset %llu is not a multiple of %u", (unsigned long long)off,
				 bs);
		if (off + bs > s.start[k] + seg)
			fail_msg("a request at %llu crosses the end of segment %d",
				 (unsigned long long)off, k);
		hits[k]++;
	}
	const double p = 1.0 / N, mean = N * per * p, sd = sqrt(N * per * p * (1 - p));
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned k = 0; k < N; k++) {
		if (fabs((double)hits[k] - mean) > 5 * sd)
			fail_msg("segment %u: %llu draws, expected %.0f +- %.0f", k,
				 (unsigned long long)hits[k], mean, 5 * sd);
		lo = SB_MIN(lo, hits[k]);
		hi = SB_MAX(hi, hits[k]);
	}
	assert_true(lo > 0); /* every segment hit */
	print_message("seg %llu bs %u %s: %llu..%llu draws a segment (expected %.0f +- %.0f)\n",
		      (unsigned long long)seg, bs, with_gen ? "runner's generator" : "uniform",
		      (unsigned long long)lo, (unsigned long long)hi, mean, 5 * sd);
	free(hits);
	sb_segments_free(&s);
}

static void mapping(void **state)
{
	(void)state;
	draws(4u << 20, 4096, 0);  /* PTS-C's 8 GiB amount: 4 MiB segments, a shift */
	draws(12u << 10, 4096, 0); /* not a power of two: a division */
	draws(1u << 20, 65536, 1);
	draws(12u << 10, 4096, 1);
}

/* The runner on a real file: one random-write pass over the segments
 * (size = their bytes, each block once) of a zeroed file writes every
 * block inside them and none outside. */
static void runner_confined(void **state)
{
	(void)state;
	const uint64_t size = 32u << 20, seg = 8u << 10;
	const char *path = sbt_path("segments.bin");
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	struct sb_segments s;
	assert_int_equal(sb_segments_place(&s, size - (1u << 20), N, seg, 4096, 3), 0);
	struct sb_run_params p;
	memset(&p, 0, sizeof(p));
	sb_job_opts_default(&p.job);
	p.job.rw = SB_RW_RANDWRITE;
	p.job.bs = 4096;
	p.job.iodepth = 4;
	p.job.numjobs = 1;
	p.job.direct = 0;
	p.job.seed = 77;
	p.job.segments = &s;
	p.engine = sb_engine_find("psync");
	assert_non_null(p.engine);
	p.paths = &path;
	p.npaths = 1;
	const int held = fd + 1; /* a job writes through what its caller holds */
	p.held = &held;
	p.region_offset = 1u << 20; /* the segments are relative to it */
	p.region_size = size - (1u << 20);
	p.align = 512;
	struct sb_run *r = NULL;
	const char *why = NULL;
	assert_int_equal(sb_run_create(&r, &p, &why), 0);
	assert_int_equal(sb_run_start(r), 0);
	struct sb_job_result *res = sb_job_result_create();
	assert_non_null(res);
	assert_int_equal(sb_run_wait(r, res), 0);
	assert_int_equal(res->dir[SB_DDIR_WRITE].bytes, N * seg);
	sb_job_result_free(res);
	sb_run_free(r);
	char *buf = malloc(size);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, size, 0), (ssize_t)size);
	unsigned written = 0;
	for (uint64_t b = 0; b < size; b += 4096) {
		int zero = 1;
		for (unsigned i = 0; i < 4096 && zero; i++)
			zero = !buf[b + i];
		const int in = b >= p.region_offset && seg_of(&s, b - p.region_offset) >= 0;
		if (in == zero)
			fail_msg("block at %llu: %s, but it lies %s a segment",
				 (unsigned long long)b, zero ? "not written" : "written",
				 in ? "inside" : "outside");
		written += !zero;
	}
	assert_int_equal(written, N * seg / 4096);
	free(buf);
	close(fd);
	/* a sequential job, or segments a request could cross, are refused */
	p.job.rw = SB_RW_WRITE;
	assert_int_equal(sb_run_create(&r, &p, &why), -EINVAL);
	assert_string_equal(why, "active-range segments");
	p.job.rw = SB_RW_RANDWRITE;
	p.job.bs = 16384;
	assert_int_equal(sb_run_create(&r, &p, &why), -EINVAL);
	sb_segments_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placement),
		cmocka_unit_test(mapping),
		cmocka_unit_test(runner_confined),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
