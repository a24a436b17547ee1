/*
 * Results files come from outside: before the model reads a document (or a
 * log line), every member it takes a figure from is checked for its type
 * and range, so a wrong type is named with its key path instead of being
 * read as 0, and a figure no device gives (a negative rate, 1e308 bytes/s,
 * iteration -5) is refused instead of printed as a 46-digit number.
 * Members the model does not read are not judged. A section with a typed
 * reader is that reader's to judge, and its reader says what is wrong: a
 * verify object lib/verify's (sb_verify_read), a result's jobs and their
 * intervals lib/results' (sb_job_read, sb_interval_read), as are the rows
 * of its summary (sb_summary_read). The ranks' entries of a run of many
 * ranks and their skew are their sections' readers' (sb_ranks_check,
 * through sb_meta_read, sb_sweep_read, sb_results_head_read; a soak
 * iteration's as its records are checked), and an iteration's number
 * lib/soak's (soak_check.h).
 */
#include "report/report.h"

#include <math.h>

/* Figures that are counts, sizes, rates or times: finite, >= 0, and below
 * what any device or run reaches (an exabyte, or 30 years in ns), in the
 * sections no typed reader judges yet (a soak's iterations, a method's). */
#define K(s) SB_JKEY(s)
static const struct sb_jkey nonneg[] = {
	K("bw_bytes"), K("iops"),	    K("min"),		K("max"),	  K("mean"),
	K("stddev"),   K("write_bw_bytes"), K("read_bw_bytes"), K("lat_mean_ns"), K("offset"),
	K("length"),
};
#define FIGURE_MAX 1e18
/* Whether member m is named s (lengths first: every member of every line
 * of a day's log is looked at). */
#define IS(m, s) sb_jkey_is(m, &(const struct sb_jkey)K(s))

static int check_member(struct sb_jwalk *w, const struct sb_jmember *m, unsigned in);

/* A verify object (storbench.verify, a soak iteration's, a rank's in it):
 * judged by lib/verify's reader, which names what is wrong below it. */
static int check_verify(struct sb_jwalk *w, const struct sb_jv *v)
{
	struct sb_verify_doc doc;
	struct sb_error err;
	char path[256];
	const int e = sb_verify_read(v, &doc, &err);
	sb_verify_doc_free(&doc);
	if (e != -EINVAL)
		return 0; /* memory: the model's reading says so */
	sb_jwalk_path(w, path, sizeof(path));
	snprintf(w->msg, sizeof(w->msg), "%.200s.%.300s", path, err.msg);
	return -1;
}

int rep_check_job(const struct sb_jv *job, const char *where, char *msg, size_t len)
{
	char at[320];
	struct sb_job_doc x;
	struct sb_interval_doc iv;
	struct sb_error err;
	int e = sb_job_read(job, NULL, where, &x, &err);
	for (size_t k = 0; !e && k < sb_jv_len(x.series); k++) {
		snprintf(at, sizeof(at), "%s.storbench.series[%zu]", where, k);
		e = sb_interval_read(sb_jv_at(x.series, k), at, &iv, &err);
	}
	if (e < 0)
		snprintf(msg, len, "%s", err.msg);
	return e < 0 ? -REP_EINPUT : 0;
}

/* A result's jobs ("jobs", fio's "client_stats"): each judged by
 * rep_check_job. An item that is no object is no job, and left to the
 * reading of the jobs. */
static int check_jobs(struct sb_jwalk *w, const struct sb_jv *v)
{
	char path[256], where[300];
	sb_jwalk_path(w, path, sizeof(path));
	for (size_t i = 0; i < v->arr.n; i++) {
		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (sb_jv_is(&v->arr.v[i], SB_JV_OBJ) &&
		    rep_check_job(&v->arr.v[i], where, w->msg, sizeof(w->msg)) < 0)
			return -1;
	}
	return 0;
}

/* The rows of a result's summary: judged by their reader. */
static int check_summary(struct sb_jwalk *w, const struct sb_jv *v)
{
	char path[256], where[300];
	struct sb_summary_doc row;
	struct sb_error err;
	sb_jwalk_path(w, path, sizeof(path));
	for (size_t i = 0; i < v->arr.n; i++) {
		if (!sb_jv_is(&v->arr.v[i], SB_JV_OBJ))
			continue;
		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (sb_summary_read(&v->arr.v[i], where, &row, &err) < 0) {
			snprintf(w->msg, sizeof(w->msg), "%.511s", err.msg);
			return -1;
		}
	}
	return 0;
}

static int check_member(struct sb_jwalk *w, const struct sb_jmember *m, unsigned in)
{
	const struct sb_jv *v = &m->val;
	if (IS(m, "verify") && sb_jv_is(v, SB_JV_OBJ))
		return check_verify(w, v);
	if (sb_jkey_in(m, nonneg, SB_ARRAY_SIZE(nonneg)) && !sb_jv_is(v, SB_JV_NULL) &&
	    !sb_jv_is(v, SB_JV_OBJ) && !sb_jv_is(v, SB_JV_ARR)) {
		/* null: fio and storbench write it for a figure there is none of */
		if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 ||
		    v->num.d > FIGURE_MAX)
			return sb_jwalk_bad(w, "a number from 0 to 1e18", v);
		return 0;
	}
	/* options as given (fio's "job options", a log's argv): text, not figures */
	if (IS(m, "job options") || IS(m, "global options") || IS(m, "options") || IS(m, "argv"))
		return 0;
	if (IS(m, "jobs") && !sb_jv_is(v, SB_JV_ARR))
		return sb_jwalk_bad(w, "an array of jobs", v);
	if ((IS(m, "jobs") || IS(m, "client_stats")) && sb_jv_is(v, SB_JV_ARR))
		return check_jobs(w, v);
	if (IS(m, "summary") && sb_jv_is(v, SB_JV_ARR))
		return check_summary(w, v);
	if (IS(m, "percentile")) {
		if (!sb_jv_is(v, SB_JV_OBJ))
			return sb_jwalk_bad(w, "an object of percentiles", v);
		for (size_t i = 0; i < v->obj.n; i++) {
			const struct sb_jv *p = &v->obj.m[i].val;
			if (!sb_jv_is(p, SB_JV_NUM) || !isfinite(p->num.d) || p->num.d < 0) {
				if (w->depth < SB_JWALK_DEPTH)
					w->at[w->depth++].key = v->obj.m[i].key;
				return sb_jwalk_bad(w, "a latency of 0 or more", p);
			}
		}
		return 0;
	}
	return sb_jwalk(w, v, in, check_member);
}

int rep_ranks_check(const struct sb_jv *v, const char *at, char *msg, size_t len)
{
	struct sb_error err;
	if (sb_ranks_check(v, at, &err) == 0)
		return 0;
	snprintf(msg, len, "%s", err.msg);
	return -REP_EINPUT;
}

int rep_check_at(const struct sb_jv *v, const char *prefix, char *msg, size_t len)
{
	struct sb_jwalk w;
	w.prefix = prefix;
	w.depth = 0;
	if (sb_jwalk(&w, v, 0, check_member) == 0)
		return 0;
	snprintf(msg, len, "%s", w.msg);
	return -REP_EINPUT;
}

int rep_check(const struct sb_jv *v, char *msg, size_t len)
{
	return rep_check_at(v, "", msg, len);
}
