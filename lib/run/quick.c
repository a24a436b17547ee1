/*
 * storbench quick (quick.h): CrystalDiskMark's matrix measured properly:
 * direct I/O, random data, a discarded warm-up, then repeats summarized
 * as median and min..max.
 */
#include "lib/run/quick.h"
#include "lib/run/jobs_run.h"

#include "lib/analysis/repeats.h"
#include "lib/target/target.h"

const struct sb_quick_test sb_quick_default[SB_QUICK_TESTS] = {
	{ "SEQ1M Q8T1", 0, 1u << 20, 8, 1 },
	{ "SEQ1M Q1T1", 0, 1u << 20, 1, 1 },
	{ "RND4K Q32T1", 1, 4096, 32, 1 },
	{ "RND4K Q1T1", 1, 4096, 1, 1 },
};

const struct sb_quick_test sb_quick_nvme[SB_QUICK_TESTS] = {
	{ "SEQ1M Q8T1", 0, 1u << 20, 8, 1 },
	{ "SEQ128K Q32T1", 0, 128u << 10, 32, 1 },
	{ "RND4K Q32T16", 1, 4096, 32, 16 },
	{ "RND4K Q1T1", 1, 4096, 1, 1 },
};

/* A quick in progress: the run's steps (jobs_run.h) and its own. */
struct quick {
	struct run r;
	struct sb_run_jobs_opts jo; /* what the run's steps read of a target */
	const struct sb_quick_opts *o;
	struct sb_quick_result *out;
	unsigned at, total; /* the test now running, of how many in all */
};

static void job_for(struct sb_job_opts *j, const struct sb_quick_opts *o,
		    const struct sb_quick_test *t, int ddir, uint64_t seed)
{
	sb_job_opts_default(j);
	snprintf(j->name, sizeof(j->name), "%s %s", t->name, sb_ddir_name(ddir));
	j->rw = t->random ? (ddir == SB_DDIR_READ ? SB_RW_RANDREAD : SB_RW_RANDWRITE)
			  : (ddir == SB_DDIR_READ ? SB_RW_READ : SB_RW_WRITE);
	j->bs = t->bs;
	j->iodepth = t->qd;
	j->numjobs = t->threads;
	j->runtime_ns = o->runtime_ns;
	j->time_based = 1;
	j->direct = 1;
	j->seed = seed;
	j->size = o->size;
	snprintf(j->engine, sizeof(j->engine), "%s", o->engine ? o->engine : "");
}

/* A pause between tests, cut short by a stop. */
static void idle(const struct sb_run_hooks *h, uint64_t ns)
{
	while (ns && !sb_run_hook_stop(h)) {
		const uint64_t step = SB_MIN(ns, 100000000ull);
		const struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* The warm-up (measured, left out) or run `run` of one test. */
static int one_run(struct quick *q, const struct sb_job_opts *job, const struct sb_engine_ops *ops,
		   struct sb_jobtarget *t, unsigned run, struct sb_job_result *jr)
{
	const struct sb_quick_opts *o = q->o;
	const unsigned left = q->total - q->at;
	if (run == 0)
		snprintf(jr->name, sizeof(jr->name), "%s (warm-up)", job->name);
	else
		snprintf(jr->name, sizeof(jr->name), "%s (run %u of %u)", job->name, run,
			 o->repeat);
	const struct sb_run_event ev = { .phase = SB_RUN_PHASE_TESTS,
					 .step = q->at,
					 .nsteps = q->total,
					 .njobs = 1,
					 .run = run + 1,
					 .nruns = o->repeat + 1,
					 .label = jr->name,
					 .later = left * (o->repeat + 1) + (o->repeat - run),
					 .later_ns = left * o->idle_ns };
	const struct sb_run_group_opts go = { .label = jr->name,
					      .stonewall = o->stonewall,
					      .ev = &ev };
	const struct sb_run_group_job one = { job, ops, t, jr, NULL, NULL, NULL };
	return sb_run_group(&go, &one, 1, q->r.h, q->r.c);
}

/* Warm-up plus repeats of one test in one direction; results appended. */
static int one_test(struct quick *q, const struct sb_quick_test *qt, int ddir,
		    struct sb_jobtarget *t, uint64_t seed)
{
	struct sb_results *res = q->r.res;
	struct sb_job_opts job;
	struct sb_engine_pick pk;
	job_for(&job, q->o, qt, ddir, seed);
	job.size = t->region_size;
	if (t->direct_fallback)
		job.direct = 0; /* tmpfs and the like: said when the target was prepared */
	if (sb_engine_choose(job.engine, job.iodepth, &pk, q->r.err) < 0)
		return sb_run_status_of(&q->r, q->r.err->err);
	if (pk.fell_back && q->r.h && q->r.h->fell_back)
		q->r.h->fell_back(q->r.h->ctx, &pk);
	snprintf(job.engine, sizeof(job.engine), "%s", pk.ops->name);
	const size_t first = res->njobs;
	/* a run that moved no data (its thread started after its time was
	 * up: a machine too loaded) is no measurement: left out, run again
	 * (at most repeat times a test; many ranks run in rounds: left out) */
	unsigned discarded = 0;
	for (unsigned run = 0; run <= q->o->repeat && !sb_run_hook_stop(q->r.h); run++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr)
			return sb_run_fail(&q->r, SB_RUN_ENV, "out of memory");
		job.seed = seed + run + discarded;
		const int e = one_run(q, &job, pk.ops, t, run, jr);
		const int nothing = e >= 0 && run && !jr->interrupted && !jr->dir[ddir].ios &&
				    !sb_run_hook_stop(q->r.h);
		if (run == 0 || e < 0 || nothing) {
			sb_job_result_free(jr);
			if (e < 0)
				return SB_RUN_FAILED;
			if (nothing && discarded++ < q->o->repeat && sb_run_ranks(q->r.c) < 2)
				run--; /* again */
			continue;
		}
		if (jr->interrupted)
			res->interrupted = 1;
		if (sb_results_add_job(res, jr) < 0) {
			sb_job_result_free(jr);
			return sb_run_fail(&q->r, SB_RUN_ENV, "%s", "");
		}
		sb_results_sanity(res, jr);
	}
	const unsigned n = (unsigned)(res->njobs - first);
	const size_t rows = res->nsummary;
	if (sb_run_ranks(q->r.c) > 1 && q->out->nspans < SB_ARRAY_SIZE(q->out->spans))
		q->out->spans[q->out->nspans++] = (struct sb_quick_span){ first, n, qt->name };
	else
		sb_repeats_summarize(res, first, n, qt->name);
	if (discarded) {
		for (size_t i = rows; i < res->nsummary; i++)
			res->summary[i].ndiscarded = discarded;
		sb_results_warn(res,
				"%s %s: %u run%s moved no data (the machine too busy to start it "
				"in its time) and %s left out of the median",
				qt->name, sb_ddir_name(ddir), discarded, discarded > 1 ? "s" : "",
				discarded > 1 ? "were" : "was");
	}
	return 0;
}

/* The write tests left out: said in the results (JSON, the text, with
 * --quiet too), never dropped without a word; under mpirun each rank says
 * it of its own target at once. */
static void no_writes(struct quick *q, enum sb_target_kind kind, int consent)
{
	const char *path = q->o->target;
	char why[600];
	if (!consent && kind == SB_TARGET_BLOCK)
		snprintf(why, sizeof(why),
			 "'%s' is a device: read tests only (the write tests need --destroy-data, "
			 "and overwrite it)",
			 path);
	else if (!consent)
		snprintf(why, sizeof(why),
			 "'%s' is a file storbench did not create: read tests only (the write "
			 "tests need --destroy-data, and overwrite it, or a new file or a "
			 "directory to make one in)",
			 path);
	else
		snprintf(why, sizeof(why),
			 "read tests only: the target of another rank needs "
			 "--destroy-data for the write tests");
	sb_results_warn(q->r.res, "%s", why);
	if (sb_run_ranks(q->r.c) > 1 && !consent)
		sb_run_say(q->r.h, SB_SAY_WARNING, "%s", why);
}

/* May the tests write the probed target? A device or a file storbench did
 * not create only with destroy_data; under mpirun every rank writes, or
 * none. */
static int may_write(struct quick *q, const struct sb_jobtarget *t)
{
	const struct sb_quick_opts *o = q->o;
	const enum sb_target_kind k = t->info.kind;
	const int consent = o->destroy_data || k == SB_TARGET_NONE || k == SB_TARGET_DIR ||
			    (k == SB_TARGET_FILE && sb_file_is_ours(o->target) == 1);
	int writes = !o->read_only && consent;
	/* many ranks: the write tests on every rank or on none */
	if (!o->read_only && sb_run_worst(q->r.h, q->r.c, !writes) > 0)
		writes = 0;
	if (!writes && !o->read_only) { /* counted with its write tests */
		q->total -= SB_QUICK_TESTS;
		no_writes(q, k, consent);
	}
	return writes;
}

/* The file is laid out once, with random data, for every test: at
 * o->size, or an existing file or device smaller than the default whole. */
static void layout_job(const struct quick *q, const struct sb_jobtarget *t, int writes,
		       struct sb_job_opts *probe)
{
	const struct sb_quick_opts *o = q->o;
	sb_job_opts_default(probe);
	probe->rw = writes ? SB_RW_RW : SB_RW_READ;
	probe->size = o->size;
	probe->bs = 1u << 20;
	probe->seed = sb_now_ns();
	if (t->info.kind != SB_TARGET_NONE && t->info.kind != SB_TARGET_DIR && !o->size_set) {
		const uint64_t have = t->info.kind == SB_TARGET_BLOCK ? t->info.capacity
								      : t->info.file_size;
		if (have && have < probe->size)
			probe->size = have / (1u << 20) * (1u << 20);
	}
}

static int tests(struct quick *q, struct sb_jobtarget *t, int writes, uint64_t seed)
{
	int st = 0;
	for (int i = 0; !st && i < SB_QUICK_TESTS && !sb_run_hook_stop(q->r.h); i++) {
		for (int d = SB_DDIR_READ; !st && d <= (writes ? SB_DDIR_WRITE : SB_DDIR_READ);
		     d++) {
			if ((i || d) && q->o->idle_ns)
				idle(q->r.h, q->o->idle_ns);
			q->at++;
			st = one_test(q, &q->o->tests[i], d, t, seed + (uint64_t)i * 100);
		}
	}
	return st;
}

static int target(struct quick *q)
{
	const struct sb_quick_opts *o = q->o;
	struct sb_jobtarget t;
	struct sb_job_opts probe;
	memset(&t, 0, sizeof(t));
	int st = sb_run_status_of(&q->r, sb_jobtarget_probe(&t, o->target, q->r.err));
	if (st)
		return st;
	const int writes = may_write(q, &t);
	q->out->writes = writes;
	layout_job(q, &t, writes, &probe);
	st = sb_run_status_of(&q->r, sb_run_state_check(&o->state, o->destroy_data, &t, o->target,
							q->r.err));
	if (!st)
		st = sb_run_prepare(&q->r, &t, &probe, 1, 0);
	sb_run_describe(&q->r, &t);
	if (!st)
		st = sb_run_status_of(&q->r, sb_run_state_apply(&o->state, &t, o->target, q->r.res,
								q->r.h, q->r.c, q->r.err));
	if (!st)
		st = tests(q, &t, writes, probe.seed);
	sb_run_cleanup(&q->r, &t, o->keep);
	return st;
}

/* Many ranks: every rank's results to rank 0, each test's runs
 * summarized once they are gathered. The status, every rank's worst. */
static int gather(struct quick *q, int st)
{
	struct sb_error er;
	long worst = st;
	const int e = sb_run_collect(q->r.c, q->r.res, q->o->stonewall, &worst, &er);
	q->out->write = e == 0;
	if (e == -EPROTO) {
		if (er.msg[0])
			sb_run_say(q->r.h, SB_SAY_ERROR, "%s", er.msg);
		return st ? st : SB_RUN_FAILED;
	}
	if (e < 0) {
		sb_run_lost(q->r.h, er.msg, e);
		return SB_RUN_ENV;
	}
	for (unsigned i = 0; e == 0 && i < q->out->nspans; i++)
		sb_repeats_summarize(q->r.res, q->out->spans[i].first, q->out->spans[i].n,
				     q->out->spans[i].test);
	return (int)worst;
}

int sb_quick_run(const struct sb_quick_opts *o, const struct sb_run_hooks *h, struct sb_coord *c,
		 struct sb_quick_result *out, struct sb_error *err)
{
	struct quick q = { .o = o, .out = out };
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (!o->target || !o->tests || !o->repeat)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "nothing to run");
	q.jo = (struct sb_run_jobs_opts){ .target = o->target,
					  .destroy_data = o->destroy_data,
					  .keep = o->keep,
					  .stonewall = o->stonewall };
	q.r = (struct run){ .o = &q.jo, .tgt = o->target, .h = h, .c = c, .err = err };
	q.at = o->tests_before;
	q.total = o->tests_before + SB_QUICK_TESTS * (o->read_only ? 1 : 2) + o->tests_after;
	if (!(q.r.res = sb_results_create("quick")))
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	int st = target(&q);
	const int own = st;
	/* stopped before its first test's runs ended: what it has, marked */
	if (sb_run_hook_stop(h))
		q.r.res->interrupted = 1;
	out->res = q.r.res;
	out->write = 1;
	if (sb_run_ranks(c) > 1)
		st = gather(&q, st);
	out->status = (enum sb_run_status)st;
	out->tests_done = q.at;
	out->interrupted = sb_run_hook_stop(h);
	return own > SB_RUN_FAILED ? (err->err < 0 ? err->err : -EIO) : 0;
}

void sb_quick_result_free(struct sb_quick_result *r)
{
	if (!r)
		return;
	sb_results_free(r->res);
	memset(r, 0, sizeof(*r));
}
