/*
 * storbench pts as one call (pts.h): per part the purge, the
 * preconditioning passes and the rounds of its matrix until it is done,
 * every measurement through the program's runner or the library's; the
 * device's cache held off for the run (PTS-E) and switched back after it.
 */
#include "lib/pts/pts.h"
#include "lib/coord/coord.h"
#include "lib/device/devcache.h"
#include "lib/device/devinfo.h"
#include "lib/target/target_device.h"
#include "lib/target/jobtarget.h"

#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

struct run {
	const struct sb_pts_opts *o;
	const struct sb_pts_hooks *h;
	struct sb_pts_result *r;
	struct sb_error *err;
	int failed; /* err holds the first failure */
};

static int stopped(struct run *x)
{
	if (!x->r->interrupted && x->h->stop && x->h->stop(x->h->ctx))
		x->r->interrupted = 1;
	return x->r->interrupted;
}

/* A step's failure e: told as it happens, kept in err when it is the
 * first (er: its class and words, "" when said). Returns e. */
static int fail(struct run *x, int e, const struct sb_error *er)
{
	if (er->msg[0] && x->h->error)
		x->h->error(x->h->ctx, er->msg);
	if (!x->failed) {
		x->failed = 1;
		*x->err = *er;
		x->err->err = e;
	}
	return e;
}

static int oom(struct run *x)
{
	struct sb_error er;
	return fail(x, sb_error_set(&er, -ENOMEM, SB_ERR_ENV, "out of memory"), &er);
}

static int measure(struct run *x, const struct sb_pts_step *s, const struct sb_job_opts *job,
		   struct sb_pts_fig *f)
{
	struct sb_error er;
	memset(f, 0, sizeof(*f));
	memset(&er, 0, sizeof(er));
	const int e = x->h->measure ? x->h->measure(x->h->ctx, s, job, f, &er)
				    : sb_pts_measure(x->o->t, job, x->h->stop, x->h->ctx, f, &er);
	return e ? fail(x, e, &er) : 0;
}

static int purge(struct run *x, struct sb_pts_part *p)
{
	const struct sb_pts_opts *o = x->o;
	struct sb_pts_result *r = x->r;
	struct sb_error er;
	const int fd = sb_jobtarget_open(o->t, 0, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(x,
			    sb_error_set(&er, fd, SB_ERR_ENV, "cannot open '%s' to purge it: %s",
					 o->path, strerror(-fd)),
			    &er);
	const int e = sb_purge_how(fd, o->path, o->purge, &p->purge_used, p->purge_how,
				   sizeof(p->purge_how), &er);
	close(fd);
	if (e)
		return fail(x, e, &er);
	if (p->purge_used == SB_PURGE_DISCARD) {
		int said = 0;
		for (unsigned i = 0; i < r->ndeviations; i++)
			said |= !strncmp(r->deviations[i], "purge by discard", 16);
		if (!said)
			sb_pts_deviation(r, "purge by discard (the device may only unmap its "
					    "blocks; PTS asks for a security erase, sanitize or "
					    "format)");
	}
	return 0;
}

static int precondition(struct run *x, struct sb_pts_part *p)
{
	const struct sb_pts_opts *o = x->o;
	struct sb_job_opts j;
	sb_pts_precondition_job(x->r, &j);
	for (unsigned pass = 0; pass < o->precondition && !stopped(x); pass++) {
		const struct sb_pts_step s = { p, 1, pass + 1, o->precondition, 0 };
		struct sb_pts_fig f;
		j.seed = o->seed + pass;
		const int e = measure(x, &s, &j, &f);
		p->precondition_bytes += f.bytes_written;
		if (e)
			return e;
	}
	return 0;
}

/* One round of the matrix; a stop or a failure within it keeps the cells
 * it measured (partial_cells). */
static int one_round(struct run *x, struct sb_pts_part *p)
{
	struct sb_pts_fig *row = sb_pts_round_begin(p);
	if (!row)
		return oom(x);
	for (unsigned k = 0; k < p->ncells; k++) {
		struct sb_job_opts j;
		const unsigned rounds_left = p->max_rounds - p->nrounds - 1;
		const struct sb_pts_step s = { p, 0, p->nrounds + 1, p->max_rounds,
					       (p->ncells - k - 1) + rounds_left * p->ncells };
		sb_pts_cell_job(x->r, p, k, &j);
		const int e = measure(x, &s, &j, &row[k]);
		if (e || stopped(x)) {
			p->partial_cells = k + 1;
			return e ? e : -EINTR;
		}
	}
	return 0;
}

static int run_part(struct run *x, struct sb_pts_part *p)
{
	int e = purge(x, p);
	p->started = 1;
	if (!e && p->test != SB_PTS_WSAT)
		e = precondition(x, p);
	while (!e && !stopped(x)) {
		if ((e = one_round(x, p)))
			break;
		const int done = sb_pts_round_end(x->r, p);
		if (x->h->round)
			x->h->round(x->h->ctx, p);
		if (done)
			break;
	}
	sb_pts_part_close(p);
	return e;
}

void sb_pts_cache_plan(struct sb_pts_opts *o, const struct sb_target_info *info, int may_write)
{
	struct sb_devinfo d;
	struct sb_devcache dc;
	struct sb_error er;
	if (o->profile != SB_PTS_ENTERPRISE || !may_write || sb_devinfo_probe(info, &d) ||
	    !d.node[0] || sb_devcache_get(d.node, &dc, &er))
		return;
	snprintf(o->cache_node, sizeof(o->cache_node), "%s", d.node);
	o->cache_kind = dc.kind;
	o->cache_off_by_command = 1;
}

static void hold(const struct run *x, int on)
{
	if (x->h->hold)
		x->h->hold(x->h->ctx, on);
}

static void on_exit_undo(const struct run *x, void (*undo)(void *arg), void *arg)
{
	if (x->h->on_exit)
		x->h->on_exit(x->h->ctx, undo, arg);
}

/* The undo a program exiting at once runs: the cache as it was. */
static void cache_back_now(void *arg)
{
	const struct sb_pts_result *r = arg;
	sb_devcache_switch_now(r->o.cache_node, (enum sb_devcache_kind)r->o.cache_kind, 1);
}

/* The switch and the undo a second Ctrl-C runs are one step to the
 * signals: one that comes during the switch is handled after it, and the
 * undo switches on only a cache this run switched off. */
static int cache_off(struct run *x)
{
	struct sb_pts_result *r = x->r;
	struct sb_devcache before;
	struct sb_error er;
	if (!x->o->cache_off_by_command || !x->o->cache_node[0])
		return 0;
	hold(x, 1);
	const int e = sb_devcache_set(x->o->cache_node, 0, &before, &er);
	if (!e && before.on)
		on_exit_undo(x, cache_back_now, r);
	hold(x, 0);
	if (e)
		return fail(x, e, &er);
	r->devcache.command = before.how;
	r->devcache.before = before.on;
	r->devcache.changed = before.on;
	return 0;
}

/* After the run, and on its error paths: the cache as it was. The undo
 * of a second Ctrl-C stays until the cache is on; a Ctrl-C during the
 * switch is handled after it (no thread of the run is left by now), so
 * the cache is switched on once, by this or by the handler. */
static int cache_restore(struct run *x)
{
	struct sb_error er;
	if (!x->r->devcache.changed)
		return 0;
	hold(x, 1);
	const int e = sb_devcache_set(x->o->cache_node, 1, NULL, &er);
	on_exit_undo(x, NULL, NULL);
	hold(x, 0);
	if (e)
		return fail(x, e, &er);
	x->r->devcache.restored = 1;
	return 0;
}

int sb_pts_run(const struct sb_pts_opts *o, const struct sb_pts_hooks *h, struct sb_coord *coord,
	       struct sb_pts_result *out, struct sb_error *err)
{
	static const struct sb_pts_hooks none;
	struct run x = { o, h ? h : &none, out, err, 0 };
	memset(err, 0, sizeof(*err));
	if (coord && sb_coord_size(coord) > 1)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "pts runs alone, not under mpirun");
	if (!out->nparts)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "pts: nothing planned");
	int e = cache_off(&x);
	for (unsigned i = 0; i < out->nparts && !e && !stopped(&x); i++)
		e = run_part(&x, &out->parts[i]);
	const int back = cache_restore(&x);
	e = e ? e : back;
	stopped(&x); /* a stop asked at the very end marks the result too */
	out->steady = 1;
	for (unsigned i = 0; i < out->nparts; i++) {
		const struct sb_pts_part *p = &out->parts[i];
		if (p->nrounds && p->test != SB_PTS_WSAT && !p->ss.reached)
			out->steady = 0;
	}
	if (e == -EINTR || (!e && out->interrupted)) {
		e = -EINTR;
		if (!x.failed)
			sb_error_set(err, e, SB_ERR_STOPPED, "%s", "");
	}
	return e;
}
