/*
 * The soak section of the HTML report, from the log's iteration records:
 * write and read throughput per iteration with outliers ringed (rolling
 * median and MAD) and change points drawn as dashed lines (PELT, steps of
 * 10% or more), and I/O errors and kernel messages on the same iteration
 * axis, so a slowdown and the errors around it line up: the throughput
 * chart marks such iterations on its axis, both charts say what happened
 * on hover, and a table lists it. Health before and after follows.
 */
#include "report/html.h"
#include "report/chart.h"
#include "lib/storbench.h"

#include <math.h>

#define MAX_CP 32
#define MIN_STEP 0.10	/* a change point must move the mean by this share */

#define TEXT_LEN 240

struct iters {
	size_t n;
	double *x, *bw[2], *errors, *kmsg;
	unsigned char *out[2];
	const struct sb_jv **rec;	/* the iteration's record */
	char (*text)[TEXT_LEN];		/* what went wrong, "" when nothing */
	const char **texts;		/* pointers into text, for the charts */
	double *ev;			/* iterations with something in text */
	const char **ev_text;
	size_t nev;
};

/* "2 I/O errors (first errno 5 at 1.00 MiB); 3 bad blocks; io: mmc0: timeout" */
static void trouble_text(const struct sb_jv *r, char *buf, size_t len)
{
	const struct sb_jv *v = sb_jv_get(r, "verify"), *k = sb_jv_get(r, "kmsg");
	double errs = sb_jv_num(sb_jv_get(r, "io_errors"), 0), bad = 0;
	char a[32];
	size_t at = 0;
	buf[0] = 0;
	for (int c = 1; c < REP_VCLASS_N; c++)
		bad += sb_jv_num(sb_jv_get(v, rep_vclass[c]), 0);
#define ADD(...) (at < len ? (at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__)) : 0)
	if (errs > 0) {
		ADD("%.0f I/O error%s", errs, errs == 1 ? "" : "s");
		if (sb_jv_get(r, "first_errno"))
			ADD(" (first errno %.0f at %s)", fabs(sb_jv_num(sb_jv_get(r, "first_errno"), 0)),
			    sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(r, "first_error_offset"), 0), a,
					sizeof(a)));
	}
	if (bad > 0)
		ADD("%s%.0f bad block%s", at ? "; " : "", bad, bad == 1 ? "" : "s");
	for (size_t i = 0; i < sb_jv_len(k); i++)
		ADD("%s%s: %s", at ? "; " : "", rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "category")), "?"),
		    rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "text")), ""));
	if (sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0) > 0)
		ADD("%s%.0f more kernel messages", at ? "; " : "", sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0));
	if (!at && sb_jv_bool(sb_jv_get(r, "failed"), 0) == 1)
		ADD("failed");
#undef ADD
}

static int collect(struct iters *it, const struct rep_doc *d)
{
	static const char *const keys[2] = { "write_bw_bytes", "read_bw_bytes" };
	size_t n = 0;
	for (size_t i = 0; i < d->nrecords; i++)
		n += rep_is_iteration(d->records[i]);
	memset(it, 0, sizeof(*it));
	if (!n)
		return 0;
	double *all = calloc(6 * n, sizeof(double));
	unsigned char *flags = calloc(2 * n, 1);
	it->rec = calloc(n, sizeof(*it->rec));
	it->text = calloc(n, sizeof(*it->text));
	it->texts = calloc(2 * n, sizeof(*it->texts));
	if (!all || !flags || !it->rec || !it->text || !it->texts) {
		free(all);
		free(flags);
		return -ENOMEM;
	}
	it->ev = all + 5 * n;
	it->ev_text = it->texts + n;
	it->x = all;
	it->bw[0] = all + n, it->bw[1] = all + 2 * n;
	it->errors = all + 3 * n, it->kmsg = all + 4 * n;
	it->out[0] = flags, it->out[1] = flags + n;
	for (size_t i = 0; i < d->nrecords; i++) {
		const struct sb_jv *r = d->records[i];
		if (!rep_is_iteration(r))
			continue;
		it->x[it->n] = sb_jv_num(sb_jv_get(r, "iteration"), (double)it->n + 1);
		for (int k = 0; k < 2; k++)
			it->bw[k][it->n] = sb_jv_num(sb_jv_get(r, keys[k]), NAN);
		it->errors[it->n] = sb_jv_num(sb_jv_get(r, "io_errors"), 0);
		it->kmsg[it->n] = (double)sb_jv_len(sb_jv_get(r, "kmsg")) +
				  sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0);
		it->rec[it->n] = r;
		trouble_text(r, it->text[it->n], TEXT_LEN);
		it->texts[it->n] = it->text[it->n];
		if (it->text[it->n][0]) {
			it->ev[it->nev] = it->x[it->n];
			it->ev_text[it->nev++] = it->text[it->n];
		}
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
	int len = snprintf(note, sizeof(note), "%ld outlier%s ringed; %zu change point%s dashed",
			   outliers, outliers == 1 ? "" : "s", nat, nat == 1 ? "" : "s");
	if (it->nev && len > 0 && (size_t)len < sizeof(note))
		snprintf(note + len, sizeof(note) - (size_t)len, "; %zu iteration%s with errors marked "
			 "on the axis", it->nev, it->nev == 1 ? "" : "s");
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
		.events = it->ev,
		.event_text = it->ev_text,
		.nevents = it->nev,
	};
	fputs("<figure>\n", f);
	chart_svg(f, &c);
	fputs("</figure>\n", f);
}

static void trouble(FILE *f, const struct iters *it)
{
	struct chart_series s[2] = {
		{ .name = "I/O errors", .x = it->x, .y = it->errors, .text = it->texts, .n = it->n,
		  .color = CHART_C_WRITE },
		{ .name = "kernel messages", .x = it->x, .y = it->kmsg, .text = it->texts, .n = it->n,
		  .color = 3 },
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

/* Every iteration with something wrong, and what. */
static void events_table(FILE *f, const struct iters *it)
{
	static const char *const cols[] = { "Iteration", "What happened" };
	char a[32];
	if (!it->nev)
		return;
	fputs("<h3>Errors and kernel messages</h3>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t i = 0; i < it->n; i++) {
		if (!it->text[i][0])
			continue;
		snprintf(a, sizeof(a), "%.0f", it->x[i]);
		fputs("<tr>", f);
		html_cell(f, a, 0);
		html_cell(f, it->text[i], 0);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_section_soak(FILE *f, const struct rep_doc *d)
{
	struct iters it;
	if (collect(&it, d) == 0 && it.n) {
		fputs("<h3>Charts</h3>\n", f);
		throughput(f, &it);
		trouble(f, &it);
		events_table(f, &it);
	}
	free(it.x);
	free(it.out[0]);
	free(it.rec);
	free(it.text);
	free(it.texts);
	html_health(f, d);
}
