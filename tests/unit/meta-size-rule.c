/* needs: none */
/*
 * storbench meta's block test file: bonnie++'s twice the RAM where the page
 * cache cannot be dropped, the smaller of that and 1 GiB where it can; and
 * the warning about a smaller file, which must not fire on the default
 * itself, nor where the cache was dropped whole before each reading test,
 * nor claim anything about the cache when no reading test ran.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"
#include "lib/results/results.h"
#include "lib/results/sections.h"
#include "lib/target/cache.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static void test_twice_ram(void **state)
{
	/* 23.54 GiB (24683548 kB): 2 x 24105 MiB = 48210 MiB = 47 GiB + 82 MiB */
	assert_int_equal(sb_meta_twice_ram(24683548ull * 1024), 48210 * MIB);
	/* 3.8 GiB: 7782 MiB = 7 GiB + 614 MiB, over 512: rounded up to 8 GiB */
	assert_int_equal(sb_meta_twice_ram(3891ull * MIB + 100), 8 * GIB);
	assert_int_equal(sb_meta_twice_ram(256 * MIB), 512 * MIB);
	assert_int_equal(sb_meta_twice_ram(0), 300 * MIB); /* bonnie++'s without a RAM size */
}

static void test_default_size(void **state)
{
	enum sb_meta_size_rule rule;
	const uint64_t big = 24683548ull * 1024;
	assert_int_equal(sb_meta_default_size(big, 1, &rule), GIB);
	assert_int_equal(rule, SB_META_SIZE_COLD);
	assert_int_equal(sb_meta_default_size(big, 0, &rule), 48210 * MIB);
	assert_int_equal(rule, SB_META_SIZE_TWICE_RAM);
	/* a board with 256 MiB: twice its RAM is under 1 GiB either way */
	assert_int_equal(sb_meta_default_size(256 * MIB, 1, &rule), 512 * MIB);
	assert_int_equal(rule, SB_META_SIZE_COLD);
}

/* The warnings sb_results_meta leaves for a run of file size bytes on a
 * host of mem bytes, where cache_method dropped the cache and read says
 * whether a reading test ran. */
static size_t warnings(uint64_t mem, uint64_t size, int cache_method, int read, char *first,
		       size_t len)
{
	struct sb_results *r = sb_results_create("meta");
	struct sb_meta_run *m = calloc(1, sizeof(*m));
	assert_non_null(r);
	assert_non_null(m);
	r->host.mem_total = mem;
	m->io.size = size;
	m->cache_method = cache_method;
	m->res[SB_META_WRITE].ran = 1;
	m->res[SB_META_READ].ran = read;
	assert_int_equal(sb_results_meta(r, m), 0);
	size_t n = r->nwarnings;
	snprintf(first, len, "%s", n ? r->warnings[0] : "");
	sb_results_free(r);
	free(m);
	return n;
}

static void test_small_file_warning(void **state)
{
	const uint64_t mem = 24683548ull * 1024; /* 2 x mem is 47.08 GiB, the default 47.08 */
	char w[1024];
	/* the default where the cache cannot be dropped: bonnie++'s rule, met */
	assert_int_equal(warnings(mem, sb_meta_twice_ram(mem), SB_CACHE_FADVISE, 1, w, sizeof(w)),
			 0);
	assert_int_equal(warnings(mem, sb_meta_twice_ram(mem), SB_CACHE_NONE, 1, w, sizeof(w)), 0);
	/* 1 GiB with the whole cache dropped before each reading test */
	assert_int_equal(warnings(mem, GIB, SB_CACHE_DROP_CACHES, 1, w, sizeof(w)), 0);
	/* 1 GiB with only the file's pages dropped: said, and how */
	assert_int_equal(warnings(mem, GIB, SB_CACHE_FADVISE, 1, w, sizeof(w)), 1);
	assert_non_null(strstr(w, "(1.00 GiB) is smaller than twice the RAM (47.1 GiB)"));
	assert_non_null(strstr(w, "fadvise"));
	assert_null(strstr(w, "permission"));
	/* not dropped at all although a reading test ran */
	assert_int_equal(warnings(mem, GIB, SB_CACHE_NONE, 1, w, sizeof(w)), 1);
	assert_non_null(strstr(w, "could not be dropped before the reading tests"));
	/* no reading test ran (stopped while writing): nothing to say */
	assert_int_equal(warnings(mem, GIB, SB_CACHE_NONE, 0, w, sizeof(w)), 0);
	/* no block tests, or an unknown RAM size */
	assert_int_equal(warnings(mem, 0, SB_CACHE_NONE, 0, w, sizeof(w)), 0);
	assert_int_equal(warnings(0, GIB, SB_CACHE_NONE, 1, w, sizeof(w)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twice_ram),
		cmocka_unit_test(test_default_size),
		cmocka_unit_test(test_small_file_warning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
