/* storbench soak: the loop over iterations (the end is soak_finish.c). */
#include "cli/soak.h"

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

static int done(const struct soak_state *s, uint64_t next)
{
	const struct soak_opts *o = s->o;
	if (cli_interrupted())
		return 1;
	if (o->iterations && next > o->iterations)
		return 1;
	/* the monotonic clock: a step of the wall clock (NTP on a board without
	 * a real-time clock) neither ends nor stretches a soak */
	return o->duration_ns && s->prior_ns + (sb_now_ns() - s->mono_start_ns) >= o->duration_ns;
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
		printf("resuming after iteration %llu\n", (unsigned long long)(next - 1));
	if (text && s->stop_changed) {
		char why[256];
		soak_stop_change_text(&s->stop_change, why, sizeof(why));
		printf("%s\n", why);
	}
	for (;; next++) {
		/* many ranks: they start each iteration together (a barrier),
		 * and stop when one would (its --duration, a Ctrl-C) */
		int stop = done(s, next);
		if (cli_ranks() > 1)
			stop = cli_ranks_worst(stop);
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
			if (soak_ranks_iteration(s, &it, rc, &stop) || stop > 1)
				return stop > 1 ? stop : SB_EXIT_ENV;
			if (stop)
				break;
			if (o->idle_ns && !done(s, next + 1))
				pause_for(o->idle_ns);
			continue;
		}
		if (rc)
			free(it.cells);
		if (rc) {
			snprintf(s->abort_reason, sizeof(s->abort_reason),
				 "iteration %llu could not run: %s", (unsigned long long)next,
				 s->t.why[0] ? s->t.why : "see the message above");
			return rc;
		}
		if (soak_state_add(s, &it) < 0) {
			free(it.cells);
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		if (soak_log_iteration(s, &it) < 0)
			return SB_EXIT_ENV;
		if (text && o->iozone) {
			soak_iozone_print(stdout, s, &it);
			fflush(stdout);
		} else if (text) {
			soak_print_iteration(stdout, &it, 0);
			fflush(stdout);
		}
		if (it.unwritten) {
			snprintf(s->abort_reason, sizeof(s->abort_reason),
				 "%s: %llu blocks of iteration %llu could not be written, from "
				 "offset %llu",
				 strerror(ENOSPC), (unsigned long long)it.unwritten,
				 (unsigned long long)it.n,
				 (unsigned long long)it.first_error_offset);
			return SB_EXIT_ENV;
		}
		if (it.interrupted || (o->stop_on_error && sb_soak_iter_failed(&it)))
			break;
		if (o->idle_ns && !done(s, next + 1))
			pause_for(o->idle_ns);
	}
	return 0;
}
