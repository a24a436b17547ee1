/*
 * A soak log's lines checked before anything reads a figure from them:
 * one set of rules for --resume and for the report (soak_check.h), so a
 * line one refuses the other refuses too, by the same name. Members are
 * judged when present (hand-made and older logs leave some out); what
 * orders the log (the configuration first, iterations numbered 1, 2, 3...,
 * generations that only grow) is judged line after line.
 */
#include "lib/soak/soak_check.h"

#include <math.h>

#define ITERATION_MAX (1ull << 53) /* what a double holds exactly */

const char *const sb_soak_lat_keys[3] = { "p50_ns", "p99_ns", "max_ns" };
const char *const sb_soak_metric_names[2] = { "write_bw", "read_bw" };
#define FIGURE_MAX 1e18

static const char *type_name(const struct sb_jv *v)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };
	return v->type <= SB_JV_OBJ ? names[v->type] : "?";
}

static int bad(char *msg, size_t len, const char *key, const char *expected, const struct sb_jv *v)
{
	char found[64];
	if (!v)
		snprintf(found, sizeof(found), "nothing");
	else if (sb_jv_is(v, SB_JV_NUM))
		snprintf(found, sizeof(found), "%g", v->num.d);
	else
		snprintf(found, sizeof(found), "%s", type_name(v));
	snprintf(msg, len, "%s: expected %s, found %s", key, expected, found);
	return -EINVAL;
}

/* A whole number from min below max, when present (or required). */
static int whole(const struct sb_jv *o, const char *key, uint64_t min, uint64_t max, int required,
		 const char *expected, char *msg, size_t len)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	uint64_t n;
	if (!v && !required)
		return 0;
	if (!v || sb_jv_u64(v, &n) < 0 || n < min || n >= max)
		return bad(msg, len, key, expected, v);
	return 0;
}

static int count(const struct sb_jv *o, const char *key, char *msg, size_t len)
{
	return whole(o, key, 0, UINT64_MAX, 0, "a whole number from 0", msg, len);
}

static int counts(const struct sb_jv *o, const char *const *keys, size_t n, char *msg, size_t len)
{
	int e = 0;
	for (size_t i = 0; !e && i < n; i++)
		e = count(o, keys[i], msg, len);
	return e;
}

/* A rate or a size: finite, from 0, below what any device reaches (null:
 * no figure). */
static int figure(const struct sb_jv *o, const char *key, char *msg, size_t len)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	if (!v || sb_jv_is(v, SB_JV_NULL))
		return 0;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 || v->num.d > FIGURE_MAX)
		return bad(msg, len, key, "a number from 0 to 1e18", v);
	return 0;
}

static int of_type(const struct sb_jv *o, const char *key, enum sb_jv_type t, const char *expected,
		   char *msg, size_t len)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	return v && !sb_jv_is(v, t) ? bad(msg, len, key, expected, v) : 0;
}

static int iteration_number(const struct sb_jv *o, char *msg, size_t len)
{
	return whole(o, "iteration", 1, ITERATION_MAX, 1, "an iteration number from 1", msg, len);
}

/* "verify.stale": the members of a nested object, named with its key. */
static int nested(const struct sb_jv *o, const char *key,
		  int (*fn)(const struct sb_jv *, char *, size_t), char *msg, size_t len)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	char inner[384];
	if (!v)
		return 0;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return bad(msg, len, key, "an object", v);
	if (fn(v, inner, sizeof(inner)) == 0)
		return 0;
	snprintf(msg, len, "%s.%s", key, inner);
	return -EINVAL;
}

static int verify_members(const struct sb_jv *v, char *msg, size_t len)
{
	int e = count(v, "blocks_checked", msg, len);
	for (int c = 0; !e && c < SB_VERIFY_NCLASS; c++)
		e = count(v, sb_verify_class_name(c), msg, len);
	return e ? e : count(v, "bad_ranges_omitted", msg, len);
}

static int latency_members(const struct sb_jv *v, char *msg, size_t len)
{
	return counts(v, sb_soak_lat_keys, 3, msg, len);
}

/* "kmsg" and "kmsg_other": arrays of objects with their text. */
static int kernel_lines(const struct sb_jv *o, const char *key, char *msg, size_t len)
{
	const struct sb_jv *a = sb_jv_get(o, key);
	char at[64];
	if (!a)
		return 0;
	if (!sb_jv_is(a, SB_JV_ARR))
		return bad(msg, len, key, "an array of kernel lines", a);
	for (size_t i = 0; i < sb_jv_len(a); i++) {
		const struct sb_jv *l = sb_jv_at(a, i);
		snprintf(at, sizeof(at), "%s[%zu]", key, i);
		if (!sb_jv_is(l, SB_JV_OBJ))
			return bad(msg, len, at, "an object", l);
		if (!sb_jv_is(sb_jv_get(l, "text"), SB_JV_STR)) {
			snprintf(at, sizeof(at), "%s[%zu].text", key, i);
			return bad(msg, len, at, "a string", sb_jv_get(l, "text"));
		}
		const struct sb_jv *dev = sb_jv_get(l, "device");
		if (dev && !sb_jv_is(dev, SB_JV_STR)) {
			snprintf(at, sizeof(at), "%s[%zu].device", key, i);
			return bad(msg, len, at, "a string", dev);
		}
	}
	return 0;
}

int sb_soak_check_iteration(const struct sb_jv *v, char *msg, size_t len)
{
	static const char *const keys[] = { "io_errors",	 "unwritten_blocks",
					    "kmsg_omitted",	 "kmsg_other_omitted",
					    "start_ns",		 "end_ns",
					    "first_error_offset" };
	int e = iteration_number(v, msg, len);
	if (!e)
		e = whole(v, "generation", 1, ITERATION_MAX, 0, "a generation from 1", msg, len);
	if (!e)
		e = counts(v, keys, SB_ARRAY_SIZE(keys), msg, len);
	if (!e)
		e = figure(v, "write_bw_bytes", msg, len);
	if (!e)
		e = figure(v, "read_bw_bytes", msg, len);
	if (!e)
		e = nested(v, "verify", verify_members, msg, len);
	if (!e)
		e = nested(v, "write_lat", latency_members, msg, len);
	if (!e)
		e = nested(v, "read_lat", latency_members, msg, len);
	if (!e)
		e = kernel_lines(v, "kmsg", msg, len);
	if (!e)
		e = kernel_lines(v, "kmsg_other", msg, len);
	if (!e)
		e = of_type(v, "interrupted", SB_JV_BOOL, "true or false", msg, len);
	if (!e)
		e = of_type(v, "failed", SB_JV_BOOL, "true or false", msg, len);
	if (!e)
		e = of_type(v, "cells", SB_JV_ARR, "an array of cells", msg, len);
	return e;
}

int sb_soak_check_rank(const struct sb_jv *v, char *msg, size_t len)
{
	static const char *const times[] = { "start_s",	      "end_s",	       "write_start_s",
					     "write_end_s",   "check_start_s", "check_end_s",
					     "write_pause_s", "write_bytes",   "checked_bytes" };
	int e = whole(v, "rank", 0, 1u << 24, 1, "a rank number from 0", msg, len);
	if (!e)
		e = of_type(v, "host", SB_JV_STR, "a string", msg, len);
	for (size_t i = 0; !e && i < SB_ARRAY_SIZE(times); i++)
		e = figure(v, times[i], msg, len);
	return e ? e : sb_soak_check_iteration(v, msg, len);
}

int sb_soak_check_record(const struct sb_jv *v, char *msg, size_t len)
{
	static const char *const spread[] = { "start_spread_s", "end_spread_s",
					      "write_shared_pause_s" };
	const struct sb_jv *ranks = sb_jv_get(v, "ranks");
	char inner[384];
	if (!sb_jv_is(v, SB_JV_OBJ))
		return bad(msg, len, "iteration record", "an object", v);
	int e = sb_soak_check_iteration(v, msg, len);
	for (size_t i = 0; !e && i < SB_ARRAY_SIZE(spread); i++)
		e = figure(v, spread[i], msg, len);
	if (!e && ranks && !sb_jv_is(ranks, SB_JV_ARR))
		return bad(msg, len, "ranks", "an array of the ranks' iterations", ranks);
	for (size_t i = 0; !e && i < sb_jv_len(ranks); i++) {
		const struct sb_jv *r = sb_jv_at(ranks, i);
		char at[32];
		snprintf(at, sizeof(at), "ranks[%zu]", i);
		if (!sb_jv_is(r, SB_JV_OBJ))
			return bad(msg, len, at, "an object of a rank's iteration", r);
		if ((e = sb_soak_check_rank(r, inner, sizeof(inner))) < 0)
			snprintf(msg, len, "%s.%s", at, inner);
	}
	return e;
}

/* "files": the names of the files iterations make, as given. */
static int file_list(const struct sb_jv *v, char *msg, size_t len)
{
	const struct sb_jv *files = sb_jv_get(v, "files");
	if (files && !sb_jv_is(files, SB_JV_ARR))
		return bad(msg, len, "files", "an array of file names", files);
	for (size_t i = 0; i < sb_jv_len(files); i++) {
		const struct sb_jv *f = sb_jv_at(files, i);
		if (!sb_jv_str(f) || !f->str.len || strlen(f->str.s) != f->str.len) {
			char at[32];
			snprintf(at, sizeof(at), "files[%zu]", i);
			return bad(msg, len, at, "a file name", f);
		}
	}
	return 0;
}

/* The configuration: the first iteration writes generation 1. */
static int config_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len)
{
	const struct sb_jv *av = sb_jv_get(v, "argv");
	/* its log_version is each reader's to judge: --resume takes its own
	 * only, the report a later one too (what it knows of it) */
	int e = file_list(v, msg, len);
	c->first = c->base = 1;
	if (!e)
		e = count(v, "seed", msg, len);
	if (!e)
		e = count(v, "started_ns", msg, len);
	if (!e && av && !sb_jv_is(av, SB_JV_ARR))
		return bad(msg, len, "argv", "an array of the options as given", av);
	for (size_t i = 0; !e && i < sb_jv_len(av); i++)
		if (!sb_jv_is(sb_jv_at(av, i), SB_JV_STR)) {
			char at[32];
			snprintf(at, sizeof(at), "argv[%zu]", i);
			return bad(msg, len, at, "a string", sb_jv_at(av, i));
		}
	if (!e)
		e = whole(v, "ranks", 2, 1u << 24, 0, "a number of ranks from 2", msg, len);
	if (!e)
		e = whole(v, "rank", 0, 1u << 24, 0, "a rank number from 0", msg, len);
	return e;
}

/* n is the iteration after the last one logged (after a line left out,
 * the numbers go on from the next good one); else msg says so. */
static int in_order(const struct sb_soak_check *c, uint64_t n, char *msg, size_t len)
{
	if (n == c->last_iteration + 1 || c->lost)
		return 1;
	snprintf(msg, len, "iteration: expected %llu (the one after %llu), found %llu",
		 (unsigned long long)c->last_iteration + 1, (unsigned long long)c->last_iteration,
		 (unsigned long long)n);
	return 0;
}

uint64_t sb_soak_check_used(const struct sb_soak_check *c)
{
	/* the iteration after the last one logged may have written (killed
	 * before its record) */
	const uint64_t next = c->base ? c->base + (c->last_iteration + 1 - c->first) : 0;
	return SB_MAX(c->used, next);
}

/* A start record: a process goes on with iteration "iteration", which
 * writes "generation" (one above any a write may have used), each
 * iteration after it one more; "files": those its iterations make. */
static int start_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len)
{
	uint64_t n = 0, gen = 0;
	int e = iteration_number(v, msg, len);
	if (!e)
		e = whole(v, "generation", 1, ITERATION_MAX, 1, "a generation from 1", msg, len);
	if (!e)
		e = file_list(v, msg, len);
	if (e)
		return e;
	sb_jv_u64(sb_jv_get(v, "iteration"), &n);
	sb_jv_u64(sb_jv_get(v, "generation"), &gen);
	if (!in_order(c, n, msg, len))
		return -EINVAL;
	const uint64_t used = sb_soak_check_used(c);
	if (gen <= used) {
		snprintf(msg, len,
			 "generation: expected one above %llu (a write may have used that), "
			 "found %llu",
			 (unsigned long long)used, (unsigned long long)gen);
		return -EINVAL;
	}
	c->used = used;
	c->first = n;
	c->base = gen;
	c->last_iteration = n - 1;
	return 0;
}

/* A cut (many ranks resumed from the last iteration every rank's log
 * holds): the generations the lines cut away may have used. */
static int cut_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len)
{
	uint64_t gen = 0;
	int e = whole(v, "generation", 0, ITERATION_MAX, 1, "a generation from 0", msg, len);
	if (!e)
		e = file_list(v, msg, len);
	if (e)
		return e;
	sb_jv_u64(sb_jv_get(v, "generation"), &gen);
	c->used = SB_MAX(c->used, gen);
	return 0;
}

/* An iteration record: the one after the last, writing the generation
 * its start says. */
static int iteration_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len)
{
	uint64_t n = 0, gen = 0;
	int e = sb_soak_check_iteration(v, msg, len);
	c->lost = c->lost || e;
	if (e)
		return e;
	sb_jv_u64(sb_jv_get(v, "iteration"), &n);
	if (!in_order(c, n, msg, len)) {
		c->lost = 1;
		return -EINVAL;
	}
	if (sb_jv_u64(sb_jv_get(v, "generation"), &gen) == 0 && c->base && n >= c->first &&
	    gen != c->base + (n - c->first)) {
		snprintf(msg, len,
			 "generation: expected %llu (iteration %llu of a run that started at %llu "
			 "with %llu), found %llu",
			 (unsigned long long)(c->base + (n - c->first)), (unsigned long long)n,
			 (unsigned long long)c->first, (unsigned long long)c->base,
			 (unsigned long long)gen);
		c->lost = 1;
		return -EINVAL;
	}
	c->used = SB_MAX(c->used, gen);
	c->lost = 0;
	c->last_iteration = n;
	return 0;
}

int sb_soak_check_summary(const struct sb_jv *v, char *msg, size_t len)
{
	/* what the readers take (sb_soak_summary_from_json) */
	static const char *const keys[] = { "iterations",	   "failed_iterations",
					    "verify_bad_blocks",   "io_errors",
					    "kmsg_lines",	   "kmsg_other_lines",
					    "cut_short_iterations" };
	const struct sb_jv *verdict = sb_jv_get(v, "verdict");
	const char *s = sb_jv_str(verdict);
	int e = counts(v, keys, SB_ARRAY_SIZE(keys), msg, len);
	if (!e && verdict && (!s || sb_soak_verdict_by_name(s) < 0))
		e = bad(msg, len, "verdict", "pass, fail, interrupted or aborted", verdict);
	if (!e)
		e = of_type(v, "stability", SB_JV_OBJ, "an object", msg, len);
	return e;
}

/* What another reader judges below v is not walked (as report/check.c
 * left it to them): a verify object, jobs, a summary's rows, percentiles,
 * options as given. */
static int judged_apart(const struct sb_jmember *m)
{
	const struct sb_jv *v = &m->val;
	return (!strcmp(m->key, "verify") && sb_jv_is(v, SB_JV_OBJ)) || !strcmp(m->key, "jobs") ||
	       ((!strcmp(m->key, "client_stats") || !strcmp(m->key, "summary")) &&
		sb_jv_is(v, SB_JV_ARR)) ||
	       !strcmp(m->key, "percentile") || !strcmp(m->key, "job options") ||
	       !strcmp(m->key, "global options") || !strcmp(m->key, "options") ||
	       !strcmp(m->key, "argv");
}

/* Each "iteration" member below v, path its key path so far (at: its
 * length): an iteration number from 1. */
static int iterations_below(const struct sb_jv *v, char *path, size_t at, size_t cap, char *msg,
			    size_t len)
{
	if (at >= cap)
		return 0;
	if (sb_jv_is(v, SB_JV_ARR))
		for (size_t i = 0; i < v->arr.n; i++) {
			snprintf(path + at, cap - at, "[%zu]", i);
			if (iterations_below(&v->arr.v[i], path, strlen(path), cap, msg, len) < 0)
				return -EINVAL;
		}
	for (size_t i = 0; sb_jv_is(v, SB_JV_OBJ) && i < v->obj.n; i++) {
		const struct sb_jmember *m = &v->obj.m[i];
		uint64_t n;
		snprintf(path + at, cap - at, "%s%s", at ? "." : "", m->key);
		if (judged_apart(m))
			continue;
		if (!strcmp(m->key, "iteration") && !sb_jv_is(&m->val, SB_JV_OBJ)) {
			if (sb_jv_u64(&m->val, &n) < 0 || n < 1 || n >= ITERATION_MAX)
				return bad(msg, len, path, "an iteration number from 1", &m->val);
			continue;
		}
		if (iterations_below(&m->val, path, strlen(path), cap, msg, len) < 0)
			return -EINVAL;
	}
	path[at] = '\0';
	return 0;
}

int sb_soak_check_iterations(const struct sb_jv *v, char *msg, size_t len)
{
	char path[256] = "";
	return iterations_below(v, path, 0, sizeof(path), msg, len);
}

static int resume_line(const struct sb_jv *v, char *msg, size_t len)
{
	static const char *const keys[] = { "after_iteration", "iterations_before",
					    "duration_ns_before", "iterations", "duration_ns" };
	return counts(v, keys, SB_ARRAY_SIZE(keys), msg, len);
}

void sb_soak_check_init(struct sb_soak_check *c)
{
	memset(c, 0, sizeof(*c));
}

int sb_soak_check_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len)
{
	const struct sb_jv *t = sb_jv_get(v, "type");
	const char *type = sb_jv_str(t);
	c->line++;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return bad(msg, len, "line", "an object", v);
	if (!type)
		return bad(msg, len, "type", "the record's type (a string)", t);
	if (c->line == 1 || !strcmp(type, "config")) {
		if (c->line > 1) {
			snprintf(msg, len, "type: a second configuration (the log's is line 1)");
			return -EINVAL;
		}
		if (strcmp(type, "config")) {
			snprintf(msg, len, "type: expected the configuration on line 1, found '%s'",
				 type);
			return -EINVAL;
		}
		return config_line(c, v, msg, len);
	}
	if (!strcmp(type, "start"))
		return start_line(c, v, msg, len);
	if (!strcmp(type, "iteration"))
		return iteration_line(c, v, msg, len);
	if (!strcmp(type, "cut"))
		return cut_line(c, v, msg, len);
	if (!strcmp(type, "summary"))
		return sb_soak_check_summary(v, msg, len);
	if (!strcmp(type, "resume"))
		return resume_line(v, msg, len);
	return 0; /* a record of a later storbench: not read */
}
