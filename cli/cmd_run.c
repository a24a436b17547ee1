/* storbench run: one fio-class workload on a file, directory or device,
 * or the jobs of a fio job file, together or in turn as fio runs them. */
#include "cli/cli.h"
#include "cli/run_jobs.h"
#include "cli/run_verify.h"
#include "lib/storbench.h"

#include <sys/stat.h>
#include <unistd.h>

enum { O_REPEAT, O_NAME, O_VERIFY, O_LIST_FIO };

static const struct cli_opt run_opts[] = {
	{ "repeat", OPT_ARG, O_REPEAT, "N",
	  "run the workload N times; report median and min..max [1]" },
	{ "name", OPT_ARG, O_NAME, "NAME", "job name in the results [job]" },
	{ "verify", OPT_NOARG, O_VERIFY, NULL,
	  "write verify blocks and check every block of the region afterwards" },
	{ "list-fio-options", OPT_NOARG, O_LIST_FIO, NULL,
	  "print what storbench does with each of fio's job file options and engines (the "
	  "table of docs/fio-compat.md) and exit" },
	{ NULL, 0, 0, NULL, NULL },
};

struct run_ctx {
	struct sb_job_opts job;
	struct cli_shared sh;	    /* --output, --format, --quiet, --keep, --destroy-data */
	int json_stdout, json_plus; /* --format=json, json+ (fio's, with the histograms' bins) */
	unsigned repeat;
	int seed_given;
	int verify;
	int list_fio;
	int failed; /* a job of a job file failed; the next ones still ran */
	int name_given;
	struct sb_job_verify *rv;
	unsigned group, ngroups; /* a job file's: the progress line says which */
	/* and the groups after this one, for its ETA: those of a known
	 * time, later_ns in all, and later of unknown (as long as this one) */
	unsigned later;
	uint64_t later_ns;
	uint64_t start_ns;		 /* for the progress line */
	const struct cli_run_jobs *from; /* storbench fio: its words for a line */
	int notes_said;			 /* from->notes: the caller says them */
	char *verify_text;		 /* a job file's verifying job: what run --verify prints */
	/* many ranks: the repeats, summarized once they are aggregated */
	size_t rep_first;
	unsigned rep_n;
};

/* "PATH: line N", or where the caller says line N came from. */
static const char *job_where(const struct run_ctx *c, const char *path, unsigned line, char *buf,
			     size_t len)
{
	if (c->from && c->from->where)
		return c->from->where(c->from->where_ctx, line, buf, len);
	snprintf(buf, len, "%s: line %u", path, line);
	return buf;
}

static int run_set(void *vctx, int id, const char *v, char *hint, size_t hl)
{
	struct run_ctx *c = vctx;
	uint64_t n;
	switch (id) {
	case O_REPEAT:
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 1000)
			return snprintf(hint, hl, "a number from 1 to 1000"), -EINVAL;
		c->repeat = (unsigned)n;
		return 0;
	case O_VERIFY: c->verify = 1; return 0;
	case O_LIST_FIO: c->list_fio = 1; return 0;
	case O_NAME:
		if (!*v || strlen(v) >= sizeof(c->job.name))
			return snprintf(hint, hl, "a name of 1 to 63 characters"), -EINVAL;
		snprintf(c->job.name, sizeof(c->job.name), "%s", v);
		c->name_given = 1;
		return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench run [options] TARGET\n"
	       "       storbench run [options] JOB.fio [TARGET]\n\n"
	       "Runs one workload (fio-class) on TARGET: a new or existing file (a new one\n"
	       "is created at --size and removed afterwards), a directory (one test file\n"
	       "per job, removed afterwards) or a block device (writes need --destroy-data).\n"
	       "Sizes take units (512, 4k, 1M, 2G), times too (500ms, 30s, 5m, 2h).\n\n"
	       "With a fio job file (a name ending in .fio), its jobs run as fio runs them\n"
	       "(together, or after the ones before at each stonewall) with fio's defaults\n"
	       "(buffered, psync), on TARGET if given, else on the job file's filename= or\n"
	       "directory=, else in the current directory; workload options given here\n"
	       "override every job's. A job's verify=CHECKSUM verifies it as --verify does\n"
	       "(storbench's own blocks). docs/jobfiles.md explains; --list-fio-options\n"
	       "(docs/fio-compat.md) says what storbench does with each fio option.\n\n"
	       "Under mpirun (a build with make MPI=1), every rank runs the workload or the job\n"
	       "file on its own target (a directory of its own under a directory TARGET), each\n"
	       "group of jobs starting on every rank together, and rank 0 writes one result:\n"
	       "each rank's figures and the \"All clients\" aggregate, and with --verify each\n"
	       "rank's verdict (docs/mpi.md). --precondition and --discard-before bring every\n"
	       "rank's own file or device to the state, and the measurement starts once every\n"
	       "rank is done.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench run --rw=randread --bs=4k --iodepth=32 --runtime=30s --time-based .\n"
	       "  storbench run --rw=write --bs=1M --size=4G --end-fsync=1 /mnt/sd/test.bin\n"
	       "  storbench run --rw=randread --numjobs=4 --engine=psync --format=json /dev/sdb\n"
	       "  storbench run --runtime=10s seq-then-rand.fio /mnt/ssd\n"
	       "  mpirun -n 8 --hostfile hosts storbench run --rw=write --bs=1M --runtime=30s "
	       "--time-based --stonewall /shared/scratch\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* docs/fio-compat.md, from the job file reader's own table. */
static int list_fio(void)
{
	struct sb_fio_support_info in;
	unsigned count[SB_FIO_REFUSED + 1] = { 0 };
	for (unsigned i = 0; !sb_fio_option_support(i, &in); i++)
		count[in.support]++;
	printf("# fio job file options in storbench\n\n"
	       "<!-- Generated by `storbench run --list-fio-options` from the table the job file\n"
	       "reader uses (lib/job/jobfile.c); tests/cli/fio-compat.sh checks that this file\n"
	       "is its output. Do not edit by hand: `./storbench run --list-fio-options >\n"
	       "docs/fio-compat.md`. -->\n\n"
	       "What `storbench run JOB.fio` does with each option fio 3.x knows "
	       "(docs/jobfiles.md\n"
	       "explains how job files run):\n\n"
	       "- **honoured**: as fio does it, within the note's limits (another value is "
	       "refused\n  with the file, the line and what is taken);\n"
	       "- **mapped**: onto storbench's own way of doing the same thing, as the note "
	       "says;\n"
	       "- **no-op values only**: only the values that do nothing are taken (fio's "
	       "defaults\n  spelled out); any other is refused;\n"
	       "- **ignored**: taken, with a note on stderr; it changes only fio's own "
	       "reporting or\n  bookkeeping, or what the note says;\n"
	       "- **refused**: \"fio option not supported by storbench\", with the file and "
	       "line.\n\n"
	       "A key fio does not know either is an \"unknown option\". Nothing is created "
	       "before\nthe whole job file is accepted.\n\n"
	       "%u options: %u honoured, %u mapped, %u no-op values only, %u ignored, %u "
	       "refused.\n\n"
	       "| option | storbench | note |\n|---|---|---|\n",
	       count[0] + count[1] + count[2] + count[3] + count[4], count[SB_FIO_HONOURED],
	       count[SB_FIO_MAPPED], count[SB_FIO_NOOP], count[SB_FIO_IGNORED],
	       count[SB_FIO_REFUSED]);
	for (unsigned i = 0; !sb_fio_option_support(i, &in); i++)
		printf("| `%s` | %s | %s |\n", in.name, sb_fio_support_name(in.support), in.note);
	printf("\n## ioengine\n\n| ioengine | storbench | note |\n|---|---|---|\n");
	for (unsigned i = 0; !sb_fio_engine_support(i, &in); i++)
		printf("| `%s` | %s | %s |\n", in.name, sb_fio_support_name(in.support), in.note);
	return ferror(stdout) ? SB_EXIT_ENV : SB_EXIT_OK;
}

static void print_repeats(FILE *f, const struct sb_results *r)
{
	char a[32], b[32], c[32];
	for (size_t i = 0; i < r->nsummary; i++) {
		const struct sb_summary_row *s = &r->summary[i];
		fprintf(f, "%-5s median of %u runs: %s (%s .. ", sb_ddir_name(s->ddir), s->nruns,
			sb_fmt_rate(s->bw_median, a, sizeof(a)),
			sb_fmt_rate(s->bw_min, b, sizeof(b)));
		fprintf(f, "%s), %s IOPS\n", sb_fmt_rate(s->bw_max, c, sizeof(c)),
			sb_fmt_count(s->iops_median, a, sizeof(a)));
	}
}

/* A job file of several groups: "run group 2 of 3, NAME" on the line;
 * with more than one measurement, the time elapsed is the command's. */
static void group_step(const struct run_ctx *c, struct cli_measure *m)
{
	if (c->repeat > 1 || c->ngroups > 1)
		m->start_ns = c->start_ns;
	if (c->ngroups < 2)
		return;
	m->command = "run";
	m->step_word = "group";
	m->step = c->group;
	m->nsteps = c->ngroups;
	m->later += c->later;
	m->later_ns += c->later_ns;
}

/* How long the groups after group k take, where their jobs say (a time
 * with time_based, ramp included): into c->later_ns; the others counted
 * in c->later. */
static void groups_after(struct run_ctx *c, const struct sb_job_opts *opts,
			 const struct sb_jobfile_group *groups, unsigned ngroups, unsigned k)
{
	c->later = 0;
	c->later_ns = 0;
	for (unsigned g = k + 1; g < ngroups; g++) {
		uint64_t ns = 0;
		int timed = 1;
		for (unsigned i = groups[g].first; i < groups[g].first + groups[g].n; i++) {
			timed &= opts[i].time_based && opts[i].runtime_ns;
			ns = SB_MAX(ns, opts[i].ramp_ns + opts[i].runtime_ns);
		}
		if (timed)
			c->later_ns += ns;
		else
			c->later++;
	}
}

static int measure_all(struct run_ctx *c, struct sb_jobtarget *t, const struct sb_engine_ops *ops,
		       struct sb_results *res)
{
	const size_t first = res->njobs;
	int rc = 0;
	for (unsigned i = 0; i < c->repeat && !cli_interrupted(); i++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr || sb_results_add_job(res, jr) < 0) {
			sb_job_result_free(jr);
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		struct sb_job_opts job = c->job;
		job.seed += i;
		if (c->repeat > 1)
			snprintf(jr->name, sizeof(jr->name), "%s (run %u of %u)", c->job.name,
				 i + 1, c->repeat);
		else
			snprintf(jr->name, sizeof(jr->name), "%s", c->job.name);
		struct cli_measure m = { .label = jr->name,
					 .quiet = c->sh.quiet,
					 .verify = c->rv ? &c->rv->fmt : NULL,
					 .later = c->repeat - 1 - i };
		group_step(c, &m);
		int e = cli_measure(&m, &job, ops, t, jr);
		sb_results_sanity(res, jr);
		if (jr->interrupted)
			res->interrupted = 1;
		if (e < 0)
			return SB_EXIT_FAIL;
		if (jr->errors)
			rc = SB_EXIT_FAIL; /* survived with --continue-on-error */
	}
	if (c->repeat > 1 && res->njobs - first > 1 && cli_ranks() > 1) {
		c->rep_first = first;
		c->rep_n = (unsigned)(res->njobs - first);
	} else if (c->repeat > 1 && res->njobs - first > 1) {
		sb_repeats_summarize(res, first, (unsigned)(res->njobs - first), c->job.name);
	}
	return rc;
}

static int finish(struct run_ctx *c, struct sb_results *res, const struct sb_jobtarget *t, int rc)
{
	/* stopped before (or between) its measurements too */
	if (cli_interrupted())
		res->interrupted = 1;
	/* many ranks: rank 0 writes the aggregate, the others nothing */
	if (cli_ranks_collect(res, &rc))
		return cli_interrupted() ? cli_interrupt_status() : rc;
	if (c->rep_n)
		sb_repeats_summarize(res, c->rep_first, c->rep_n, c->job.name);
	res->json_plus = c->json_plus; /* the bins in --output's file too */
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0 && !rc)
		rc = SB_EXIT_ENV;
	if (c->json_stdout) {
		if (cli_write_json(res, "-") < 0 && !rc)
			rc = SB_EXIT_ENV;
	} else {
		render_target_text(stdout, res);
		for (size_t i = 0; i < res->njobs; i++) {
			render_job_text(stdout, res->jobs[i]);
			render_ranks_text(stdout, res->jobs[i]);
		}
		print_repeats(stdout, res);
		if (c->rv && t)
			run_verify_text(stdout, c->rv, t);
		if (c->verify_text)
			fputs(c->verify_text, stdout);
	}
	render_warnings_text(stderr, res);
	if (cli_interrupted())
		rc = cli_interrupt_status();
	return rc;
}

/* Check c->job and choose its engine. 0 or an exit code; where ("" or
 * "FILE, job 'x': ") comes before any message. */
static int job_ready(struct run_ctx *c, const char *where, const struct sb_engine_ops **ops)
{
	char msg[256];
	int fell_back = 0;

	if (!c->job.seed)
		c->job.seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	if (sb_job_check(&c->job, msg, sizeof(msg)) < 0) {
		sb_err("%s%s", where, msg);
		return SB_EXIT_USAGE;
	}
	*ops = cli_engine_choose(&c->job, &fell_back);
	if (!*ops)
		return SB_EXIT_USAGE;
	/* a fallback was announced by cli_engine_choose, iodepth included */
	if (!fell_back && c->job.iodepth > 1 && ((*ops)->flags & SB_ENGINE_SYNC) &&
	    !((*ops)->flags & SB_ENGINE_NOIO))
		sb_warn("%s--iodepth=%u has no effect with %s, which does one request at a time "
			"per job; use --numjobs for parallel requests",
			where, c->job.iodepth, (*ops)->name);
	snprintf(c->job.engine, sizeof(c->job.engine), "%s", (*ops)->name);
	return 0;
}

static int run_single(struct run_ctx *c, const char *target)
{
	const struct sb_engine_ops *ops;
	struct sb_jobtarget t;
	int rc = job_ready(c, "", &ops);
	if (rc)
		return rc;
	memset(&t, 0, sizeof(t));
	t.destroy_data = c->sh.destroy_data;
	int noio = !!(ops->flags & SB_ENGINE_NOIO);
	/* every option is valid: only now may files be created */
	cli_signals_install();
	if (noio && (c->sh.state.precond || c->sh.state.discard_before)) {
		sb_err("%s: the %s engine does no I/O: there is nothing to bring to a state",
		       c->sh.state.precond ? "--precondition" : "--discard-before", ops->name);
		return SB_EXIT_USAGE;
	}
	rc = cli_target_probe(&t, target);
	if (!rc)
		rc = cli_state_check_each(&c->sh, &t, target);
	/* many ranks: all go on to their targets, or none */
	rc = cli_ranks_agree(rc, NULL);
	if (!rc)
		rc = cli_target_prepare(&t, target, &c->job, sb_rw_reads(c->job.rw) && !c->verify,
					noio);
	/* many ranks: prepared on every rank (agreed), every one fills its
	 * region for --verify, or none measures */
	const int prepared = !rc;
	if (prepared && c->verify && noio) {
		sb_err("--verify: the %s engine does no I/O: nothing to verify", ops->name);
		rc = SB_EXIT_USAGE;
	}
	if (!rc && c->verify && !(rc = run_verify_check_opts(&c->job, &t))) {
		c->rv = calloc(1, sizeof(*c->rv));
		rc = !c->rv ? SB_EXIT_ENV : run_verify_prepare(c->rv, &c->job, &t);
	}
	if (prepared)
		rc = cli_ranks_agree(rc, NULL);
	/* a Ctrl-C during the layout (one rank): the results say that nothing
	 * was measured */
	const int laid_out = !rc || (cli_ranks() < 2 && cli_interrupted());
	if (!laid_out) {
		cli_target_cleanup(&t, 0);
		free(c->rv);
		return rc;
	}
	if (!c->job.size)
		c->job.size = t.region_size;
	struct sb_results *res = sb_results_create("run");
	if (!res) {
		cli_target_cleanup(&t, c->sh.keep);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &t, target);
	if (!rc)
		rc = cli_state_apply(&c->sh, &t, target, res, c->sh.quiet);
	if (!rc)
		rc = measure_all(c, &t, ops, res);
	/* many ranks: each checks its own target, rank 0 gathers the verdicts */
	const int stopped = cli_ranks_worst(cli_interrupted());
	if (c->rv && !stopped) {
		int v = run_verify_check(c->rv, &t);
		run_verify_ranks(c->rv, &t);
		if (!rc)
			rc = v ? v : c->rv->bad ? SB_EXIT_FAIL : 0;
		res->extra_key = "verify";
		res->extra_json = sb_job_verify_json;
		res->extra_ctx = c->rv;
	}
	rc = finish(c, res, &t, rc);
	cli_target_cleanup(&t, c->sh.keep);
	sb_results_free(res);
	if (c->rv)
		sb_job_verify_free(c->rv);
	free(c->rv);
	return rc;
}

/* A first argument ending in .fio is a job file. */
static int is_jobfile(const char *a)
{
	size_t n = strlen(a);
	return n > 4 && !strcmp(a + n - 4, ".fio");
}

#define JOBFILE_MAX (1u << 20)

static const char *env_lookup(const char *name)
{
	return getenv(name);
}

static struct sb_jobfile *jobfile_load(const char *path)
{
	struct sb_jobfile *jf = NULL;
	char msg[512];
	FILE *f = fopen(path, "rb");
	if (!f) {
		sb_err("cannot read job file '%s': %s", path, strerror(errno));
		return NULL;
	}
	char *text = malloc(JOBFILE_MAX + 1);
	size_t len = text ? fread(text, 1, JOBFILE_MAX + 1, f) : 0;
	int bad = ferror(f);
	fclose(f);
	if (!text)
		sb_err("out of memory");
	else if (bad)
		sb_err("cannot read job file '%s'", path);
	else if (len > JOBFILE_MAX)
		sb_err("job file '%s' is larger than 1 MiB: not a job file?", path);
	else if (sb_jobfile_parse(text, len, env_lookup, &jf, msg, sizeof(msg)) < 0)
		sb_err("%s: %s", path, msg);
	free(text);
	return jf;
}

/* A job's directory= names a directory where it makes its files: one
 * that is not there (or is no directory) is refused, never made a file of
 * that name. 0 or an exit code, said. */
static int directory_ok(const struct run_ctx *c, const struct sb_jobfile_job *j, const char *path)
{
	char where[512];
	struct stat st;
	if (j->filename[0] || !j->directory[0])
		return 0;
	const int gone = stat(j->directory, &st) < 0;
	const int err = gone ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (!err)
		return 0;
	sb_err("%s: job '%s': directory=%s: %s (directory= names an existing directory, where "
	       "the job makes its files)",
	       job_where(c, path, j->line, where, sizeof(where)), j->name, j->directory,
	       strerror(err));
	/* not there: the target cannot be used (3); a file: the wrong kind (2) */
	return gone ? cli_exit_of_errno(-err) : SB_EXIT_USAGE;
}

/* Where the jobs run: TARGET, else the file's filename= or directory=,
 * else the current directory (where fio would put its files); one target
 * for every job. NULL after saying why (*rc the exit code). */
static const char *jobfile_target(const struct run_ctx *c, const struct sb_jobfile *jf,
				  const char *path, const char *target, int *rc)
{
	*rc = SB_EXIT_USAGE;
	if (target)
		return target;
	const char *first = NULL;
	for (unsigned i = 0; i < jf->njobs; i++) {
		const struct sb_jobfile_job *j = &jf->jobs[i];
		const char *t = j->filename[0] ? j->filename : j->directory[0] ? j->directory : ".";
		if ((*rc = directory_ok(c, j, path)))
			return NULL;
		if (!first)
			first = t;
		else if (strcmp(first, t)) {
			sb_err("%s: jobs '%s' and '%s' use different targets ('%s', '%s'): storbench "
			       "runs the jobs of a file on one target; give it after the job file",
			       path, jf->jobs[0].name, j->name, first, t);
			*rc = SB_EXIT_USAGE;
			return NULL;
		}
	}
	return first;
}

/* fio creates a file only at a size it is given: a job with no size (or
 * size=0, fio's "the whole file") on a new file or in a directory is an
 * error, found before anything is created. 0 or an exit code. */
static int sizes_ok(const struct run_ctx *c, const struct sb_jobfile *jf,
		    const struct sb_job_opts *opts, const char *tgt, const char *path)
{
	char where[512];
	struct sb_jobtarget t;
	memset(&t, 0, sizeof(t));
	int rc = cli_target_probe(&t, tgt);
	if (rc)
		return rc;
	const int is_new = t.info.kind == SB_TARGET_NONE || t.info.kind == SB_TARGET_DIR;
	for (unsigned i = 0; i < jf->njobs && is_new; i++)
		if ((!opts[i].size || opts[i].size_pct) && opts[i].fio_new_file &&
		    !(opts[i].filesize_lo && opts[i].nrfiles > 1 && t.info.kind == SB_TARGET_DIR)) {
			sb_err("%s: job '%s' has no size (or size=0, or a percentage): '%s' is %s, and fio "
			       "creates files only at a size it is given (size=, or --size)",
			       job_where(c, path, jf->jobs[i].line, where, sizeof(where)),
			       jf->jobs[i].name, tgt,
			       t.info.kind == SB_TARGET_DIR ? "a directory" : "a new file");
			return SB_EXIT_USAGE;
		}
	return 0;
}

/* A repeat of jobs that run together would interleave their results. */
static int groups_ok(const struct run_ctx *c, const struct sb_jobfile *jf,
		     const struct sb_jobfile_group *groups, unsigned ngroups, const char *path)
{
	for (unsigned k = 0; k < ngroups && c->repeat > 1; k++)
		if (groups[k].n > 1) {
			const unsigned g = groups[k].first;
			sb_err("--repeat: not with jobs that run at the same time ('%s' and '%s' in "
			       "%s have no stonewall between them)",
			       jf->jobs[g].name, jf->jobs[g + 1].name, path);
			return SB_EXIT_USAGE;
		}
	return 0;
}

/* A job file's verify= job: filled before, checked after, as run --verify.
 * 0 or an exit code. */
static int alone_verify_prepare(struct run_ctx *c, const struct sb_engine_ops *ops,
				const struct sb_jobtarget *t)
{
	if (!c->job.fio_verify[0])
		return 0;
	if (ops->flags & SB_ENGINE_NOIO) {
		sb_err("verify=%s: the %s engine does no I/O: nothing to verify", c->job.fio_verify,
		       ops->name);
		return SB_EXIT_USAGE;
	}
	int rc = run_verify_check_opts(&c->job, t);
	if (rc)
		return rc;
	c->rv = calloc(1, sizeof(*c->rv));
	return !c->rv ? SB_EXIT_ENV : run_verify_prepare(c->rv, &c->job, t);
}

static int alone_verify_check(struct run_ctx *c, const struct sb_jobtarget *t,
			      struct sb_results *res, int rc)
{
	/* many ranks: each checks its own target, rank 0 gathers the verdicts
	 * and every rank goes on with the worst */
	if (!c->rv || !c->job.fio_verify[0] || cli_ranks_worst(cli_interrupted()))
		return rc; /* c->rv: the verifying job's, not another's after it */
	int v = run_verify_check(c->rv, t);
	run_verify_ranks(c->rv, t);
	if (!rc)
		rc = v ? v : c->rv->bad ? SB_EXIT_FAIL : 0;
	rc = cli_ranks_worst(rc);
	res->extra_key = "verify";
	res->extra_json = sb_job_verify_json;
	res->extra_ctx = c->rv;
	size_t len = 0;
	FILE *f = open_memstream(&c->verify_text, &len);
	if (f) {
		run_verify_text(f, c->rv, t);
		fclose(f);
	}
	return rc;
}

/* One job alone, with its repeats. */
static int run_alone(struct run_ctx *c, const struct sb_engine_ops *ops, const char *tgt,
		     struct sb_results *res, int first, const char *path)
{
	struct sb_jobtarget t;
	memset(&t, 0, sizeof(t));
	t.destroy_data = c->sh.destroy_data;
	int noio = !!(ops->flags & SB_ENGINE_NOIO);
	int rc = cli_target_prepare(&t, tgt, &c->job,
				    sb_rw_reads(c->job.rw) && !c->job.fio_verify[0], noio);
	if (!rc) /* many ranks: every one filled its region, or none measures */
		rc = cli_ranks_agree(alone_verify_prepare(c, ops, &t), NULL);
	/* stopped in the layout: the results still say where */
	if (first && (!rc || cli_interrupted())) {
		cli_results_describe(res, &t, tgt);
		snprintf(res->job_file, sizeof(res->job_file), "%s", path);
	}
	if (rc) {
		cli_target_cleanup(&t, 0);
		return rc;
	}
	if (!c->job.size)
		c->job.size = t.region_size;
	rc = measure_all(c, &t, ops, res);
	rc = alone_verify_check(c, &t, res, rc);
	cli_target_cleanup(&t, c->sh.keep);
	return rc;
}

/* verify= jobs: one per file (the results hold one verify section), each
 * running alone, each one that writes. 0 or an exit code. */
static int verify_jobs_ok(const struct sb_jobfile *jf, const struct sb_job_opts *opts,
			  const struct sb_jobfile_group *groups, unsigned ngroups, const char *path)
{
	int seen = -1;
	for (unsigned k = 0; k < ngroups; k++)
		for (unsigned i = groups[k].first; i < groups[k].first + groups[k].n; i++) {
			const struct sb_job_opts *o = &opts[i];
			const struct sb_jobfile_job *j = &jf->jobs[i];
			if (!o->fio_verify[0])
				continue;
			if (seen >= 0) {
				sb_err("%s: line %u: job '%s' verifies (verify=%s) as '%s' does: "
				       "storbench verifies one job per job file",
				       path, j->line, j->name, o->fio_verify, jf->jobs[seen].name);
				return SB_EXIT_USAGE;
			}
			seen = (int)i;
			if (groups[k].n > 1) {
				sb_err("%s: line %u: job '%s' verifies (verify=%s) while other jobs "
				       "run at the same time: give it stonewall, or verify=0",
				       path, j->line, j->name, o->fio_verify);
				return SB_EXIT_USAGE;
			}
			if (!sb_rw_writes(o->rw) || o->rw == SB_RW_TRIM ||
			    o->rw == SB_RW_RANDTRIM) {
				sb_err("%s: line %u: job '%s': verify=%s needs a job that writes "
				       "(storbench checks what the job itself wrote), not rw=%s",
				       path, j->line, j->name, o->fio_verify, sb_rw_name(o->rw));
				return SB_EXIT_USAGE;
			}
		}
	return 0;
}

/* The target a group of jobs shares (a file or a device): prepared once
 * for all of them, written if any writes, laid out if any reads, over the
 * span of their regions. views[k] is job k's part. 0 or an exit code. */
static int prepare_shared(struct run_ctx *c, struct sb_jobtarget *shared, const char *tgt,
			  struct sb_job_opts *opts, const struct sb_engine_ops **ops, unsigned n,
			  struct sb_jobtarget *views)
{
	struct sb_job_opts u = opts[0];
	uint64_t lo = UINT64_MAX, hi = 0, new_size = 0;
	int writes = 0, reads = 0, whole = 0, noio = 1;
	for (unsigned k = 0; k < n; k++) {
		const struct sb_job_opts *o = &opts[k];
		writes |= sb_rw_writes(o->rw);
		reads |= sb_rw_reads(o->rw);
		noio &= !!(ops[k]->flags & SB_ENGINE_NOIO);
		whole |= !o->size;
		lo = SB_MIN(lo, o->offset);
		hi = SB_MAX(hi, o->offset + o->size);
		/* a new file holds every job's [offset, offset + size), as fio
		 * makes it offset + size long */
		new_size = SB_MAX(new_size, o->offset + o->size);
	}
	if (!new_size || whole)
		new_size = SB_MAX(new_size, SB_JT_NEW_FILE_SIZE);
	/* every job's part is checked before anything is created (on every
	 * rank: one refusing stops all) */
	int rc = 0;
	for (unsigned k = 0; k < n && !rc; k++)
		rc = cli_target_view(shared, &views[k], &opts[k], tgt, new_size);
	if ((rc = cli_ranks_agree(rc, NULL)))
		return rc;
	u.rw = writes ? SB_RW_WRITE : SB_RW_READ;
	u.offset = shared->info.kind == SB_TARGET_NONE ? 0 : lo;
	u.size = shared->info.kind == SB_TARGET_NONE ? new_size : whole ? 0 : hi - lo;
	u.direct = 0; /* each view checks its own alignment */
	u.numjobs = 1;
	shared->destroy_data = c->sh.destroy_data;
	if ((rc = cli_target_prepare(shared, tgt, &u, reads, noio)))
		return rc; /* every rank's verdict already */
	for (unsigned k = 0; k < n && !rc; k++) {
		rc = cli_target_view(shared, &views[k], &opts[k], tgt, new_size);
		if (!rc && !opts[k].size)
			opts[k].size = views[k].region_size;
	}
	return cli_ranks_agree(rc, NULL);
}

/* --precondition and --discard-before with a job file (docs/states.md):
 * the one target every job runs on (jobfile_target) is brought to the state
 * over the span of the jobs' regions, before the first job, with the
 * checks of a single workload; under mpirun each rank's own target. A
 * directory (each job makes files of its own) and a target not there yet
 * are refused. 0 or an exit code. */
static int jobs_state(struct run_ctx *c, struct sb_job_opts *opts, const struct sb_engine_ops **ops,
		      unsigned n, const char *tgt, struct sb_results *res)
{
	const char *w = c->sh.state.precond ? "--precondition" : "--discard-before";
	if (!c->sh.state.precond && !c->sh.state.discard_before)
		return 0;
	for (unsigned k = 0; k < n; k++) {
		if (ops[k]->flags & SB_ENGINE_NOIO) {
			sb_err("%s: the %s engine does no I/O: there is nothing to bring to a state",
			       w, ops[k]->name);
			return SB_EXIT_USAGE;
		}
	}
	struct sb_jobtarget *ts = calloc(n + 1, sizeof(*ts));
	if (!ts) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	struct sb_jobtarget *shared = &ts[n];
	int rc = cli_target_probe(shared, tgt);
	const enum sb_target_kind k = shared->info.kind;
	if (!rc && k != SB_TARGET_FILE && k != SB_TARGET_BLOCK) {
		sb_err("%s: with a job file, only on an existing file or block device: '%s' is %s",
		       w, tgt,
		       k == SB_TARGET_DIR ? "a directory (each job makes files of its own)"
					  : "not there yet (create it first, or give the workload "
					    "as options)");
		rc = SB_EXIT_USAGE;
	}
	if (!rc)
		rc = cli_state_check_each(&c->sh, shared, tgt);
	/* many ranks: every one may, or none goes on (each then brings its
	 * own target to the state, and all wait for the last) */
	rc = cli_ranks_agree(rc, NULL);
	if (!rc)
		rc = prepare_shared(c, shared, tgt, opts, ops, n, ts);
	if (!rc)
		rc = cli_state_apply(&c->sh, shared, tgt, res, c->sh.quiet);
	cli_target_cleanup(shared, 1); /* it existed: nothing of ours to remove */
	free(ts);
	return rc;
}

/* Many ranks: the jobs of a group prepare their targets in the same steps
 * on every rank only if every rank's is a directory, or none. 0 or an
 * exit code. */
static int same_kind(int own_files)
{
	long v[2] = { own_files, !own_files };
	cli_ranks_max(v, 2);
	if (v[0] && v[1]) {
		if (cli_rank() == 0)
			sb_err("the ranks' targets differ: a directory on some ranks, a file or a "
			       "device on others; give every rank the same kind of target");
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* Jobs [g, e) at the same time: in a directory each on its own files, on a
 * file or a device each on its part of it. */
static int run_group(struct run_ctx *c, const struct sb_jobfile *jf, unsigned g, unsigned e,
		     struct sb_job_opts *opts, const struct sb_engine_ops **ops, const char *tgt,
		     struct sb_results *res, const char *path)
{
	const unsigned n = e - g;
	/* ts[0..n): each job's target (or view); ts[n]: the shared one */
	struct sb_jobtarget *ts = calloc(n + 1, sizeof(*ts));
	struct cli_measure_job *mj = calloc(n, sizeof(*mj));
	char label[256] = "";
	int rc = 0;

	if (!ts || !mj) {
		free(ts);
		free(mj);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	struct sb_jobtarget *shared = &ts[n];
	rc = cli_ranks_agree(cli_target_probe(shared, tgt), NULL);
	const int own_files = !rc && shared->info.kind == SB_TARGET_DIR;
	if (!rc)
		rc = same_kind(own_files);
	/* every target first: a job that cannot start leaves no empty result */
	unsigned k = 0;
	for (; own_files && k < n && !rc; k++) {
		struct sb_job_opts *o = &opts[g + k];
		ts[k].destroy_data = c->sh.destroy_data;
		rc = cli_target_prepare(&ts[k], tgt, o, sb_rw_reads(o->rw),
					!!(ops[g + k]->flags & SB_ENGINE_NOIO));
		if (rc)
			break;
		if (!o->size)
			o->size = ts[k].region_size;
	}
	if (!rc && !own_files)
		rc = prepare_shared(c, shared, tgt, opts + g, ops + g, n, ts);
	for (unsigned i = 0; i < n && !rc; i++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr || sb_results_add_job(res, jr) < 0) {
			sb_job_result_free(jr);
			sb_err("out of memory");
			rc = SB_EXIT_ENV;
			break;
		}
		snprintf(jr->name, sizeof(jr->name), "%s", jf->jobs[g + i].name);
		mj[i] = (struct cli_measure_job){ &opts[g + i], ops[g + i], &ts[i], jr };
		size_t l = strlen(label);
		snprintf(label + l, sizeof(label) - l, "%s%s", i ? " + " : "", jr->name);
	}
	if (g == 0 && (!rc || cli_interrupted())) { /* stopped in the layout too */
		cli_results_describe(res, own_files ? &ts[0] : shared, tgt);
		snprintf(res->job_file, sizeof(res->job_file), "%s", path);
	}
	if (!rc) {
		struct cli_measure m = { .label = label, .quiet = c->sh.quiet };
		group_step(c, &m);
		int w = cli_measure_group(&m, mj, n);
		for (unsigned i = 0; i < n; i++) {
			sb_results_sanity(res, mj[i].res);
			if (mj[i].res->interrupted)
				res->interrupted = 1;
			if (mj[i].res->errors)
				rc = SB_EXIT_FAIL;
		}
		if (w < 0)
			rc = SB_EXIT_FAIL;
	}
	const int keep = rc && rc != SB_EXIT_FAIL ? 0 : c->sh.keep;
	/* views own nothing; of the jobs' own targets, k were prepared, the
	 * k-th perhaps in part */
	for (unsigned i = 0; own_files && i <= k && i < n; i++)
		cli_target_cleanup(&ts[i], keep);
	cli_target_cleanup(shared, keep);
	free(ts);
	free(mj);
	return rc;
}

/* The jobs of jf, checked whole, then run; their results into *out (NULL
 * when nothing ran). co: the workload options of the command line, which
 * override every job's (NULL: none). An exit code. */
static int jobs_execute(struct run_ctx *c, const struct sb_jobfile *jf, int argc, char **argv,
			const struct cli_cmd_opts *co, const char *path, const char *target,
			struct sb_results **out)
{
	int rc = 0;
	*out = NULL;
	const char *tgt = jobfile_target(c, jf, path, target, &rc);
	struct sb_job_opts *opts = calloc(jf->njobs, sizeof(*opts));
	const struct sb_engine_ops **ops = calloc(jf->njobs, sizeof(*ops));
	if (tgt)
		rc = 0;
	if (!rc && (!opts || !ops)) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
	}
	/* every job is checked before anything is created */
	for (unsigned i = 0; i < jf->njobs && !rc; i++) {
		char where[600], w[512];
		if (c->from)
			snprintf(where, sizeof(where),
				 "%s: ", job_where(c, path, jf->jobs[i].line, w, sizeof(w)));
		else
			snprintf(where, sizeof(where), "%s, job '%s': ", path, jf->jobs[i].name);
		c->job = jf->jobs[i].opts;
		if (co && cli_apply_job_opts(argc, argv, co, &c->job) < 0)
			rc = SB_EXIT_USAGE;
		else
			rc = job_ready(c, where, &ops[i]);
		opts[i] = c->job;
	}
	struct sb_jobfile_group groups[SB_JOBFILE_MAX_JOBS];
	const unsigned ngroups = sb_jobfile_groups(jf, groups);
	if (!rc)
		rc = groups_ok(c, jf, groups, ngroups, path);
	if (!rc)
		rc = verify_jobs_ok(jf, opts, groups, ngroups, path);
	if (!rc)
		rc = sizes_ok(c, jf, opts, tgt, path);
	/* many ranks: every one accepted the whole file, or none goes on */
	rc = cli_ranks_agree(rc, NULL);
	for (unsigned i = 0; i < jf->nnotes && !rc && !c->notes_said && !cli_rank(); i++)
		fprintf(stderr, "note: %s: %s\n", path, jf->notes[i]);
	struct sb_results *res = NULL;
	if (!rc && (!(res = sb_results_create("run")) ||
		    sb_results_set_fio_global(res, &jf->global_raw) < 0)) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
	}
	if (!rc)
		cli_signals_install();
	/* refused before anything was done: no results */
	if (!rc && (rc = jobs_state(c, opts, ops, jf->njobs, tgt, res)) && !res->have_state) {
		sb_results_free(res);
		res = NULL;
	}
	/* many ranks: a directory of its own for all the groups */
	cli_target_hold_rank_dir(cli_ranks() > 1, 0);
	/* many ranks: each group starts on all together, or on none */
	for (unsigned k = 0; k < ngroups && !rc && !cli_ranks_worst(cli_interrupted()); k++) {
		const unsigned g = groups[k].first, e = g + groups[k].n;
		int m;
		c->group = k + 1;
		c->ngroups = ngroups;
		groups_after(c, opts, groups, ngroups, k);
		const size_t before = res->njobs;
		if (e - g == 1) {
			c->job = opts[g];
			m = run_alone(c, ops[g], tgt, res, g == 0, path);
		} else {
			m = run_group(c, jf, g, e, opts, ops, tgt, res, path);
		}
		/* each result its job's options as written (fio's "job options") */
		for (size_t i = before; i < res->njobs; i++)
			if (sb_job_result_set_fio_opts(res->jobs[i],
						       &jf->jobs[g + (i - before) % (e - g)].raw) <
			    0) {
				sb_err("out of memory");
				m = SB_EXIT_ENV;
			}
		if (m == SB_EXIT_FAIL)
			c->failed = 1; /* the next jobs still run */
		else if (m)
			rc = m;
	}
	cli_target_hold_rank_dir(0, rc && rc != SB_EXIT_FAIL ? 0 : c->sh.keep);
	if (res && !rc && c->failed)
		rc = SB_EXIT_FAIL;
	/* refused: no empty results (stopped in a layout, by a Ctrl-C on one
	 * rank: the results say so) */
	if (res && rc && !res->njobs && !res->have_state &&
	    (cli_ranks() > 1 || !cli_interrupted())) {
		sb_results_free(res);
		res = NULL;
	}
	if (res && cli_interrupted())
		res->interrupted = 1; /* stopped before (or between) its jobs too */
	free(opts);
	free(ops);
	*out = res;
	return rc;
}

static int run_jobfile(struct run_ctx *c, int argc, char **argv, const struct cli_cmd_opts *co,
		       const char *path, const char *target)
{
	struct sb_jobfile *jf = NULL;
	if (c->verify)
		sb_err("--verify: not with a job file (run each workload with --verify, or give "
		       "a job verify=)");
	else if (c->name_given)
		sb_err("--name: not with a job file (its jobs are named after their sections)");
	else
		jf = jobfile_load(path);
	if (!jf) /* many ranks: the others stop where they would have gone on */
		return cli_ranks_agree(SB_EXIT_USAGE, NULL);
	struct sb_results *res;
	int rc = jobs_execute(c, jf, argc, argv, co, path, target, &res);
	if (res) {
		rc = finish(c, res, NULL, rc);
		sb_results_free(res);
	}
	if (c->rv)
		sb_job_verify_free(c->rv);
	free(c->rv);
	free(c->verify_text);
	sb_jobfile_free(jf);
	return rc;
}

int cli_run_jobs(struct cli_run_jobs *a, const struct sb_jobfile *jf, struct sb_results **out)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	if (!c) {
		*out = NULL;
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	c->repeat = 1;
	c->start_ns = sb_now_ns();
	c->sh = a->sh;
	c->from = a;
	c->notes_said = 1;
	int rc = jobs_execute(c, jf, 0, NULL, NULL, a->source, a->target, out);
	/* a verifying job: what run prints after the job, on stderr here so
	 * that stdout keeps fio's layout; its figures stay with the results */
	if (c->verify_text && !cli_rank())
		fputs(c->verify_text, stderr);
	free(c->verify_text);
	a->verify = c->rv;
	free(c);
	return rc;
}

void cli_run_jobs_free(struct cli_run_jobs *a)
{
	if (a->verify)
		sb_job_verify_free(a->verify);
	free(a->verify);
	a->verify = NULL;
}

int cmd_run(const struct cli_command *cmd, int argc, char **argv)
{
	struct run_ctx c;
	char *pos[2];
	int npos;

	memset(&c, 0, sizeof(c));
	sb_job_opts_default(&c.job);
	c.repeat = 1;
	c.start_ns = sb_now_ns();
	c.job.seed = 0;
	struct cli_cmd_opts co = { run_opts, run_set, 1, &c.job, &c, cmd, &c.sh };
	int p = cli_parse(argc, argv, &co, pos, 2, &npos);
	if (p == 1) {
		help(&co);
		return SB_EXIT_OK;
	}
	if (p < 0)
		return SB_EXIT_USAGE;
	if (c.list_fio) {
		if (npos) {
			sb_err("--list-fio-options: takes no TARGET or job file");
			return SB_EXIT_USAGE;
		}
		return list_fio();
	}
	c.json_plus = cli_format_is(cmd, &c.sh, "json+");
	c.json_stdout = c.json_plus || cli_format_is(cmd, &c.sh, "json");
	if (npos >= 1 && is_jobfile(pos[0]))
		return run_jobfile(&c, argc, argv, &co, pos[0], npos == 2 ? pos[1] : NULL);
	if (npos != 1) {
		sb_err("run needs one TARGET: a file, a directory or a block device, after a job "
		       "file (JOB.fio) if there is one (see --help)");
		return SB_EXIT_USAGE;
	}
	return run_single(&c, pos[0]);
}
