/* needs: none */
/*
 * run --verify under mpirun: each rank's part (sb_job_verify_rank_of) and
 * rank 0's verdict of all (sb_job_verify_set_ranks), from ranks with a
 * known truth: the counts are the sums, a rank's ranges keep their file
 * and are capped at 8 with the rest counted, one rank with a bad block or
 * one that did not check fails the whole, and the JSON section says so
 * rank by rank with the top-level ranges left empty.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/verify/verify_json.h"

#define NRANKS 3

/* rank 0: one file of 100 intact blocks; rank 1: two files, the second
 * with 10 single corrupted blocks; rank 2: 100 intact, its check not run */
static void make_rank(struct sb_job_verify *v, unsigned r)
{
	const struct sb_verify_finding ok = { .cls = SB_VERIFY_INTACT };
	const struct sb_verify_finding bad = { .cls = SB_VERIFY_CORRUPTED };
	memset(v, 0, sizeof(*v));
	v->fmt.block_size = 4096;
	v->fmt.seed = 1000 + r;
	v->nacc = r == 1 ? 2 : 1;
	for (unsigned i = 0; i < v->nacc; i++) {
		struct sb_verify_acc *a = &v->acc[i];
		assert_int_equal(sb_verify_acc_init(a, 4096, 64), 0);
		for (uint64_t b = 0; b < (r == 1 ? 50 : 100); b++) {
			const int broken = r == 1 && i == 1 && b % 5 == 0;
			sb_verify_acc_add(a, b * 4096, 1, broken ? &bad : &ok);
		}
		sb_verify_acc_finish(a);
		v->blocks += a->blocks;
		v->bad += sb_verify_acc_bad(a);
	}
	v->checked = r != 2;
}

static void ranks_verdict(void **state)
{
	(void)state;
	struct sb_job_verify v[NRANKS];
	struct sb_job_verify_rank *all = calloc(NRANKS, sizeof(*all));
	assert_non_null(all);
	for (unsigned r = 0; r < NRANKS; r++) {
		make_rank(&v[r], r);
		sb_job_verify_rank_of(&v[r], &all[r]);
		all[r].rank = (int)r;
	}
	/* rank 1: 10 ranges of one block in its file 1, the first 8 kept */
	assert_int_equal(all[1].nfiles, 2);
	assert_int_equal(all[1].blocks, 100);
	assert_int_equal(all[1].count[SB_VERIFY_CORRUPTED], 10);
	assert_int_equal(all[1].nranges, SB_JOB_VERIFY_RANK_RANGES);
	assert_int_equal(all[1].omitted, 2);
	for (unsigned g = 0; g < all[1].nranges; g++) {
		assert_int_equal(all[1].file[g], 1);
		assert_int_equal(all[1].ranges[g].offset, g * 5 * 4096);
		assert_int_equal(all[1].ranges[g].length, 4096);
	}
	assert_int_equal(all[2].seed, 1002);
	assert_false(sb_job_verify_rank_failed(&all[0]));
	assert_true(sb_job_verify_rank_failed(&all[1])); /* a bad block */
	assert_true(sb_job_verify_rank_failed(&all[2])); /* not checked */

	/* rank 0's verdict of all */
	sb_job_verify_set_ranks(&v[0], all, NRANKS);
	assert_int_equal(v[0].blocks, 300);
	assert_int_equal(v[0].bad, 10);
	assert_false(v[0].checked);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct sb_json j;
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	sb_job_verify_json(&j, &v[0]);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(buf, len, NULL, &d, NULL), 0);
	const struct sb_jv *o = sb_jdoc_root(d);
	assert_true(sb_jv_num(sb_jv_get(o, "blocks_checked"), 0) == 300);
	assert_true(sb_jv_num(sb_jv_get(o, "intact"), 0) == 290);
	assert_true(sb_jv_num(sb_jv_get(o, "corrupted"), 0) == 10);
	assert_int_equal(sb_jv_len(sb_jv_get(o, "bad_ranges")), 0);
	assert_true(sb_jv_num(sb_jv_get(o, "bad_ranges_omitted"), 0) == 10);
	assert_string_equal(sb_jv_str(sb_jv_get(o, "result")), "fail");
	const struct sb_jv *rs = sb_jv_get(o, "ranks");
	assert_int_equal(sb_jv_len(rs), NRANKS);
	assert_string_equal(sb_jv_str(sb_jv_get(sb_jv_at(rs, 0), "result")), "pass");
	assert_string_equal(sb_jv_str(sb_jv_get(sb_jv_at(rs, 1), "result")), "fail");
	assert_string_equal(sb_jv_str(sb_jv_get(sb_jv_at(rs, 2), "result")), "not checked");
	const struct sb_jv *g = sb_jv_at(sb_jv_get(sb_jv_at(rs, 1), "bad_ranges"), 1);
	assert_true(sb_jv_num(sb_jv_get(g, "file"), -1) == 1);
	assert_true(sb_jv_num(sb_jv_get(g, "offset"), -1) == 5 * 4096);
	sb_jdoc_free(d);
	free(buf);
	for (unsigned r = 0; r < NRANKS; r++)
		sb_job_verify_free(&v[r]); /* v[0] frees the parts */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranks_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
