/*
 * One measurement: run the job on the prepared target with a live progress
 * line (cli/progress.c: the rate over the last second from the counters
 * the workers publish 40 times a second, percent and ETA; on a terminal at
 * most 4 updates a second, redrawn in place; otherwise a plain line every
 * 10 s; nothing when quiet), and the device's counters sampled around it.
 */
#include "cli/cli.h"

#include <sys/statvfs.h>
#include <unistd.h>

/* How often the counters are looked at: the rate window's steps. */
#define LOOK_NS 50000000l

/* One job of the group: its counters, their recent past, its figures. */
struct watched {
	struct sb_progress p;
	struct sb_rate rate;
	double bps, iops, eta_ns; /* eta_ns < 0: unknown */
	const char *name;
	char part[64], pct[8];
};

/* Until the job ends: by time, or by its bytes at the recent rate; the
 * sooner where it has both. */
static double job_eta(const struct sb_progress *p, double bps)
{
	if (p->done)
		return 0;
	double eta = -1;
	if (p->total_ns)
		eta = p->elapsed_ns < p->total_ns ? (double)(p->total_ns - p->elapsed_ns) : 0;
	if (p->total_bytes && bps > 0) {
		uint64_t moved = 0;
		for (int d = 0; d < SB_DDIR_N; d++)
			moved += p->bytes[d];
		const double b = moved < p->total_bytes
					 ? (double)(p->total_bytes - moved) / bps * 1e9
					 : 0;
		eta = eta < 0 || b < eta ? b : eta;
	}
	return eta;
}

static void look(struct watched *w, uint64_t now)
{
	uint64_t b = 0, n = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		b += w->p.bytes[d];
		n += w->p.ios[d];
	}
	sb_rate_add(&w->rate, now, b, n);
	if (sb_rate_get(&w->rate, now, b, n, &w->bps, &w->iops) < 0)
		w->bps = w->iops = -1;
	w->eta_ns = job_eta(&w->p, w->bps);
}

/* The figures of every job together: the slowest sets the percent and the
 * ETA (finished ones count as done), the rates add up. */
static void total_of(const struct watched *ws, unsigned n, struct cli_line *l)
{
	double pct = 100, bps = 0, iops = 0, eta = 0;
	int ramp = 0, rated = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct watched *w = &ws[i];
		const double f = w->p.done ? 100 : w->p.fraction * 100;
		pct = SB_MIN(pct, f);
		if (!w->p.done && w->bps >= 0) { /* the rate now: of the jobs still running */
			bps += w->bps;
			iops += w->iops;
			rated = 1;
		}
		eta = eta < 0 || w->eta_ns < 0 ? -1 : SB_MAX(eta, w->eta_ns);
		ramp |= w->p.ramping && !w->p.done;
		l->elapsed_ns = SB_MAX(l->elapsed_ns, w->p.elapsed_ns);
	}
	l->pct = pct;
	l->bps = rated ? bps : -1; /* none yet: none shown, rather than 0 */
	l->ops = rated ? iops : -1;
	l->eta_ns = eta;
	l->state = ramp ? "ramp" : NULL;
}

enum {
	S_BYTES,   /* moved so far, every job */
	S_IOS,	   /* requests so far */
	S_PPM,	   /* this rank's fraction done (its slowest job's), in millionths */
	S_TOTAL,   /* bytes to move, of the jobs bound by bytes */
	S_UNBOUND, /* jobs bound by time only (no bytes to tell the total) */
	S_JOB,	   /* then of job i: its bytes at S_JOB + 2i, 1 when done at + 1 */
};
_Static_assert(S_JOB + 2 * CLI_LINE_PARTS <= SB_COORD_SUMS, "a round sums too little");

struct ranks_watch {
	int in_round, stopped;
	uint64_t round_ns;   /* when the round in flight began (sb_now_ns) */
	struct sb_rate all;  /* rank 0: every rank's counters summed */
	int have_all;
	uint64_t sum[SB_COORD_SUMS];	      /* rank 0: the newest sums */
	struct sb_rate job[CLI_LINE_PARTS];   /* rank 0: each job's bytes, every rank's */
	int alone; /* this rank's measurement alone (cli_measure.alone) */
};

/* The newest rate of r (rate), -1 none yet. */
static double newest_rate(const struct sb_rate *r, double *ops)
{
	const unsigned h = (r->head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
	double bps, o;
	if (!r->n || sb_rate_get(r, r->t[h], r->bytes[h], r->ops[h], &bps, &o) < 0)
		bps = o = -1;
	if (ops)
		*ops = o;
	return bps;
}

/* Every rank's work together, from the newest sums rank 0 got: the line's
 * percent (the ranks' average), bytes done of all to do (when every job
 * is bound by bytes), rate, ETA (what is left at the pace so far) and each
 * job's part (its rate, "done" once done on every rank); the label says
 * so ("4 ranks"). elapsed_ns: of this measurement. */
static void ranks_line(const struct ranks_watch *rw, struct watched *ws, unsigned n,
		       uint64_t elapsed_ns, struct cli_line *l, char *label, size_t len)
{
	const double nr = cli_ranks(), f = (double)rw->sum[S_PPM] / 1e6 / nr;
	l->bps = newest_rate(&rw->all, &l->ops);
	l->pct = f * 100;
	if (!rw->sum[S_UNBOUND] && rw->sum[S_TOTAL]) {
		l->done = rw->sum[S_BYTES];
		l->total = rw->sum[S_TOTAL];
	}
	l->eta_ns = f >= 1 ? 0 : f > 0 ? (double)elapsed_ns * (1 - f) / f : -1;
	for (unsigned i = 0; i < l->nparts; i++) {
		struct watched *w = &ws[i];
		char r[32];
		w->pct[0] = '\0'; /* a job's own percent would be this rank's */
		if (rw->sum[S_JOB + 2 * i + 1] == (uint64_t)nr)
			snprintf(w->part, sizeof(w->part), "%.10s done", w->name);
		else
			snprintf(w->part, sizeof(w->part), "%.10s %s", w->name,
				 sb_fmt_rate(SB_MAX(newest_rate(&rw->job[i], NULL), 0), r,
					     sizeof(r)));
	}
	snprintf(label, len, "%s, %d ranks", l->label, cli_ranks());
	l->label = label;
}

static void draw(struct cli_progress *pg, struct watched *ws, unsigned n,
		 const struct cli_measure *m, uint64_t now, const struct ranks_watch *rw)
{
	const char *parts[CLI_LINE_PARTS], *more[CLI_LINE_PARTS];
	char label[32], rlabel[sizeof(((struct sb_job_result *)0)->name) + 32];
	struct cli_line l = { .label = m->label };
	total_of(ws, n, &l);
	const uint64_t this_ns = l.elapsed_ns;
	if (n > 1) {
		/* a job's percent where it can differ: jobs bound by bytes, or
		 * by times of their own */
		int same = 1;
		for (unsigned i = 0; i < n; i++)
			same &= !ws[i].p.total_bytes && ws[i].p.total_ns == ws[0].p.total_ns;
		snprintf(label, sizeof(label), "%u jobs", n);
		l.label = label;
		for (unsigned i = 0; i < n && i < CLI_LINE_PARTS; i++) {
			char r[32];
			struct watched *w = &ws[i];
			w->pct[0] = '\0';
			if (w->p.done) {
				snprintf(w->part, sizeof(w->part), "%.10s done", w->name);
			} else {
				snprintf(w->part, sizeof(w->part), "%.10s %s", w->name,
					 sb_fmt_rate(SB_MAX(w->bps, 0), r, sizeof(r)));
				if (!same)
					snprintf(w->pct, sizeof(w->pct), "%.0f%%",
						 w->p.fraction * 100);
			}
			parts[i] = w->part;
			more[i] = w->pct;
		}
		l.parts = parts;
		l.part_more = more;
		l.nparts = SB_MIN(n, (unsigned)CLI_LINE_PARTS);
	}
	if (rw)
		ranks_line(rw, ws, n, now - pg->start_ns, &l, rlabel, sizeof(rlabel));
	if (m->step) { /* "quick test 3 of 16, NAME" */
		l.what = l.label;
		l.label = m->command;
		l.step_word = m->step_word;
		l.step = m->step;
		l.nsteps = m->nsteps;
	}
	if (m->start_ns && now > m->start_ns)
		l.elapsed_ns = now - m->start_ns;
	/* what comes after this measurement: as long again, each */
	if (l.eta_ns >= 0 && (m->later || m->later_ns))
		l.eta_ns += (double)m->later * ((double)this_ns + l.eta_ns) + (double)m->later_ns;
	cli_progress_draw(pg, &l, now);
}

/* Many ranks: this one's runs are done, but the measurement ends when
 * every rank's is (a round of cli_ranks each look); with --stonewall, the
 * first rank to finish stops the others' runs. Each round also sums the
 * ranks' counters to rank 0 (as they were when the round began), whose
 * line shows every rank's work together: the rate, the percent (the
 * ranks' average), the bytes done of all to do, each job's rate and
 * whether it is done on every rank. Alone: done. */
static void counters(const struct watched *ws, unsigned n, int done, uint64_t *v)
{
	double frac = 1;
	memset(v, 0, SB_COORD_SUMS * sizeof(*v));
	for (unsigned i = 0; ws && i < n; i++) {
		const struct sb_progress *p = &ws[i].p;
		uint64_t b = 0;
		for (int d = 0; d < SB_DDIR_N; d++) {
			b += p->bytes[d];
			v[S_IOS] += p->ios[d];
		}
		v[S_BYTES] += b;
		frac = SB_MIN(frac, p->done ? 1.0 : p->fraction);
		if (p->total_bytes)
			v[S_TOTAL] += p->total_bytes;
		else
			v[S_UNBOUND]++;
		if (i < CLI_LINE_PARTS) {
			v[S_JOB + 2 * i] = b;
			v[S_JOB + 2 * i + 1] = !!p->done;
		}
	}
	v[S_PPM] = (uint64_t)(SB_MAX(frac, 0.0) * 1e6 + 0.5);
	if (done)
		v[S_PPM] = 1000000;
}

static int ranks_done(struct ranks_watch *rw, struct sb_run *const *runs, const struct watched *ws,
		      unsigned n, int done, uint64_t now)
{
	int any, all;
	uint64_t v[SB_COORD_SUMS];
	if (cli_ranks() < 2 || rw->alone)
		return done;
	if (!rw->in_round) {
		counters(ws, n, done, v);
		cli_ranks_round_start_v(done, v);
		rw->in_round = 1;
		rw->round_ns = now;
	}
	if (cli_ranks_round_test_v(&any, &all, v) != 1)
		return 0;
	rw->in_round = 0;
	if (cli_rank() == 0 && ws) {
		sb_rate_add(&rw->all, rw->round_ns, v[S_BYTES], v[S_IOS]);
		for (unsigned i = 0; i < n && i < CLI_LINE_PARTS; i++)
			sb_rate_add(&rw->job[i], rw->round_ns, v[S_JOB + 2 * i], 0);
		memcpy(rw->sum, v, sizeof(rw->sum));
		rw->have_all = 1;
	}
	if (any && cli_ranks_stonewall() && !rw->stopped && !done) {
		for (unsigned i = 0; i < n; i++)
			sb_run_stop(runs[i]);
		rw->stopped = 1;
	}
	return all;
}

/* Returns 1 when another rank's end stopped this one's (--stonewall). */
static int watch(struct sb_run *const *runs, unsigned n, const struct cli_measure *m,
		 const struct cli_measure_job *js)
{
	struct cli_progress pg;
	struct ranks_watch rw = { .alone = m->alone };
	struct watched *ws = calloc(n, sizeof(*ws));
	/* many ranks: rank 0's line alone, of the rate of all */
	cli_progress_init(&pg, m->quiet || !ws || cli_rank() != 0);
	sb_rate_reset(&rw.all);
	for (unsigned i = 0; i < CLI_LINE_PARTS; i++)
		sb_rate_reset(&rw.job[i]);
	for (;;) {
		const struct timespec ts = { 0, LOOK_NS };
		int done = 1;
		nanosleep(&ts, NULL);
		const uint64_t now = sb_now_ns();
		for (unsigned i = 0; i < n; i++) {
			struct sb_progress p;
			done &= sb_run_progress(runs[i], ws ? &ws[i].p : &p);
			if (ws) {
				ws[i].name = js[i].res->name;
				look(&ws[i], now);
			}
		}
		if (ranks_done(&rw, runs, ws, n, done, now))
			break;
		if (cli_progress_due(&pg, now))
			draw(&pg, ws, n, m, now, rw.have_all ? &rw : NULL);
	}
	cli_progress_clear(&pg);
	free(ws);
	return rw.stopped;
}

/* The first failed request, with where and why; a full filesystem gets
 * how much was written and how much space is left. */
static void report_errors(const struct sb_jobtarget *t, const struct sb_job_result *res, int w)
{
	const struct sb_io_error *fe = &res->first_error;
	char a[32], b[32];
	if (fe->err == ENOSPC) {
		struct statvfs vfs;
		uint64_t avail = 0;
		if (t->npaths && statvfs(t->paths[0], &vfs) == 0)
			avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		sb_err("no space left on the device after writing %s; the filesystem has %s free",
		       sb_fmt_size(res->dir[SB_DDIR_WRITE].bytes, a, sizeof(a)),
		       sb_fmt_size(avail, b, sizeof(b)));
	} else if (fe->err) {
		sb_err("%s error at offset %llu (%s), length %u: %s", sb_ddir_name(fe->ddir),
		       (unsigned long long)fe->offset, sb_fmt_size(fe->offset, a, sizeof(a)),
		       fe->len, strerror(fe->err));
	} else if (w < 0) {
		sb_err("%s failed: %s", res->name, strerror(-w));
	}
	if (res->errors > 1)
		sb_err("%llu requests failed in all", (unsigned long long)res->errors);
}

static void params_of(struct sb_run_params *p, const struct cli_measure *m,
		      const struct cli_measure_job *j)
{
	memset(p, 0, sizeof(*p));
	p->job = *j->job;
	p->engine = j->ops;
	p->paths = (const char *const *)j->t->paths;
	p->npaths = j->t->npaths;
	p->held = j->t->fd;
	p->is_blockdev = j->t->is_blockdev;
	p->region_offset = j->t->region_offset;
	p->region_size = j->t->region_size;
	p->align = j->t->align;
	p->verify = m->verify;
	p->nrfiles = j->t->nrfiles;
	p->file_sizes = j->t->fsize;
}

static int measure_group(const struct cli_measure *m, const struct cli_measure_job *js, unsigned n)
{
	struct sb_run *runs[CLI_GROUP_MAX] = { NULL };
	int have_ds[CLI_GROUP_MAX] = { 0 };
	int w[CLI_GROUP_MAX] = { 0 };
	const char *step = NULL;
	int e = 0;

	if (!n || n > CLI_GROUP_MAX)
		return -EINVAL;
	/* every run is set up (files opened, buffers made) before any starts */
	for (unsigned i = 0; i < n && !e; i++) {
		struct sb_run_params p;
		params_of(&p, m, &js[i]);
		e = sb_run_create(&runs[i], &p, &step);
		if (e < 0)
			sb_err("cannot start %s (%s): %s", n > 1 ? js[i].res->name : m->label,
			       step ? step : "setup", strerror(-e));
	}
	/* many ranks: all set up, or none starts; then they start together */
	if (!m->alone && cli_ranks_agree(e < 0 ? SB_EXIT_ENV : 0, NULL) && !e)
		e = -ECANCELED; /* another rank failed, and said so */
	if (e < 0) {
		for (unsigned i = 0; i < n; i++)
			sb_run_free(runs[i]);
		return e;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct sb_jobtarget *t = js[i].t;
		have_ds[i] = t->info.devname[0] &&
			     sb_diskstat_read(t->info.devname, &js[i].res->ds_before) == 0;
	}
	uint64_t t0 = sb_now_ns();
	const double t_start = cli_ranks_time();
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	cli_signals_set_runs(runs, n);
	unsigned started = 0;
	for (; started < n && !e; started++) {
		e = sb_run_start(runs[started]);
		js[started].res->start_unix_ns = (uint64_t)wall.tv_sec * 1000000000ull +
						 (uint64_t)wall.tv_nsec;
	}
	int walled = 0;
	if (e == 0)
		walled = watch(runs, n, m, js);
	else
		for (unsigned i = 0; i < started; i++)
			sb_run_stop(runs[i]);
	for (unsigned i = 0; i < n; i++)
		w[i] = sb_run_wait(runs[i], js[i].res);
	cli_signals_set_runs(NULL, 0);
	for (unsigned i = 0; i < n; i++) {
		struct sb_job_result *res = js[i].res;
		/* the measured phase, the ramp after the start left out */
		res->rank_start_s = t_start + (double)js[i].job->ramp_ns / 1e9;
		res->rank_end_s = res->rank_start_s + (double)res->runtime_ns / 1e9;
		if (walled && !cli_interrupted()) { /* stopped by design, not by a person */
			res->interrupted = 0;
			res->stonewalled = 1;
		}
		if (have_ds[i] && sb_diskstat_read(js[i].t->info.devname, &res->ds_after) == 0) {
			res->have_diskstat = 1;
			res->ds_elapsed_ns = sb_now_ns() - t0;
		}
		sb_run_free(runs[i]);
	}
	if (e < 0) {
		sb_err("cannot start the workers: %s", strerror(-e));
		return e;
	}
	int first = 0;
	for (unsigned i = 0; i < n; i++) {
		if (w[i] < 0 || js[i].res->errors) {
			report_errors(js[i].t, js[i].res, w[i]);
			if (!first)
				first = w[i];
		}
	}
	return first;
}

/* Many ranks: when one failed, every rank returns a failure, so that a
 * command with many measurements (quick, soak) stops on all ranks at the
 * same step rather than leave the others waiting at the next. */
int cli_measure_group(const struct cli_measure *m, const struct cli_measure_job *js, unsigned n)
{
	int e = measure_group(m, js, n);
	if (!m->alone && cli_ranks_worst(e < 0) && !e)
		e = -ECANCELED; /* another rank failed, and said so */
	return e;
}

int cli_measure(const struct cli_measure *m, const struct sb_job_opts *job,
		const struct sb_engine_ops *ops, struct sb_jobtarget *t, struct sb_job_result *res)
{
	const struct cli_measure_job j = { job, ops, t, res };
	return cli_measure_group(m, &j, 1);
}

int cli_measure_one(const struct cli_measure *m, const struct sb_job_opts *job,
		    struct sb_jobtarget *t, void (*take)(const struct sb_job_result *jr, void *ctx),
		    void *ctx, uint64_t *errors)
{
	int fell_back;
	struct sb_job_opts j = *job;
	*errors = 0;
	const struct sb_engine_ops *ops = cli_engine_choose(&j, &fell_back);
	if (!ops)
		return SB_EXIT_USAGE;
	snprintf(j.engine, sizeof(j.engine), "%s", ops->name);
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	struct cli_measure mm = *m;
	mm.label = j.name;
	const int e = cli_measure(&mm, &j, ops, t, jr);
	take(jr, ctx);
	*errors = jr->errors;
	sb_job_result_free(jr);
	return e < 0 ? SB_EXIT_FAIL : 0;
}
