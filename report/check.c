/*
 * Results files come from outside: before the model reads a document (or a
 * log line), every member it takes a figure from is checked for its type
 * and range, so a wrong type is named with its key path instead of being
 * read as 0, and a figure no device gives (a negative rate, 1e308 bytes/s,
 * iteration -5) is refused instead of printed as a 46-digit number.
 * Members the model does not read are not judged.
 */
#include "report/report.h"

#include <math.h>

/* Figures that are counts, sizes, rates or times: finite, >= 0, and below
 * what any device or run reaches (an exabyte, or 30 years in ns). */
static const char *const nonneg[] = {
	"bw_bytes",
	"bw",
	"iops",
	"io_bytes",
	"io_kbytes",
	"total_ios",
	"runtime",
	"runtime_ns",
	"job_runtime",
	"usr_cpu",
	"sys_cpu",
	"min",
	"max",
	"mean",
	"stddev",
	"write_bw_bytes",
	"read_bw_bytes",
	"bw_bytes_median",
	"bw_bytes_min",
	"bw_bytes_max",
	"iops_median",
	"iops_min",
	"iops_max",
	"lat_mean_ns",
	"lat_p99_ns",
	"lat_mean_ns_median",
	"lat_p99_ns_median",
	"blocks_checked",
	"offset",
	"length",
	"t_ns",
	"len_ns",
};
#define FIGURE_MAX 1e18

/* Where the walk is: a key path like jobs[0].read.bw_bytes. */
struct walk {
	char path[256];
	char *why; /* set on the first problem */
	char msg[512];
};

static const char *type_name(const struct sb_jv *v)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };
	return v->type <= SB_JV_OBJ ? names[v->type] : "?";
}

static int bad(struct walk *w, const char *expected, const struct sb_jv *v)
{
	char found[64];
	if (sb_jv_is(v, SB_JV_NUM))
		snprintf(found, sizeof(found), "%g", v->num.d);
	else
		snprintf(found, sizeof(found), "%s", type_name(v));
	snprintf(w->msg, sizeof(w->msg), "%s: expected %s, found %s", w->path, expected, found);
	return -1;
}

static int in_list(const char *key, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

static int check_member(struct walk *w, const char *key, const struct sb_jv *v, int in_ranges);

static int walk(struct walk *w, const struct sb_jv *v, int in_ranges)
{
	const size_t at = strlen(w->path);
	if (sb_jv_is(v, SB_JV_OBJ)) {
		for (size_t i = 0; i < v->obj.n; i++) {
			const struct sb_jmember *m = &v->obj.m[i];
			snprintf(w->path + at, sizeof(w->path) - at, "%s%s", at ? "." : "", m->key);
			if (check_member(w, m->key, &m->val, in_ranges) < 0)
				return -1;
		}
	} else if (sb_jv_is(v, SB_JV_ARR)) {
		for (size_t i = 0; i < v->arr.n; i++) {
			snprintf(w->path + at, sizeof(w->path) - at, "[%zu]", i);
			if (walk(w, &v->arr.v[i], in_ranges) < 0)
				return -1;
		}
	}
	w->path[at] = '\0';
	return 0;
}

static int check_member(struct walk *w, const char *key, const struct sb_jv *v, int in_ranges)
{
	if (in_list(key, nonneg, SB_ARRAY_SIZE(nonneg)) && !sb_jv_is(v, SB_JV_NULL) &&
	    !sb_jv_is(v, SB_JV_OBJ) && !sb_jv_is(v, SB_JV_ARR)) {
		/* null: fio and storbench write it for a figure there is none of */
		if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 ||
		    v->num.d > FIGURE_MAX)
			return bad(w, "a number from 0 to 1e18", v);
		return 0;
	}
	/* options as given (fio's "job options", a log's argv): text, not figures */
	if (!strcmp(key, "job options") || !strcmp(key, "global options") ||
	    !strcmp(key, "options") || !strcmp(key, "argv"))
		return 0;
	if (!strcmp(key, "jobs") && !sb_jv_is(v, SB_JV_ARR))
		return bad(w, "an array of jobs", v);
	if (!strcmp(key, "iteration") && !sb_jv_is(v, SB_JV_OBJ)) {
		uint64_t n;
		if (sb_jv_u64(v, &n) < 0 || n < 1 || n >= (1ull << 53))
			return bad(w, "an iteration number from 1", v);
		return 0;
	}
	if (!strcmp(key, "percentile")) {
		if (!sb_jv_is(v, SB_JV_OBJ))
			return bad(w, "an object of percentiles", v);
		for (size_t i = 0; i < v->obj.n; i++) {
			const struct sb_jv *p = &v->obj.m[i].val;
			if (!sb_jv_is(p, SB_JV_NUM) || !isfinite(p->num.d) || p->num.d < 0) {
				const size_t at = strlen(w->path);
				snprintf(w->path + at, sizeof(w->path) - at, ".%s",
					 v->obj.m[i].key);
				return bad(w, "a latency of 0 or more", p);
			}
		}
		return 0;
	}
	if (!strcmp(key, "bad_ranges")) {
		if (!sb_jv_is(v, SB_JV_ARR))
			return bad(w, "an array of ranges", v);
		return walk(w, v, 1);
	}
	if (in_ranges && !strcmp(key, "class")) {
		const char *c = sb_jv_str(v);
		if (!c || rep_vclass_index(c) < 0)
			return bad(w,
				   "a verify class (intact, corrupted, misplaced, stale, foreign, "
				   "unreadable, newer, missing)",
				   v);
		return 0;
	}
	return walk(w, v, in_ranges);
}

int rep_check(const struct sb_jv *v, char *msg, size_t len)
{
	struct walk w;
	memset(&w, 0, sizeof(w));
	if (walk(&w, v, 0) == 0)
		return 0;
	snprintf(msg, len, "%s", w.msg);
	return -REP_EINPUT;
}
