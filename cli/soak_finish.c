/* storbench soak: the end of a log (summary, results, verdict), which a
 * Ctrl-C reaches too; under mpirun each rank's own, then rank 0's
 * aggregate (soak_ranks.c). */
#include "cli/soak.h"
#include "cli/info.h"

/* An iozone cell's changes, as the throughput's. */
static void soak_cell_warnings(struct sb_results *res, const struct sb_soak_cell_metric *c)
{
	char f[32], r[32];
	for (size_t i = 0; i < c->m.nchanges; i++)
		sb_results_warn(res,
				"%s (file %s, record %s) %s from %.0f KiB/s to %.0f KiB/s at "
				"iteration %llu",
				sb_sweep_test_name(c->test),
				sb_fmt_size(c->file_size, f, sizeof(f)),
				sb_fmt_size(c->record_size, r, sizeof(r)),
				c->m.changes[i].after < c->m.changes[i].before ? "fell" : "rose",
				c->m.changes[i].before, c->m.changes[i].after,
				(unsigned long long)c->m.changes[i].at);
}

/* A word a shell takes as it is, or in single quotes. */
static void shell_word(const char *w, char *buf, size_t len)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_./=+-:,@%") == strlen(w)) {
		snprintf(buf, len, "%s", w);
		return;
	}
	size_t n = 0;
	buf[n++] = '\'';
	for (; *w && n + 5 < len; w++) {
		if (*w == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *w;
		}
	}
	buf[n++] = '\'';
	buf[n] = 0;
}

/* The command line that goes on with the soak of logname (rank 0's name
 * under mpirun, not a rank's own), as this one was started. */
static void resume_command(const struct soak_state *s, const char *logname, char *buf, size_t len)
{
	char log[4200], prog[4200], mpi[32] = "";
	size_t n = strlen(logname), suffix = 0;
	if (cli_ranks() > 1) {
		char own[32];
		snprintf(own, sizeof(own), ".rank-%d", cli_rank());
		suffix = n > strlen(own) && !strcmp(logname + n - strlen(own), own) ? strlen(own)
										    : 0;
		snprintf(mpi, sizeof(mpi), "mpirun -n %d ", cli_ranks());
	}
	char base[4096];
	snprintf(base, sizeof(base), "%.*s", (int)(n - suffix), logname);
	shell_word(base, log, sizeof(log));
	shell_word(s->prog && *s->prog ? s->prog : "storbench", prog, sizeof(prog));
	const int w = snprintf(buf, len, "%s%s soak --resume=%s", mpi, prog, log);
	if (w < 0 || (size_t)w >= len) /* a name longer than a line: said, not cut */
		snprintf(buf, len, "%ssoak --resume with the log's name", mpi);
}

int soak_finish_log(struct soak_state *s, const char *logname, int quiet)
{
	const struct soak_opts *o = s->o;
	struct sb_soak_summary sum;
	int rc = 0;

	struct sb_soak_cell_metric *cells = NULL;
	size_t ncells = 0;
	if (sb_soak_summarize(s->it, s->nit, o->fail_on_anomaly, &sum) < 0 ||
	    sb_soak_summarize_cells(s->it, s->nit, o->fail_on_anomaly, &sum, &cells, &ncells) < 0) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	if (s->stopped || s->abort_reason[0]) {
		char resume[1024];
		resume_command(s, logname, resume, sizeof(resume));
		sb_soak_stop(&sum, s->stopped ? s->stopped : SB_SOAK_ABORTED, s->abort_reason,
			     resume);
	}
	const int both = s->health_ok[0] && s->health_ok[1];
	const struct sb_soak_result sr = {
		.sum = &sum,
		.stop_change = s->stop_changed ? &s->stop_change : NULL,
		.kmsg_watched = s->kmsg_ok,
		.health_before = both ? &s->health[0] : NULL,
		.health_after = both ? &s->health[1] : NULL,
		.it = s->it,
		.nit = s->nit,
		.cells = cells,
		.ncells = ncells,
		.iter_ranks = s->fin_ranks,
		.nranks = s->fin_nranks,
	};
	if (soak_log_summary(s, &sr) < 0)
		rc = SB_EXIT_ENV;
	struct sb_results *res = sb_results_create("soak");
	if (!res) {
		free(cells);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &s->t.ct, o->iozone ? o->za.file : s->t.v.path);
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
	for (size_t c = 0; c < ncells; c++)
		soak_cell_warnings(res, &cells[c]);
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
		soak_cells_text(stdout, cells, ncells);
		render_target_text(stdout, res);
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
	free(cells);
	if (cli_interrupted())
		return cli_interrupt_status();
	if (rc)
		return rc;
	/* stopped by another rank's interrupt */
	if (s->stopped == SB_SOAK_INTERRUPTED)
		return SB_EXIT_SIGINT;
	return sum.pass ? SB_EXIT_OK : SB_EXIT_FAIL;
}
