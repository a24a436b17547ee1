/*
 * A soak of many ranks (mpirun, docs/mpi.md) in the HTML report: after the
 * All clients charts, how far the ranks were apart (the start and end
 * spread of the iterations, and the slowest and fastest rank against the
 * median rank), each rank's write and read throughput as bars (its median
 * over its iterations, whiskers from its slowest to its fastest), and a
 * row per rank, from the iterations' "ranks" (rep_iters.rk).
 */
#include "report/chart.h"
#include "report/html.h"

#include <math.h>

#define CHART_RANKS 256 /* ranks drawn at most: the table has them all */

struct rank_stats {
	double med[2], lo[2], hi[2]; /* write, read bytes/s; NaN: none */
};

static void stats_of(const struct rep_rankser *r, struct rank_stats *s)
{
	for (int k = 0; k < 2; k++) {
		s->med[k] = rep_finite_median(r->bw[k], r->n);
		s->lo[k] = INFINITY;
		s->hi[k] = -INFINITY;
		for (size_t i = 0; i < r->n; i++)
			if (isfinite(r->bw[k][i])) {
				s->lo[k] = fmin(s->lo[k], r->bw[k][i]);
				s->hi[k] = fmax(s->hi[k], r->bw[k][i]);
			}
		if (!isfinite(s->lo[k]))
			s->lo[k] = s->hi[k] = NAN;
	}
}

/* The slowest and fastest rank by median write throughput (read, where
 * no rank wrote) against the median of the ranks' medians. */
static void skew(FILE *f, const struct rep_iters *it, const struct rank_stats *st)
{
	static const char *const names[2] = { "write", "read" };
	char a[48], b[48];
	fprintf(f, "<p class=\"meta\">%zu ranks", it->nrk);
	if (it->nspread[0] && it->nspread[1])
		fprintf(f,
			"; an iteration started on every rank within %.1f ms of each other on "
			"average (%.1f ms at the widest) and ended within %.1f ms (%.1f ms)",
			1e3 * it->spread_sum[0] / (double)it->nspread[0], 1e3 * it->spread_max[0],
			1e3 * it->spread_sum[1] / (double)it->nspread[1], 1e3 * it->spread_max[1]);
	double *m = malloc(it->nrk * sizeof(*m));
	for (int k = 0; m && k < 2; k++) {
		size_t slow = SIZE_MAX, fast = SIZE_MAX;
		for (size_t i = 0; i < it->nrk; i++) {
			m[i] = st[i].med[k];
			if (!isfinite(m[i]))
				continue;
			if (slow == SIZE_MAX || m[i] < st[slow].med[k])
				slow = i;
			if (fast == SIZE_MAX || m[i] > st[fast].med[k])
				fast = i;
		}
		const double med = rep_finite_median(m, it->nrk);
		if (slow == SIZE_MAX || !(med > 0))
			continue;
		fprintf(f,
			"; %s: median rank %s, slowest rank %.0f (%s) %+.1f%%, fastest rank %.0f "
			"(%s) %+.1f%%",
			names[k], rep_fmt_rate(med, a, sizeof(a)), it->rk[slow].rank,
			rep_fmt_rate(st[slow].med[k], b, sizeof(b)),
			100 * (st[slow].med[k] / med - 1), it->rk[fast].rank,
			rep_fmt_rate(st[fast].med[k], (char[48]){ 0 }, 48),
			100 * (st[fast].med[k] / med - 1));
		break; /* write is the figure; read only where nothing was written */
	}
	free(m);
	fputs(" (medians of each rank's own iterations).</p>\n", f);
}

static void chart(FILE *f, const struct rep_iters *it, const struct rank_stats *st)
{
	static const char *const names[2] = { "write", "read" };
	static const int colors[2] = { CHART_C_WRITE, CHART_C_READ };
	const size_t n = SB_MIN(it->nrk, (size_t)CHART_RANKS);
	char(*cat)[80] = calloc(n, sizeof(*cat));
	const char **cats = calloc(n, sizeof(*cats));
	double *v = calloc(6 * n, sizeof(*v));
	if (cat && cats && v) {
		struct chart_series s[2];
		for (size_t i = 0; i < n; i++) {
			snprintf(cat[i], sizeof(cat[0]), "%.0f %.60s", it->rk[i].rank,
				 it->rk[i].host);
			cats[i] = cat[i];
			for (int k = 0; k < 2; k++) {
				v[(3 * k) * n + i] = st[i].med[k];
				v[(3 * k + 1) * n + i] = st[i].lo[k];
				v[(3 * k + 2) * n + i] = st[i].hi[k];
			}
		}
		for (int k = 0; k < 2; k++)
			s[k] = (struct chart_series){ .name = names[k],
						      .y = v + 3 * k * n,
						      .lo = v + (3 * k + 1) * n,
						      .hi = v + (3 * k + 2) * n,
						      .n = n,
						      .color = colors[k] };
		char note[120];
		snprintf(note, sizeof(note),
			 "median of each rank's iterations, whiskers from its slowest to its "
			 "fastest%s",
			 it->nrk > n ? "; the first ranks, the table has them all" : "");
		const struct chart c = {
			.kind = CHART_BAR,
			.title = "Throughput of each rank",
			.note = note,
			.x = { "Rank and host", CHART_U_NONE, CHART_LINEAR, 0 },
			.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
			.cats = cats,
			.ncats = n,
			.series = s,
			.nseries = 2,
			.id = "soak-ranks-bw",
		};
		chart_figure(f, &c, NULL);
	}
	free(cat);
	free(cats);
	free(v);
}

static void table(FILE *f, const struct rep_iters *it, const struct rank_stats *st)
{
	static const char *const cols[] = { "Rank",	   "Host",	   "Iterations",
					    "Failed",	   "Write median", "Write range",
					    "Read median", "Read range",   "Blocks not intact",
					    "I/O errors" };
	char a[48], b[48], c[112];
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t i = 0; i < it->nrk; i++) {
		const struct rep_rankser *r = &it->rk[i];
		fprintf(f, "<tr%s>", r->failed ? " class=\"bad\"" : "");
		snprintf(a, sizeof(a), "%.0f", r->rank);
		html_cell(f, a, 0);
		html_cell(f, r->host, 0);
		snprintf(a, sizeof(a), "%zu", r->n);
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%zu", r->failed);
		html_cell(f, a, 1);
		for (int k = 0; k < 2; k++) {
			html_cell(f, rep_fmt_rate(st[i].med[k], a, sizeof(a)), 1);
			snprintf(c, sizeof(c), "%s .. %s", rep_fmt_rate(st[i].lo[k], a, sizeof(a)),
				 rep_fmt_rate(st[i].hi[k], b, sizeof(b)));
			html_cell(f, c, 1);
		}
		snprintf(a, sizeof(a), "%.0f", r->bad);
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.0f", r->errors);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_soak_ranks(FILE *f, const struct rep_doc *d)
{
	const struct rep_iters *it = &d->iters;
	if (!it->nrk)
		return;
	struct rank_stats *st = calloc(it->nrk, sizeof(*st));
	if (!st)
		return;
	for (size_t i = 0; i < it->nrk; i++)
		stats_of(&it->rk[i], &st[i]);
	fputs("<h3>Ranks</h3>\n", f);
	skew(f, it, st);
	chart(f, it, st);
	table(f, it, st);
	free(st);
}
