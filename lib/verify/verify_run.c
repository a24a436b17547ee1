/*
 * storbench verify as a library call (verify.h): the files made, the write
 * and check phases with their progress, the ranks' steps (through
 * verify_ranks.h), the results; or the fake-capacity probe.
 */
#include "lib/verify/verify.h"
#include "lib/verify/verify_json.h"
#include "lib/verify/verify_ranks.h"
#include "lib/stats/live_rate.h"
#include "lib/target/target_device.h"

#include <time.h>
#include <unistd.h>

#define MSG_LEN 8448		      /* two paths and some words */
#define PROGRESS_EVERY_NS 50000000ull /* the progress hook at most this often */

static void tell(const struct sb_verify_hooks *h, const char *msg)
{
	if (h && h->error && msg[0])
		h->error(h->ctx, msg);
}

static int stop_asked(const struct sb_verify_hooks *h)
{
	return h && h->stop && h->stop(h->ctx);
}

/* ---- one phase ---- */

/* One phase over the report's target (r->t, with r's format, request size
 * and depth): all_ranks, every rank of the coordination runs it (the
 * progress of rank 0 is every rank's, the phase ends on every rank when
 * all are done). */
struct phase_opts {
	const struct sb_engine_ops *ops;
	int write;
	int all_ranks;
};

struct phase {
	const struct phase_opts *p;
	const struct sb_verify_hooks *h;
	struct sb_coord *coord;
	const char *name;
	uint64_t total; /* bytes of the phase */
	uint64_t start_ns, told_ns;
	struct sb_rate rate;
	/* every rank in this phase (p->all_ranks): the rounds sum the ranks'
	 * bytes done and of the phase to rank 0, whose progress tells them */
	struct sb_coord_sum all;
	int lost; /* a round was not answered: err says so */
	struct sb_error *err;
};

/* One look at the round in flight (a new one started when due, or when
 * this rank's phase is over): 1 once a round ended with every rank done. */
static int ranks_look(struct phase *ph, uint64_t done, int over, uint64_t now)
{
	const int e = sb_coord_sum_look(ph->coord, &ph->all, done, ph->total, over, now,
					SB_VRANKS_TIMEOUT_S);
	if (e >= 0)
		return e;
	sb_coord_lost(ph->err, "while measuring", e);
	return ph->lost = 1;
}

/* "write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s, ETA 4s", or every rank's
 * together (at most a round behind). */
static void progress_tell(struct phase *ph, uint64_t done, uint64_t now)
{
	struct sb_verify_progress pr = {
		.phase = ph->name,
		.write = ph->p->write,
		.ranks = 1,
		.done = done,
		.total = ph->total,
		.pct = ph->total ? 100.0 * (double)done / (double)ph->total : 100.0,
		.elapsed_ns = now - ph->start_ns,
		.eta_ns = -1,
	};
	if (sb_rate_get(&ph->rate, now, done, 0, &pr.bps, NULL) < 0)
		pr.bps = -1;
	if (ph->p->all_ranks) {
		pr.ranks = (unsigned)sb_coord_size(ph->coord);
		pr.done = ph->all.done;
		pr.total = ph->all.total;
		pr.pct = pr.total ? 100.0 * (double)pr.done / (double)pr.total : 0;
		pr.bps = sb_coord_sum_rate(&ph->all);
	}
	if (pr.bps > 0)
		pr.eta_ns = pr.done < pr.total ? (double)(pr.total - pr.done) / pr.bps * 1e9 : 0;
	ph->h->progress(ph->h->ctx, &pr);
}

static int on_request(void *ctx, uint64_t done)
{
	struct phase *ph = ctx;
	if (ph->lost || stop_asked(ph->h))
		return 1;
	const uint64_t now = sb_now_ns();
	sb_rate_add(&ph->rate, now, done, 0);
	if (ph->p->all_ranks && (ranks_look(ph, done, 0, now), ph->lost))
		return 1;
	if (ph->h && ph->h->progress && now - ph->told_ns >= PROGRESS_EVERY_NS) {
		ph->told_ns = now;
		progress_tell(ph, done, now);
	}
	return 0;
}

static int on_file(void *ctx)
{
	const struct phase *ph = ctx;
	return ph->lost || stop_asked(ph->h);
}

static void phase_said(const struct sb_verify_hooks *h, const char *name, int begin)
{
	if (h && h->phase)
		h->phase(h->ctx, name, begin);
}

/* The phase: 0, -errno when it could not run (r->failed, err), -ENOTCONN
 * when a rank was lost (err says what was waited for). */
static int run_phase(struct sb_verify_report *r, const struct phase_opts *p,
		     const struct sb_verify_hooks *h, struct sb_coord *coord, struct sb_error *err)
{
	static const struct sb_verify_hooks none;
	const char *name = p->write ? "write" : "check";
	struct phase ph = { .p = p,
			    .h = h ? h : &none,
			    .coord = coord,
			    .name = name,
			    .total = r->t->size,
			    .err = err };
	const struct sb_vphase vp = { r->t, p->ops, p->write, on_request, on_file, &ph };
	char msg[MSG_LEN];

	ph.start_ns = ph.told_ns = sb_now_ns();
	sb_rate_reset(&ph.rate);
	sb_rate_add(&ph.rate, ph.start_ns, 0, 0);
	phase_said(h, name, 1);
	const int e = sb_verify_phase(r, &vp, msg, sizeof(msg));
	/* many ranks: the rounds go on until every rank's phase is over */
	if (p->all_ranks) {
		const uint64_t done = p->write ? r->wr.bytes : r->rd.bytes;
		const struct timespec nap = { 0, 1000000 };
		while (!ph.lost && !ranks_look(&ph, done, 1, sb_now_ns()))
			nanosleep(&nap, NULL);
	}
	phase_said(h, name, 0);
	if (ph.lost) {
		tell(h, err->msg);
		return -ENOTCONN;
	}
	if (!e)
		return 0;
	sb_error_set(err, e, sb_errno_class(e), "%s", msg);
	tell(h, msg);
	return e;
}

/* ---- the run ---- */

/* A step every rank takes: e (with err) on this rank, or another rank's
 * failure (the failing rank's class on every rank; rank 0 tells which
 * rank). 0 when every rank goes on. */
static int agree(struct sb_coord *c, const struct sb_verify_hooks *h, int e, struct sb_error *err,
		 struct sb_verify_result *out)
{
	int code = e ? (int)err->cls + 1 : 0, who;
	if (e)
		tell(h, err->msg);
	const int a = sb_coord_agree(c, &code, &who, SB_VRANKS_TIMEOUT_S);
	if (a) {
		sb_coord_lost(err, "waiting for every rank to be ready", a);
		out->lost = 1;
		tell(h, err->msg);
		return err->err;
	}
	if (!code)
		return 0;
	if (sb_coord_size(c) > 1 && sb_coord_rank(c) == 0) {
		char m[160];
		snprintf(m, sizeof(m),
			 "rank %d refused or failed: no rank goes on (every rank stops before its "
			 "I/O)",
			 who);
		tell(h, m);
	}
	if (!e)
		sb_error_set(err, -ECANCELED, (enum sb_errclass)(code - 1), "%s", "");
	return err->err;
}

/* The largest of every rank's v; the job is lost when one does not answer. */
static int worst(struct sb_coord *c, const struct sb_verify_hooks *h, long *v, struct sb_error *err,
		 struct sb_verify_result *out)
{
	if (sb_vranks_worst(c, v, err) == 0)
		return 0;
	out->lost = 1;
	tell(h, err->msg);
	return err->err;
}

/* A write: the files of a directory or a new file made (a fill of a
 * directory: as large as the filesystem lets them grow), each told. */
static int create(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		  struct sb_error *err)
{
	char msg[MSG_LEN];
	struct sb_vtarget *t = o->vt;
	if (t->is_blockdev) /* written through what the write gate gave */
		return 0;
	const int e = sb_vtarget_create(t, &o->vto, msg, sizeof(msg));
	for (unsigned i = 0; h && h->created && i < t->nseg; i++)
		if (t->seg[i].created)
			h->created(h->ctx, t->seg[i].path, t->seg[i].fd);
	return e ? sb_error_set(err, e, sb_errno_class(e), "%s", msg) : 0;
}

/* The phases as jobs of the results (each with its start and end on the
 * coordination clock), rank 0 with every rank's part. */
static int finish(struct sb_coord *c, const struct sb_verify_hooks *h, struct sb_verify_result *out,
		  double t[2][2], struct sb_error *err)
{
	struct sb_results *res = out->res;
	res->extra_key = sb_section_name(SB_SECTION_VERIFY);
	res->extra_json = sb_verify_json;
	res->extra_ctx = &out->rep;
	sb_verify_add_jobs(res, &out->rep);
	for (size_t i = 0; i < res->njobs && i < 2; i++) {
		/* the jobs are the write, then the check, of those that ran */
		const int k = out->rep.wrote && i == 0 ? 0 : 1;
		res->jobs[i]->rank_start_s = t[k][0];
		res->jobs[i]->rank_end_s = t[k][1];
	}
	if (sb_vranks_gather(c, &out->rep, err) == 0)
		return 0;
	out->lost = 1;
	tell(h, err->msg);
	return err->err;
}

/* Phase k (0 the write, 1 the check), its start and end on the
 * coordination clock in t[k]: 0 (a phase that could not run is a result:
 * out->phase_failed), or the error of a rank lost. */
static int timed_phase(struct phase_opts *p, int k, const struct sb_verify_hooks *h,
		       struct sb_coord *c, struct sb_verify_result *out, double t[2][2],
		       struct sb_error *err)
{
	p->write = k == 0;
	t[k][0] = sb_coord_time(c);
	const int e = run_phase(&out->rep, p, h, c, err);
	t[k][1] = sb_coord_time(c);
	if (e == -ENOTCONN)
		return out->lost = 1, err->err;
	out->phase_failed |= e != 0;
	memset(err, 0, sizeof(*err)); /* told as it happened; rep.failure keeps it */
	return 0;
}

/* Write, then check (as asked): many ranks start each phase together, and
 * when one failed its write or was stopped, none checks. */
static int phases(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		  struct sb_coord *c, struct sb_verify_result *out, struct sb_error *err)
{
	struct phase_opts p = { .ops = o->ops, .all_ranks = sb_coord_size(c) > 1 };
	double t[2][2] = { { 0, 0 }, { 0, 0 } }; /* the phases' start, end */
	struct sb_results *res = out->res;
	long stop = 0;
	int e;
	if ((e = worst(c, h, &stop, err, out)))
		return e;
	/* a long run: the device's health before and after it */
	res->have_health = sb_health_capture(o->info, &res->health[0]) == 0;
	if (o->phase & SB_VPHASE_WRITE) {
		if ((e = timed_phase(&p, 0, h, c, out, t, err)))
			return e;
		stop = out->phase_failed ? 2 : stop_asked(h);
		if ((e = worst(c, h, &stop, err, out)))
			return e;
	}
	/* a stop (on any rank) before the check: no rank checks, so that
	 * every rank runs the same phases */
	long asked = stop_asked(h);
	if (!stop && (e = worst(c, h, &asked, err, out)))
		return e;
	if (!stop && asked)
		stop = 1;
	out->stopped = stop == 2;
	if (!stop && (o->phase & SB_VPHASE_CHECK) && (e = timed_phase(&p, 1, h, c, out, t, err)))
		return e;
	if (res->have_health)
		res->have_health = sb_health_capture(o->info, &res->health[1]) == 0;
	sb_verify_acc_finish(&out->rep.acc);
	res->interrupted = out->interrupted = stop_asked(h);
	if (!o->vt->direct && out->rep.checked)
		res->cache_dropped = 1;
	return finish(c, h, out, t, err);
}

static int phases_run(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		      struct sb_coord *c, struct sb_verify_result *out, struct sb_error *err)
{
	struct sb_verify_report *r = &out->rep;
	r->t = o->vt;
	r->engine = o->ops->name;
	r->phase = o->phase;
	r->request_size = o->request_size;
	r->iodepth = o->iodepth;
	sb_verify_fmt_init(&r->fmt, o->seed, o->generation, o->block_size);
	int e = sb_verify_acc_init(&r->acc, o->block_size, o->max_ranges) < 0
			? sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory")
			: 0;
	/* many ranks: none goes on when one cannot (nothing written yet) */
	if ((e = agree(c, h, e, err, out)))
		return e;
	if ((o->phase & SB_VPHASE_WRITE) && (e = agree(c, h, create(o, h, err), err, out)))
		return e;
	if (!(out->res = sb_results_create("verify"))) {
		sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
		tell(h, err->msg);
		return err->err;
	}
	sb_results_describe(out->res, o->info, o->path, 0, 0);
	out->res->target_created = o->vt->nseg && o->vt->seg[0].created;
	return phases(o, h, c, out, err);
}

/* ---- the probe ---- */

static int probe_stop(void *ctx)
{
	return stop_asked(ctx);
}

static int probe_run(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		     struct sb_verify_result *out, struct sb_error *err)
{
	const struct sb_verify_probe *pr = o->probe;
	struct sb_capacity_report *p = &out->probe;
	struct sb_capacity_blockdev *d = NULL;
	char msg[4352];
	p->block_size = pr->block_size;
	p->seed = pr->seed;
	if (sb_capacity_blockdev_open(&d, pr->fd, pr->path, pr->capacity, pr->block_size, msg,
				      sizeof(msg)) < 0) {
		sb_error_set(err, -EIO, SB_ERR_ENV, "%s", msg);
		tell(h, msg);
		return err->err;
	}
	const uint64_t t0 = sb_now_ns();
	const int e = sb_capacity_blockdev_run(d, p->seed, probe_stop, (void *)h, &p->res);
	p->ns = sb_now_ns() - t0;
	sb_capacity_blockdev_close(d);
	if (e == -EINVAL)
		sb_error_set(err, e, SB_ERR_INPUT,
			     "cannot probe '%s': too small (the probe needs 2 MiB at least)",
			     pr->path);
	else if (e < 0)
		sb_error_set(err, e, SB_ERR_ENV, "cannot probe '%s': %s", pr->path, strerror(-e));
	else if (!(out->res = sb_results_create("verify")))
		sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	if (!out->res) {
		tell(h, err->msg);
		return err->err;
	}
	sb_results_describe(out->res, o->info, pr->path, 0, 0);
	out->res->interrupted = out->interrupted = p->res.interrupted;
	out->res->extra_key = sb_section_name(SB_SECTION_VERIFY);
	out->res->extra_json = sb_capacity_json;
	out->res->extra_ctx = p;
	return 0;
}

int sb_verify_run(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		  struct sb_coord *coord, struct sb_verify_result *out, struct sb_error *err)
{
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (o->probe)
		return probe_run(o, h, out, err);
	if (!o->vt || !o->ops || !o->info || !o->block_size || !o->request_size ||
	    o->request_size % o->block_size || !o->phase) {
		sb_error_set(err, -EINVAL, SB_ERR_INPUT,
			     "verify: a target, an engine, a phase and a request size of whole "
			     "blocks are needed");
		tell(h, err->msg);
		return err->err;
	}
	return phases_run(o, h, coord, out, err);
}

void sb_verify_ranks_times(struct sb_verify_result *r)
{
	const struct sb_results *res = r->res;
	for (size_t i = 0; res && i < res->njobs && i < 2; i++)
		(r->rep.wrote && i == 0 ? &r->rep.wr : &r->rep.rd)->ns = res->jobs[i]->runtime_ns;
}

void sb_verify_result_free(struct sb_verify_result *r)
{
	if (!r)
		return;
	sb_results_free(r->res);
	free((void *)r->rep.ranks);
	sb_verify_acc_free(&r->rep.acc);
	memset(r, 0, sizeof(*r));
}
