/*
 * The soak section of the HTML report, from the log's iteration records:
 * write and read throughput per iteration with outliers ringed and change
 * points drawn as dashed lines, and I/O errors and kernel messages on the
 * same iteration axis, so a slowdown and the errors around it line up: the
 * throughput chart marks such iterations on its axis, both charts say what
 * happened on hover, and a table lists it. Health before and after follows.
 * The outliers and change points are the soak's verdict: the one it wrote
 * (the log's summary line, the results' soak section), or for a log
 * without one (a killed soak) the same analysis the soak would have made
 * (lib/analysis, sb_soak_metric).
 */
#include "report/html.h"
#include "report/chart.h"
#include "lib/storbench.h"

#include <math.h>

#define TEXT_LEN 240

struct iters {
	size_t n;
	double *x, *bw[2], *errors, *kmsg;
	unsigned char *interrupted;
	unsigned char *out[2];
	const struct sb_jv **rec; /* the iteration's record */
	char (*text)[TEXT_LEN];	  /* what went wrong, "" when nothing */
	const char **texts;	  /* pointers into text, for the charts */
	double *ev;		  /* iterations with something in text */
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
		bad += sb_jv_num(sb_jv_get(v, sb_verify_class_name(c)), 0);
#define ADD(...) (at < len ? (at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__)) : 0)
	if (errs > 0) {
		ADD("%.0f I/O error%s", errs, errs == 1 ? "" : "s");
		if (sb_jv_get(r, "first_errno"))
			ADD(" (first errno %.0f at %s)",
			    fabs(sb_jv_num(sb_jv_get(r, "first_errno"), 0)),
			    sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(r, "first_error_offset"), 0),
					a, sizeof(a)));
	}
	if (bad > 0)
		ADD("%s%.0f bad block%s", at ? "; " : "", bad, bad == 1 ? "" : "s");
	for (size_t i = 0; i < sb_jv_len(k); i++)
		ADD("%s%s: %s", at ? "; " : "",
		    rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "category")), "?"),
		    rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "text")), ""));
	if (sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0) > 0)
		ADD("%s%.0f more kernel messages", at ? "; " : "",
		    sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0));
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
	unsigned char *flags = calloc(3 * n, 1);
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
	it->interrupted = flags + 2 * n;
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
		it->interrupted[it->n] = sb_jv_bool(sb_jv_get(r, "interrupted"), 0) == 1;
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

/* The verdict the soak wrote, when it covers these iterations: the last
 * summary line of a log, unless iterations follow it (a resumed soak that
 * was killed), or a result's soak section. */
static int written_verdict(const struct rep_doc *d, const struct iters *it,
			   struct sb_soak_summary *sum)
{
	const struct sb_jv *line = NULL;
	for (size_t i = 0; i < d->nrecords; i++) {
		const struct sb_jv *r = d->records[i];
		const char *t = sb_jv_str(sb_jv_get(r, "type"));
		if (rep_is_iteration(r))
			line = NULL;
		else if (t && !strcmp(t, "summary"))
			line = r;
	}
	const struct sb_jv *v = line ? line : sb_jv_get(d->sb, "soak");
	if (!v || sb_soak_summary_from_json(v, sum) < 0 || sum->iterations != it->n)
		return -ENOENT;
	return 0;
}

/* The soak's analysis of one metric, as it would have made it: an
 * interrupted iteration measured only part of the work. */
static int analyse(const struct iters *it, int k, struct sb_soak_metric *m)
{
	double *v = malloc(it->n * sizeof(*v));
	uint64_t *at = malloc(it->n * sizeof(*at));
	int e = -ENOMEM;
	if (v && at) {
		for (size_t i = 0; i < it->n; i++) {
			v[i] = it->interrupted[i] ? NAN : it->bw[k][i];
			at[i] = it->x[i] >= 0 && it->x[i] < 1.8e19 ? (uint64_t)it->x[i] : 0;
		}
		e = sb_soak_metric(v, at, it->n, m);
	}
	free(v);
	free(at);
	return e;
}

/* Ring the outliers of m in out (returns how many); its change points as x
 * positions halfway between the iteration before and the first of the new
 * level. */
static long marks(const struct iters *it, const struct sb_soak_metric *m, unsigned char *out,
		  double *at, size_t *nat, size_t max)
{
	long rings = 0;
	for (size_t i = 0; i < it->n; i++) {
		out[i] = 0;
		for (size_t o = 0; o < m->noutliers && !out[i]; o++)
			out[i] = it->x[i] == (double)m->outliers[o];
		rings += out[i];
		for (size_t c = 0; i > 0 && c < m->nchanges && *nat < max; c++)
			if (it->x[i] == (double)m->changes[c].at)
				at[(*nat)++] = (it->x[i - 1] + it->x[i]) / 2;
	}
	return rings;
}

static void throughput(FILE *f, struct iters *it, const struct sb_soak_summary *sum)
{
	static const char *const names[2] = { "write", "read" };
	static const int colors[2] = { CHART_C_WRITE, CHART_C_READ };
	struct chart_series s[2];
	double at[2 * SB_ANOMALY_MAX_CHANGES];
	size_t nat = 0;
	long outliers = 0;
	size_t total = 0; /* the soak keeps the first SB_ANOMALY_MAX_OUTLIERS */
	for (int k = 0; k < 2; k++) {
		long o = marks(it, &sum->m[k], it->out[k], at, &nat, SB_ARRAY_SIZE(at));
		outliers += o;
		total += sum->m[k].outliers_total;
		s[k] = (struct chart_series){ .name = names[k],
					      .x = it->x,
					      .y = it->bw[k],
					      .mark = o > 0 ? it->out[k] : NULL,
					      .n = it->n,
					      .color = colors[k] };
	}
	char note[200], of[48] = "";
	if (total > (size_t)outliers)
		snprintf(of, sizeof(of), " (the first of %zu)", total);
	int len = snprintf(note, sizeof(note), "%ld outlier%s ringed%s; %zu change point%s dashed",
			   outliers, outliers == 1 ? "" : "s", of, nat, nat == 1 ? "" : "s");
	if (it->nev && len > 0 && (size_t)len < sizeof(note))
		snprintf(note + len, sizeof(note) - (size_t)len,
			 "; %zu iteration%s with errors marked "
			 "on the axis",
			 it->nev, it->nev == 1 ? "" : "s");
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
		{ .name = "I/O errors",
		  .x = it->x,
		  .y = it->errors,
		  .text = it->texts,
		  .n = it->n,
		  .color = CHART_C_WRITE },
		{ .name = "kernel messages",
		  .x = it->x,
		  .y = it->kmsg,
		  .text = it->texts,
		  .n = it->n,
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
	struct sb_soak_summary sum;
	if (collect(&it, d) == 0 && it.n) {
		if (written_verdict(d, &it, &sum) < 0)
			for (int k = 0; k < 2; k++)
				if (analyse(&it, k, &sum.m[k]) < 0)
					memset(&sum.m[k], 0, sizeof(sum.m[k]));
		fputs("<h3>Charts</h3>\n", f);
		throughput(f, &it, &sum);
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
