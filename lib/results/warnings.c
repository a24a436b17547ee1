/*
 * Warnings: what makes a figure likely to lie. The results keep every
 * sentence (the JSON has one per run, so a script can tell which run); a
 * person reads each warning once, with the runs it applies to: a 2-run
 * quick whose 16 runs were all short says so in one line, not 16.
 */
#include "lib/results/results.h"

#include <stdarg.h>

/* Add a sentence and what groups it (run: NULL for the whole result),
 * unless the same sentence is there. Takes none of run's strings on
 * failure. */
static int add(struct sb_results *r, const char *text, const struct sb_warn_run *run)
{
	for (size_t i = 0; i < r->nwarnings; i++)
		if (!strcmp(r->warnings[i], text))
			return 1; /* said once is enough */
	struct sb_warn_run *wr = realloc(r->warn_runs, (r->nwarnings + 1) * sizeof(*wr));
	if (!wr)
		return -ENOMEM;
	r->warn_runs = wr;
	char **w = realloc(r->warnings, (r->nwarnings + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	r->warnings = w;
	if (!(w[r->nwarnings] = strdup(text)))
		return -ENOMEM;
	memset(&wr[r->nwarnings], 0, sizeof(*wr));
	if (run)
		wr[r->nwarnings] = *run;
	r->nwarnings++;
	return 0;
}

int sb_results_warn(struct sb_results *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int ret = add(r, buf, NULL);
	return ret < 0 ? ret : 0;
}

static char *fmt_fig(enum sb_wfig unit, double v, char *buf, size_t len)
{
	switch (unit) {
	case SB_WFIG_NS: return sb_fmt_ns(v, buf, len);
	case SB_WFIG_SIZE: return sb_fmt_size(v > 0 ? (uint64_t)v : 0, buf, len);
	case SB_WFIG_PCT: snprintf(buf, len, "%.0f%%", v * 100); return buf;
	case SB_WFIG_COUNT: snprintf(buf, len, "%.0f", v); return buf;
	case SB_WFIG_DEC1: break;
	}
	snprintf(buf, len, "%.1f", v);
	return buf;
}

int sb_results_warn_run(struct sb_results *r, const struct sb_job_result *j,
			const struct sb_run_warning *w)
{
	char text[1024], fig[32];
	struct sb_warn_run run = { .figure = w->figure, .unit = w->unit };
	snprintf(text, sizeof(text), "%s%s%s in '%s'%s%s", w->before,
		 fmt_fig(w->unit, w->figure, fig, sizeof(fig)), w->after, j->name,
		 w->advice[0] ? ": " : "", w->advice);
	snprintf(run.job, sizeof(run.job), "%s", j->name);
	run.before = strdup(w->before);
	run.after = strdup(w->after);
	run.advice = strdup(w->advice);
	int ret = run.before && run.after && run.advice ? add(r, text, &run) : -ENOMEM;
	if (ret) { /* kept nothing of run: a repeat, or out of memory */
		free(run.before);
		free(run.after);
		free(run.advice);
	}
	return ret < 0 ? ret : 0;
}

static int same_group(const struct sb_warn_run *a, const struct sb_warn_run *b)
{
	return a->before && b->before && !strcmp(a->before, b->before) &&
	       !strcmp(a->after, b->after) && !strcmp(a->advice, b->advice) && a->unit == b->unit;
}

/* The test a run belongs to: its job name without " (run i of n)", the
 * suffix repeats carry (report/ reads it the same way). */
static void test_of(const char *job, char *buf, size_t len)
{
	snprintf(buf, len, "%s", job);
	char *p = strstr(buf, " (run ");
	unsigned a, b;
	int at = 0;
	if (p && sscanf(p, " (run %u of %u)%n", &a, &b, &at) == 2 && at > 0 && !p[at])
		*p = 0;
}

/* Where the unit after the number in s starts ("1.00 s": at " s"). */
static const char *unit_of(const char *s)
{
	const char *u = s + strlen(s);
	while (u > s && !(u[-1] >= '0' && u[-1] <= '9'))
		u--;
	return u;
}

/* "1.00..1.01 s" for 1.00 s and 1.01 s; "999 ms..1.01 s"; "4" for 4 and 4. */
static void fmt_range(enum sb_wfig unit, double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32];
	fmt_fig(unit, lo, a, sizeof(a));
	fmt_fig(unit, hi, b, sizeof(b));
	const char *ua = unit_of(a);
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else if (!strcmp(ua, unit_of(b)))
		snprintf(buf, len, "%.*s..%s", (int)(ua - a), a, b);
	else
		snprintf(buf, len, "%s..%s", a, b);
}

#define TESTS_SHOWN 4

/* Whether warning i is the first of group first's warnings from its test. */
static int first_of_test(const struct sb_results *r, size_t first, size_t i)
{
	char t[96], u[96];
	test_of(r->warn_runs[i].job, t, sizeof(t));
	for (size_t k = first; k < i; k++) {
		if (!same_group(&r->warn_runs[first], &r->warn_runs[k]))
			continue;
		test_of(r->warn_runs[k].job, u, sizeof(u));
		if (!strcmp(t, u))
			return 0;
	}
	return 1;
}

/* Append " (A, B and 3 more)": the tests of the group that starts at first,
 * the first few by name. Returns the new length of line. */
static size_t list_tests(const struct sb_results *r, size_t first, char *line, size_t len, size_t n)
{
	char t[96];
	unsigned ntests = 0;
	for (size_t i = first; i < r->nwarnings; i++) {
		if (!same_group(&r->warn_runs[first], &r->warn_runs[i]) ||
		    !first_of_test(r, first, i))
			continue;
		if (++ntests > TESTS_SHOWN)
			continue;
		test_of(r->warn_runs[i].job, t, sizeof(t));
		n += (size_t)snprintf(line + n, n < len ? len - n : 0, "%s%s",
				      ntests > 1 ? ", " : " (", t);
	}
	if (ntests > TESTS_SHOWN)
		n += (size_t)snprintf(line + n, n < len ? len - n : 0, " and %u more",
				      ntests - TESTS_SHOWN);
	return n + (size_t)snprintf(line + n, n < len ? len - n : 0, ")");
}

/* The line for the group of run warnings that starts at first. */
static void group_line(const struct sb_results *r, size_t first, size_t count, double lo, double hi,
		       char *line, size_t len)
{
	const struct sb_warn_run *w = &r->warn_runs[first];
	char range[80];
	fmt_range(w->unit, lo, hi, range, sizeof(range));
	const size_t runs = SB_MAX(count, r->njobs);
	size_t n = (size_t)snprintf(line, len, "%s%s%s in %zu of %zu runs", w->before, range,
				    w->after, count, runs);
	if (count < runs)
		n = list_tests(r, first, line, len, n);
	if (w->advice[0] && n < len)
		snprintf(line + n, len - n, ": %s", w->advice);
}

void sb_results_warnings(const struct sb_results *r, void (*fn)(const char *line, void *ctx),
			 void *ctx)
{
	char line[2048];
	for (size_t i = 0; i < r->nwarnings; i++) {
		const struct sb_warn_run *w = &r->warn_runs[i];
		size_t k = 0, count = 0;
		if (w->before) {
			while (k < i && !same_group(&r->warn_runs[k], w))
				k++;
			if (k < i)
				continue; /* said with the first of its group */
		}
		double lo = w->figure, hi = w->figure;
		for (k = i; w->before && k < r->nwarnings; k++) {
			if (!same_group(&r->warn_runs[k], w))
				continue;
			count++;
			lo = SB_MIN(lo, r->warn_runs[k].figure);
			hi = SB_MAX(hi, r->warn_runs[k].figure);
		}
		if (count > 1)
			group_line(r, i, count, lo, hi, line, sizeof(line));
		fn(count > 1 ? line : r->warnings[i], ctx);
	}
}
