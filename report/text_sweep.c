/*
 * A sweep in text (storbench report): per test the matrix of KiB/s (file
 * size down, record size across), and for a sweep of many ranks (mpirun,
 * docs/mpi.md) the matrices are the All clients aggregate, followed by a
 * row per rank and test: its rate over the test's cells and the widest
 * start and end spread of the ranks. From storbench.sweep.
 */
#include "report/report.h"

double rep_sweep_widest(const struct sb_sweep_doc *s, int test, int end)
{
	double w = 0;
	for (unsigned fi = 0; s->spread && fi < s->r.nfile; fi++)
		for (unsigned ri = 0; ri < s->r.nrec; ri++) {
			const double v = s->spread[test][end][fi][ri];
			if (v > w) /* NAN: not measured */
				w = v;
		}
	return w;
}

static void size_kib(FILE *f, uint64_t b)
{
	fprintf(f, "%10.0f", (double)b / 1024);
}

static void matrix(FILE *f, const struct sb_sweep_doc *s, int t)
{
	const struct sb_sweep_result *r = &s->r;
	fprintf(f, "\n%s (%s), KiB/s: file size down, record size across (KiB)\n",
		sb_sweep_test_title(t), sb_sweep_test_name(t));
	fprintf(f, "%10s", "");
	for (unsigned ri = 0; ri < r->nrec; ri++) {
		fputc(' ', f);
		size_kib(f, r->record_sizes[ri]);
	}
	fputc('\n', f);
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		size_kib(f, r->file_sizes[fi]);
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
				fprintf(f, " %10.0f", (double)r->kibps[t][fi][ri]);
			else
				fprintf(f, " %10s", "-");
		}
		fputc('\n', f);
	}
}

static void ranks(FILE *f, const struct sb_sweep_doc *s)
{
	const struct sb_sweep_result *agg = &s->r;
	struct rep_ttable t = {
		{ "rank", "host", "test", "bandwidth", "start spread", "end spread" },
		6,
		3,
		NULL,
		0,
		0
	};
	char a[48];
	for (unsigned k = 0; k < agg->nranks; k++) {
		const struct sb_sweep_rank *rk = &agg->ranks[k];
		for (int test = 0; test < SB_SWEEP_NTESTS; test++) {
			if (!(s->o.tests & (1u << test)))
				continue;
			if (!rep_tt_row(&t))
				return;
			snprintf(a, sizeof(a), "%d", rk->rank);
			rep_tt_set(&t, 0, a);
			rep_tt_set(&t, 1, rk->host);
			rep_tt_set(&t, 2, sb_sweep_test_name(test));
			const double bw = sb_sweep_rank_rate(&rk->r, test);
			rep_tt_set(&t, 3, bw < 0 ? "-" : rep_fmt_rate(bw, a, sizeof(a)));
			/* the test's widest spread, the same on each rank's row */
			snprintf(a, sizeof(a), "%.3f ms", 1e3 * rep_sweep_widest(s, test, 0));
			rep_tt_set(&t, 4, a);
			snprintf(a, sizeof(a), "%.3f ms", 1e3 * rep_sweep_widest(s, test, 1));
			rep_tt_set(&t, 5, a);
		}
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nranks: each rank's bytes over its time, per test; the spreads are the "
		   "widest of the test's cells\n");
	rep_tt_print(f, &t);
}

void rep_text_sweep(FILE *f, const struct rep_doc *d)
{
	const struct sb_sweep_doc *s = d->sweep;
	if (!s || !s->o.tests)
		return;
	fprintf(f, "\nsweep: %u of %u cells measured%s", s->r.cells_done, s->r.cells_planned,
		s->r.interrupted ? " (interrupted)" : "");
	if (s->r.nranks)
		fprintf(f,
			"; All clients of %u ranks (each cell the ranks' bytes over the time "
			"from the earliest start to the latest end)",
			s->r.nranks);
	fputc('\n', f);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (s->o.tests & (1u << t))
			matrix(f, s, t);
	ranks(f, s);
}
