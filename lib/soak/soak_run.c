/*
 * storbench soak as a library call (soak.h): the stop condition, the log
 * and what the soak watches (kernel messages, health) before the loop
 * (soak_loop.c), the end after it (soak_finish.c), and what the hooks are
 * told on the way.
 */
#include "lib/soak/soak_int.h"
#include "lib/target/scratch.h"
#include "lib/target/target_device.h"

#include <sys/stat.h>

static const struct sb_soak_hooks no_hooks;

/* A soak without a limit stops after 10 iterations. */
static void default_stop(uint64_t *iterations, uint64_t duration_ns)
{
	if (!*iterations && !duration_ns)
		*iterations = 10;
}

/* The stop condition: the options', or (a resume) the log's, which the
 * command line may replace (both, when it gives one): s->stop_change says
 * from what to what when that changes it. */
static void stop_condition(struct soak *s, const struct sb_soak_resume_state *r)
{
	const struct sb_soak_opts *o = s->o;
	s->iterations = r && r->stop_logged ? r->iterations : o->iterations;
	s->duration_ns = r && r->stop_logged ? r->duration_ns : o->duration_ns;
	default_stop(&s->iterations, s->duration_ns);
	if (!r || (!o->resume_iterations && !o->resume_duration_ns))
		return;
	struct sb_soak_stop_change *c = &s->stop_change;
	c->after_iteration = s->nit ? s->it[s->nit - 1].n : 0;
	c->iterations_before = s->iterations;
	c->duration_ns_before = s->duration_ns;
	c->iterations = o->resume_iterations;
	c->duration_ns = o->resume_duration_ns;
	s->stop_changed = c->iterations != c->iterations_before ||
			  c->duration_ns != c->duration_ns_before;
	if (s->stop_changed) {
		s->iterations = c->iterations;
		s->duration_ns = c->duration_ns;
		default_stop(&s->iterations, s->duration_ns);
	}
}

/* What a log read back holds, taken over. */
static void take_resume(struct soak *s, struct sb_soak_resume_state *r)
{
	s->resumed = 1;
	s->started_ns = r->started_ns;
	s->it = r->it;
	s->nit = r->nit;
	s->capit = r->capit;
	for (size_t i = 0; i < s->nit; i++)
		s->ncut += !!s->it[i].interrupted;
	/* this run's first write takes a generation no write used */
	s->gen_base = r->generation + 1;
	s->left = r->left;
	s->nleft = r->nleft;
	s->agg = r->agg;
	s->nagg = r->nagg;
	s->capagg = r->capagg;
	r->it = r->agg = NULL;
	r->nit = r->nagg = 0;
	r->left = NULL;
	r->nleft = 0;
}

/* The log: a new file (refused when it exists), or the one resumed; a
 * warning when it lives on the device under test. */
static int open_log(struct soak *s)
{
	const struct sb_target_info *ti = s->o->info;
	snprintf(s->logname, sizeof(s->logname), "%s", s->o->log);
	/* many ranks: rank 0's name; each rank's own log is NAME.rank-N, and
	 * rank 0 writes NAME, the All clients figures */
	int e = s->nranks > 1 ? soak_ranks_open(s, s->resumed) : 0;
	if (e)
		return e;
	struct stat ls;
	if (!s->resumed && stat(s->logname, &ls) == 0)
		return soak_fail(s, -EEXIST, SB_ERR_INPUT,
				 "--log: '%s' exists (name a new one, or --resume it)", s->logname);
	if ((e = soak_log_open(s, &s->log, s->logname, s->resumed)))
		return e;
	struct sb_target_info li;
	if (ti && sb_target_probe(s->logname, &li) == 0 && li.devname[0] && ti->devname[0] &&
	    (!strcmp(li.disk, ti->disk) || !strcmp(li.devname, ti->devname)))
		soak_warn(s,
			  "the log '%s' is on the device under test (%s): a failure may take it "
			  "along; --log can put it elsewhere",
			  s->logname, li.devname);
	return 0;
}

/* The log's first line; alone, a log without it is of no use: the one
 * just made goes (by its descriptor: never what a name might name
 * meanwhile). */
static int first_line(struct soak *s)
{
	s->started_ns = soak_wall_ns();
	const int e = soak_log_config(s, s->log, 0);
	if (s->nranks > 1)
		return soak_agree(s, e, SB_ERR_ENV);
	if (e && sb_scratch_remove(s->logname, fileno(s->log)) < 0)
		soak_warn(s, "could not remove the empty log '%s'", s->logname);
	return e;
}

/* Before the loop: the log, what a killed iteration left, the kernel's
 * messages and the health before. */
static int prepare(struct soak *s)
{
	int e;
	if (s->iozone && (e = soak_iozone_prepare(s)))
		return e;
	if ((e = soak_agree(s, open_log(s), SB_ERR_ENV)))
		return e;
	/* logged before any iteration: a later resume keeps the new limit */
	if (s->stop_changed && (e = soak_agree(s, soak_log_stop_change(s, s->log), SB_ERR_ENV)))
		return e;
	/* what a killed iteration left, before anything new is made; then
	 * the generation and files of this run, before it writes */
	if (s->resumed && !s->iozone) {
		soak_log_leftovers(s);
		s->gen_first = s->nit ? s->it[s->nit - 1].n + 1 : 1;
		if ((e = soak_agree(s, soak_log_start(s, s->gen_first), SB_ERR_ENV)))
			return e;
	}
	/* the devices the target stands on: kernel lines about others are
	 * told, not counted */
	const struct sb_target_info *ti = s->o->info;
	sb_kmsg_stack_build(&s->kstack, NULL, ti ? ti->devname : NULL);
	s->kmsg_ok = sb_kmsg_open(&s->kmsg) == 0;
	s->health_ok[0] = ti && sb_health_capture(ti, &s->health[0]) == 0;
	if (!s->resumed && (e = first_line(s)))
		return e;
	return s->nranks > 1 ? soak_ranks_begin(s, s->resumed) : 0;
}

static void tell_begin(struct soak *s)
{
	const struct sb_soak_begin b = {
		.resumed_after = s->nit ? s->it[s->nit - 1].n : 0,
		.cut_short = s->nit && s->it[s->nit - 1].interrupted,
		.stop_change = s->stop_changed ? &s->stop_change : NULL,
		.kmsg_watched = s->kmsg_ok,
	};
	if (s->h->begin)
		s->h->begin(s->h->ctx, &b);
}

static int init(struct soak *s, const struct sb_soak_opts *o, const struct sb_soak_hooks *h,
		struct sb_coord *coord, struct sb_soak_result *out, struct sb_error *err)
{
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	s->o = o;
	s->h = h ? h : &no_hooks;
	s->co = coord;
	s->nranks = coord ? sb_coord_size(coord) : 1;
	s->rank = coord ? sb_coord_rank(coord) : 0;
	s->err = err;
	s->out = out;
	s->kmsg.fd = -1;
	s->gen_first = s->gen_base = 1;
	s->seed = o->seed;
	s->iozone = !!o->iozone;
	s->vt = o->vt;
	if (o->resume)
		take_resume(s, o->resume->st);
	stop_condition(s, o->resume ? o->resume->st : NULL);
	if (!o->log || (!s->iozone && (!o->vt || !o->ops)))
		return soak_fail(s, -EINVAL, SB_ERR_INPUT, "soak: no %s",
				 !o->log ? "log" : "target or engine");
	s->region_mode = !s->iozone &&
			 (o->vt->is_blockdev || (o->info && o->info->kind == SB_TARGET_FILE));
	out->iozone = s->iozone;
	return 0;
}

static void cleanup(struct soak *s)
{
	sb_kmsg_close(&s->kmsg);
	if (s->log)
		fclose(s->log);
	sb_soak_iters_free(s->it, s->nit);
	for (size_t i = 0; i < s->nleft; i++)
		free(s->left[i].path);
	free(s->left);
	free(s->zr);
	soak_ranks_free(s);
}

int sb_soak_run(const struct sb_soak_opts *o, const struct sb_soak_hooks *h, struct sb_coord *coord,
		struct sb_soak_result *out, struct sb_error *err)
{
	struct soak *s = calloc(1, sizeof(*s));
	int e;
	if (!s) {
		memset(out, 0, sizeof(*out));
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	}
	e = init(s, o, h, coord, out, err);
	if (!e)
		e = prepare(s);
	if (!e) {
		tell_begin(s);
		e = soak_loop(s);
		s->health_ok[1] = o->info && sb_health_capture(o->info, &s->health[1]) == 0;
		/* the job ends at once when a rank does not answer */
		const int f = s->coord_e ? 0 : soak_ranks_finish(s);
		if (!e)
			e = f;
	}
	cleanup(s);
	free(s);
	return e;
}
