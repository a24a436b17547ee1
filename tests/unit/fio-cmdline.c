/* needs: none */
/*
 * fio's command line read as fio reads it and turned into the jobs its job
 * file would give: the seed line against its job file, one or two dashes,
 * "-opt value" and "-opt=value", bare flags that never take the next
 * argument, --name starting jobs after [global], job files mixed in, fio's
 * process options, and each refusal naming the option as it was written.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/fio_cmdline.h"

static struct sb_fio_cmdline *cmdline(char **argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	struct sb_fio_cmdline *cl = NULL;
	char msg[512] = "";
	int r = sb_fio_cmdline_parse(argc, argv, &cl, msg, sizeof(msg));
	if (r)
		fail_msg("parse failed (%d): %s", r, msg);
	return cl;
}

/* The jobs of argv, with the job files' texts after it. */
static struct sb_jobfile *jobs_of(char **argv, const char *const *texts)
{
	struct sb_fio_cmdline *cl = cmdline(argv);
	size_t lens[8];
	for (unsigned i = 0; i < cl->nfiles; i++)
		lens[i] = strlen(texts[i]);
	struct sb_jobfile *jf = NULL;
	char msg[512] = "";
	int r = sb_fio_cmdline_jobs(cl, texts, lens, NULL, &jf, msg, sizeof(msg));
	if (r)
		fail_msg("jobs failed (%d): %s\n--- text:\n%s", r, msg, cl->text);
	sb_fio_cmdline_free(cl);
	return jf;
}

static struct sb_jobfile *jobfile(const char *text)
{
	struct sb_jobfile *jf = NULL;
	char msg[512];
	if (sb_jobfile_parse(text, strlen(text), NULL, &jf, msg, sizeof(msg)))
		fail_msg("job file: %s", msg);
	return jf;
}

static void same_jobs(const struct sb_jobfile *a, const struct sb_jobfile *b)
{
	assert_int_equal(a->njobs, b->njobs);
	for (unsigned i = 0; i < a->njobs; i++) {
		assert_string_equal(a->jobs[i].name, b->jobs[i].name);
		assert_string_equal(a->jobs[i].filename, b->jobs[i].filename);
		assert_int_equal(a->jobs[i].stonewall, b->jobs[i].stonewall);
		const struct sb_job_opts *x = &a->jobs[i].opts, *y = &b->jobs[i].opts;
		assert_int_equal(x->rw, y->rw);
		assert_int_equal(x->bs, y->bs);
		assert_int_equal(x->iodepth, y->iodepth);
		assert_int_equal(x->numjobs, y->numjobs);
		assert_int_equal(x->direct, y->direct);
		assert_int_equal(x->size, y->size);
		assert_int_equal(x->runtime_ns, y->runtime_ns);
		assert_int_equal(x->time_based, y->time_based);
		assert_string_equal(x->engine, y->engine);
		assert_string_equal(x->name, y->name);
		/* and every other field the parser set */
		assert_memory_equal(x, y, sizeof(*x));
	}
}

/* The seed's line, and the job file it amounts to. */
static void test_seed_line(void **state)
{
	(void)state;
	char *argv[] = { "-filename=/dev/mmcblk0",
			 "-direct=1",
			 "-iodepth",
			 "1",
			 "-thread",
			 "-rw=read",
			 "-ioengine=psync",
			 "-bs=16k",
			 "-numjobs=30",
			 "-runtime=60",
			 "-group_reporting",
			 "-name=IORTest",
			 NULL };
	struct sb_fio_cmdline *cl = cmdline(argv);
	assert_string_equal(cl->text, "[global]\nfilename=/dev/mmcblk0\ndirect=1\niodepth=1\n"
				      "thread\nrw=read\nioengine=psync\nbs=16k\nnumjobs=30\n"
				      "runtime=60\ngroup_reporting\n[IORTest]\n");
	assert_int_equal(cl->nfiles, 0);
	assert_int_equal(cl->formats, SB_FIO_OUT_NORMAL);
	sb_fio_cmdline_free(cl);

	struct sb_jobfile *a = jobs_of(argv, NULL);
	struct sb_jobfile *b = jobfile("[global]\nfilename=/dev/mmcblk0\ndirect=1\niodepth=1\n"
				       "thread\nrw=read\nioengine=psync\nbs=16k\nnumjobs=30\n"
				       "runtime=60\ngroup_reporting\n[IORTest]\n");
	same_jobs(a, b);
	assert_int_equal(a->jobs[0].opts.numjobs, 30);
	assert_int_equal(a->jobs[0].opts.bs, 16384);
	assert_int_equal(a->jobs[0].opts.direct, 1);
	/* -thread and -group_reporting are what storbench always does: no note */
	for (unsigned i = 0; i < a->nnotes; i++)
		assert_null(strstr(a->notes[i], "thread"));
	sb_jobfile_free(a);
	sb_jobfile_free(b);
}

/* One dash or two, "=value" or the next argument: the same job. */
static void test_spellings(void **state)
{
	(void)state;
	char *one[] = { "--name=j", "--rw=randread", "--bs=4k", "--size=8m", "--iodepth=4", NULL };
	char *two[] = { "-name", "j",	   "-rw", "randread",	"-bs",
			"4k",	 "--size", "8m",  "-iodepth=4", NULL };
	struct sb_jobfile *a = jobs_of(one, NULL), *b = jobs_of(two, NULL);
	same_jobs(a, b);
	assert_int_equal(a->jobs[0].opts.rw, SB_RW_RANDREAD);
	assert_int_equal(a->jobs[0].opts.size, 8u << 20);
	sb_jobfile_free(a);
	sb_jobfile_free(b);
}

/* fio's bare flags never take the next argument; others take it unless it
 * is an option; "--direct" alone is direct=1. */
static void test_bare_flags(void **state)
{
	(void)state;
	char *argv[] = { "--name=j",  "-time_based", "-runtime", "2", "--direct",
			 "--size=1m", "-thread",     "jobs.fio", NULL };
	struct sb_fio_cmdline *cl = cmdline(argv);
	assert_int_equal(cl->nfiles, 1);
	assert_string_equal(cl->files[0], "jobs.fio");
	sb_fio_cmdline_free(cl);
	const char *texts[] = { "[k]\nsize=2m\n" };
	struct sb_jobfile *jf = jobs_of(argv, texts);
	assert_int_equal(jf->njobs, 2);
	assert_int_equal(jf->jobs[0].opts.time_based, 1);
	assert_int_equal(jf->jobs[0].opts.runtime_ns, 2000000000ull);
	assert_int_equal(jf->jobs[0].opts.direct, 1);
	sb_jobfile_free(jf);
}

/* Options before the first --name are [global]; after it, the job's own;
 * a job file's jobs start from the command line's [global], as in fio. */
static void test_global_and_jobs(void **state)
{
	(void)state;
	char *argv[] = { "-bs=8k",   "-size=4m",   "--name=a", "-rw=write",
			 "--name=b", "-iodepth=8", "more.fio", NULL };
	const char *texts[] = { "; a comment first\n[c]\nrw=randwrite\n[global]\nbs=64k\n[d]\n" };
	struct sb_jobfile *jf = jobs_of(argv, texts);
	assert_int_equal(jf->njobs, 4);
	assert_string_equal(jf->jobs[0].name, "a");
	assert_int_equal(jf->jobs[0].opts.rw, SB_RW_WRITE);
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	assert_string_equal(jf->jobs[1].name, "b");
	assert_int_equal(jf->jobs[1].opts.rw, SB_RW_READ);
	assert_int_equal(jf->jobs[1].opts.iodepth, 8);
	assert_int_equal(jf->jobs[1].opts.bs, 8192);
	assert_string_equal(jf->jobs[2].name, "c");
	assert_int_equal(jf->jobs[2].opts.bs, 8192);
	assert_int_equal(jf->jobs[2].opts.iodepth, 1);
	assert_int_equal(jf->jobs[2].opts.size, 4u << 20);
	assert_string_equal(jf->jobs[3].name, "d");
	assert_int_equal(jf->jobs[3].opts.bs, 65536);
	sb_jobfile_free(jf);
}

static void test_process_options(void **state)
{
	(void)state;
	char *argv[] = { "--output-format=normal,json+",
			 "--output",
			 "r.txt",
			 "--eta=never",
			 "-destroy-data",
			 "--keep",
			 "--parse-only",
			 "--readonly",
			 "--name=x",
			 "--",
			 "-odd.fio",
			 NULL };
	struct sb_fio_cmdline *cl = cmdline(argv);
	assert_int_equal(cl->formats, SB_FIO_OUT_NORMAL | SB_FIO_OUT_JSONPLUS);
	assert_string_equal(cl->output, "r.txt");
	assert_true(cl->destroy_data && cl->keep && cl->parse_only && cl->readonly);
	assert_false(cl->quiet);
	assert_int_equal(cl->nfiles, 1);
	assert_string_equal(cl->files[0], "-odd.fio");
	assert_string_equal(cl->text, "[global]\n[x]\n");
	sb_fio_cmdline_free(cl);
}

/* fio's output formats: --minimal replaces, --append-terse adds, the last
 * --output-format replaces what came before; terse version 3 unless said */
static unsigned formats_of(char **argv, int *version)
{
	struct sb_fio_cmdline *cl = cmdline(argv);
	unsigned f = cl->formats;
	*version = cl->terse_version;
	sb_fio_cmdline_free(cl);
	return f;
}

static void test_terse_formats(void **state)
{
	(void)state;
	int v;
	assert_int_equal(formats_of((char *[]){ "--minimal", "--name=x", NULL }, &v),
			 SB_FIO_OUT_TERSE);
	assert_int_equal(v, 3);
	assert_int_equal(formats_of((char *[]){ "--append-terse", "--name=x", NULL }, &v),
			 SB_FIO_OUT_NORMAL | SB_FIO_OUT_TERSE);
	assert_int_equal(formats_of((char *[]){ "--output-format=json,terse", "--name=x", NULL },
				    &v),
			 SB_FIO_OUT_JSON | SB_FIO_OUT_TERSE);
	assert_int_equal(formats_of((char *[]){ "--output-format=csv", "--name=x", NULL }, &v),
			 SB_FIO_OUT_TERSE);
	assert_int_equal(formats_of((char *[]){ "--output-format=minimal", "--name=x", NULL }, &v),
			 SB_FIO_OUT_TERSE);
	assert_int_equal(formats_of((char *[]){ "--minimal", "--output-format=normal", "--name=x",
						NULL },
				    &v),
			 SB_FIO_OUT_NORMAL);
	assert_int_equal(formats_of((char *[]){ "--output-format=json", "--append-terse",
						"--terse-version", "5", "--name=x", NULL },
				    &v),
			 SB_FIO_OUT_JSON | SB_FIO_OUT_TERSE);
	assert_int_equal(v, 5);
}

/* Refused before any job is made: the message starts with the option as
 * it was written. */
static void expect_parse_err(char **argv, const char *want)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	struct sb_fio_cmdline *cl = (struct sb_fio_cmdline *)&cl;
	char msg[512] = "";
	int r = sb_fio_cmdline_parse(argc, argv, &cl, msg, sizeof(msg));
	if (r != -EINVAL || strncmp(msg, want, strlen(want)))
		fail_msg("rc %d, msg '%s'; want '%s...'", r, msg, want);
	assert_null(cl);
}

static void expect_jobs_err(char **argv, const char *const *texts, const char *want)
{
	struct sb_fio_cmdline *cl = cmdline(argv);
	size_t lens[8];
	for (unsigned i = 0; i < cl->nfiles; i++)
		lens[i] = strlen(texts[i]);
	struct sb_jobfile *jf = (struct sb_jobfile *)&jf;
	char msg[512] = "";
	int r = sb_fio_cmdline_jobs(cl, texts, lens, NULL, &jf, msg, sizeof(msg));
	if (r != -EINVAL || strncmp(msg, want, strlen(want)))
		fail_msg("rc %d, msg '%s'; want '%s...'", r, msg, want);
	assert_null(jf);
	sb_fio_cmdline_free(cl);
}

static void test_refusals(void **state)
{
	(void)state;
	expect_parse_err((char *[]){ "--name=x", "-foo=1", NULL }, "-foo: unknown fio option");
	expect_parse_err((char *[]){ "--fooo", NULL }, "--fooo: unknown fio option");
	expect_parse_err((char *[]){ "--section=a", NULL },
			 "--section: fio option not supported by storbench");
	expect_parse_err((char *[]){ "--terse-version=6", NULL },
			 "--terse-version: '6' is not valid (expected 2, 3, 4 or 5)");
	expect_parse_err((char *[]){ "--terse-version", "33", NULL },
			 "--terse-version: '33' is not valid");
	expect_parse_err((char *[]){ "--minimal=1", NULL }, "--minimal: takes no value");
	expect_parse_err((char *[]){ "--output-format=xml", NULL },
			 "--output-format: 'xml' is not valid");
	expect_parse_err((char *[]){ "--output", NULL }, "--output: needs a value");
	expect_parse_err((char *[]){ "--keep=1", NULL }, "--keep: takes no value");
	expect_parse_err((char *[]){ "--name", NULL }, "--name: needs a value");
	expect_parse_err((char *[]){ "--name=x", "-filename=a ;b", NULL },
			 "-filename: a value with a blank before ';'");
	expect_parse_err((char *[]){ "--name=x", "-filename=${HOME}/a", NULL },
			 "-filename: a value with '${'");

	expect_jobs_err((char *[]){ "--name=x", "-bs", NULL }, NULL, "-bs: needs a value");
	expect_jobs_err((char *[]){ "--name=x", "-bs", "4q", NULL }, NULL,
			"-bs: '4q' is not valid");
	expect_jobs_err((char *[]){ "--name=x", "-gtod_cpu=0", NULL }, NULL,
			"-gtod_cpu: fio option not supported by storbench");
	expect_jobs_err((char *[]){ "-bs=4k", NULL }, NULL, "no job: give --name=NAME");
	expect_jobs_err((char *[]){ "--name=a]", NULL }, NULL, "--name=a]: ");
	const char *bad[] = { "[j]\n\nbs=4q\n" };
	expect_jobs_err((char *[]){ "-size=1m", "a.fio", NULL }, bad, "a.fio: line 3: bs: '4q'");
	const char *loose[] = { "\n  # c\nbs=4k\n[j]\n" };
	expect_jobs_err((char *[]){ "--name=x", "b.fio", NULL }, loose,
			"b.fio: line 3: 'bs=4k' comes before any section");
}

/* Where a job's line came from, for the messages of later checks. */
static void test_where(void **state)
{
	(void)state;
	char *argv[] = { "-size=1m", "--name=x", "c.fio", NULL };
	const char *texts[] = { "[y]\nbs=4k\n" };
	struct sb_fio_cmdline *cl = cmdline(argv);
	size_t lens[] = { strlen(texts[0]) };
	struct sb_jobfile *jf = NULL;
	char msg[256], w[128];
	assert_int_equal(sb_fio_cmdline_jobs(cl, texts, lens, NULL, &jf, msg, sizeof(msg)), 0);
	assert_int_equal(jf->njobs, 2);
	assert_string_equal(sb_fio_cmdline_where(cl, jf->jobs[0].line, w, sizeof(w)), "--name=x");
	assert_string_equal(sb_fio_cmdline_where(cl, jf->jobs[1].line, w, sizeof(w)),
			    "c.fio: line 1");
	sb_jobfile_free(jf);
	sb_fio_cmdline_free(cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_line),	cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_bare_flags),	cmocka_unit_test(test_global_and_jobs),
		cmocka_unit_test(test_process_options), cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_where),		cmocka_unit_test(test_terse_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
