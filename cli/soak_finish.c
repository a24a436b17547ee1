/* storbench soak: the end of a log (summary, results, verdict), which a
 * Ctrl-C reaches too; under mpirun each rank's own, then rank 0's
 * aggregate (soak_ranks.c). */
#include "cli/soak.h"
#include "cli/info.h"

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
