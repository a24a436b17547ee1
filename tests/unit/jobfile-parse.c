/* needs: none */
/*
 * fio job files read into storbench jobs: fio's defaults, [global] in
 * order, flags, comments, CRLF, ${NAME}, the options mapped by a rule
 * (rwmixwrite, buffered, ioengine=sync), notes for ignored options, and one
 * case per refusal, each naming its line and option.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/jobfile.h"

#define SEC 1000000000ull

static const char *test_env(const char *name)
{
	if (!strcmp(name, "BS"))
		return "16k";
	if (!strcmp(name, "DIR"))
		return "/mnt/data";
	if (!strcmp(name, "DEPTH"))
		return "32";
	return NULL;
}

static struct sb_jobfile *parse_len(const char *text, size_t len)
{
	struct sb_jobfile *jf = (struct sb_jobfile *)&jf; /* must be replaced */
	char msg[256] = "";
	int r = sb_jobfile_parse(text, len, test_env, &jf, msg, sizeof(msg));
	if (r != 0)
		fail_msg("parse failed (%d): %s\n--- text:\n%.*s", r, msg, (int)len, text);
	assert_non_null(jf);
	assert_string_equal(msg, "");
	return jf;
}

static struct sb_jobfile *parse(const char *text)
{
	return parse_len(text, strlen(text));
}

/* The message must start with want; with also, contain it. */
static void expect_err_len(const char *text, size_t len, const char *want, const char *also)
{
	struct sb_jobfile *jf = (struct sb_jobfile *)&jf;
	char msg[512] = "";
	int r = sb_jobfile_parse(text, len, test_env, &jf, msg, sizeof(msg));
	if (r != -EINVAL || strncmp(msg, want, strlen(want)) || (also && !strstr(msg, also)))
		fail_msg("rc %d, msg '%s'; want -EINVAL, '%s...'%s%s", r, msg, want,
			 also ? " with " : "", also ? also : "");
	assert_null(jf);
}

static void expect_err(const char *text, const char *want, const char *also)
{
	expect_err_len(text, strlen(text), want, also);
}

static void test_free_null(void **state)
{
	(void)state;
	sb_jobfile_free(NULL);
}

static void test_fio_defaults(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[only]\n");
	assert_int_equal(jf->njobs, 1);
	const struct sb_jobfile_job *j = &jf->jobs[0];
	assert_string_equal(j->name, "only");
	assert_string_equal(j->opts.name, "only");
	assert_int_equal(j->line, 1);
	assert_int_equal(j->opts.rw, SB_RW_READ);
	assert_int_equal(j->opts.bs, 4096);
	assert_int_equal(j->opts.iodepth, 1);
	assert_int_equal(j->opts.direct, 0);
	assert_int_equal(j->opts.direct_given, 1);
	assert_string_equal(j->opts.engine, "psync");
	assert_int_equal(j->opts.numjobs, 1);
	assert_int_equal(j->opts.runtime_ns, 0);
	assert_string_equal(j->filename, "");
	assert_string_equal(j->directory, "");
	assert_int_equal(j->stonewall, 0);
	assert_int_equal(jf->nnotes, 0);
	sb_jobfile_free(jf);
}

static const char multi[] = "; three jobs on one directory\n"
			    "[global]\n"
			    "ioengine=libaio\n"
			    "direct=1\n"
			    "iodepth=16\n"
			    "bs=64k\n"
			    "runtime=30\n"
			    "time_based\n"
			    "directory=/mnt/test\n"
			    "\n"
			    "[seq-read]\n"
			    "rw=read\n"
			    "filename=data.bin\n"
			    "\n"
			    "[rand-write]\n"
			    "stonewall\n"
			    "rw=randwrite\n"
			    "bs=4k\n"
			    "name=rw4k\n"
			    "filename=/abs/file\n"
			    "\n"
			    "[no-file]\n"
			    "rw=randrw\n"
			    "rwmixread=70\n"
			    "ioengine=io_uring\n";

static void test_multi_job(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse(multi);
	assert_int_equal(jf->njobs, 3);

	const struct sb_jobfile_job *a = &jf->jobs[0];
	assert_string_equal(a->name, "seq-read");
	assert_string_equal(a->opts.name, "seq-read");
	assert_int_equal(a->line, 11);
	assert_int_equal(a->opts.rw, SB_RW_READ);
	assert_int_equal(a->opts.bs, 65536);
	assert_int_equal(a->opts.iodepth, 16);
	assert_int_equal(a->opts.direct, 1);
	assert_string_equal(a->opts.engine, "libaio");
	assert_int_equal(a->opts.runtime_ns, 30 * SEC);
	assert_int_equal(a->opts.time_based, 1);
	assert_string_equal(a->filename, "/mnt/test/data.bin");
	assert_string_equal(a->directory, "");
	assert_int_equal(a->stonewall, 0);

	const struct sb_jobfile_job *b = &jf->jobs[1];
	assert_string_equal(b->name, "rand-write");
	assert_string_equal(b->opts.name, "rw4k");
	assert_int_equal(b->line, 15);
	assert_int_equal(b->opts.rw, SB_RW_RANDWRITE);
	assert_int_equal(b->opts.bs, 4096);
	assert_int_equal(b->opts.iodepth, 16);
	assert_string_equal(b->filename, "/abs/file"); /* absolute: no directory */
	assert_string_equal(b->directory, "");
	assert_int_equal(b->stonewall, 1);

	const struct sb_jobfile_job *c = &jf->jobs[2];
	assert_string_equal(c->name, "no-file");
	assert_int_equal(c->opts.rw, SB_RW_RANDRW);
	assert_int_equal(c->opts.rwmixread, 70);
	assert_string_equal(c->opts.engine, "io_uring");
	assert_string_equal(c->filename, "");
	assert_string_equal(c->directory, "/mnt/test");
	assert_int_equal(c->stonewall, 0);
	assert_int_equal(jf->nnotes, 0);
	sb_jobfile_free(jf);
}

static void test_later_global(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[global]\nbs=8k\n"
				      "[a]\n"
				      "[global]\nbs=16k\niodepth=4\nstonewall\nname=ignored\n"
				      "[b]\n"
				      "[c]\nbs=32k\n"
				      "[globalx]\niodepth=8\n" /* fio: any [global...] */
				      "[d]\n");
	assert_int_equal(jf->njobs, 4);
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	assert_int_equal(jf->jobs[0].opts.iodepth, 1);
	assert_int_equal(jf->jobs[0].stonewall, 0);
	assert_int_equal(jf->jobs[1].opts.bs, 16384);
	assert_int_equal(jf->jobs[1].opts.iodepth, 4);
	assert_int_equal(jf->jobs[1].stonewall, 1);
	assert_string_equal(jf->jobs[1].opts.name, "b"); /* the section names the job */
	assert_int_equal(jf->jobs[2].opts.bs, 32768);
	assert_int_equal(jf->jobs[2].opts.iodepth, 4);
	assert_int_equal(jf->jobs[2].stonewall, 1);
	assert_string_equal(jf->jobs[3].name, "d");
	assert_int_equal(jf->jobs[3].opts.bs, 16384);
	assert_int_equal(jf->jobs[3].opts.iodepth, 8);
	sb_jobfile_free(jf);
}

/* fio's groups: a job and the ones after it up to the next stonewall. */
static void test_groups(void **state)
{
	struct sb_jobfile_group g[SB_JOBFILE_MAX_JOBS];
	(void)state;
	struct sb_jobfile *jf = parse("[a]\n[b]\n[c]\nstonewall\n[d]\nwait_for_previous\n"
				      "[e]\n[f]\n");
	assert_int_equal(sb_jobfile_groups(jf, g), 3);
	assert_int_equal(g[0].first, 0);
	assert_int_equal(g[0].n, 2);
	assert_int_equal(g[1].first, 2);
	assert_int_equal(g[1].n, 1);
	assert_int_equal(g[2].first, 3);
	assert_int_equal(g[2].n, 3);
	sb_jobfile_free(jf);
	/* a stonewall on the first job changes nothing */
	jf = parse("[a]\nstonewall\n[b]\nstonewall\n");
	assert_int_equal(sb_jobfile_groups(jf, g), 2);
	assert_int_equal(g[1].first, 1);
	assert_int_equal(g[1].n, 1);
	sb_jobfile_free(jf);
}

static void test_flags(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[j]\nrw=write\nruntime=1m\ntime_based\nend_fsync\n"
				      "direct\nwait_for_previous\nsync\n");
	const struct sb_job_opts *o = &jf->jobs[0].opts;
	assert_int_equal(o->time_based, 1);
	assert_int_equal(o->end_fsync, 1);
	assert_int_equal(o->direct, 1);
	assert_int_equal(o->sync, SB_SYNC_SYNC);
	assert_int_equal(jf->jobs[0].stonewall, 1);
	assert_int_equal(o->runtime_ns, 60 * SEC);
	sb_jobfile_free(jf);
	jf = parse("[j]\ntime_based=0\ndirect=0\nstonewall=0\n");
	assert_int_equal(jf->jobs[0].opts.time_based, 0);
	assert_int_equal(jf->jobs[0].stonewall, 0);
	sb_jobfile_free(jf);
	expect_err("[j]\nbs\n", "line 2: bs: needs a value", NULL);
	expect_err("[j]\nstonewall=2\n", "line 2: stonewall: '2' is not valid (expected 0 or 1)",
		   NULL);
}

static void test_comments(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("# fio job, ${NOPE} unread\n"
				      "; another\n"
				      "   # indented\n"
				      "[j] ; the job\n"
				      "bs=8k ; eight\n"
				      "iodepth = 4\t# four\n"
				      "filename=a#b;c\n"
				      "\t\n");
	assert_int_equal(jf->njobs, 1);
	assert_string_equal(jf->jobs[0].name, "j");
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	assert_int_equal(jf->jobs[0].opts.iodepth, 4);
	assert_string_equal(jf->jobs[0].filename, "a#b;c");
	sb_jobfile_free(jf);
	expect_err("[j]\nbs=8k#x\n", "line 2: bs: '8k#x' is not valid", NULL);
}

/* fio separates files with ':' and escapes one inside a name as '\:' */
static void test_escaped_colon(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse(
		"[j]\nfilename=/dev/disk/by-path/pci-0000\\:00\\:1f.2-ata-1\n");
	assert_int_equal(jf->njobs, 1);
	assert_string_equal(jf->jobs[0].filename, "/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
	sb_jobfile_free(jf);
	/* a list: the escaped colon inside its first name */
	jf = parse("[j]\nfilename=a\\:b:c\n");
	assert_int_equal(jf->jobs[0].opts.nfilenames, 2);
	assert_int_equal(jf->jobs[0].opts.nrfiles, 2);
	assert_string_equal(sb_job_filename_at(jf->jobs[0].opts.filenames, 0), "a:b");
	assert_string_equal(sb_job_filename_at(jf->jobs[0].opts.filenames, 1), "c");
	sb_jobfile_free(jf);
	expect_err("[j]\nfilename=a::b\n", "line 2: filename:", "name 2 of the list is empty");
}

static void test_crlf(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[global]\r\nbs=8k\r\n\r\n[j]\r\nrw=write\r\n"
				      "filename=f\r\n[k]\r\nrw=randread");
	assert_int_equal(jf->njobs, 2);
	assert_string_equal(jf->jobs[0].name, "j");
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	assert_int_equal(jf->jobs[0].opts.rw, SB_RW_WRITE);
	assert_string_equal(jf->jobs[0].filename, "f");
	assert_int_equal(jf->jobs[1].opts.rw, SB_RW_RANDREAD);
	sb_jobfile_free(jf);
}

static void test_no_nul_at_end(void **state)
{
	(void)state;
	static const char text[] = "[j]\nbs=8kXXXX";
	size_t len = strlen(text) - 4;
	char *exact = malloc(len);
	assert_non_null(exact);
	memcpy(exact, text, len);
	struct sb_jobfile *jf = parse_len(exact, len);
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	sb_jobfile_free(jf);
	free(exact);
}

static void test_env_expansion(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[j]\nbs=${BS}\nfilename=${DIR}/f-${BS}\n"
				      "iodepth=${DEPTH}\ndirectory=${DIR}\n");
	assert_int_equal(jf->jobs[0].opts.bs, 16384);
	assert_int_equal(jf->jobs[0].opts.iodepth, 32);
	assert_string_equal(jf->jobs[0].filename, "/mnt/data/f-16k"); /* absolute */
	sb_jobfile_free(jf);
	jf = parse("[j]\ndirectory=${DIR}/\nfilename=f-${BS}\n");
	assert_string_equal(jf->jobs[0].filename, "/mnt/data/f-16k");
	sb_jobfile_free(jf);
	expect_err("[j]\nbs=4k\nfilename=${NOPE}\n", "line 3: ${NOPE} is not set", NULL);
	expect_err("[j]\nbs=${BS\n", "line 2: '${' without a closing '}'", NULL);

	char msg[128];
	jf = (struct sb_jobfile *)&jf;
	static const char text[] = "[j]\n\nbs=${BS}\n";
	assert_int_equal(sb_jobfile_parse(text, strlen(text), NULL, &jf, msg, sizeof(msg)),
			 -EINVAL);
	assert_null(jf);
	assert_string_equal(msg, "line 3: ${BS} is not set");
}

static void test_mapped(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[a]\nrw=randrw\nrwmixwrite=30\nbuffered=1\n"
				      "[b]\nbuffered=0\nreadwrite=readwrite\n"
				      "iodepth=8\niodepth_batch_complete_min=0\n"
				      "[c]\niodepth=8\niodepth_batch_complete=4\nsync=dsync\n"
				      "randseed=42\nrate=10M\nrw=randread\n"
				      "random_distribution=zipf:1.2\ncontinue_on_error=io\n"
				      "log_avg_msec=500\nbuffer_compress_percentage=50\n"
				      "ramp_time=5s\nnumjobs=4\nnrfiles=1\noffset=1M\nsize=1G\n"
				      "bssplit=4k/60:64k/40\nfdatasync=0\ntimeout=10\n"
				      "[d]\nrw=randwrite\nfsync=8\nrandom_distribution=random\n"
				      "rate=0\ncontinue_on_error=0\nsync=0\nblocksize=512\n"
				      "size=0\n");
	assert_int_equal(jf->njobs, 4);
	const struct sb_job_opts *a = &jf->jobs[0].opts, *b = &jf->jobs[1].opts;
	const struct sb_job_opts *c = &jf->jobs[2].opts, *d = &jf->jobs[3].opts;
	assert_int_equal(a->rwmixread, 70);
	assert_int_equal(a->direct, 0);
	assert_int_equal(a->direct_given, 1);
	assert_int_equal(b->direct, 1);
	assert_int_equal(b->rw, SB_RW_RW);
	assert_int_equal(b->batch_complete, 1);
	assert_int_equal(c->batch_complete, 4);
	assert_int_equal(c->sync, SB_SYNC_DSYNC);
	assert_int_equal(c->seed, 42);
	/* fio's one value caps reads and writes, each alone */
	assert_int_equal(c->rate_bps, 0);
	assert_int_equal(c->rate_dir_bps[0], 10 << 20);
	assert_int_equal(c->rate_dir_bps[1], 10 << 20);
	assert_int_equal(c->dist, SB_DIST_ZIPF);
	assert_true(c->dist_param == 1.2);
	assert_int_equal(c->continue_on_error, SB_CONTINUE_ALL);
	assert_int_equal(c->log_interval_ns, 500000000ull);
	assert_int_equal(c->buffer_compress, 50);
	assert_int_equal(c->ramp_ns, 5 * SEC);
	assert_int_equal(c->numjobs, 4);
	assert_int_equal(c->offset, 1 << 20);
	assert_int_equal(c->size, 1 << 30);
	assert_int_equal(c->nbssplit, 2);
	assert_int_equal(c->bssplit[1].bs, 65536);
	assert_int_equal(c->runtime_ns, 10 * SEC);
	assert_int_equal(d->fsync_every, 8);
	assert_int_equal(d->dist, SB_DIST_UNIFORM);
	assert_int_equal(d->rate_bps, 0);
	assert_int_equal(d->rate_dir_bps[0], 0);
	assert_int_equal(d->rate_dir_bps[1], 0);
	assert_int_equal(d->continue_on_error, SB_CONTINUE_NONE);
	assert_int_equal(d->sync, SB_SYNC_NONE);
	assert_int_equal(d->bs, 512);
	assert_int_equal(d->size, 0); /* fio's default: the whole target */
	assert_int_equal(jf->nnotes, 0);
	sb_jobfile_free(jf);
}

static void test_engine_note(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[a]\nioengine=sync\n[b]\nioengine=sync\n"
				      "[c]\nioengine=pvsync2\n[d]\nioengine=null\n");
	for (unsigned i = 0; i < 3; i++)
		assert_string_equal(jf->jobs[i].opts.engine, "psync");
	assert_string_equal(jf->jobs[3].opts.engine, "null");
	assert_int_equal(jf->nnotes, 2);
	assert_string_equal(jf->notes[0], "line 2: ioengine=sync runs as psync");
	assert_string_equal(jf->notes[1], "line 6: ioengine=pvsync2 runs as psync");
	sb_jobfile_free(jf);
}

static void test_ignored_notes(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[global]\ngroup_reporting\nthread\n"
				      "[a]\nrandom_generator=lfsr\ngroup_reporting\n"
				      "[b]\nrandrepeat=0\ndescription=some words\nthread\n");
	assert_int_equal(jf->njobs, 2);
	/* group_reporting, thread and description: what storbench fio
	 * reports (description without a note) */
	assert_int_equal(jf->nnotes, 4);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(jf->jobs[i].opts.group_reporting, 1);
		assert_int_equal(jf->jobs[i].opts.thread, 1);
	}
	assert_string_equal(jf->notes[0],
			    "line 2: group_reporting: storbench fio reports the group as one, as "
			    "fio; storbench run reports each job");
	assert_string_equal(jf->notes[1], "line 3: thread: storbench's jobs are always threads");
	assert_string_equal(jf->notes[2], "line 5: random_generator: storbench's own generator "
					  "covers each block once per pass: ignored");
	assert_string_equal(jf->notes[3], "line 8: randrepeat only changes fio's own reporting "
					  "or bookkeeping: ignored");
	sb_jobfile_free(jf);
	jf = parse("[a]\ngroup_reporting=0\n");
	assert_int_equal(jf->jobs[0].opts.group_reporting, 0);
	assert_int_equal(jf->jobs[0].opts.thread, 0);
	sb_jobfile_free(jf);

	/* options that tune fio's own engine loop */
	jf = parse("[j]\nioengine=io_uring\niodepth=32\niodepth_batch_submit=16\n"
		   "fixedbufs\nregisterfiles=1\nrandom_generator=lfsr\n");
	assert_int_equal(jf->njobs, 1);
	assert_int_equal(jf->jobs[0].opts.iodepth, 32);
	assert_int_equal(jf->jobs[0].opts.batch_submit, 16);
	assert_int_equal(jf->nnotes, 3);
	assert_string_equal(jf->notes[0], "line 5: fixedbufs: storbench registers its buffers "
					  "with io_uring itself: ignored");
	sb_jobfile_free(jf);
	expect_err("[j]\nhipri\n",
		   "line 2: hipri: fio option not supported by storbench "
		   "(docs/fio-compat.md lists those it takes)",
		   NULL);

	/* more than SB_JOBFILE_MAX_NOTES: the rest are dropped */
	jf = parse("[j]\ncreate_on_open=1\nrandom_generator=lfsr\nfixedbufs\nunlink=1\nrandrepeat\n"
		   "registerfiles=1\nunit_base\nkb_base\npercentile_list\nclat_percentiles\n"
		   "lat_percentiles\nslat_percentiles\ndisable_bw_measurement\nfallocate=none\n"
		   "threads=1\nallow_file_create\nrefill_buffers\nscramble_buffers\n");
	assert_int_equal(jf->nnotes, SB_JOBFILE_MAX_NOTES);
	assert_string_equal(jf->notes[SB_JOBFILE_MAX_NOTES - 1],
			    "line 17: allow_file_create only changes fio's own reporting or "
			    "bookkeeping: ignored");
	sb_jobfile_free(jf);
}

/* fio's log options: which files, named how, numbered as fio numbers its
 * threads (numjobs each, across the jobs). */
/* fio's sequential steps, strided zones and block size ranges */
static void test_steps_zones_ranges(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse(
		"[global]\nrw=write:112k\n[a]\n[b]\nrw=read:-8k\n[c]\nrw=read\n"
		"zonemode=strided\nzonesize=256m\nzoneskip=2g\n[d]\nbsrange=1k-4k\n");
	assert_int_equal(jf->njobs, 4);
	assert_true(jf->jobs[0].opts.seq_add == 112 * 1024);
	assert_true(jf->jobs[1].opts.seq_add == -8192);
	assert_true(jf->jobs[2].opts.seq_add == 0); /* rw= again: no step */
	assert_true(jf->jobs[2].opts.zone_size == 256ull << 20);
	assert_true(jf->jobs[2].opts.zone_skip == 2ull << 30);
	assert_int_equal(jf->jobs[3].opts.nbssplit, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(jf->jobs[3].opts.bssplit[i].bs, 1024 * (i + 1));
		assert_int_equal(jf->jobs[3].opts.bssplit[i].pct, 25);
	}
	sb_jobfile_free(jf);
	expect_err("[j]\nzonemode=strided\nzonesize=6k\n",
		   "line 2: zonemode=strided: zonesize a multiple of bs", NULL);
	expect_err("[j]\nbs=4k\nzonemode=strided\nzonesize=8k\nbsrange=1k-2k\n",
		   "line 3: zonemode=strided: one block size", NULL);
	expect_err("[j]\nwait_for=j\n",
		   "line 2: wait_for=j: storbench waits only for the job just before (none here)",
		   NULL);
	expect_err("[global]\nwait_for=j\n[j]\n", "line 2: wait_for: in [global]", NULL);
}

static void test_fio_logs(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse(
		"[global]\nwrite_bw_log\nlog_avg_msec=100\n[a]\nnumjobs=3\nwrite_lat_log=x/y\n"
		"disable_slat=1\n[b]\nwrite_hist_log=h\nlog_hist_msec=50\n"
		"log_hist_coarseness=6\nlog_offset\nlog_max_value=1\nper_job_logs=0\n"
		"write_iops_log=\nlog_prio=1\n[c]\n");
	assert_int_equal(jf->njobs, 3);
	assert_int_equal(jf->nnotes, 0);
	const struct sb_fiolog_opts *a = &jf->jobs[0].opts.fiolog, *b = &jf->jobs[1].opts.fiolog,
				    *c = &jf->jobs[2].opts.fiolog;
	assert_int_equal(a->on, 1u << SB_FIOLOG_BW | 1u << SB_FIOLOG_LAT);
	assert_string_equal(a->prefix[SB_FIOLOG_BW], "");
	assert_string_equal(a->prefix[SB_FIOLOG_LAT], "x/y");
	assert_int_equal(a->avg_ms, 100);
	assert_int_equal(a->no_slat, 1);
	assert_int_equal(a->no_clat, 0);
	assert_int_equal(a->shared, 0);
	assert_int_equal(a->jobnum, 1);
	assert_int_equal(b->on, 1u << SB_FIOLOG_BW | 1u << SB_FIOLOG_HIST | 1u << SB_FIOLOG_IOPS);
	assert_string_equal(b->prefix[SB_FIOLOG_HIST], "h");
	assert_string_equal(b->prefix[SB_FIOLOG_IOPS], "");
	assert_int_equal(b->hist_ms, 50);
	assert_int_equal(b->hist_coarse, 6);
	assert_int_equal(b->offset, 1);
	assert_int_equal(b->max, 1);
	assert_int_equal(b->shared, 1);
	assert_int_equal(b->prio, 1);
	assert_int_equal(a->prio, 0);
	assert_int_equal(b->jobnum, 4);
	assert_int_equal(c->on, 1u << SB_FIOLOG_BW);
	assert_int_equal(c->jobnum, 5);
	sb_jobfile_free(jf);
	expect_err("[j]\nlog_hist_coarseness=7\n",
		   "line 2: log_hist_coarseness: '7' is not valid (expected 0 to 6)", NULL);
	expect_err("[j]\nlog_offset=2\n", "line 2: log_offset: '2' is not valid (expected 0 or 1)",
		   NULL);
	expect_err("[j]\nlog_unix_epoch=1\n",
		   "line 2: log_unix_epoch: fio option not supported by storbench", NULL);
	expect_err("[j]\nlog_prio=2\n", "line 2: log_prio: '2' is not valid (expected 0 or 1)",
		   NULL);
	/* a limit of blanks only: refused, never read before its buffer
	 * (UBSan found it through the jobfile corpus) */
	expect_err("[j]\nsteadystate=iops: \n", "line 2: steadystate: 'iops:' is not valid",
		   NULL);
	expect_err("[j]\nss=bw:  %\n", "line 2: ss: 'bw:  %' is not valid", NULL);
}

/* Real fio options at the values that do nothing, and the ones storbench
 * honours, land in the job as fio means them. */
static void test_noop_and_honoured(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse(
		"[global]\nverify=0\nloops=1\nstartdelay=0\nthinktime=0\n"
		"thinktime_blocks=1\ndo_verify=1\nverify_fatal=0\nrate_iops=0\n"
		"number_ios=0\nstats=1\n[a]\nverify=null\n"
		"[b]\nloops=3\nio_size=64M\nnumber_ios=1000\nstartdelay=2\n"
		"invalidate=0\niodepth_batch=8\n[c]\nio_limit=1G\nstartdelay=250ms\n");
	assert_int_equal(jf->njobs, 3);
	assert_int_equal(jf->nnotes, 0);
	const struct sb_job_opts *a = &jf->jobs[0].opts, *b = &jf->jobs[1].opts,
				 *c = &jf->jobs[2].opts;
	/* fio's defaults: one loop, invalidate on, one request per submission,
	 * a size needed for a new file */
	assert_int_equal(a->loops, 1);
	assert_int_equal(a->invalidate, 1);
	assert_int_equal(a->batch_submit, 1);
	assert_int_equal(a->fio_new_file, 1);
	assert_int_equal(a->io_size, 0);
	assert_int_equal(a->number_ios, 0);
	assert_int_equal(a->startdelay_ns, 0);
	assert_int_equal(b->loops, 3);
	assert_int_equal(b->io_size, 64ull << 20);
	assert_int_equal(b->number_ios, 1000);
	assert_int_equal(b->startdelay_ns, 2 * SEC); /* a bare number is seconds */
	assert_int_equal(b->invalidate, 0);
	assert_int_equal(b->batch_submit, 8);
	assert_int_equal(c->io_size, 1ull << 30);
	assert_int_equal(c->startdelay_ns, SEC / 4);
	sb_jobfile_free(jf);

	/* rate=READ,WRITE: each direction its own cap, empty or 0 none */
	jf = parse("[a]\nrate=1M,4M\n[b]\nrate=,2M\n[c]\nrate=3M,\n[d]\nrate=5M,0,0\n");
	assert_int_equal(jf->jobs[0].opts.rate_dir_bps[0], 1 << 20);
	assert_int_equal(jf->jobs[0].opts.rate_dir_bps[1], 4 << 20);
	assert_int_equal(jf->jobs[1].opts.rate_dir_bps[0], 0);
	assert_int_equal(jf->jobs[1].opts.rate_dir_bps[1], 2 << 20);
	assert_int_equal(jf->jobs[2].opts.rate_dir_bps[0], 3 << 20);
	assert_int_equal(jf->jobs[2].opts.rate_dir_bps[1], 0);
	assert_int_equal(jf->jobs[3].opts.rate_dir_bps[0], 5 << 20);
	assert_int_equal(jf->jobs[3].opts.rate_dir_bps[1], 0);
	sb_jobfile_free(jf);

	/* percentages of the target, resolved when it is known; a later size
	 * in bytes replaces one */
	jf = parse("[global]\nsize=50%\noffset=0%\n[p]\noffset=25%\n[q]\nsize=4M\n");
	assert_int_equal(jf->jobs[0].opts.size_pct, 50);
	assert_int_equal(jf->jobs[0].opts.size, 0);
	assert_int_equal(jf->jobs[0].opts.offset_pct, 25);
	assert_int_equal(jf->jobs[1].opts.size_pct, 0);
	assert_int_equal(jf->jobs[1].opts.size, 4 << 20);
	assert_int_equal(jf->jobs[1].opts.offset_pct, 0);
	sb_jobfile_free(jf);
	expect_err("[j]\nloops=0\n", "line 2: loops: '0' is not valid", NULL);
	expect_err("[j]\nstartdelay=1-5\n", "line 2: startdelay: '1-5' is not valid", NULL);
}

static void test_error_lines(void **state)
{
	(void)state;
	expect_err("[j]\nrw=read\nthinktime_spin=5\n",
		   "line 3: thinktime_spin=5: fio option not supported by storbench "
		   "(thinktime_spin=0, which does nothing, is taken)",
		   NULL);
	expect_err("[j]\nrw=write\nverify=crc99\n", "line 3: verify: 'crc99' is not valid", NULL);
	expect_err("[j]\nrandom_distribution=zoned:50/5:30/15\n",
		   "line 2: random_distribution: 'zoned:50/5:30/15' is not valid", NULL);
	expect_err("[j]\nrandom_distribution=normal:10\n",
		   "line 2: random_distribution=normal:10: fio distribution not supported", NULL);
	expect_err("[j]\nthinktime=10q\n", "line 2: thinktime: '10q' is not valid", "microseconds");
	expect_err("[j]\nthinktime_blocks=0\n", "line 2: thinktime_blocks: '0' is not valid", NULL);
	expect_err("[j]\ngtod_cpu=0\n",
		   "line 2: gtod_cpu: fio option not supported by storbench", NULL);
	/* fio's own word for an alias is as real as the option */
	expect_err("[j]\nioscheduler=none\n", "line 2: ioscheduler: fio option not supported",
		   NULL);
	expect_err("[j]\nblocksiz=4k\n", "line 2: 'blocksiz': unknown option", NULL);
	expect_err("[j]\nfoo\n", "line 2: 'foo': unknown option", NULL);
	expect_err("[j]\nrw=read\n\nbs=4q\n",
		   "line 4: bs: '4q' is not valid (expected a size (examples: 512, 4k, 1M, 2G))",
		   NULL);
	expect_err("[j]\nsize=150%\n",
		   "line 2: size: '150%' is not valid (expected a size (examples: 512, 4k, 1M, "
		   "2G) or a percentage of the target from 1% to 100%)",
		   NULL);
	expect_err("[j]\nsize=0%\n", "line 2: size: '0%' is not valid", NULL);
	expect_err("[j]\noffset=x%\n", "line 2: offset: 'x%' is not valid", NULL);
	/* fio's READ,WRITE,TRIM: taken where the directions rw uses agree */
	expect_err("[j]\nbs=4k,8k\nrw=rw\n",
		   "line 2: bs: a size for each direction (4096,8192,8192) is not supported: "
		   "storbench takes one for the directions rw=rw uses ([j])",
		   NULL);
	expect_err("[j]\nblocksize=4k,8k,x\n", "line 2: blocksize: '4k,8k,x' is not valid", NULL);
	expect_err("[j]\nbs=4k,8k,8k,8k\n", "line 2: bs: '4k,8k,8k,8k' is not valid", NULL);
	expect_err("[j]\nbssplit=4k/50:8k/50,4k,4k,4k\n", "line 2: bssplit: '4k/50:8k/50,4k,4k,4k'",
		   "READ,WRITE[,TRIM] splits");
	expect_err("[j]\nrate=1M,2M,3M\nrw=trim\n", "line 2: rate: '1M,2M,3M': a cap on trims",
		   NULL);
	expect_err("[j]\nrate=1M,2Q\n", "line 2: rate: '1M,2Q' is not valid", "READ,WRITE");
	expect_err("[j]\nrate=1,2,3,4\n", "line 2: rate: '1,2,3,4' is not valid", NULL);
	expect_err("[j]\nrw=randread:8\n", "line 2: rw=randread:8: a new random offset",
		   "not supported");
	expect_err("[j]\nrw=read:4q\n", "line 2: rw: 'read:4q' is not valid", ":SIZE");
	expect_err("[j]\nrw=writetrim\n", "line 2: rw: 'writetrim' is not valid", "randtrimwrite");
	expect_err("include common.fio\n[j]\n", "line 1: include is not supported", NULL);
	expect_err("[j]\ninclude common.fio\n", "line 2: include is not supported", NULL);
	expect_err("; header\nbs=4k\n[j]\n", "line 2: 'bs=4k' comes before any section", NULL);
	expect_err("[j]\nbs=4k\n[abc\n", "line 3: '[abc' is not a section header (expected [name])",
		   NULL);
	expect_err("[]\n", "line 1: '[]' is not a section header", NULL);
	expect_err("[j]\n=4k\n", "line 2: '=4k' names no option", NULL);
	expect_err("[j]\nrwmixwrite=101\n", "line 2: rwmixwrite: '101' is not valid", NULL);
	expect_err("[j]\nbuffered=2\n", "line 2: buffered: '2' is not valid (expected 0 or 1)",
		   NULL);
	expect_err("[j]\nioengine=solarisaio\n",
		   "line 2: ioengine=solarisaio: fio engine not supported by storbench "
		   "(use psync, sync, pvsync, pvsync2, io_uring, posixaio, libaio, null, "
		   "filestat, filedelete, ftruncate, falloc, filecreate, mmap, vsync, splice, "
		   "cpuio, exec or e4defrag)",
		   NULL);
	expect_err("[j]\nioengine=external:/opt/my.so\n",
		   "line 2: ioengine=external:/opt/my.so: fio engine not supported", NULL);
	expect_err("[j]\nioengine=uring\n",
		   "line 2: ioengine: 'uring' is not valid "
		   "(expected psync, sync, pvsync, pvsync2, io_uring, posixaio, libaio, null, "
		   "filestat, filedelete, ftruncate, falloc, filecreate, mmap, vsync, splice, "
		   "cpuio, exec or e4defrag)",
		   NULL);
	expect_err("[j]\nnrfiles=0\n", "line 2: nrfiles: '0' is not valid", "from 1 to 16777216");
	expect_err("[j]\nfilename=a:\n",
		   "line 2: filename: 'a:' is not valid (expected a path, or paths separated by "
		   "':' (name 2 of the list is empty))",
		   NULL);
	expect_err("[j]\ncontinue_on_error=verify\n", "line 2: continue_on_error: 'verify'", NULL);
	expect_err("[j]\nrandom_distribution=normal\n",
		   "line 2: random_distribution=normal: fio distribution not supported", NULL);
	expect_err("[j]\nrandom_distribution=uniform\n",
		   "line 2: random_distribution: 'uniform' is not valid", NULL);
	expect_err("[j]\nrandom_distribution=zipf:1\n",
		   "line 2: random_distribution: 'zipf:1' is not valid", NULL);
	expect_err("[j]\nsync=2\n", "line 2: sync: '2' is not valid", NULL);
	expect_err("[j]\nlog_avg_msec=1s\n", "line 2: log_avg_msec: '1s' is not valid", NULL);
	expect_err("[j]\niodepth=0\n", "line 2: iodepth: '0' is not valid", NULL);
	expect_err("[global]\nbs=1q\n[j]\n", "line 2: bs: '1q' is not valid", NULL);
	expect_err("[j]\nname=0123456789012345678901234567890123456789012345678901234567890123\n",
		   "line 2: name: '", "1 to 63 characters");
	expect_err("[0123456789012345678901234567890123456789012345678901234567890123]\n",
		   "line 1: section name", "longer than 63");
}

/* fio's nrfiles (nr_files), filesize, file_service_type, blockalign (ba)
 * and openfiles: values as fio reads them, [global]'s inherited, and
 * each bad value refused naming its line and option. */
static void test_file_set(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("[global]\nnrfiles=4\nfilesize=1m-3m\n"
				      "[a]\nfile_service_type=sequential\nblockalign=8k\n"
				      "[b]\nnr_files=2\nfilesize=64k\nfile_service_type=random:3\n"
				      "ba=4k\nopenfiles=2\n"
				      "[c]\nfilesize=1m:2m\n");
	assert_int_equal(jf->njobs, 3);
	const struct sb_job_opts *a = &jf->jobs[0].opts, *b = &jf->jobs[1].opts;
	assert_int_equal(a->nrfiles, 4);
	assert_int_equal(a->filesize_lo, 1u << 20);
	assert_int_equal(a->filesize_hi, 3u << 20);
	assert_int_equal(a->file_service, SB_FSERVICE_SEQ);
	assert_int_equal(a->file_service_nr, 1);
	assert_int_equal(a->blockalign, 8192);
	assert_int_equal(b->nrfiles, 2);
	assert_int_equal(b->filesize_lo, 65536);
	assert_int_equal(b->filesize_hi, 65536);
	assert_int_equal(b->file_service, SB_FSERVICE_RANDOM);
	assert_int_equal(b->file_service_nr, 3);
	assert_int_equal(b->blockalign, 4096);
	/* fio's default: roundrobin, switching after each request */
	assert_int_equal(jf->jobs[2].opts.file_service, SB_FSERVICE_RR);
	sb_jobfile_free(jf);

	/* 257 is read (filecreate takes it; the run refuses it for others) */
	expect_err("[j]\nnrfiles=16777217\n", "line 2: nrfiles: '16777217' is not valid", NULL);
	expect_err("[j]\nnrfiles=x\n", "line 2: nrfiles: 'x' is not valid", NULL);
	expect_err("[j]\nfilesize=3m-1m\n", "line 2: filesize: '3m-1m' is not valid",
		   "LOW <= HIGH");
	expect_err("[j]\nfilesize=0\n", "line 2: filesize: '0' is not valid", NULL);
	expect_err("[j]\nfilesize=1m-\n", "line 2: filesize: '1m-' is not valid", NULL);
	expect_err("[j]\nfile_service_type=foo\n", "line 2: file_service_type: 'foo' is not valid",
		   "roundrobin");
	expect_err("[j]\nfile_service_type=roundrobin:0\n",
		   "line 2: file_service_type: 'roundrobin:0' is not valid", NULL);
	expect_err("[j]\nfile_service_type=zipf:1.2\n",
		   "line 2: file_service_type=zipf:1.2: fio's "
		   "skewed file choice is not supported",
		   NULL);
	expect_err("[j]\nblockalign=0\n", "line 2: blockalign: '0' is not valid", NULL);
	expect_err("[j]\nba=4k,8k\n", "line 2: ba: '4k,8k' is not valid", NULL);
	expect_err("[j]\nopenfiles=2\nnrfiles=3\n[k]\n", "line 2: openfiles: 2 of nrfiles=3", NULL);
}

static void test_no_job_section(void **state)
{
	(void)state;
	static const char want[] = "no job section (a [name] line followed by options)";
	expect_err("", want, NULL);
	expect_err("; only a comment\n\n", want, NULL);
	expect_err("[global]\nbs=4k\n", want, NULL);
	expect_err_len(NULL, 0, want, NULL);
}

static void test_too_many_jobs(void **state)
{
	(void)state;
	char text[2048];
	size_t n = 0;
	for (unsigned i = 0; i < SB_JOBFILE_MAX_JOBS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "[j%u]\n", i);
	struct sb_jobfile *jf = parse(text);
	assert_int_equal(jf->njobs, SB_JOBFILE_MAX_JOBS);
	assert_string_equal(jf->jobs[SB_JOBFILE_MAX_JOBS - 1].name, "j63");
	assert_int_equal(jf->jobs[SB_JOBFILE_MAX_JOBS - 1].line, SB_JOBFILE_MAX_JOBS);
	sb_jobfile_free(jf);
	snprintf(text + n, sizeof(text) - n, "[global]\n[one-more]\n");
	expect_err(text, "line 66: more than 64 job sections", NULL);
}

static void test_bad_bytes(void **state)
{
	(void)state;
	static const char nul[] = "[j]\nbs=4k\0\nrw=read\n";
	expect_err_len(nul, sizeof(nul) - 1, "line 2: a NUL byte", NULL);

	size_t len = 8000;
	char *big = malloc(len + 1);
	assert_non_null(big);
	memcpy(big, "[j]\n#", 5);
	memset(big + 5, 'x', len - 5);
	big[len] = 0;
	expect_err(big, "line 2: longer than 4096 bytes", NULL);
	/* a line of exactly 4096 bytes is fine */
	big[4 + 4096] = '\n';
	big[4 + 4097] = 0;
	struct sb_jobfile *jf = parse(big);
	sb_jobfile_free(jf);
	free(big);
}

/* A UTF-8 byte order mark before the first line is skipped, not taken for
 * text before any section (it was refused with an invisible character). */
static void test_bom(void **state)
{
	(void)state;
	struct sb_jobfile *jf = parse("\xef\xbb\xbf[global]\nbs=8k\n[a]\nrw=write\n");
	assert_int_equal(jf->njobs, 1);
	assert_int_equal(jf->jobs[0].opts.bs, 8192);
	sb_jobfile_free(jf);
	/* only at the start */
	expect_err("[a]\n\xef\xbb\xbfrw=read\n", "line 2", NULL);
}

static void test_long_path(void **state)
{
	(void)state;
	size_t len = 3000;
	char *text = malloc(2 * len + 64);
	assert_non_null(text);
	size_t n = (size_t)snprintf(text, 64, "[j]\ndirectory=/");
	memset(text + n, 'd', len);
	n += len;
	n += (size_t)snprintf(text + n, 64, "\nfilename=");
	memset(text + n, 'f', len);
	n += len;
	snprintf(text + n, 64, "\n[k]\n");
	expect_err(text,
		   "line 1: [j]: directory and filename together are longer than 4095 "
		   "bytes",
		   NULL);
	free(text);
}

static void test_msg_buffers(void **state)
{
	(void)state;
	struct sb_jobfile *jf = (struct sb_jobfile *)&jf;
	assert_int_equal(sb_jobfile_parse("[j]\nbs=x\n", 9, NULL, &jf, NULL, 0), -EINVAL);
	assert_null(jf);
	char small[12];
	assert_int_equal(sb_jobfile_parse("[j]\nbs=x\n", 9, NULL, &jf, small, sizeof(small)),
			 -EINVAL);
	assert_string_equal(small, "line 2: bs:");
	char one[1] = { 'z' };
	assert_int_equal(sb_jobfile_parse("", 0, NULL, &jf, one, sizeof(one)), -EINVAL);
	assert_int_equal(one[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_null),      cmocka_unit_test(test_fio_defaults),
		cmocka_unit_test(test_multi_job),      cmocka_unit_test(test_later_global),
		cmocka_unit_test(test_groups),	       cmocka_unit_test(test_flags),
		cmocka_unit_test(test_comments),       cmocka_unit_test(test_escaped_colon),
		cmocka_unit_test(test_crlf),	       cmocka_unit_test(test_no_nul_at_end),
		cmocka_unit_test(test_env_expansion),  cmocka_unit_test(test_mapped),
		cmocka_unit_test(test_engine_note),    cmocka_unit_test(test_ignored_notes),
		cmocka_unit_test(test_error_lines),    cmocka_unit_test(test_noop_and_honoured),
		cmocka_unit_test(test_no_job_section), cmocka_unit_test(test_too_many_jobs),
		cmocka_unit_test(test_bad_bytes),      cmocka_unit_test(test_bom),
		cmocka_unit_test(test_long_path),      cmocka_unit_test(test_msg_buffers),
		cmocka_unit_test(test_file_set), cmocka_unit_test(test_fio_logs),
		cmocka_unit_test(test_steps_zones_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
