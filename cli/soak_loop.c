/* storbench soak: the loop over iterations (the end is soak_finish.c). */
#include "cli/soak.h"

#include <signal.h>
#include <unistd.h>

static void pause_for(uint64_t ns)
{
	while (ns && !cli_interrupted()) {
		uint64_t step = SB_MIN(ns, 100000000ull);
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* The soak has done what it was asked: its iterations, or its time. */
static int planned_done(const struct soak_state *s, uint64_t next)
{
	const struct soak_opts *o = s->o;
	if (o->iterations && next > soak_last_planned(s))
		return 1;
	/* the monotonic clock: a step of the wall clock (NTP on a board without
	 * a real-time clock) neither ends nor stretches a soak */
	return o->duration_ns && s->prior_ns + (sb_now_ns() - s->mono_start_ns) >= o->duration_ns;
}

/* 0 go on, 1 the plan is done, 2 a signal stops it first */
static int done(const struct soak_state *s, uint64_t next)
{
	if (planned_done(s, next))
		return 1;
	return cli_interrupted() ? 2 : 0;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT	? "SIGINT (Ctrl-C)"
	       : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGPIPE ? "SIGPIPE (the reader of the output went away)"
				: "a signal";
}

/* A signal (here, or on another rank) stopped the soak before its end:
 * why, in words. */
static void interrupted(struct soak_state *s, uint64_t last, int cut)
{
	char of[64] = "";
	const int sig = cli_interrupted();
	if (s->o->iterations) /* whole ones asked for */
		snprintf(of, sizeof(of), " (%llu of %llu whole)",
			 (unsigned long long)(s->nit - s->ncut),
			 (unsigned long long)s->o->iterations);
	s->stopped = SB_SOAK_INTERRUPTED;
	snprintf(s->abort_reason, sizeof(s->abort_reason), "%s%s %s iteration %llu%s",
		 sig ? "interrupted by " : "stopped as another rank was interrupted",
		 sig ? signal_name(sig) : "",
		 cut	? "in"
		 : last ? "after"
			: "before",
		 (unsigned long long)(last ? last : 1), of);
}

/* The soak cannot go on: why; the exit code. */
static int aborted(struct soak_state *s, int rc, const char *why)
{
	s->stopped = SB_SOAK_ABORTED;
	snprintf(s->abort_reason, sizeof(s->abort_reason), "%s", why);
	return rc;
}

/* One process: the iteration into the state, the log and the console;
 * 0 go on, -1 stop, else an exit code. */
static int one(struct soak_state *s, struct sb_soak_iter *it, int rc, int text)
{
	const struct soak_opts *o = s->o;
	char why[sizeof(s->abort_reason)];
	if (rc) {
		sb_soak_iter_release(it);
		snprintf(why, sizeof(why), "iteration %llu could not run: %s",
			 (unsigned long long)it->n, s->t.why[0] ? s->t.why : "see the message above");
		return aborted(s, rc, why);
	}
	if (soak_state_add(s, it) < 0) {
		sb_soak_iter_release(it);
		sb_err("out of memory");
		return aborted(s, SB_EXIT_ENV, "out of memory");
	}
	if (soak_log_iteration(s, it) < 0)
		return aborted(s, SB_EXIT_ENV, "the log could not be written");
	if (text && o->iozone)
		soak_iozone_print(stdout, s, it);
	else if (text)
		soak_print_iteration(stdout, it, 0);
	fflush(stdout);
	if (it->unwritten) {
		snprintf(why, sizeof(why),
			 "%s: %llu blocks of iteration %llu could not be written, from offset %llu",
			 strerror(ENOSPC), (unsigned long long)it->unwritten,
			 (unsigned long long)it->n, (unsigned long long)it->first_error_offset);
		return aborted(s, SB_EXIT_ENV, why);
	}
	if (it->interrupted)
		interrupted(s, it->n, 1);
	return it->interrupted || (o->stop_on_error && sb_soak_iter_failed(it)) ? -1 : 0;
}

int soak_loop(struct soak_state *s)
{
	const struct soak_opts *o = s->o;
	uint64_t next = s->nit ? s->it[s->nit - 1].n + 1 : 1;
	int text = !o->v.json_stdout;

	/* the time a resumed soak ran before, from the wall clock once (a clock
	 * now behind the log's counts as none) */
	const uint64_t last_end = s->nit ? s->it[s->nit - 1].end_ns : 0;
	s->prior_ns = last_end > s->started_ns ? last_end - s->started_ns : 0;
	s->mono_start_ns = sb_now_ns();
	s->first_n = next;
	/* many ranks: rank 0 says it all */
	if (cli_rank() != 0)
		text = 0;
	if (text && s->nit)
		printf("resuming after iteration %llu%s\n", (unsigned long long)(next - 1),
		       s->it[s->nit - 1].interrupted
			       ? " (cut short: it does not count, one more runs)"
			       : "");
	if (text && s->stop_changed) {
		char why[256];
		soak_stop_change_text(&s->stop_change, why, sizeof(why));
		printf("%s\n", why);
	}
	for (;; next++) {
		/* many ranks: they start each iteration together (a barrier),
		 * and stop when one would (its --duration, a Ctrl-C: the worst) */
		int stop = done(s, next);
		if (cli_ranks() > 1)
			stop = cli_ranks_worst(stop);
		if (stop == 2 && !s->stopped)
			interrupted(s, next - 1, 0);
		if (stop)
			break;
		struct sb_soak_iter it;
		memset(&it, 0, sizeof(it));
		it.n = next;
		int rc = soak_iteration(s, &it);
		if (cli_ranks() > 1) {
			if (!rc && (soak_state_add(s, &it) < 0 || soak_log_iteration(s, &it) < 0))
				rc = SB_EXIT_ENV;
			if (rc && !s->abort_reason[0])
				snprintf(s->abort_reason, sizeof(s->abort_reason),
					 "iteration %llu could not run: %s",
					 (unsigned long long)next,
					 s->t.why[0] ? s->t.why : "see the message above");
			if (soak_ranks_iteration(s, &it, rc, &stop) || stop > 1) {
				s->stopped = SB_SOAK_ABORTED;
				return stop > 1 ? stop : SB_EXIT_ENV;
			}
			if (stop && s->ranks_cut) /* a rank's iteration was cut short */
				interrupted(s, next, 1);
			if (stop)
				break;
		} else if ((stop = one(s, &it, rc, text)) != 0) {
			return stop > 0 ? stop : 0;
		}
		if (o->idle_ns && !done(s, next + 1))
			pause_for(o->idle_ns);
	}
	return 0;
}
