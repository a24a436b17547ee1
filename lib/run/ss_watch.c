/*
 * fio's steadystate while the jobs run, as fio 3.33's steadystate_check:
 * once a second (from the start; the first figure one second after
 * ss_ramp) each unit's bytes and requests over that second, scaled as fio
 * scales them, into its window; once the window is full and the criterion
 * holds, the unit's jobs stop, by design (fio_mark_td_terminate).
 */
#include "lib/run/ss_watch.h"

#define SS_CHECK_MS 1000ull /* fio 3.33's ss_check_interval */
#define SS_CHECK_NS (SS_CHECK_MS * 1000000ull)

int sb_ss_watch_init(struct sb_ss_watch *w, const struct sb_run_group_job *js, unsigned n,
		     uint64_t start_ns)
{
	memset(w, 0, sizeof(*w));
	for (unsigned i = 0; i < n && i < SB_RUN_GROUP_MAX; i++)
		w->unit_of[i] = -1;
	for (unsigned i = 0; i < n && i < SB_RUN_GROUP_MAX; i++) {
		const struct sb_job_opts *o = js[i].job;
		if (!o->ss_dur_s)
			continue;
		/* with group_reporting, the unit of an earlier job of its group */
		for (unsigned k = 0; k < i && o->group_reporting; k++)
			if (w->unit_of[k] >= 0 && js[k].job->group_reporting &&
			    js[k].job->exit_group == o->exit_group)
				w->unit_of[i] = w->unit_of[k];
		if (w->unit_of[i] >= 0)
			continue;
		struct sb_ss_unit *u = realloc(w->u, (w->nu + 1) * sizeof(*u));
		if (!u)
			goto nomem;
		w->u = u;
		u = &w->u[w->nu];
		memset(u, 0, sizeof(*u));
		if (sb_ss_init(&u->ss, o->ss_flags, o->ss_limit, o->ss_dur_s) < 0)
			goto nomem;
		u->ramp_ns = o->ss_ramp_ns;
		u->ramp_over = !o->ss_ramp_ns;
		u->start_ns = u->prev_ns = start_ns;
		u->next_ns = start_ns + SS_CHECK_NS;
		w->unit_of[i] = (int)w->nu++;
	}
	return 0;
nomem:
	sb_ss_watch_free(w);
	return -ENOMEM;
}

/* Unit k's second is over: its running jobs' figures, summed */
static void take(struct sb_ss_watch *w, unsigned k, struct sb_run *const *runs,
		 const struct sb_progress *p, unsigned n, uint64_t now, unsigned char *halted)
{
	struct sb_ss_unit *u = &w->u[k];
	const uint64_t ms = (now - u->prev_ns) / 1000000ull;
	uint64_t bw = 0, iops = 0;
	int running = 0;
	for (unsigned i = 0; i < n; i++) {
		if (w->unit_of[i] != (int)k)
			continue;
		uint64_t b = 0, io = 0;
		for (int d = 0; d < SB_DDIR_N; d++) {
			b += p[i].bytes[d];
			io += p[i].ios[d];
		}
		if (!p[i].done) {
			running = 1;
			/* fio's: figures once ss_ramp and one interval are over */
			if (!u->ramp_over && now - u->start_ns >= u->ramp_ns + SS_CHECK_NS)
				u->ramp_over = 1;
			bw += sb_ss_sample(b - w->prev_bytes[i], ms, SS_CHECK_MS);
			iops += sb_ss_sample(io - w->prev_ios[i], ms, SS_CHECK_MS);
		}
		w->prev_bytes[i] = b;
		w->prev_ios[i] = io;
	}
	u->prev_ns = now;
	if (!running || !u->ramp_over || !sb_ss_add(&u->ss, iops, bw))
		return;
	for (unsigned i = 0; i < n; i++)
		if (w->unit_of[i] == (int)k) {
			halted[i] = 1;
			sb_run_stop(runs[i]);
		}
}

void sb_ss_watch_look(struct sb_ss_watch *w, struct sb_run *const *runs,
		      const struct sb_progress *p, unsigned n, uint64_t now, unsigned char *halted)
{
	for (unsigned k = 0; k < w->nu; k++) {
		struct sb_ss_unit *u = &w->u[k];
		if (u->ss.attained || now < u->next_ns)
			continue;
		take(w, k, runs, p, n, now, halted);
		while (u->next_ns <= now)
			u->next_ns += SS_CHECK_NS;
	}
}

uint64_t sb_ss_watch_next(const struct sb_ss_watch *w)
{
	uint64_t next = UINT64_MAX;
	for (unsigned k = 0; k < w->nu; k++)
		if (!w->u[k].ss.attained)
			next = SB_MIN(next, w->u[k].next_ns);
	return next;
}

int sb_ss_watch_end(const struct sb_ss_watch *w, const struct sb_run_group_job *js, unsigned n)
{
	for (unsigned i = 0; i < n && i < SB_RUN_GROUP_MAX; i++) {
		if (w->unit_of[i] < 0)
			continue;
		const struct sb_ss *s = &w->u[w->unit_of[i]].ss;
		struct sb_fio_ss *r = sb_fio_ss_new(s->n);
		if (!r)
			return -ENOMEM;
		r->flags = s->flags;
		r->limit = s->limit;
		r->dur_s = s->n;
		r->attained = s->attained;
		r->criterion = s->last.criterion;
		r->deviation = s->last.deviation;
		r->slope = s->last.slope;
		sb_ss_window(s, r->iops, r->bw);
		free(js[i].res->ss);
		js[i].res->ss = r;
	}
	return 0;
}

void sb_ss_watch_free(struct sb_ss_watch *w)
{
	for (unsigned k = 0; k < w->nu; k++)
		sb_ss_free(&w->u[k].ss);
	free(w->u);
	w->u = NULL;
	w->nu = 0;
}
