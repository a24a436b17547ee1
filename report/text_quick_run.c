/*
 * storbench quick's text as its run ends (report.h, rep_quick_run_text):
 * the settings, what a stop left unmeasured, each target, a table per
 * direction of each test's median rate, its range, IOPS and latency (with
 * two targets, B/A); under mpirun each rank's median rate per test; the
 * warnings of two targets, each once.
 */
#include "report/report.h"

#define NTESTS SB_QUICK_TESTS
#define MAX_TARGETS 2

static const struct sb_summary_row *row_of(const struct sb_results *r, const char *test, int d)
{
	for (size_t i = 0; r && i < r->nsummary; i++)
		if (!strcmp(r->summary[i].test, test) && r->summary[i].ddir == d)
			return &r->summary[i];
	return NULL;
}

static void cell(FILE *f, const struct sb_summary_row *s)
{
	if (!s) {
		fprintf(f, " %9s %19s %9s %9s", "-", "", "-", "-");
		return;
	}
	char range[48];
	const double div = rep_rate_div(); /* MiB/s, or MB/s under --units=si */
	snprintf(range, sizeof(range), "(%.1f..%.1f)", s->bw_min / div, s->bw_max / div);
	fprintf(f, " %9.1f %19s %9.0f %9.1f", s->bw_median / div, range, s->iops_median,
		s->lat_mean_median_ns / 1000);
}

/* A stopped quick: what of the tests asked was measured, on each target
 * ("[B] "), and the run cut short; a target not reached says so. */
static void interrupted_line(FILE *f, const struct rep_quick_settings *c,
			     const struct sb_quick_result *q, const char *tag, const char *path)
{
	const struct sb_results *r = q->res;
	if (!r) {
		fprintf(f, "%sinterrupted before '%s' was measured\n", tag, path);
		return;
	}
	const unsigned asked = NTESTS * (q->writes ? 2 : 1);
	fprintf(f, "%sinterrupted: %zu of %u tests measured", tag, r->nsummary, asked);
	for (size_t i = 0; i < r->nsummary; i++)
		if (r->summary[i].nruns < c->repeat)
			fprintf(f, ", %s %s with %u of %u runs", r->summary[i].test,
				sb_ddir_name(r->summary[i].ddir), r->summary[i].nruns, c->repeat);
	const struct sb_job_result *last = r->njobs ? r->jobs[r->njobs - 1] : NULL;
	char t[32];
	if (last && last->interrupted)
		fprintf(f, " (the last run cut short at %s)",
			sb_fmt_ns((double)last->runtime_ns, t, sizeof(t)));
	fprintf(f, "%s; the figures cover what ran\n",
		r->nsummary ? "" : " (stopped in the layout or a warm-up)");
}

void rep_quick_run_text(FILE *f, const struct rep_quick_settings *c,
			const struct sb_quick_result *q, struct sb_results *const *res, int n,
			char *const *pos, int npos)
{
	char a[32], b[32];
	fprintf(f, "%s test file, %s x %u runs (after a warm-up)%s, direct I/O, random data\n",
		sb_fmt_size(c->size, a, sizeof(a)), sb_fmt_ns((double)c->runtime_ns, b, sizeof(b)),
		c->repeat, c->interrupted ? " asked" : "");
	for (int k = 0; c->interrupted && k < npos; k++)
		interrupted_line(f, c, &q[k], npos > 1 ? (k ? "[B] " : "[A] ") : "", pos[k]);
	for (int k = 0; k < n; k++) {
		if (n > 1)
			fprintf(f, "\n[%c] ", 'A' + k);
		rep_target_text(f, res[k]);
	}
	for (int d = SB_DDIR_READ; d <= SB_DDIR_WRITE; d++) {
		if (!row_of(res[0], c->tests[0].name, d) &&
		    (n < 2 || !row_of(res[1], c->tests[0].name, d)))
			continue;
		fprintf(f, "\n%-5s %-9s %9s %19s %9s %9s\n", d ? "WRITE" : "READ", "",
			rep_rate_unit(), "min..max", "IOPS", "lat(µs)");
		for (int i = 0; i < NTESTS; i++) {
			for (int k = 0; k < n; k++) {
				char label[48];
				snprintf(label, sizeof(label), "%s%s",
					 n > 1 ? (k ? "[B] " : "[A] ") : "", c->tests[i].name);
				fprintf(f, "%-15s", label);
				cell(f, row_of(res[k], c->tests[i].name, d));
				fputc('\n', f);
			}
			const struct sb_summary_row *x = n > 1 ? row_of(res[0], c->tests[i].name, d)
							       : NULL;
			const struct sb_summary_row *y = n > 1 ? row_of(res[1], c->tests[i].name, d)
							       : NULL;
			if (x && y && x->bw_median > 0)
				fprintf(f, "%-15s %8.2fx\n", "    B/A",
					y->bw_median / x->bw_median);
		}
	}
	if (c->repeat < sb_diff_runs_needed())
		fprintf(f,
			"\nnote: %u run%s per test: 'storbench compare' cannot tell a change from "
			"noise\nwith fewer than %u runs a side; measure with --repeat=%d to compare "
			"results\n",
			c->repeat, c->repeat == 1 ? "" : "s", sb_diff_runs_needed(),
			SB_DIFF_RUNS_ADVISED);
}

/* Many ranks: each rank's median bandwidth per test (a column per rank,
 * up to 8; the JSON's client_stats has them all). */
void rep_quick_ranks_text(FILE *f, const struct sb_quick_result *q)
{
	const struct sb_results *r = q->res;
	const unsigned nr = r->njobs ? r->jobs[0]->nclients : 0;
	if (nr < 2)
		return;
	if (nr > 8) {
		fprintf(f, "\n%u ranks: each rank's figures are in the JSON's client_stats\n", nr);
		return;
	}
	fprintf(f, "\nper rank, %s (median of the runs)\n%-19s", rep_rate_unit(), "test");
	for (unsigned k = 0; k < nr; k++)
		fprintf(f, " %9s%-2u", "rank ", r->jobs[0]->clients[k].rank);
	fputc('\n', f);
	for (unsigned i = 0; i < q->nspans; i++) {
		const struct sb_quick_span *s = &q->spans[i];
		if (!s->n)
			continue;
		const int d = r->jobs[s->first]->opts.rw == SB_RW_WRITE ||
			      r->jobs[s->first]->opts.rw == SB_RW_RANDWRITE;
		char label[48];
		snprintf(label, sizeof(label), "%s %s", s->test, d ? "write" : "read");
		fprintf(f, "%-19s", label);
		for (unsigned k = 0; k < nr; k++) {
			double bw[101];
			unsigned m = 0;
			for (size_t j = s->first; j < s->first + s->n && m < 101; j++) {
				const struct sb_job_result *jr = r->jobs[j];
				if (k >= jr->nclients)
					continue;
				const struct sb_job_result *cj = jr->clients[k].job;
				if (cj->runtime_ns &&
				    cj->dir[d].ios) /* a run that moved nothing: none */
					bw[m++] = (double)cj->dir[d].bytes * 1e9 /
						  (double)cj->runtime_ns;
			}
			fprintf(f, " %11.1f", m ? sb_median(bw, m) / rep_rate_div() : 0.0);
		}
		fputc('\n', f);
	}
}

/* The lines of a result's warnings (sb_results_warnings), for a list. */
struct lines {
	char *v[64];
	size_t n;
};

static void keep_line(const char *line, void *ctx)
{
	struct lines *l = ctx;
	if (l->n < SB_ARRAY_SIZE(l->v) && (l->v[l->n] = strdup(line)))
		l->n++;
}

/* Two targets: each warning once, with the target it is about ("[B]
 * 'PATH'"), or both where both raised it in the same words. */
void rep_quick_warnings_text(FILE *f, struct sb_results *const *res, char *const *pos)
{
	struct lines l[MAX_TARGETS] = { 0 };
	for (int k = 0; k < MAX_TARGETS; k++)
		sb_results_warnings(res[k], keep_line, &l[k]);
	for (int k = 0; k < MAX_TARGETS; k++)
		for (size_t i = 0; i < l[k].n; i++) {
			int both = 0;
			for (size_t j = 0; j < l[!k].n && !both; j++)
				both = !strcmp(l[k].v[i], l[!k].v[j]);
			if (both && k) /* said with A's */
				continue;
			if (both)
				fprintf(f, "warning: [A] '%s' and [B] '%s': %s\n", pos[0], pos[1],
					l[k].v[i]);
			else
				fprintf(f, "warning: [%c] '%s': %s\n", 'A' + k, pos[k], l[k].v[i]);
		}
	for (int k = 0; k < MAX_TARGETS; k++)
		for (size_t i = 0; i < l[k].n; i++)
			free(l[k].v[i]);
}
