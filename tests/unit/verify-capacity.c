/* needs: none */
/*
 * The fake-capacity probe against emulated devices (as f3probe's debug
 * emulators do): a good one, limbo fakes that drop writes past their real
 * size (with and without a write cache in front), wrap-around fakes whose
 * addresses repeat, and a dead one. The probe names the kind, the exact
 * usable size, the wrap and roughly the cache, and never writes into the
 * first MiB.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/capacity.h"

#define BS 512u
#define MIB (1ull << 20)
#define BLOCKS(bytes) ((bytes) / BS)

struct fake {
	uint64_t announced, real; /* blocks */
	int wrap;		  /* past real: 1 addresses wrap, 0 writes vanish */
	uint64_t cache;		  /* the last `cache` blocks written read back from a buffer */
	unsigned char *mem;
	uint64_t *cpos; /* cache: position of each slot, ring */
	unsigned char *cdata;
	uint64_t cnext, cfill;
	uint64_t lowest_write;
	int stop_after; /* stop() answers 1 after this many calls (0 never) */
	int stop_calls;
};

static unsigned char *slot(struct fake *f, uint64_t pos)
{
	if (pos < f->real)
		return f->mem + pos * BS;
	if (f->wrap && f->real)
		return f->mem + (pos % f->real) * BS;
	return NULL;
}

static int fake_read(void *ctx, uint64_t pos, void *buf, uint32_t n)
{
	struct fake *f = ctx;
	for (uint32_t i = 0; i < n; i++, pos++) {
		unsigned char *out = (unsigned char *)buf + (size_t)i * BS, *s = slot(f, pos);
		uint64_t k;
		assert_true(pos < f->announced);
		for (k = 0; k < f->cfill; k++) { /* newest first */
			uint64_t c = (f->cnext + f->cache - 1 - k) % f->cache;
			if (f->cpos[c] == pos)
				break;
		}
		if (k < f->cfill)
			memcpy(out, f->cdata + ((f->cnext + f->cache - 1 - k) % f->cache) * BS, BS);
		else if (s)
			memcpy(out, s, BS);
		else
			memset(out, 0, BS);
	}
	return 0;
}

static int fake_write(void *ctx, uint64_t pos, const void *buf, uint32_t n)
{
	struct fake *f = ctx;
	for (uint32_t i = 0; i < n; i++, pos++) {
		const unsigned char *in = (const unsigned char *)buf + (size_t)i * BS;
		unsigned char *s = slot(f, pos);
		assert_true(pos < f->announced);
		if (pos < f->lowest_write)
			f->lowest_write = pos;
		if (s)
			memcpy(s, in, BS);
		if (f->cache) {
			f->cpos[f->cnext] = pos;
			memcpy(f->cdata + f->cnext * BS, in, BS);
			f->cnext = (f->cnext + 1) % f->cache;
			if (f->cfill < f->cache)
				f->cfill++;
		}
	}
	return 0;
}

static int fake_stop(void *ctx)
{
	struct fake *f = ctx;
	return f->stop_after && ++f->stop_calls > f->stop_after;
}

static void run(struct fake *f, struct sb_capacity_result *r)
{
	struct sb_capacity_dev d = { f->announced, BS, fake_read, fake_write, f, fake_stop };

	f->mem = calloc(f->real ? f->real : 1, BS);
	assert_non_null(f->mem);
	if (f->cache) {
		f->cpos = calloc(f->cache, sizeof(*f->cpos));
		f->cdata = calloc(f->cache, BS);
		assert_non_null(f->cpos);
		assert_non_null(f->cdata);
	}
	f->lowest_write = UINT64_MAX;
	assert_int_equal(sb_capacity_run(&d, 0xfeed, r), 0);
	print_message("%s: usable %llu of %llu blocks, wrap 2^%d, cache %llu blocks, "
		      "%llu written, %llu read\n",
		      sb_capacity_kind_name(r->kind), (unsigned long long)r->usable_blocks,
		      (unsigned long long)r->announced_blocks, r->wrap_order,
		      (unsigned long long)r->cache_blocks, (unsigned long long)r->blocks_written,
		      (unsigned long long)r->blocks_read);
	assert_true(f->lowest_write >= MIB / BS);
	assert_int_equal(r->announced_blocks, f->announced);
	free(f->mem);
	free(f->cpos);
	free(f->cdata);
}

static void test_good(void **state)
{
	struct fake f = { .announced = BLOCKS(64 * MIB), .real = BLOCKS(64 * MIB) };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_GOOD);
	assert_int_equal(r.usable_blocks, f.announced);
	assert_int_equal(r.wrap_order, 0);
	assert_int_equal(r.cache_blocks, 0);
	/* a good device is fully written in its upper half at most */
	assert_true(r.blocks_written < f.announced / 2 + 10000);
}

static void test_limbo(void **state)
{
	struct fake f = { .announced = BLOCKS(64 * MIB), .real = BLOCKS(16 * MIB) + 7 };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_LIMBO);
	assert_int_equal(r.usable_blocks, f.real);
	assert_int_equal(r.cache_blocks, 0);
}

static void test_limbo_cached(void **state)
{
	struct fake f = { .announced = BLOCKS(256 * MIB),
			  .real = BLOCKS(40 * MIB) + 1,
			  .cache = BLOCKS(4 * MIB) };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_LIMBO);
	assert_int_equal(r.usable_blocks, f.real);
	assert_true(r.cache_blocks >= f.cache / 2 && r.cache_blocks <= f.cache);
}

static void test_wrap(void **state)
{
	struct fake f = { .announced = BLOCKS(64 * MIB), .real = BLOCKS(16 * MIB), .wrap = 1 };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_WRAPAROUND);
	assert_int_equal(r.usable_blocks, f.real);
	assert_int_equal(r.wrap_order, 24);
}

static void test_wrap_cached(void **state)
{
	struct fake f = {
		.announced = BLOCKS(128 * MIB), .real = BLOCKS(8 * MIB), .wrap = 1, .cache = 1000
	};
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_WRAPAROUND);
	assert_int_equal(r.usable_blocks, f.real);
	assert_int_equal(r.wrap_order, 23);
	/* the wrap hides the cache: blocks overwritten by aliases look lost
	 * whether cached or not */
	assert_true(r.cache_blocks <= f.cache);
}

static void test_dead(void **state)
{
	struct fake f = { .announced = BLOCKS(64 * MIB), .real = 0 };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.kind, SB_CAPACITY_DAMAGED);
	assert_int_equal(r.usable_blocks, 0);
}

static void test_stop_and_limits(void **state)
{
	struct fake f = { .announced = BLOCKS(64 * MIB),
			  .real = BLOCKS(64 * MIB),
			  .stop_after = 5 };
	struct sb_capacity_result r;

	(void)state;
	run(&f, &r);
	assert_int_equal(r.interrupted, 1);

	struct sb_capacity_dev tiny = { BLOCKS(MIB), BS, fake_read, fake_write, &f, NULL };
	assert_int_equal(sb_capacity_run(&tiny, 1, &r), -EINVAL);
	struct sb_capacity_dev odd = { BLOCKS(64 * MIB), 1000, fake_read, fake_write, &f, NULL };
	assert_int_equal(sb_capacity_run(&odd, 1, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_limbo),
		cmocka_unit_test(test_limbo_cached),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_wrap_cached),
		cmocka_unit_test(test_dead),
		cmocka_unit_test(test_stop_and_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
