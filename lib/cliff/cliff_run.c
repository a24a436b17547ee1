/* storbench cliff (cliff.h): the purge and the idle time before, then the
 * fill and the recovery bursts, one run of the write job each, sampled
 * every SB_CLIFF_SAMPLE_NS. */
#include "lib/cliff/cliff.h"
#include "lib/base/units.h"
#include "lib/coord/coord.h"
#include "lib/target/jobtarget.h"

#include <math.h>
#include <time.h>

#define WINDOW 10 /* samples: a recovery's rate over the last second */

/* A phase: its run, its samples, and the rule that ends it early. */
struct phase {
	const struct sb_cliff_opts *p;
	const struct sb_cliff_hooks *h;
	struct sb_cliff_result *res;
	int index; /* 0 the fill, i >= 1 recovery i */
	struct sb_cliff_bins *bins;
	uint64_t bytes, ns; /* last sample's totals */
	uint64_t hist_b[WINDOW + 1], hist_t[WINDOW + 1];
	uint64_t nsamples;
	double mid;		 /* recovery: the rate between the two levels */
	const char *ended;	 /* why it stopped early, NULL: it did not */
	struct sb_run_params rp; /* the fill's run */
};

static void sleep_until(uint64_t t)
{
	uint64_t now = sb_now_ns();
	if (t <= now)
		return;
	struct timespec ts = { (time_t)((t - now) / 1000000000ull),
			       (long)((t - now) % 1000000000ull) };
	nanosleep(&ts, NULL);
}

/* The fill's rule: every second, the drop looked for; stable once the
 * level after the last change has held for SB_CLIFF_AFTER_FACTOR times the
 * cache's time. */
static const char *fill_rule(struct phase *ph)
{
	const struct sb_cliff_opts *p = ph->p;
	struct sb_cliff_find *f = &ph->res->find;
	if (p->max_time_ns && ph->ns >= p->max_time_ns)
		return "max time";
	if (ph->nsamples % WINDOW)
		return NULL;
	if (sb_cliff_detect(ph->bins, f, ph->res->bw) < 0 || !f->found)
		return NULL;
	const double need = SB_MAX(SB_CLIFF_AFTER_FACTOR * f->cache_ns, SB_CLIFF_MIN_AFTER_NS);
	return (double)ph->ns - f->last_change_ns >= need ? "stable" : NULL;
}

/* A recovery's rule: the rate over the last second below the middle. */
static const char *burst_rule(struct phase *ph)
{
	const size_t k = ph->nsamples % (WINDOW + 1), old = (k + 1) % (WINDOW + 1);
	ph->hist_b[k] = ph->bytes;
	ph->hist_t[k] = ph->ns;
	if (ph->nsamples < WINDOW + 1)
		return NULL;
	const double dt = (double)(ph->hist_t[k] - ph->hist_t[old]);
	const double bw = dt > 0 ? (double)(ph->hist_b[k] - ph->hist_b[old]) / dt * 1e9 : 0;
	return bw < ph->mid ? "slow" : NULL;
}

static void tell(const struct phase *ph, double bw, uint64_t total, int idle)
{
	if (!ph->h->progress)
		return;
	struct sb_cliff_progress pr = { ph->index, idle,  ph->ns,	 ph->bytes,
					bw,	   total, &ph->res->find };
	ph->h->progress(ph->h->ctx, &pr);
}

static int stop_asked(const struct sb_cliff_hooks *h, struct sb_cliff_result *res)
{
	if (!res->interrupted && h->stop && h->stop(h->ctx))
		res->interrupted = 1;
	return res->interrupted;
}

/* One sample; 1 when the phase should stop. */
static int sample(struct phase *ph, const struct sb_progress *pr, uint64_t total)
{
	const uint64_t b = pr->bytes[SB_DDIR_WRITE], t = pr->elapsed_ns;
	const uint64_t db = b - ph->bytes, dt = t > ph->ns ? t - ph->ns : 0;
	sb_cliff_bins_add(ph->bins, db, dt);
	ph->bytes = b;
	ph->ns = t;
	ph->nsamples++;
	tell(ph, dt ? (double)db / (double)dt * 1e9 : 0, total, 0);
	if (stop_asked(ph->h, ph->res)) {
		ph->ended = "interrupted";
		return 1;
	}
	ph->ended = ph->index ? burst_rule(ph) : fill_rule(ph);
	return ph->ended != NULL;
}

static int run_phase(struct phase *ph, const struct sb_run_params *rp, struct sb_job_result *res,
		     const char **errmsg)
{
	struct sb_run *r;
	int e = sb_run_create(&r, rp, errmsg);
	if (e < 0)
		return e;
	if ((e = sb_run_start(r)) < 0) {
		*errmsg = "start";
		sb_run_stop(r);
		sb_run_wait(r, res);
		sb_run_free(r);
		return e;
	}
	const uint64_t t0 = sb_now_ns();
	for (uint64_t k = 1;; k++) {
		struct sb_progress pr;
		sleep_until(t0 + k * SB_CLIFF_SAMPLE_NS);
		const int done = sb_run_progress(r, &pr);
		if (sample(ph, &pr, rp->region_size) || done)
			break;
	}
	sb_run_stop(r);
	e = sb_run_wait(r, res);
	sb_run_free(r);
	if (e < 0)
		*errmsg = "write";
	return e;
}

/* Idle for ns, polling the stop (and telling the progress of a
 * recovery's idle time); 1 when stopped. */
static int idle(struct phase *ph, uint64_t ns)
{
	const uint64_t t0 = sb_now_ns();
	for (uint64_t k = 1;; k++) {
		const uint64_t t = SB_MIN(t0 + k * SB_CLIFF_SAMPLE_NS, t0 + ns);
		sleep_until(t);
		ph->ns = t - t0;
		if (ph->index)
			tell(ph, 0, 0, 1);
		if (stop_asked(ph->h, ph->res))
			return 1;
		if (t >= t0 + ns)
			return 0;
	}
}

/* Bytes written at the fast level f in a burst of B bytes in t seconds,
 * the rest at the slow level l: x / f + (B - x) / l = t. Whole bursts only:
 * the sampling's jitter cancels over them. */
static double fast_bytes(double B, double t, double f, double l)
{
	if (!(f > l) || !(l > 0))
		return 0;
	const double x = (t - B / l) / (1 / f - 1 / l);
	return x < 0 ? 0 : x > B ? B : x;
}

static int recovery(const struct phase *fill, unsigned i, struct sb_cliff_bins *bins,
		    const char **errmsg)
{
	const struct sb_cliff_opts *p = fill->p;
	struct sb_cliff_result *res = fill->res;
	const struct sb_cliff_find *f = &res->find;
	struct sb_cliff_recovery *rc = &res->recovery[i];
	struct phase ph = { .p = p, .h = fill->h, .res = res, .index = (int)i + 1, .bins = bins };
	rc->idle_ns = p->recovery_ns[i];
	res->nrecovery = i + 1;
	if (idle(&ph, rc->idle_ns)) {
		rc->interrupted = 1;
		return 0;
	}
	struct sb_run_params rp = fill->rp; /* the whole region */
	const uint64_t unit = SB_MAX((uint64_t)sb_job_max_bs(&rp.job),
				     (uint64_t)SB_MAX(rp.align, 1));
	uint64_t cap = (uint64_t)((double)f->cache_bytes * 1.25 + f->after_bw * 2);
	cap = SB_MAX(cap, 16 * unit);
	cap = cap / unit * unit;
	rp.region_size = SB_MIN(rp.region_size, cap);
	rp.job.size = rp.region_size;
	ph.mid = sqrt(f->before_bw * f->after_bw);
	ph.ns = ph.bytes = 0;
	sb_cliff_bins_init(bins, 0);
	bins->min_bin = res->bins.min_bin;
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr)
		return -ENOMEM;
	int e = run_phase(&ph, &rp, jr, errmsg);
	sb_job_result_free(jr);
	rc->burst_bytes = ph.bytes;
	rc->burst_ns = (double)ph.ns;
	rc->interrupted = res->interrupted;
	rc->at_least = !ph.ended && ph.bytes >= rp.region_size;
	rc->recovered_bytes = (uint64_t)fast_bytes((double)ph.bytes, (double)ph.ns / 1e9,
						   f->before_bw, f->after_bw);
	rc->fraction = f->cache_bytes ? (double)rc->recovered_bytes / (double)f->cache_bytes : 0;
	struct sb_cliff_find bf;
	if (sb_cliff_detect(bins, &bf, NULL) == 0)
		rc->fast_bw = bf.found ? bf.before_bw : bf.avg_bw;
	return e;
}

static int failed(struct sb_error *err, int e, const char *step)
{
	return sb_error_set(err, e, e == -ENOMEM ? SB_ERR_ENV : SB_ERR_FAIL,
			    "cliff failed (%s): %s", step ? step : "setup", strerror(-e));
}

/* The fill, then (a drop found, not stopped) the recoveries. */
static int fill_and_recover(struct phase *ph, struct sb_error *err)
{
	const struct sb_cliff_opts *o = ph->p;
	struct sb_cliff_result *res = ph->res;
	const char *step = NULL;
	struct sb_run_params fill = ph->rp, *rp = &fill;
	if (o->max_bytes && o->max_bytes < rp->region_size)
		rp->region_size = o->max_bytes;
	rp->job.size = rp->region_size;
	sb_cliff_bins_init(&res->bins, 0);
	res->bins.min_bin = (uint64_t)sb_job_max_bs(&rp->job) * rp->job.iodepth;
	if (!(res->jr = sb_job_result_create()))
		return failed(err, -ENOMEM, NULL);
	snprintf(res->jr->name, sizeof(res->jr->name), "%s", o->job.name);
	res->measured = 1;
	if (ph->h->step)
		ph->h->step(ph->h->ctx, SB_CLIFF_FILL, 0);
	int e = run_phase(ph, rp, res->jr, &step);
	/* stopped by the rule, not by the user: not an interrupted fill */
	res->jr->interrupted = res->interrupted;
	res->stop_reason = ph->ended				 ? ph->ended
			   : rp->region_size < o->t->region_size ? "size"
								 : "region end";
	int d = sb_cliff_detect(&res->bins, &res->find, res->bw);
	if (e < 0 || d < 0)
		return failed(err, e < 0 ? e : d, e < 0 ? step : NULL);
	if (!res->find.found || res->interrupted)
		return 0;
	struct sb_cliff_bins *bins = malloc(sizeof(*bins));
	if (!bins)
		return failed(err, -ENOMEM, NULL);
	for (unsigned i = 0; i < o->nrecovery && !e && !res->interrupted; i++)
		e = recovery(ph, i, bins, &step);
	free(bins);
	return e < 0 ? failed(err, e, step) : 0;
}

int sb_cliff_run(const struct sb_cliff_opts *o, const struct sb_cliff_hooks *h,
		 struct sb_coord *coord, struct sb_cliff_result *out, struct sb_error *err)
{
	static const struct sb_cliff_hooks none;
	struct phase ph = { .p = o, .h = h ? h : &none, .res = out, .bins = &out->bins };
	if (coord && sb_coord_size(coord) > 1)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "cliff runs alone, not under mpirun");
	sb_run_params_of(&ph.rp, &o->job, o->ops, o->t);
	out->job = o->job;
	out->region_offset = o->t->region_offset;
	out->region_size = o->t->region_size;
	out->idle_before_ns = o->idle_before_ns;
	int e = sb_cliff_purge(o, out, err);
	if (!e && o->idle_before_ns) {
		if (ph.h->step)
			ph.h->step(ph.h->ctx, SB_CLIFF_IDLE_BEFORE, o->idle_before_ns);
		struct phase before = ph; /* its clock is not the fill's */
		if (idle(&before, o->idle_before_ns))
			e = -EINTR;
	}
	if (!e)
		e = fill_and_recover(&ph, err);
	if (!e && out->interrupted)
		e = -EINTR;
	if (e == -EINTR)
		sb_error_set(err, e, SB_ERR_STOPPED, "%s", "");
	return e;
}

void sb_cliff_result_free(struct sb_cliff_result *r)
{
	if (!r)
		return;
	sb_job_result_free(r->jr);
	r->jr = NULL;
}

struct recovery {
	uint64_t *ns;
	unsigned *n;
};

static int one_recovery(void *ctx, const char *w)
{
	struct recovery *r = ctx;
	uint64_t ns;
	if (*r->n == SB_CLIFF_MAX_RECOVERY || sb_parse_duration_ns(w, &ns) < 0 || !ns)
		return -EINVAL;
	r->ns[(*r->n)++] = ns;
	return 0;
}

int sb_cliff_parse_recovery(const char *v, uint64_t *ns, unsigned *n)
{
	struct recovery r = { ns, n };
	*n = 0;
	return sb_parse_list(v, 256, one_recovery, &r);
}
