/*
 * One measurement: the jobs of a group run together on their prepared
 * targets, looked at every 50 ms (the rate over the last second from the
 * counters the workers publish 40 times a second, percent and ETA, told
 * to the look hook), and the device's counters sampled around them. Under
 * mpirun the ranks set up, agree, start together, and a round every look
 * tells each whether any or all have finished (--stonewall stops all with
 * the first) and sums their counters to rank 0.
 */
#include "lib/run/jobs.h"
#include "lib/run/jobs_int.h"
#include "lib/run/flow.h"
#include "lib/run/ss_watch.h"
#include "lib/stats/live_rate.h"
#include "lib/device/devinfo.h"

#include <sys/statvfs.h>

/* How often the counters are looked at: the rate window's steps. */
#define LOOK_NS 50000000l
/* A round during the measurement answers within a few looks. */
#define ROUND_TIMEOUT_S 60.0

/* One job of the group: its counters, their recent past, its figures. */
struct watched {
	struct sb_run_job_look l;
	struct sb_rate rate;
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

static void look_at(struct watched *w, uint64_t now)
{
	uint64_t b = 0, n = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		b += w->l.p.bytes[d];
		n += w->l.p.ios[d];
	}
	sb_rate_add(&w->rate, now, b, n);
	if (sb_rate_get(&w->rate, now, b, n, &w->l.bps, &w->l.iops) < 0)
		w->l.bps = w->l.iops = -1;
	w->l.eta_ns = job_eta(&w->l.p, w->l.bps);
}

/* The figures of every job together: the slowest sets the percent and the
 * ETA (finished ones count as done), the rates add up. */
static void total_of(const struct watched *ws, unsigned n, struct sb_run_look *l)
{
	double pct = 100, bps = 0, iops = 0, eta = 0;
	int ramp = 0, rated = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct sb_run_job_look *w = &ws[i].l;
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
	l->iops = rated ? iops : -1;
	l->eta_ns = eta;
	l->ramp = ramp;
}

enum {
	S_BYTES,   /* moved so far, every job */
	S_IOS,	   /* requests so far */
	S_PPM,	   /* this rank's fraction done (its slowest job's), in millionths */
	S_TOTAL,   /* bytes to move, of the jobs bound by bytes */
	S_UNBOUND, /* jobs bound by time only (no bytes to tell the total) */
	S_JOB,	   /* then of job i: its bytes at S_JOB + 2i, 1 when done at + 1 */
};
_Static_assert(S_JOB + 2 * SB_RUN_LOOK_JOBS <= SB_COORD_SUMS, "a round sums too little");

struct ranks_watch {
	struct sb_coord *c;
	int in_round, stopped;
	uint64_t round_ns;  /* when the round in flight began (sb_now_ns) */
	struct sb_rate all; /* rank 0: every rank's counters summed */
	int have_all;
	uint64_t sum[SB_COORD_SUMS];	      /* rank 0: the newest sums */
	struct sb_rate job[SB_RUN_LOOK_JOBS]; /* rank 0: each job's bytes, every rank's */
	int alone, stonewall;
	struct sb_run_ranks_look look;
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

/* Every rank's work together, from the newest sums rank 0 got: the
 * percent (the ranks' average), bytes done of all to do (when every job
 * is bound by bytes), rate, ETA (what is left at the pace so far) and each
 * job's rate, and whether it is done on every rank. elapsed_ns: of this
 * measurement. */
static const struct sb_run_ranks_look *ranks_look(struct ranks_watch *rw, unsigned n,
						  uint64_t elapsed_ns)
{
	struct sb_run_ranks_look *k = &rw->look;
	const int nr = sb_coord_size(rw->c);
	const double f = (double)rw->sum[S_PPM] / 1e6 / nr;
	memset(k, 0, sizeof(*k));
	k->nranks = nr;
	k->bps = newest_rate(&rw->all, &k->iops);
	k->fraction = f;
	if (!rw->sum[S_UNBOUND] && rw->sum[S_TOTAL]) {
		k->done = rw->sum[S_BYTES];
		k->total = rw->sum[S_TOTAL];
	}
	k->eta_ns = f >= 1 ? 0 : f > 0 ? (double)elapsed_ns * (1 - f) / f : -1;
	k->njobs = SB_MIN(n, (unsigned)SB_RUN_LOOK_JOBS);
	for (unsigned i = 0; i < k->njobs; i++) {
		k->job_done[i] = rw->sum[S_JOB + 2 * i + 1] == (uint64_t)nr;
		k->job_bps[i] = SB_MAX(newest_rate(&rw->job[i], NULL), 0);
	}
	return k;
}

/* Many ranks: this one's runs are done, but the measurement ends when
 * every rank's is (a round each look); with --stonewall, the first rank
 * to finish stops the others' runs. Each round also sums the ranks'
 * counters to rank 0 (as they were when the round began). Alone: done. */
static void counters(const struct watched *ws, unsigned n, int done, uint64_t *v)
{
	double frac = 1;
	memset(v, 0, SB_COORD_SUMS * sizeof(*v));
	for (unsigned i = 0; ws && i < n; i++) {
		const struct sb_progress *p = &ws[i].l.p;
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
		if (i < SB_RUN_LOOK_JOBS) {
			v[S_JOB + 2 * i] = b;
			v[S_JOB + 2 * i + 1] = !!p->done;
		}
	}
	v[S_PPM] = (uint64_t)(SB_MAX(frac, 0.0) * 1e6 + 0.5);
	if (done)
		v[S_PPM] = 1000000;
}

/* 1 when every rank is done, 0 not yet; -errno when the round failed. */
static int ranks_done(struct ranks_watch *rw, struct sb_run *const *runs, const struct watched *ws,
		      unsigned n, int done, uint64_t now)
{
	int any, all;
	uint64_t v[SB_COORD_SUMS];
	if (sb_coord_size(rw->c) < 2 || rw->alone)
		return done;
	if (!rw->in_round) {
		counters(ws, n, done, v);
		if (sb_coord_poll_start(rw->c, done, v) < 0)
			return -EIO;
		rw->in_round = 1;
		rw->round_ns = now;
	}
	const int e = sb_coord_poll_test(rw->c, &any, &all, v, ROUND_TIMEOUT_S);
	if (e != 1)
		return e;
	rw->in_round = 0;
	if (sb_coord_rank(rw->c) == 0 && ws) {
		sb_rate_add(&rw->all, rw->round_ns, v[S_BYTES], v[S_IOS]);
		for (unsigned i = 0; i < n && i < SB_RUN_LOOK_JOBS; i++)
			sb_rate_add(&rw->job[i], rw->round_ns, v[S_JOB + 2 * i], 0);
		memcpy(rw->sum, v, sizeof(rw->sum));
		rw->have_all = 1;
	}
	if (any && rw->stonewall && !rw->stopped && !done) {
		for (unsigned i = 0; i < n; i++)
			sb_run_stop(runs[i]);
		rw->stopped = 1;
	}
	return all;
}

static void tell_look(const struct sb_run_hooks *h, struct ranks_watch *rw, struct watched *ws,
		      unsigned n, uint64_t start_ns, uint64_t now)
{
	struct sb_run_job_look jl[SB_RUN_GROUP_MAX];
	struct sb_run_look l = { .now = now, .start_ns = start_ns, .njobs = n, .jobs = jl };
	if (!h || !h->look || !ws)
		return;
	for (unsigned i = 0; i < n; i++)
		jl[i] = ws[i].l;
	total_of(ws, n, &l);
	if (rw->have_all)
		l.ranks = ranks_look(rw, n, now - start_ns);
	h->look(h->ctx, &l);
}

/* fio's --status-interval: the document with the group's results as
 * they stand now (copies, filled from the running workers), told. */
static void tell_status(struct sb_run *const *runs, unsigned n, const struct sb_run_group_opts *o,
			const struct sb_run_group_job *js, const struct sb_run_hooks *h)
{
	struct sb_results *doc = o->doc;
	struct sb_job_result *now = malloc(n * sizeof(*now));
	size_t at[SB_RUN_GROUP_MAX];
	if (!now)
		return; /* no memory for a status: the next may have it */
	for (unsigned i = 0; i < n; i++) {
		now[i] = *js[i].res;
		/* its threads' copies are its own (made by the peek, freed here) */
		now[i].threads = NULL;
		now[i].nthreads = 0;
		sb_run_peek(runs[i], &now[i]);
		for (at[i] = 0; at[i] < doc->njobs && doc->jobs[at[i]] != js[i].res; at[i]++)
			;
		if (at[i] < doc->njobs)
			doc->jobs[at[i]] = &now[i];
	}
	h->status(h->status_ctx, doc);
	for (unsigned i = 0; i < n; i++) {
		if (at[i] < doc->njobs)
			doc->jobs[at[i]] = js[i].res;
		for (unsigned k = 0; k < now[i].nthreads; k++)
			sb_job_result_free(now[i].threads[k]);
		free(now[i].threads);
	}
	free(now);
}

/* Until every run ended (on every rank): 1 when another rank's end
 * stopped this one's (--stonewall), 0, or -errno when a round failed
 * (the runs stopped). */
/* fio's exitall: once the first thread of a job has ended, the jobs its
 * exit_what names stop (its own other threads too): those of its report
 * group, or every one. ended[i]: job i's end was acted on; halted[i]: job
 * i was stopped so (not interrupted by a person). */
static void exit_all(struct sb_run *const *runs, const struct sb_run_group_job *js, unsigned n,
		     unsigned char *ended, unsigned char *halted)
{
	for (unsigned i = 0; i < n; i++) {
		const struct sb_job_opts *o = js[i].job;
		if (!o->exit_what || ended[i] || !sb_run_any_done(runs[i]))
			continue;
		ended[i] = 1;
		for (unsigned k = 0; k < n; k++)
			if (o->exit_what != SB_EXIT_GROUP || js[k].job->exit_group == o->exit_group) {
				halted[k] = 1;
				sb_run_stop(runs[k]);
			}
	}
}

/* fio's exit_on_io_done (cpuio): once no job of the group that moves data
 * runs (rdone[i]: run i ended), the jobs that ask for it stop, as by
 * their own end, not by a person */
static void exit_io_done(struct sb_run *const *runs, const struct sb_run_group_job *js,
			 unsigned n, const unsigned char *rdone, unsigned char *halted)
{
	for (unsigned i = 0; i < n; i++)
		if (!(js[i].ops->flags & SB_ENGINE_TIMED) && !rdone[i])
			return;
	for (unsigned i = 0; i < n; i++)
		if (js[i].job->cpuio.exit_io_done && !strcmp(js[i].ops->name, "cpuio") &&
		    !halted[i]) {
			halted[i] = 1;
			sb_run_stop(runs[i]);
		}
}

static int watch(struct sb_run *const *runs, unsigned n, const struct sb_run_group_opts *o,
		 const struct sb_run_group_job *js, const struct sb_run_hooks *h,
		 struct sb_coord *c, unsigned char *halted, struct sb_ss_watch *ss)
{
	struct sb_progress pr[SB_RUN_GROUP_MAX];
	unsigned char ended[SB_RUN_GROUP_MAX] = { 0 };
	struct ranks_watch *rw = calloc(1, sizeof(*rw));
	struct watched *ws = calloc(n, sizeof(*ws));
	int stopped = 0, e = 0;
	if (!rw) {
		free(ws);
		return -ENOMEM;
	}
	rw->c = c;
	rw->alone = o->alone;
	rw->stonewall = o->stonewall;
	const uint64_t start_ns = sb_now_ns();
	const int status = o->status_ns && o->doc && o->status_next && h && h->status;
	uint64_t *next_status = o->status_next;
	if (status && !*next_status)
		*next_status = start_ns + o->status_ns;
	for (;;) {
		/* a look every LOOK_NS, and at each steady-state figure's time */
		struct timespec ts = { 0, LOOK_NS };
		const uint64_t due = sb_ss_watch_next(ss), before = sb_now_ns();
		if (due > before && due - before < LOOK_NS)
			ts.tv_nsec = (long)(due - before);
		int done = 1;
		nanosleep(&ts, NULL);
		if (!stopped && sb_run_hook_stop(h)) {
			for (unsigned i = 0; i < n; i++)
				sb_run_stop(runs[i]);
			stopped = 1;
		}
		const uint64_t now = sb_now_ns();
		unsigned char rdone[SB_RUN_GROUP_MAX];
		for (unsigned i = 0; i < n; i++) {
			rdone[i] = (unsigned char)!!sb_run_progress(runs[i], &pr[i]);
			done &= rdone[i];
			if (ws) {
				ws[i].l.p = pr[i];
				ws[i].l.name = js[i].res->name;
				look_at(&ws[i], now);
			}
		}
		if (!stopped) {
			exit_all(runs, js, n, ended, halted);
			exit_io_done(runs, js, n, rdone, halted);
			sb_ss_watch_look(ss, runs, pr, n, now, halted);
		}
		e = ranks_done(rw, runs, ws, n, done, now);
		if (e)
			break;
		tell_look(h, rw, ws, n, start_ns, now);
		if (status && now >= *next_status && !done) {
			tell_status(runs, n, o, js, h);
			while (*next_status <= now)
				*next_status += o->status_ns;
		}
	}
	if (e < 0)
		for (unsigned i = 0; i < n; i++)
			sb_run_stop(runs[i]);
	else
		e = rw->stopped;
	free(ws);
	free(rw);
	return e;
}

/* The first failed request, with where and why; a full filesystem gets
 * how much was written and how much space is left. */
static void say_errors(const struct sb_run_hooks *h, const struct sb_jobtarget *t,
		       const struct sb_job_result *res, int w)
{
	const struct sb_io_error *fe = &res->first_error;
	char a[32], b[32];
	if (fe->err == ENOSPC) {
		struct statvfs vfs;
		uint64_t avail = 0;
		if (t->npaths && statvfs(t->paths[0], &vfs) == 0)
			avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		sb_run_say(h, SB_SAY_ERROR,
			   "no space left on the device after writing %s; the filesystem has %s "
			   "free",
			   sb_fmt_size(res->dir[SB_DDIR_WRITE].bytes, a, sizeof(a)),
			   sb_fmt_size(avail, b, sizeof(b)));
	} else if (fe->why[0]) { /* the job's, not a request's */
		sb_run_say(h, SB_SAY_ERROR, "%s: %s", res->name, fe->why);
		return;
	} else if (fe->err) {
		sb_run_say(h, SB_SAY_ERROR, "%s error at offset %llu (%s), length %u: %s",
			   sb_ddir_name(fe->ddir), (unsigned long long)fe->offset,
			   sb_fmt_size(fe->offset, a, sizeof(a)), fe->len, strerror(fe->err));
	} else if (w < 0) {
		sb_run_say(h, SB_SAY_ERROR, "%s failed: %s", res->name, strerror(-w));
	}
	if (res->errors > 1)
		sb_run_say(h, SB_SAY_ERROR, "%llu requests failed in all",
			   (unsigned long long)res->errors);
}

static void params_of(struct sb_run_params *p, const struct sb_run_group_opts *o,
		      const struct sb_run_group_job *j)
{
	sb_run_params_of(p, j->job, j->ops, j->t);
	p->verify = j->verify ? j->verify : o->verify;
	p->written = j->verify ? j->written : o->written;
	p->nrfiles = j->t->nrfiles;
	p->file_sizes = j->t->fsize;
	p->zbd = j->zbd;
}

/* fio's flows of the group's jobs: flows[i] for the first job of each
 * flow_id, *of[i] the one job i shares (NULL: not in a flow). */
static void flows_of(const struct sb_run_group_job *js, unsigned n, struct sb_flow *flows,
		     struct sb_flow **of)
{
	for (unsigned i = 0; i < n; i++) {
		of[i] = NULL;
		if (!js[i].job->flow)
			continue;
		for (unsigned k = 0; k < i && !of[i]; k++)
			if (js[k].job->flow && js[k].job->flow_id == js[i].job->flow_id)
				of[i] = of[k];
		if (!of[i]) {
			atomic_init(&flows[i].issued, 1);
			atomic_init(&flows[i].weight, 0);
			of[i] = &flows[i];
		}
	}
}

static void tell(const struct sb_run_hooks *h, const struct sb_run_group_opts *o,
		 enum sb_run_ev what)
{
	struct sb_run_event ev = { .what = what };
	if (o->ev)
		ev = *o->ev;
	ev.what = what;
	if (h && h->event)
		h->event(h->ctx, &ev);
}

/* Every run set up (files opened, buffers made) before any starts; many
 * ranks: on every rank, or none starts. 0 or -errno (said). */
static int set_up(struct sb_run **runs, const struct sb_run_group_opts *o,
		  const struct sb_run_group_job *js, unsigned n, const struct sb_run_hooks *h,
		  struct sb_coord *c, struct sb_flow *flows)
{
	struct sb_flow *of[SB_RUN_GROUP_MAX];
	flows_of(js, n, flows, of);
	const char *step = NULL;
	int e = 0;
	for (unsigned i = 0; i < n && !e; i++) {
		struct sb_run_params p;
		params_of(&p, o, &js[i]);
		p.flow = of[i];
		e = sb_run_create(&runs[i], &p, &step);
		if (e < 0)
			sb_run_say(h, SB_SAY_ERROR, "cannot start %s (%s): %s",
				   n > 1 ? js[i].res->name : o->label, step ? step : "setup",
				   strerror(-e));
	}
	if (!o->alone) {
		const int a = sb_run_agree_quiet(h, c, e < 0);
		if (a < 0)
			e = a;
		else if (a && !e)
			e = -ECANCELED; /* another rank failed, and said so */
	}
	if (e < 0)
		for (unsigned i = 0; i < n; i++)
			sb_run_free(runs[i]);
	return e;
}

/* The runs started together, watched, joined; each result's times and
 * counters. 0 or -errno (said). */
static int measure(struct sb_run **runs, const struct sb_run_group_opts *o,
		   const struct sb_run_group_job *js, unsigned n, const struct sb_run_hooks *h,
		   struct sb_coord *c, int *w)
{
	int have_ds[SB_RUN_GROUP_MAX] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		const struct sb_jobtarget *t = js[i].t;
		have_ds[i] = t->info.devname[0] &&
			     sb_diskstat_read(t->info.devname, &js[i].res->ds_before) == 0;
	}
	const uint64_t t0 = sb_now_ns();
	const double t_start = sb_run_coord_time(c);
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	unsigned started = 0;
	int e = 0, walled = 0;
	unsigned char halted[SB_RUN_GROUP_MAX] = { 0 };
	struct sb_ss_watch ss;
	if (sb_ss_watch_init(&ss, js, n, t0) < 0)
		sb_run_say(h, SB_SAY_WARNING, "no memory to judge the steady state: not judged");
	for (; started < n && !e; started++) {
		e = sb_run_start(runs[started]);
		js[started].res->start_unix_ns = (uint64_t)wall.tv_sec * 1000000000ull +
						 (uint64_t)wall.tv_nsec;
	}
	tell(h, o, SB_RUN_MEASURE_BEGAN);
	if (e == 0)
		walled = watch(runs, n, o, js, h, c, halted, &ss);
	else
		for (unsigned i = 0; i < started; i++)
			sb_run_stop(runs[i]);
	for (unsigned i = 0; i < n; i++)
		w[i] = sb_run_wait(runs[i], js[i].res);
	if (sb_ss_watch_end(&ss, js, n) < 0)
		sb_run_say(h, SB_SAY_WARNING, "no memory for the steady state's figures");
	sb_ss_watch_free(&ss);
	tell(h, o, SB_RUN_MEASURE_ENDED);
	for (unsigned i = 0; i < n; i++) {
		struct sb_job_result *res = js[i].res;
		/* the measured phase, the ramp after the start left out */
		res->rank_start_s = t_start + (double)js[i].job->ramp_ns / 1e9;
		res->rank_end_s = res->rank_start_s + (double)res->runtime_ns / 1e9;
		if (walled > 0 && !sb_run_hook_stop(h)) { /* stopped by design, not by a person */
			res->interrupted = 0;
			res->stonewalled = 1;
		}
		if (halted[i] && !sb_run_hook_stop(h)) /* exitall: as fio's, by design */
			res->interrupted = 0;
		if (have_ds[i] && sb_diskstat_read(js[i].t->info.devname, &res->ds_after) == 0) {
			res->have_diskstat = 1;
			res->ds_elapsed_ns = sb_now_ns() - t0;
		}
		sb_run_free(runs[i]);
	}
	if (walled < 0)
		sb_run_lost(h, "while measuring", walled);
	if (e < 0)
		sb_run_say(h, SB_SAY_ERROR, "cannot start the workers: %s", strerror(-e));
	return e < 0 ? e : walled < 0 ? walled : 0;
}

static int group(const struct sb_run_group_opts *o, const struct sb_run_group_job *js, unsigned n,
		 const struct sb_run_hooks *h, struct sb_coord *c)
{
	struct sb_run *runs[SB_RUN_GROUP_MAX] = { NULL };
	int w[SB_RUN_GROUP_MAX] = { 0 };
	struct sb_flow flows[SB_RUN_GROUP_MAX]; /* the workers' until they are joined */
	if (!n || n > SB_RUN_GROUP_MAX)
		return -EINVAL;
	int e = set_up(runs, o, js, n, h, c, flows);
	if (e < 0)
		return e;
	if ((e = measure(runs, o, js, n, h, c, w)) < 0)
		return e;
	int first = 0;
	for (unsigned i = 0; i < n; i++) {
		if (w[i] < 0 || js[i].res->errors) {
			say_errors(h, js[i].t, js[i].res, w[i]);
			if (!first)
				first = w[i];
		}
	}
	return first;
}

/* Many ranks: when one failed, every rank returns a failure, so that a
 * command with many measurements stops on all ranks at the same step
 * rather than leave the others waiting at the next. */
int sb_run_group(const struct sb_run_group_opts *o, const struct sb_run_group_job *js, unsigned n,
		 const struct sb_run_hooks *h, struct sb_coord *c)
{
	int e = group(o, js, n, h, c);
	if (!o->alone) {
		const int a = sb_run_worst(h, c, e < 0);
		if (a < 0)
			return a;
		if (a && !e)
			e = -ECANCELED; /* another rank failed, and said so */
	}
	return e;
}
