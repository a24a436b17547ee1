/*
 * The first screen of a soak's report, the same in HTML, text, JSON and
 * XLSX: the verdict as the soak wrote it (never made up here: a log
 * without its summary has none, the soak was killed or still runs), and
 * why, as lines: why it stopped early and how to go on, each failed
 * iteration with what failed (its I/O errors, blocks and kernel messages
 * about the device), trouble that failed nothing, each change of level
 * and outlier with its iteration and size, kernel messages about other
 * devices; then what the soak was asked, its time, and per direction the
 * statistics (rep_soak_anomalies: the soak's own or the same analysis)
 * with the trend of a straight line fitted over the iterations.
 */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>

#define FAILED_LINES 10 /* failed iterations told by name; the table has all */
#define OUTLIER_LINES 5 /* of each direction */

static const char *const dir_names[2] = { "write", "read" };

size_t rep_iter_index(const struct rep_iters *it, double x)
{
	size_t lo = 0, hi = it->n;
	while (lo < hi) { /* the log's order, mostly ascending */
		size_t mid = lo + (hi - lo) / 2;
		if (it->x[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < it->n && it->x[lo] == x)
		return lo;
	for (size_t i = 0; i < it->n; i++)
		if (it->x[i] == x)
			return i;
	return SIZE_MAX;
}

const char *rep_why_name(enum rep_why k)
{
	static const char *const names[] = {
		[REP_WHY_STOPPED] = "stopped",	     [REP_WHY_RESUME] = "resume",
		[REP_WHY_FAILED] = "failed",	     [REP_WHY_EVENT] = "trouble",
		[REP_WHY_CHANGE] = "change",	     [REP_WHY_OUTLIER] = "outlier",
		[REP_WHY_KMSG_OTHER] = "kmsg_other", [REP_WHY_MORE] = "more",
		[REP_WHY_CLEAN] = "clean",	     [REP_WHY_NONE] = "no_verdict",
	};
	return (unsigned)k < SB_ARRAY_SIZE(names) ? names[k] : "?";
}

static struct rep_soak_why *add(struct rep_soak_lead *l, enum rep_why k, double iteration)
{
	if (l->nwhy == REP_LEAD_LINES)
		return NULL;
	struct rep_soak_why *w = &l->why[l->nwhy++];
	w->kind = k;
	w->iteration = iteration;
	w->text[0] = 0;
	return w;
}

/* A line of kind k, its text made whole then cut at a word. */
static void say(struct rep_soak_lead *l, enum rep_why k, double iteration, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(struct rep_soak_lead *l, enum rep_why k, double iteration, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	struct rep_soak_why *w = add(l, k, iteration);
	if (!w)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_soak_cut_text(w->text, sizeof(w->text), buf);
}

/* Each failed iteration (the first FAILED_LINES), then trouble that failed
 * none (I/O errors a soak does not fail on, kernel lines of an iteration
 * cut short). */
static void iterations(const struct rep_doc *d, struct rep_soak_lead *l)
{
	const struct rep_iters *it = &d->iters;
	char buf[REP_LEAD_LEN];
	size_t told = 0, more = 0, trouble = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t e = 0; e < it->nev; e++) {
			const size_t i = it->ev[e].i;
			const int failed = !!(it->flags[i] & REP_IT_FAILED);
			if (failed != !pass)
				continue;
			if (told >= FAILED_LINES) {
				more += failed, trouble += !failed;
				continue;
			}
			say(l, failed ? REP_WHY_FAILED : REP_WHY_EVENT, it->x[i],
			    "iteration %.0f %s: %s", it->x[i], failed ? "failed" : "had trouble",
			    rep_event_text(it, &it->ev[e], buf, sizeof(buf)));
			told++;
		}
	}
	if (more)
		say(l, REP_WHY_MORE, NAN,
		    "and %zu more failed iteration%s (the table of errors lists them)", more,
		    more == 1 ? "" : "s");
	if (trouble)
		say(l, REP_WHY_MORE, NAN, "and %zu more iteration%s with trouble that failed none",
		    trouble, trouble == 1 ? "" : "s");
}

/* Changes of level and outliers of direction k, with their size. */
static void anomalies(const struct rep_doc *d, struct rep_soak_lead *l, int k)
{
	const struct rep_anomalies *a = &l->an[k];
	const struct sb_soak_metric *m = &a->m;
	char x[32], y[32];
	for (size_t c = 0; c < m->nchanges; c++)
		say(l, REP_WHY_CHANGE, (double)m->changes[c].at,
		    "%s throughput %s %.0f%% at iteration %llu: %s to %s", dir_names[k],
		    m->changes[c].after < m->changes[c].before ? "fell" : "rose",
		    100 * fabs(m->changes[c].before > 0
				       ? (m->changes[c].after - m->changes[c].before) /
						 m->changes[c].before
				       : 0),
		    (unsigned long long)m->changes[c].at,
		    rep_fmt_rate(m->changes[c].before, x, sizeof(x)),
		    rep_fmt_rate(m->changes[c].after, y, sizeof(y)));
	for (size_t o = 0; o < m->noutliers && o < OUTLIER_LINES; o++) {
		const size_t i = rep_iter_index(&d->iters, (double)m->outliers[o]);
		const double v = i == SIZE_MAX ? NAN : d->iters.bw[k][i];
		if (isfinite(v) && m->st.median > 0)
			say(l, REP_WHY_OUTLIER, (double)m->outliers[o],
			    "%s throughput outlier at iteration %llu: %s, %+.0f%% from the median %s",
			    dir_names[k], (unsigned long long)m->outliers[o],
			    rep_fmt_rate(v, x, sizeof(x)), 100 * (v - m->st.median) / m->st.median,
			    rep_fmt_rate(m->st.median, y, sizeof(y)));
		else
			say(l, REP_WHY_OUTLIER, (double)m->outliers[o],
			    "%s throughput outlier at iteration %llu", dir_names[k],
			    (unsigned long long)m->outliers[o]);
	}
	const size_t shown = SB_MIN(m->noutliers, (size_t)OUTLIER_LINES);
	if (m->outliers_total > shown)
		say(l, REP_WHY_MORE, NAN, "and %zu more %s outliers (ringed on the chart)",
		    m->outliers_total - shown, dir_names[k]);
}

/* The change of a straight line fitted over the judged iterations (not
 * cut short, a figure > 0), from the first to the last, over the median. */
static double trend_of(const struct rep_iters *it, int k, double median)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, lo = INFINITY, hi = -INFINITY;
	size_t n = 0;
	for (size_t i = 0; i < it->n; i++) {
		const double x = it->x[i], y = it->bw[k][i];
		if (it->flags[i] & REP_IT_INTERRUPTED || !(y > 0) || !isfinite(y))
			continue;
		sx += x, sy += y, sxx += x * x, sxy += x * y, n++;
		lo = fmin(lo, x), hi = fmax(hi, x);
	}
	const double den = (double)n * sxx - sx * sx;
	if (n < 3 || !(den > 0) || !(median > 0))
		return NAN;
	return ((double)n * sxy - sx * sy) / den * (hi - lo) / median;
}

static void settings(const struct rep_doc *d, struct rep_soak_lead *l)
{
	if (l->has_verdict && l->sum.set.known)
		l->set = l->sum.set;
	else if (d->is_log && d->root) /* the configuration line */
		sb_soak_settings_from_json(d->root, &l->set);
	l->elapsed_s = d->iters.t0 > 0 && d->iters.t1 > d->iters.t0
			       ? (d->iters.t1 - d->iters.t0) / 1e9
			       : NAN;
}

static void headline(const struct rep_doc *d, struct rep_soak_lead *l)
{
	const struct rep_iters *it = &d->iters;
	char cut[48] = "";
	if (it->cut_short)
		snprintf(cut, sizeof(cut), " (%zu cut short)", it->cut_short);
	snprintf(l->headline, sizeof(l->headline), "%zu of %zu iteration%s failed%s", it->failed,
		 it->n, it->n == 1 ? "" : "s", cut);
}

int rep_soak_lead(const struct rep_doc *d, struct rep_soak_lead *l)
{
	memset(l, 0, sizeof(*l));
	l->has_verdict = rep_soak_verdict(d, &l->sum) == 0;
	for (int k = 0; k < 2; k++) {
		if (rep_soak_anomalies(d, k, &l->an[k]) < 0)
			return -ENOMEM;
		/* a line through as few as change points need, or none */
		l->trend[k] = l->an[k].judged.changes ? trend_of(&d->iters, k, l->an[k].m.st.median)
						      : NAN;
	}
	if (l->has_verdict)
		snprintf(l->word, sizeof(l->word), "%s", sb_soak_verdict_name(l->sum.verdict));
	else
		snprintf(l->word, sizeof(l->word), "no verdict");
	for (char *c = l->word; *c; c++)
		*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	headline(d, l);
	settings(d, l);
	if (!l->has_verdict)
		say(l, REP_WHY_NONE, NAN,
		    "no summary after the last iteration: the soak was killed, or still runs "
		    "(storbench soak --resume=LOG goes on with it)");
	if (l->has_verdict && l->sum.stopped)
		say(l, REP_WHY_STOPPED, NAN, "%s: %s",
		    l->sum.stopped == SB_SOAK_ABORTED ? "aborted" : "stopped early", l->sum.reason);
	if (l->has_verdict && l->sum.stopped && l->sum.resume[0])
		say(l, REP_WHY_RESUME, NAN, "resume with: %s", l->sum.resume);
	/* a pass with nothing wrong says so first, then its anomalies */
	const size_t found = l->an[0].m.nchanges + l->an[1].m.nchanges + l->an[0].m.outliers_total +
			     l->an[1].m.outliers_total;
	const int judged = l->an[0].judged.changes && l->an[1].judged.changes;
	if (l->has_verdict && l->sum.verdict == SB_SOAK_PASS && !d->iters.nev)
		say(l, REP_WHY_CLEAN, NAN,
		    "every iteration verified, no I/O error, no kernel message about the device%s",
		    found    ? ""
		    : judged ? ", no outlier, no change of level"
			     : "; too few iterations to look for outliers and changes of level");
	iterations(d, l);
	for (int k = 0; k < 2; k++)
		anomalies(d, l, k);
	if (d->iters.kother > 0)
		say(l, REP_WHY_KMSG_OTHER, NAN,
		    "%.0f kernel message%s about other devices (not the target's: not counted)",
		    d->iters.kother, d->iters.kother == 1 ? "" : "s");
	return 0;
}

/* "72 h", "90 min", "45 s", "1 h 30 min" */
static void dur_text(double s, char *buf, size_t len)
{
	if (s >= 3600)
		snprintf(buf, len, "%.0f h %.0f min", floor(s / 3600), fmod(floor(s / 60), 60));
	else if (s >= 60)
		snprintf(buf, len, "%.0f min %.0f s", floor(s / 60), fmod(floor(s), 60));
	else
		snprintf(buf, len, "%.3g s", s);
}

size_t rep_soak_settings_kv(const struct rep_soak_lead *l, const char *kv[][2], char buf[][64],
			    size_t max)
{
	const struct sb_soak_settings *s = &l->set;
	size_t n = 0;
#define KV(name, ...)                                            \
	do {                                                     \
		if (n < max) {                                   \
			snprintf(buf[n], 64, __VA_ARGS__);       \
			kv[n][0] = name, kv[n][1] = buf[n], n++; \
		}                                                \
	} while (0)
	char a[32];
	if (s->known) {
		KV("Workload", "%s", s->iozone ? "iozone" : "verify");
		KV(s->iozone ? "Largest file" : "Size", "%s", sb_fmt_size(s->size, a, sizeof(a)));
		if (s->block_size)
			KV("Block size", "%s", sb_fmt_size(s->block_size, a, sizeof(a)));
		if (s->request_size)
			KV(s->iozone ? "Largest record" : "Request size", "%s",
			   sb_fmt_size(s->request_size, a, sizeof(a)));
		if (s->stop_known && s->iterations)
			KV("Iterations", "%llu", (unsigned long long)s->iterations);
		else if (s->stop_known)
			KV("Iterations", "no limit");
		if (s->stop_known && s->duration_ns) {
			dur_text((double)s->duration_ns / 1e9, a, sizeof(a));
			KV("Duration", "%s", a);
		} else if (s->stop_known) {
			KV("Duration", "no limit");
		}
		if (s->idle_ns) {
			dur_text((double)s->idle_ns / 1e9, a, sizeof(a));
			KV("Idle after each", "%s", a);
		}
	}
	if (isfinite(l->elapsed_s)) {
		dur_text(l->elapsed_s, a, sizeof(a));
		KV("Ran for", "%s", a);
	}
#undef KV
	return n;
}
