/* needs: none */
/*
 * fio's bssplit=READ,WRITE,TRIM in job files: each direction the job's rw
 * uses takes its member (an empty one: its bs; the last member given goes
 * on), one split when they agree, the reads' and the writes' when those
 * differ, trims of a split of their own refused; and cmdprio_bssplit's
 * forms fio 3.33 reads (BS alone, BS/PCT/CLASS/LEVEL/HINT with the hint
 * left out), the rest refused naming the option.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/jobfile.h"

static const struct sb_job_opts *one_job(struct sb_jobfile **jf, const char *text)
{
	char msg[256] = "";
	int r = sb_jobfile_parse(text, strlen(text), NULL, jf, msg, sizeof(msg));
	if (r < 0)
		fail_msg("parse failed (%d): %s\n--- text:\n%s", r, msg, text);
	assert_int_equal((*jf)->njobs, 1);
	return &(*jf)->jobs[0].opts;
}

static void expect_err(const char *text, const char *want)
{
	struct sb_jobfile *jf = NULL;
	char msg[256] = "";
	int r = sb_jobfile_parse(text, strlen(text), NULL, &jf, msg, sizeof(msg));
	if (r != -EINVAL || !strstr(msg, want))
		fail_msg("rc %d, msg '%s'; want -EINVAL with '%s'", r, msg, want);
	assert_null(jf);
}

static void split_is(const struct sb_bssplit *s, unsigned n, const char *want)
{
	char got[256] = "";
	size_t k = 0;
	for (unsigned i = 0; i < n && k < sizeof(got); i++)
		k += (size_t)snprintf(got + k, sizeof(got) - k, "%s%u/%u", i ? ":" : "", s[i].bs,
				      s[i].pct);
	assert_string_equal(got, want);
}

static void test_reads_and_writes(void **state)
{
	(void)state;
	struct sb_jobfile *jf;
	/* fio's examples/cmdprio-bssplit.fio */
	const struct sb_job_opts *o =
		one_job(&jf, "[j]\nrw=randrw\nbssplit=64k/40:1024k/60,1024k/100\n");
	split_is(o->bssplit, o->nbssplit, "65536/40:1048576/60");
	split_is(o->wbssplit, o->nwbssplit, "1048576/100");
	assert_int_equal(sb_job_min_bs(o), 65536);
	assert_int_equal(sb_job_max_bs(o), 1048576);
	assert_int_equal(sb_job_nsizes(o), 3);
	sb_jobfile_free(jf);

	/* an empty member: the direction's bs, as one entry */
	o = one_job(&jf, "[j]\nrw=rw\nbs=8k\nbssplit=,4k/50:16k/50\n");
	split_is(o->bssplit, o->nbssplit, "8192/100");
	split_is(o->wbssplit, o->nwbssplit, "4096/50:16384/50");
	sb_jobfile_free(jf);
	/* bs=READ,WRITE gives each empty member its own */
	o = one_job(&jf, "[j]\nrw=randrw\nbs=2k,32k\nbssplit=4k/50:8k/50,\n");
	split_is(o->bssplit, o->nbssplit, "4096/50:8192/50");
	split_is(o->wbssplit, o->nwbssplit, "32768/100");
	sb_jobfile_free(jf);
	/* [global]'s split, rw in the job after it */
	o = one_job(&jf, "[global]\nbssplit=4k,8k\n[j]\nrw=randrw\n");
	split_is(o->bssplit, o->nbssplit, "4096/100");
	split_is(o->wbssplit, o->nwbssplit, "8192/100");
	sb_jobfile_free(jf);
	/* a split given later without a comma is for every direction again */
	o = one_job(&jf, "[global]\nbssplit=4k,8k\n[j]\nrw=randrw\nbssplit=16k/50:4k/50\n");
	split_is(o->bssplit, o->nbssplit, "16384/50:4096/50");
	assert_int_equal(o->nwbssplit, 0);
	sb_jobfile_free(jf);
}

static void test_directions_used(void **state)
{
	(void)state;
	struct sb_jobfile *jf;
	/* a job that only reads takes the reads' split, one that writes the
	 * writes' (the last member goes on to trims), and agreeing ones are one */
	const struct sb_job_opts *o = one_job(&jf, "[j]\nrw=randread\nbssplit=4k/50:8k/50,64k\n");
	split_is(o->bssplit, o->nbssplit, "4096/50:8192/50");
	assert_int_equal(o->nwbssplit, 0);
	sb_jobfile_free(jf);
	o = one_job(&jf, "[j]\nrw=write\nbssplit=4k/50:8k/50,64k/100\n");
	split_is(o->bssplit, o->nbssplit, "65536/100");
	assert_int_equal(o->nwbssplit, 0);
	sb_jobfile_free(jf);
	o = one_job(&jf, "[j]\nrw=randtrim\nbssplit=4k,8k/50:16k/50\n");
	split_is(o->bssplit, o->nbssplit, "8192/50:16384/50");
	sb_jobfile_free(jf);
	o = one_job(&jf, "[j]\nrw=randrw\nbssplit=4k/50:8k/50,4k/50:8k/50\n");
	split_is(o->bssplit, o->nbssplit, "4096/50:8192/50");
	assert_int_equal(o->nwbssplit, 0);
	sb_jobfile_free(jf);
	/* the directions used empty: bs alone */
	o = one_job(&jf, "[j]\nrw=randwrite\nbs=16k\nbssplit=4k/50:8k/50,\n");
	assert_int_equal(o->nbssplit, 0);
	assert_int_equal(o->bs, 16384);
	sb_jobfile_free(jf);
}

static void test_refused(void **state)
{
	(void)state;
	expect_err("[j]\nbssplit=4k,8k,16k,32k\n", "line 2: bssplit: '4k,8k,16k,32k' is not valid");
	expect_err("[j]\nrw=randrw\nbssplit=4k/50:8k/60,8k\n",
		   "line 3: bssplit: '4k/50:8k/60,8k' is not valid (expected one split, or "
		   "READ,WRITE[,TRIM] splits");
	expect_err("[j]\nbssplit=4k,8x\n", "line 2: bssplit: '4k,8x' is not valid");
	expect_err("[j]\nrw=trimwrite\nbssplit=4k,8k,16k\n",
		   "line 3: bssplit: a split for trims of their own is not supported");
	expect_err("[j]\nrw=randrw\nbsrange=4k-16k\nbssplit=,8k\n",
		   "line 4: bssplit=,8k: an empty member");
	expect_err("[j]\nrw=randrw\nbssplit=,8k\nbsrange=4k-16k\n",
		   "line 4: bsrange=4k-16k: after bssplit= with an empty member");
}

static void test_cmdprio_forms(void **state)
{
	(void)state;
	struct sb_jobfile *jf;
	/* fio 3.33's sscanf reads BS/PCT/CLASS/LEVEL and stops: a fifth
	 * field (later fio's hint) changes nothing; BS alone is BS/ */
	const struct sb_job_opts *o =
		one_job(&jf, "[j]\nrw=randread\nioengine=libaio\nbssplit=1M/40:2M/60\n"
			     "cmdprio_bssplit=1M/10/2/0/1:1M/30/2/0/2:1M/60/2/0/0:2M/10/2/0/3:"
			     "2M/90/2/0/0:4k\n");
	assert_int_equal(o->ncmdprio_split[0], 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(o->cmdprio_split[0][i].prio, 2 << 13);
	assert_int_equal(o->cmdprio_split[0][0].pct, 10);
	assert_int_equal(o->cmdprio_split[0][4].bs, 2 << 20);
	assert_int_equal(o->cmdprio_split[0][4].pct, 90);
	sb_jobfile_free(jf);
	/* a sixth field, three fields and text are refused naming the option */
	expect_err("[j]\ncmdprio_bssplit=1M/10/2/0/1/5\n",
		   "line 2: cmdprio_bssplit: '1M/10/2/0/1/5' is not valid");
	expect_err("[j]\ncmdprio_bssplit=64k/50/1\n", "line 2: cmdprio_bssplit: '64k/50/1'");
	expect_err("[j]\ncmdprio_bssplit=64k/x\n", "line 2: cmdprio_bssplit: '64k/x'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_and_writes),
		cmocka_unit_test(test_directions_used),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cmdprio_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
