/*
 * --precondition and --discard-before (quick, run, sweep): the target is
 * brought to a named state before the measurement, through the same jobs
 * as `storbench pts` (lib/target/precond.h), and the state goes into the
 * results. docs/states.md says what each state is.
 */
#include "lib/run/jobs.h"
#include "lib/run/jobs_int.h"
#include "lib/target/gate.h"

#include <fcntl.h>
#include <unistd.h>

static int asked(const struct sb_state_opts *o)
{
	return o->precond != SB_PRECOND_NONE || o->discard_before;
}

static const char *what(const struct sb_state_opts *o, char *buf, size_t len)
{
	if (o->precond != SB_PRECOND_NONE)
		snprintf(buf, len, "--precondition=%s", sb_precond_name(o->precond));
	else
		snprintf(buf, len, "--discard-before");
	return buf;
}

int sb_run_state_check(const struct sb_state_opts *o, int destroy_data, struct sb_jobtarget *t,
		       const char *path, struct sb_error *err)
{
	char w[48];
	if (!asked(o))
		return 0;
	what(o, w, sizeof(w));
	const enum sb_target_kind k = t->info.kind;
	if (o->precond == SB_PRECOND_PURGE && k != SB_TARGET_BLOCK)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--precondition=purge: '%s' is not a block device (a purge asks "
				    "a device to forget its blocks; on a file use fill or "
				    "--discard-before)",
				    path);
	if (k == SB_TARGET_FILE && !destroy_data && sb_file_is_ours(path) != 1)
		return sb_error_set(err, -EPERM, SB_ERR_INPUT,
				    "%s: destroys what '%s' holds in the region (add "
				    "--destroy-data to allow it)",
				    w, path);
	/* a device without consent: the write gate's one refusal */
	if (k == SB_TARGET_BLOCK && !destroy_data) {
		const int fd = sb_gate_device(path, 0, err);
		if (fd < 0)
			return fd;
		close(fd); /* cannot be: without consent the gate never opens */
		return sb_error_set(err, -EPERM, SB_ERR_INPUT, "refusing to write to '%s'", path);
	}
	/* a target the measurement only reads is written all the same: it
	 * passes the write gate when it is prepared, as a written one */
	t->writes = 1;
	return 0;
}

/* One fill job over the region of every file of t, alone on this rank. */
static int fill(struct sb_jobtarget *t, const struct sb_job_opts *jb, struct sb_state *st,
		unsigned step, unsigned nsteps, const struct sb_run_hooks *h, struct sb_coord *c,
		struct sb_error *err)
{
	struct sb_job_opts j = *jb;
	struct sb_engine_pick pk;
	j.numjobs = t->info.kind == SB_TARGET_DIR ? t->npaths : 1;
	if (t->direct_fallback)
		j.direct = 0;
	if (sb_engine_choose(j.engine, j.iodepth, &pk, err) < 0)
		return err->err;
	if (pk.fell_back && h && h->fell_back)
		h->fell_back(h->ctx, &pk);
	snprintf(j.engine, sizeof(j.engine), "%s", pk.ops->name);
	/* the runner works on the target's region: this job's part of it */
	struct sb_jobtarget v = *t;
	v.region_offset = j.offset;
	v.region_size = j.size;
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	const struct sb_run_event ev = { .phase = SB_RUN_PHASE_PRECOND,
					 .step = step,
					 .nsteps = nsteps,
					 .njobs = 1,
					 .label = j.name };
	/* many ranks: each fills its own target, whose size is its own */
	const struct sb_run_group_opts go = { .label = j.name,
					      .alone = sb_run_ranks(c) > 1,
					      .ev = &ev };
	const struct sb_run_group_job one = { &j, pk.ops, &v, jr, NULL, NULL, NULL };
	const int e = sb_run_group(&go, &one, 1, h, c);
	st->written += jr->dir[SB_DDIR_WRITE].bytes;
	const uint64_t errors = jr->errors;
	sb_job_result_free(jr);
	if (e < 0) /* said */
		return sb_error_set(err, e, SB_ERR_FAIL, "%s", "");
	if (errors)
		return sb_error_set(err, -EIO, SB_ERR_FAIL, "preconditioning: %llu I/O errors",
				    (unsigned long long)errors);
	return 0;
}

static int purge(const struct sb_state_opts *o, struct sb_jobtarget *t, const char *path,
		 struct sb_state *st, struct sb_error *err)
{
	const int fd = sb_jobtarget_open(t, 0, O_RDWR);
	if (fd < 0)
		return sb_error_set(err, fd, SB_ERR_ENV, "cannot open '%s' to purge it: %s", path,
				    strerror(-fd));
	const int e = sb_purge_how(fd, path, o->purge, &st->purge, st->purge_how,
				   sizeof(st->purge_how), err);
	close(fd);
	if (e)
		return e;
	st->region_offset = 0;
	st->region_bytes = t->info.capacity;
	return 0;
}

static int precondition(const struct sb_state_opts *o, struct sb_jobtarget *t, const char *path,
			struct sb_state *st, const struct sb_run_hooks *h, struct sb_coord *c,
			struct sb_error *err)
{
	const uint64_t off = t->region_offset, size = t->region_size;
	const uint64_t seed = sb_now_ns();
	struct sb_job_opts j;
	switch (o->precond) {
	case SB_PRECOND_NONE: return 0;
	case SB_PRECOND_PURGE: return purge(o, t, path, st, err);
	case SB_PRECOND_FILL: {
		/* whole 128 KiB requests, then the tail in one request */
		const uint64_t tail = size % SB_PRECOND_FILL_BS;
		int e = 0;
		if (size - tail) {
			sb_precond_fill_job(&j, off, size - tail, 32, seed);
			e = fill(t, &j, st, 1, tail ? 2 : 1, h, c, err);
		}
		if (!e && tail && !sb_run_hook_stop(h)) {
			sb_precond_fill_job(&j, off + size - tail, tail, 1, seed + 1);
			j.bs = (uint32_t)tail;
			e = fill(t, &j, st, 2, 2, h, c, err);
		}
		return e;
	}
	case SB_PRECOND_FILL_RANDOM:
		st->amount = sb_precond_amount(o, size);
		if (size < SB_PRECOND_RANDOM_BS)
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "--precondition=fill-random: the region (%llu bytes) is "
					    "smaller than one 4 KiB request",
					    (unsigned long long)size);
		sb_precond_random_job(&j, off, size - size % SB_PRECOND_RANDOM_BS, st->amount, 32,
				      seed);
		return fill(t, &j, st, 1, 1, h, c, err);
	}
	return 0;
}

static int discard(const struct sb_state_opts *o, struct sb_jobtarget *t, struct sb_state *st,
		   struct sb_error *err)
{
	for (unsigned i = 0; o->discard_before && i < t->npaths; i++) {
		const int fd = sb_jobtarget_open(t, i, O_RDWR);
		if (fd < 0)
			return sb_error_set(err, fd, SB_ERR_ENV,
					    "cannot open '%s' to discard it: %s", t->paths[i],
					    strerror(-fd));
		const uint64_t before = st->discard_bytes;
		const int e = sb_discard_region(fd, t->is_blockdev, t->paths[i], t->region_offset,
						t->region_size, st, err);
		close(fd);
		st->discard_bytes += before;
		if (e)
			return e;
	}
	return 0;
}

/* Many ranks: each brought its own target to the state, in its own time;
 * the measurement starts once every rank is done (a wait bounded by
 * RANKS_WAIT_S plus RANKS_WAIT_X times this rank's own preconditioning,
 * since another rank's target may be larger or slower), and not at all
 * when one failed (rank 0 names it). Rank 0 keeps every rank's state. */
#define RANKS_WAIT_S 600.0
#define RANKS_WAIT_X 50.0

static int ranks_done(const struct sb_state_opts *o, const char *path, struct sb_results *res,
		      const struct sb_run_hooks *h, struct sb_coord *c, int e, struct sb_error *err)
{
	struct sb_rank_state mine, *all = NULL;
	char w[48];
	const long v = sb_run_worst_within(h, c, e ? 1 : 0,
					   RANKS_WAIT_S +
						   RANKS_WAIT_X * (double)res->state.took_ns / 1e9);
	if (v < 0)
		return v;
	if (e) { /* said here, and named by rank 0 */
		sb_run_say_error(h, err);
		snprintf(err->msg, sizeof(err->msg), "%s on '%.300s' failed", what(o, w, sizeof(w)),
			 path);
	}
	e = sb_run_agree(h, c, e, err);
	memset(&mine, 0, sizeof(mine));
	mine.rank = sb_coord_rank(c);
	snprintf(mine.host, sizeof(mine.host), "%s", sb_coord_host(c));
	snprintf(mine.path, sizeof(mine.path), "%s", path);
	mine.state = res->state;
	const int n = sb_coord_size(c);
	if (sb_coord_rank(c) == 0 && !(all = calloc((size_t)n, sizeof(*all))))
		return sb_run_lost(h, "gathering the results", -ENOMEM);
	const int g = sb_coord_gather(c, &mine, sizeof(mine), all, SB_RUN_SETUP_TIMEOUT_S);
	if (g) {
		free(all);
		return sb_run_lost(h, "gathering the results", g);
	}
	if (all) { /* rank 0 */
		free(res->rank_states);
		res->rank_states = all;
		res->nrank_states = (unsigned)n;
	}
	return e;
}

int sb_run_state_apply(const struct sb_state_opts *o, struct sb_jobtarget *t, const char *path,
		       struct sb_results *res, const struct sb_run_hooks *h, struct sb_coord *c,
		       struct sb_error *err)
{
	if (!asked(o))
		return 0;
	struct sb_state *st = &res->state;
	memset(st, 0, sizeof(*st));
	st->precond = o->precond;
	st->purge = SB_PURGE_NONE;
	st->purge_asked = o->purge;
	st->region_offset = t->region_offset;
	st->region_bytes = t->region_size;
	res->have_state = 1;
	const uint64_t t0 = sb_now_ns();
	int e = precondition(o, t, path, st, h, c, err);
	st->took_ns = sb_now_ns() - t0;
	if (!e)
		e = discard(o, t, st, err);
	sb_state_name(st);
	if (!e && sb_run_hook_stop(h))
		e = sb_error_set(err, -EINTR, SB_ERR_STOPPED, "%s", "");
	if (sb_run_ranks(c) > 1)
		e = ranks_done(o, path, res, h, c, e, err);
	return e;
}
