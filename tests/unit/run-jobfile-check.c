/* needs: none */
/*
 * A job file's jobs checked together (lib/run/jobs_check.c,
 * sb_run_jobfile_check) without the program: a file of jobs each right
 * alone is refused when it repeats jobs that run together, verifies a
 * job beside another on the same bytes, one that trims, or (on a target
 * not there yet, sb_run_jobfile_check_target) one that only reads with
 * no verify= writer of its file before it, each named by the file, its
 * line and the job; jobs that run in turn, verify= jobs alone that
 * write, verify= jobs together on regions apart, a read job after a
 * writer of its file, loading a saved state or on a file that is there,
 * and a repeat of jobs alone pass.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/jobfile.h"
#include "lib/run/jobs.h"

/* The file text parsed and checked (target_new: then with a target not
 * there yet, -1: not): 0 or the error, with err */
static int check_on(const char *text, unsigned repeat, int target_new, struct sb_error *err)
{
	struct sb_jobfile *jf = NULL;
	struct sb_job_opts opts[SB_JOBFILE_MAX_JOBS];
	char msg[256];
	assert_int_equal(sb_jobfile_parse(text, strlen(text), NULL, &jf, msg, sizeof(msg)), 0);
	for (unsigned i = 0; i < jf->njobs; i++)
		opts[i] = jf->jobs[i].opts;
	int e = sb_run_jobfile_check(jf, opts, repeat, "t.fio", err);
	for (unsigned i = 0; !e && target_new > 0 && i < jf->njobs; i++)
		e = sb_run_jobfile_check_target(jf, opts, i, "t.fio", err);
	sb_jobfile_free(jf);
	return e;
}

static int check(const char *text, unsigned repeat, struct sb_error *err)
{
	return check_on(text, repeat, 1, err);
}

static void refused(void **state)
{
	struct sb_error err;
	(void)state;
	assert_int_equal(check("[a]\nrw=write\nsize=1M\n[b]\nrw=read\nsize=1M\n", 2, &err),
			 -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_string_equal(err.msg, "--repeat: not with jobs that run at the same time ('a' and "
				     "'b' in t.fio have no stonewall between them)");
	assert_int_equal(check("[a]\nrw=write\nsize=1M\nverify=crc32c\n[b]\nrw=read\nsize=1M\n", 1,
			       &err),
			 -EINVAL);
	assert_string_equal(err.msg, "t.fio: line 1: job 'a' verifies (verify=crc32c) while job "
				     "'b' runs at the same time on the same bytes: storbench checks "
				     "each job's own blocks and cannot judge blocks two jobs share; "
				     "give them regions apart (offset=, size=), or give it stonewall");
	assert_int_equal(check("[r]\nrw=randread\nsize=1M\nverify=crc32c\n", 1, &err), -EINVAL);
	assert_string_equal(err.msg, "t.fio: line 1: job 'r': verify=crc32c with rw=randread "
				     "checks what an earlier job wrote with verify= on the same "
				     "filename=, and none does (or the verify blocks an earlier run "
				     "left on a file that is there, or verify_state_load=1: what an "
				     "earlier run's state says)");
	/* beside a writer of its file that runs with others */
	assert_int_equal(check("[global]\nfilename=f\nsize=1M\nverify=md5\n[a]\nrw=write\n[b]\n"
			       "offset=1M\nrw=write\n[c]\nstonewall\nrw=read\n",
			       1, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 7: job 'b' verifies (verify=md5) while other jobs "
					"run at the same time, and a later job reads its blocks"));
	/* the writer before it on another file, or after it */
	assert_int_equal(check("[a]\nfilename=x\nrw=write\nsize=1M\nverify=md5\n[b]\nstonewall\n"
			       "filename=y\nrw=read\nsize=1M\nverify=md5\n",
			       1, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 6: job 'b': verify=md5 with rw=read"));
	assert_int_equal(check("[b]\nfilename=x\nrw=read\nsize=1M\nverify=md5\n[a]\nstonewall\n"
			       "filename=x\nrw=write\nsize=1M\nverify=md5\n",
			       1, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 1: job 'b': verify=md5 with rw=read"));
	assert_int_equal(check("[t]\nrw=trim\nsize=1M\nverify=crc32c\n", 1, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not rw=trim"));
}

static void accepted(void **state)
{
	struct sb_error err;
	(void)state;
	assert_int_equal(check("[a]\nrw=write\nsize=1M\nverify=crc32c\n[b]\nstonewall\nrw=read\n"
			       "size=1M\n",
			       3, &err),
			 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(check("[a]\nrw=write\nsize=1M\n[b]\nrw=read\nsize=1M\n", 1, &err), 0);
	assert_int_equal(check("[a]\nrw=randrw\nsize=1M\nverify=0\n", 5, &err), 0);
	/* two verifying jobs in turn; a read job after a writer of its file,
	 * or loading a state */
	assert_int_equal(check("[a]\nrw=write\nsize=1M\nverify=crc32c\n[b]\nstonewall\nrw=write\n"
			       "size=1M\nverify=md5\n",
			       1, &err),
			 0);
	assert_int_equal(check("[a]\nfilename=x\nrw=write\nsize=1M\nverify=md5\ndo_verify=0\n"
			       "[b]\nstonewall\nfilename=x\nrw=read\nsize=1M\nverify=md5\n",
			       1, &err),
			 0);
	assert_int_equal(check("[b]\nfilename=x\nrw=read\nsize=1M\nverify=md5\n"
			       "verify_state_load=1\n",
			       1, &err),
			 0);
	/* a read job on a file that is there: the blocks an earlier run left */
	assert_int_equal(check_on("[r]\nfilename=x\nrw=randread\nsize=1M\nverify=crc32c\n", 1, 0,
				  &err),
			 0);
	/* verify= jobs together on regions apart (fio's t/jobs/t0002 post file) */
	assert_int_equal(check_on("[global]\nfilename=f\nsize=1M\nverify=md5\n[r]\nrw=read\n"
				  "[m]\noffset=4M\nrw=rw\n",
				  1, 0, &err),
			 0);
}

/* Writers with do_verify=0 that run together on the same bytes: their
 * blocks checked by no later job, they run as plain writers (verify=
 * dropped in opts); on regions apart (fio's t/jobs/t0002 and t0003 pre
 * files) each keeps its verify=; one a later read job checks keeps its
 * verify= and is refused beside another job on its bytes. */
static void unchecked_writers_together(void **state)
{
	struct sb_error err;
	struct sb_jobfile *jf = NULL;
	struct sb_job_opts opts[SB_JOBFILE_MAX_JOBS];
	char msg[256];
	(void)state;
	const char *pre = "[global]\nfilename=f\nsize=1M\nverify=md5\ndo_verify=0\n"
			  "[a]\nrw=write\n[b]\noffset=512k\nrw=rw\n";
	assert_int_equal(sb_jobfile_parse(pre, strlen(pre), NULL, &jf, msg, sizeof(msg)), 0);
	for (unsigned i = 0; i < jf->njobs; i++)
		opts[i] = jf->jobs[i].opts;
	assert_string_equal(opts[0].fio_verify, "md5");
	assert_int_equal(sb_run_jobfile_check(jf, opts, 1, "t.fio", &err), 0);
	assert_string_equal(opts[0].fio_verify, "");
	assert_string_equal(opts[1].fio_verify, "");
	assert_int_equal(opts[0].fio_verify_nocheck, 0);
	sb_jobfile_free(jf);
	const char *apart = "[global]\nfilename=f\nsize=1M\nverify=md5\ndo_verify=0\n"
			    "[a]\nrw=write\n[b]\noffset=1M\nrw=rw\n";
	assert_int_equal(sb_jobfile_parse(apart, strlen(apart), NULL, &jf, msg, sizeof(msg)), 0);
	for (unsigned i = 0; i < jf->njobs; i++)
		opts[i] = jf->jobs[i].opts;
	assert_int_equal(sb_run_jobfile_check(jf, opts, 1, "t.fio", &err), 0);
	assert_string_equal(opts[0].fio_verify, "md5");
	assert_string_equal(opts[1].fio_verify, "md5");
	sb_jobfile_free(jf);
	/* the same writers, then a read job that checks the last of them */
	assert_int_equal(check("[global]\nfilename=f\nsize=1M\nverify=md5\ndo_verify=0\n"
			       "[a]\nrw=write\n[b]\nrw=write\n[c]\nstonewall\nrw=read\n"
			       "do_verify=1\n",
			       1, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "job 'b' verifies (verify=md5) while job 'a' runs at the "
					"same time on the same bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refused),
		cmocka_unit_test(accepted),
		cmocka_unit_test(unchecked_writers_together),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
