/* storbench soak: the loop over iterations, and the end (summary, results,
 * verdict), which a Ctrl-C reaches too. */
#include "cli/soak.h"
#include "cli/info.h"

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
		if (rc) {
			snprintf(s->abort_reason, sizeof(s->abort_reason),
				 "iteration %llu could not run: %s", (unsigned long long)next,
				 s->t.why[0] ? s->t.why : "see the message above");
			return rc;
		}
		if (soak_state_add(s, &it) < 0) {
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		if (soak_log_iteration(s, &it) < 0)
			return SB_EXIT_ENV;
		if (text) {
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

int soak_finish(struct soak_state *s, const char *logname)
{
	if (cli_ranks() > 1)
		return soak_ranks_finish(s, logname);
	return soak_finish_log(s, logname, 0);
}

int soak_finish_log(struct soak_state *s, const char *logname, int quiet)
{
	const struct soak_opts *o = s->o;
	struct sb_soak_summary sum;
	int rc = 0;

	if (sb_soak_summarize(s->it, s->nit, o->fail_on_anomaly, &sum) < 0) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	if (s->abort_reason[0])
		sb_soak_abort(&sum, s->abort_reason);
	const int both = s->health_ok[0] && s->health_ok[1];
	const struct sb_soak_result sr = {
		.sum = &sum,
		.stop_change = s->stop_changed ? &s->stop_change : NULL,
		.kmsg_watched = s->kmsg_ok,
		.health_before = both ? &s->health[0] : NULL,
		.health_after = both ? &s->health[1] : NULL,
		.it = s->it,
		.nit = s->nit,
	};
	if (soak_log_summary(s, &sr) < 0)
		rc = SB_EXIT_ENV;
	struct sb_results *res = sb_results_create("soak");
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &s->t.ct, s->t.v.path);
	res->target_created = !s->region_mode;
	res->interrupted = !!cli_interrupted();
	res->extra_key = "soak";
	res->extra_json = sb_soak_results_json;
	res->extra_ctx = &sr;
	if (!s->kmsg_ok)
		sb_results_warn(res,
				"/dev/kmsg could not be read: kernel messages were not watched");
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sum.m[k].nchanges; i++)
			sb_results_warn(res,
					"%s throughput %s from %.1f MiB/s to %.1f MiB/s at "
					"iteration %llu",
					k ? "read" : "write",
					sum.m[k].changes[i].after < sum.m[k].changes[i].before
						? "fell"
						: "rose",
					sum.m[k].changes[i].before / 1048576,
					sum.m[k].changes[i].after / 1048576,
					(unsigned long long)sum.m[k].changes[i].at);
	if (quiet) {
		/* a rank's own log: its summary line is written */
	} else if (o->v.output && cli_write_json(res, o->v.output) < 0)
		rc = SB_EXIT_ENV;
	if (quiet) {
	} else if (o->v.json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		soak_summary_text(stdout, s, &sum);
		for (int k = 0; k < 2; k++) {
			if (!s->health_ok[k] || s->health[k].kind == SB_HEALTH_NONE)
				continue;
			printf("health %s:\n", k ? "after" : "before");
			render_health_text(stdout, &s->health[k], "  ");
		}
		printf("log: %s\n", logname);
	}
	if (!quiet)
		render_warnings_text(stderr, res);
	sb_results_free(res);
	if (cli_interrupted())
		return cli_interrupt_status();
	if (rc)
		return rc;
	return sum.pass ? SB_EXIT_OK : SB_EXIT_FAIL;
}
