/*
 * The soak section of the HTML report, from the log's iteration records:
 * write and read throughput per iteration with outliers ringed (rolling
 * median and MAD) and change points drawn as dashed lines (PELT, steps of
 * 10% or more), and I/O errors and kernel messages on the same iteration
 * axis, so a slowdown and the errors around it line up.
 */
#include "cli/report_html.h"
#include "cli/chart.h"
#include "lib/stats/robust.h"

#include <math.h>

#define MAX_CP 32
#define MIN_STEP 0.10	/* a change point must move the mean by this share */

struct iters {
	size_t n;
	double *x, *bw[2], *errors, *kmsg;
	unsigned char *out[2];
};

static int is_iteration(const struct sb_jv *r)
{
	const char *t = sb_jv_str(sb_jv_get(r, "type"));
	return t && !strcmp(t, "iteration");
}

static int collect(struct iters *it, const struct rep_doc *d)
{
	static const char *const keys[2] = { "write_bw_bytes", "read_bw_bytes" };
	size_t n = 0;
	for (size_t i = 0; i < d->nrecords; i++)
		n += is_iteration(d->records[i]);
	memset(it, 0, sizeof(*it));
	if (!n)
		return 0;
	double *all = calloc(5 * n, sizeof(double));
	unsigned char *flags = calloc(2 * n, 1);
	if (!all || !flags) {
		free(all);
		free(flags);
		return -ENOMEM;
	}
	it->x = all;
	it->bw[0] = all + n, it->bw[1] = all + 2 * n;
	it->errors = all + 3 * n, it->kmsg = all + 4 * n;
	it->out[0] = flags, it->out[1] = flags + n;
	for (size_t i = 0; i < d->nrecords; i++) {
		const struct sb_jv *r = d->records[i];
		if (!is_iteration(r))
			continue;
		it->x[it->n] = sb_jv_num(sb_jv_get(r, "iteration"), (double)it->n + 1);
		for (int k = 0; k < 2; k++)
			it->bw[k][it->n] = sb_jv_num(sb_jv_get(r, keys[k]), NAN);
		it->errors[it->n] = sb_jv_num(sb_jv_get(r, "io_errors"), 0);
		it->kmsg[it->n] = (double)sb_jv_len(sb_jv_get(r, "kmsg")) +
				  sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0);
		it->n++;
	}
	return 0;
}

/* Change points of one series, as x positions halfway between iterations.
 * An outlier is one bad iteration, not a new level: it takes the value of
 * the iteration before it (or after, at the start) first. */
static size_t changes(const struct iters *it, const double *y, const unsigned char *out,
		      double *at, size_t max)
{
	size_t cps[MAX_CP], k = 0;
	double *v = malloc(it->n * sizeof(*v));
	long n = 0;
	if (!v)
		return 0;
	for (size_t i = 0; i < it->n; i++) {
		size_t j = i;
		while (j > 0 && out[j])
			j--;
		while (j < it->n - 1 && out[j])
			j++;
		v[i] = y[j];
		if (!isfinite(v[i]))
			goto done; /* a gap: the method needs every iteration */
	}
	n = it->n >= 6 ? sb_changepoints(v, it->n, 3, 0, cps, MAX_CP) : 0;
	if (n > 0)
		n = (long)sb_changepoints_filter(v, it->n, cps, (size_t)n, MIN_STEP);
	for (long i = 0; i < n && k < max; i++)
		at[k++] = (it->x[cps[i] - 1] + it->x[cps[i]]) / 2;
done:
	free(v);
	return k;
}

static void throughput(FILE *f, struct iters *it)
{
	static const char *const names[2] = { "write", "read" };
	static const int colors[2] = { CHART_C_WRITE, CHART_C_READ };
	struct chart_series s[2];
	double at[2 * MAX_CP];
	size_t nat = 0;
	long outliers = 0;
	for (int k = 0; k < 2; k++) {
		long o = sb_outliers(it->bw[k], it->n, SB_OUTLIER_WINDOW, SB_OUTLIER_THRESHOLD, it->out[k]);
		outliers += o > 0 ? o : 0;
		nat += changes(it, it->bw[k], it->out[k], at + nat, MAX_CP);
		s[k] = (struct chart_series){ .name = names[k], .x = it->x, .y = it->bw[k],
					      .mark = o > 0 ? it->out[k] : NULL, .n = it->n,
					      .color = colors[k] };
	}
	char note[160];
	snprintf(note, sizeof(note), "%ld outlier%s ringed; %zu change point%s dashed", outliers,
		 outliers == 1 ? "" : "s", nat, nat == 1 ? "" : "s");
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Throughput per iteration",
		.note = note,
		.x = { "Iteration", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.series = s,
		.nseries = 2,
		.vlines = at,
		.nvlines = nat,
	};
	fputs("<figure>\n", f);
	chart_svg(f, &c);
	fputs("</figure>\n", f);
}

static void trouble(FILE *f, const struct iters *it)
{
	struct chart_series s[2] = {
		{ .name = "I/O errors", .x = it->x, .y = it->errors, .n = it->n, .color = CHART_C_WRITE },
		{ .name = "kernel messages", .x = it->x, .y = it->kmsg, .n = it->n, .color = 3 },
	};
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Errors and kernel messages per iteration",
		.note = "storage-related kernel messages seen during each iteration",
		.x = { "Iteration", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { "Count", CHART_U_COUNT, CHART_LINEAR, 0 },
		.series = s,
		.nseries = 2,
	};
	fputs("<figure>\n", f);
	chart_svg(f, &c);
	fputs("</figure>\n", f);
}

void html_section_soak(FILE *f, const struct rep_doc *d)
{
	struct iters it;
	if (collect(&it, d) < 0 || !it.n)
		return;
	fputs("<h3>Charts</h3>\n", f);
	throughput(f, &it);
	trouble(f, &it);
	free(it.x);
	free(it.out[0]);
}
