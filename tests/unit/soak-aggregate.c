/* needs: none */
/*
 * A soak iteration of many ranks (mpirun): the All clients figures from
 * the ranks' own, against values worked out by hand. Each phase's bytes
 * over the span from the earliest start to the latest end; with --burst,
 * the write's span less the pauses every rank shared (no rank wrote), as
 * a rank's own write time leaves out its pauses; counts summed.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/soak/soak_record.h"

static void rank(struct sb_soak_rank *r, int k, double ws, double we, double rs, double re,
		 uint64_t bytes)
{
	memset(r, 0, sizeof(*r));
	r->rank = k;
	snprintf(r->host, sizeof(r->host), "h%d", k);
	r->start_s = ws;
	r->end_s = re;
	r->wstart_s = ws;
	r->wend_s = we;
	r->rstart_s = rs;
	r->rend_s = re;
	r->write_bytes = r->read_bytes = bytes;
	r->it.n = 7;
	r->it.blocks = bytes / 4096;
	r->it.count[SB_VERIFY_INTACT] = bytes / 4096;
}

static void test_plain(void **state)
{
	(void)state;
	struct sb_soak_rank r[3];
	struct sb_soak_iter it;
	/* writes from 1.0 to 3.0 s, checks from 3.5 to 4.5 s */
	rank(&r[0], 0, 1.0, 2.0, 3.5, 4.0, 8 << 20);
	rank(&r[1], 1, 1.5, 3.0, 3.6, 4.5, 8 << 20);
	rank(&r[2], 2, 1.2, 2.5, 3.5, 4.2, 4 << 20);
	sb_soak_iter_aggregate(&it, r, 3, NULL, NULL);
	assert_true(fabs(it.write_bw - (20 << 20) / 2.0) < 1e-6);
	assert_true(fabs(it.read_bw - (20 << 20) / 1.0) < 1e-6);
	assert_int_equal(it.blocks, (20 << 20) / 4096);
	assert_int_equal(it.n, 7);
}

static void test_burst(void **state)
{
	(void)state;
	struct sb_soak_rank r[2];
	struct sb_soak_iter it;
	/* writes from 1.0 to 5.0 s with 2.5 s of pauses every rank shared:
	 * 1.5 s of writing for all; the check is not touched by them */
	rank(&r[0], 0, 1.0, 5.0, 5.5, 6.5, 6 << 20);
	rank(&r[1], 1, 1.0, 4.5, 5.5, 6.0, 3 << 20);
	r[0].wshared_s = r[1].wshared_s = 2.5;
	r[0].wpause_s = 2.6;
	r[1].wpause_s = 2.5;
	sb_soak_iter_aggregate(&it, r, 2, NULL, NULL);
	assert_true(fabs(it.write_bw - (9 << 20) / 1.5) < 1e-6);
	assert_true(fabs(it.read_bw - (9 << 20) / 1.0) < 1e-6);
	/* shared pauses as long as the span (not possible, but never a
	 * negative time): the span alone */
	r[0].wshared_s = r[1].wshared_s = 4.0;
	sb_soak_iter_aggregate(&it, r, 2, NULL, NULL);
	assert_true(fabs(it.write_bw - (9 << 20) / 4.0) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_burst),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
