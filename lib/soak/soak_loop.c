/* storbench soak: the loop over iterations (the end is soak_finish.c). */
#include "lib/soak/soak_int.h"

#include <signal.h>

static void pause_for(struct soak *s, uint64_t ns)
{
	while (ns && !soak_stop_asked(s)) {
		uint64_t step = SB_MIN(ns, 100000000ull);
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* The soak has done what it was asked: its iterations, or its time. */
static int planned_done(const struct soak *s, uint64_t next)
{
	if (s->iterations && next > soak_last_planned(s))
		return 1;
	/* the monotonic clock: a step of the wall clock (NTP on a board without
	 * a real-time clock) neither ends nor stretches a soak */
	return s->duration_ns && s->prior_ns + (sb_now_ns() - s->mono_start_ns) >= s->duration_ns;
}

/* 0 go on, 1 the plan is done, 2 a stop asked first */
static int done(struct soak *s, uint64_t next)
{
	if (planned_done(s, next))
		return 1;
	return soak_stop_asked(s) ? 2 : 0;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT	? "SIGINT (Ctrl-C)"
	       : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGHUP	? "SIGHUP (the terminal hung up)"
	       : sig == SIGPIPE ? "SIGPIPE (the reader of the output went away)"
				: "a signal";
}

/* A stop (here, or on another rank) ended the soak before its end: why,
 * in words. */
static void interrupted(struct soak *s, uint64_t last, int cut)
{
	char of[64] = "";
	const int sig = s->signal;
	if (s->iterations) /* whole ones asked for */
		snprintf(of, sizeof(of), " (%llu of %llu whole)",
			 (unsigned long long)(s->nit - s->ncut), (unsigned long long)s->iterations);
	s->stopped = SB_SOAK_INTERRUPTED;
	snprintf(s->abort_reason, sizeof(s->abort_reason), "%s%s %s iteration %llu%s",
		 sig ? "interrupted by " : "stopped as another rank was interrupted",
		 sig ? signal_name(sig) : "",
		 cut	? "in"
		 : last ? "after"
			: "before",
		 (unsigned long long)(last ? last : 1), of);
}

/* The soak cannot go on: why; e returned. */
static int aborted(struct soak *s, int e, const char *why)
{
	s->stopped = SB_SOAK_ABORTED;
	snprintf(s->abort_reason, sizeof(s->abort_reason), "%s", why);
	return e;
}

/* One process: the iteration into the state, the log and the hooks; 0 go
 * on, 1 stop, < 0 an error. */
static int one(struct soak *s, struct sb_soak_iter *it, int e)
{
	char why[sizeof(s->abort_reason)];
	if (e) {
		sb_soak_iter_release(it);
		snprintf(why, sizeof(why), "iteration %llu could not run: %s",
			 (unsigned long long)it->n, s->why[0] ? s->why : "see the message above");
		return aborted(s, e, why);
	}
	if (soak_add(s, it) < 0) {
		sb_soak_iter_release(it);
		return aborted(s, soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory"),
			       "out of memory");
	}
	if ((e = soak_log_iteration(s, it)) < 0)
		return aborted(s, e, "the log could not be written");
	const struct sb_soak_event ev = { it, NULL, 0, s->iozone ? s->zr : NULL };
	if (s->h->iteration)
		s->h->iteration(s->h->ctx, &ev);
	if (it->unwritten) {
		snprintf(why, sizeof(why),
			 "%s: %llu blocks of iteration %llu could not be written, from offset %llu",
			 strerror(ENOSPC), (unsigned long long)it->unwritten,
			 (unsigned long long)it->n, (unsigned long long)it->first_error_offset);
		/* the run's error, not said: the iteration's line says it */
		if (!s->err->err)
			sb_error_set(s->err, -ENOSPC, SB_ERR_ENV, "%s", why);
		return aborted(s, -ENOSPC, why);
	}
	if (it->interrupted)
		interrupted(s, it->n, 1);
	return it->interrupted || (s->o->stop_on_error && sb_soak_iter_failed(it));
}

/* Many ranks: the iteration into this rank's state and log, then every
 * rank's to rank 0; 0 go on, 1 stop, < 0 an error. */
static int many(struct soak *s, struct sb_soak_iter *it, int e)
{
	int stop = 0;
	if (!e && (soak_add(s, it) < 0 || soak_log_iteration(s, it) < 0))
		e = -EIO;
	if (e && !s->abort_reason[0])
		snprintf(s->abort_reason, sizeof(s->abort_reason),
			 "iteration %llu could not run: %s", (unsigned long long)it->n,
			 s->why[0] ? s->why : "see the message above");
	const int c = soak_ranks_iteration(s, it, e, &stop);
	if (c || stop < 0) {
		s->stopped = SB_SOAK_ABORTED;
		return c ? c : stop;
	}
	if (stop && s->ranks_cut) /* a rank's iteration was cut short */
		interrupted(s, it->n, 1);
	return stop;
}

static void start(struct soak *s, uint64_t next)
{
	/* the time a resumed soak ran before, from the wall clock once (a clock
	 * now behind the log's counts as none) */
	const uint64_t last_end = s->nit ? s->it[s->nit - 1].end_ns : 0;
	s->prior_ns = last_end > s->started_ns ? last_end - s->started_ns : 0;
	s->mono_start_ns = sb_now_ns();
	s->first_n = next;
}

int soak_loop(struct soak *s)
{
	uint64_t next = s->nit ? s->it[s->nit - 1].n + 1 : 1;
	start(s, next);
	for (;; next++) {
		/* many ranks: they start each iteration together (a barrier),
		 * and stop when one would (its --duration, a stop: the worst) */
		long stop = done(s, next);
		if (s->nranks > 1) {
			if (s->coord_e)
				return s->coord_e;
			const int c = sb_coord_max(s->co, &stop, 1, SOAK_WAIT_S);
			if (c)
				return soak_coord_failed(s, "agreeing", c);
		}
		if (stop == 2 && !s->stopped)
			interrupted(s, next - 1, 0);
		if (stop)
			break;
		struct sb_soak_iter it;
		memset(&it, 0, sizeof(it));
		it.n = next;
		const int e = soak_iteration(s, &it);
		const int r = s->nranks > 1 ? many(s, &it, e) : one(s, &it, e);
		if (r < 0)
			return r;
		if (r)
			break;
		if (s->o->idle_ns && !done(s, next + 1))
			pause_for(s, s->o->idle_ns);
	}
	return 0;
}
