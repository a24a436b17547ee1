/*
 * The figures of a command's result by stable names (plan_plan_figures.h), each
 * read through its method's typed reader.
 */
#include "lib/plan/plan_figures.h"
#include "lib/base/units.h"

#include <math.h>
#include <stdarg.h>

#include "lib/cliff/cliff.h"
#include "lib/device/devinfo.h"
#include "lib/flash/flash.h"
#include "lib/latency/lat_run.h"
#include "lib/meta/meta.h"
#include "lib/pts/pts.h"
#include "lib/results/results_read.h"
#include "lib/spo/spo.h"
#include "lib/run/quick.h"
#include "lib/soak/soak_json.h"
#include "lib/sweep/sweep.h"
#include "lib/verify/block.h"
#include "lib/verify/verify_json.h"

/* ---- the names ---- */

#define DIR_FIGS(P, D)                                                                      \
	{ P "." D ".bw", "B/s", D " bandwidth (the median of the runs)" },                  \
		{ P "." D ".bw_min", "B/s", D " bandwidth, the slowest run" },              \
		{ P "." D ".bw_max", "B/s", D " bandwidth, the fastest run" },              \
		{ P "." D ".iops", "IOPS", D " requests per second (the median)" },         \
		{ P "." D ".iops_min", "IOPS", D " requests per second, the slowest run" }, \
		{ P "." D ".iops_max", "IOPS", D " requests per second, the fastest run" }, \
		{ P "." D ".lat_mean", "ns", D " mean latency (the median of the runs)" },  \
	{                                                                                   \
		P "." D ".lat_p99", "ns", D " 99th percentile latency (the median)"         \
	}

static const struct sb_figure_def quick_defs[] = {
	DIR_FIGS("TEST", "read"),
	DIR_FIGS("TEST", "write"),
};

#define JOB_FIGS(D)                                                                            \
	{ "JOB." D ".bw", "B/s", "the job's " D " bandwidth" },                                \
		{ "JOB." D ".iops", "IOPS", "the job's " D " requests per second" },           \
		{ "JOB." D ".lat_mean", "ns", "its " D " mean completion latency" },           \
		{ "JOB." D ".lat_p99", "ns", "its " D " 99th percentile completion latency" }, \
		{ "JOB." D ".bytes", "B", "bytes of the job's " D "s" },                       \
	{                                                                                      \
		"JOB." D ".ios", "", "its " D " requests"                                      \
	}

static const struct sb_figure_def run_defs[] = {
	JOB_FIGS("read"),
	JOB_FIGS("write"),
	JOB_FIGS("trim"),
	{ "JOB.errors", "", "requests of the job that failed" },
};

static const struct sb_figure_def verify_defs[] = {
	{ "result", "word", "pass, fail, interrupted or written (--phase=write)" },
	{ "damaged_blocks", "", "blocks checked that were not intact (every class but intact)" },
	{ "blocks_checked", "", "blocks read back and classified" },
	{ "intact", "", "blocks read back as written" },
	{ "corrupted", "", "blocks whose checksum fails" },
	{ "misplaced", "", "blocks written for another offset" },
	{ "stale", "", "blocks of an earlier generation" },
	{ "foreign", "", "blocks not written by this run" },
	{ "unreadable", "", "blocks the device failed to read" },
	{ "newer", "", "blocks of a later generation" },
	{ "missing", "", "blocks beyond the end the device kept" },
	{ "io_errors", "", "requests that failed, writing and checking" },
	{ "write.bw", "B/s", "bandwidth of the write phase" },
	{ "check.bw", "B/s", "bandwidth of the check phase" },
};

#define SOAK_BW(D)                                                                       \
	{ D ".bw.median", "B/s", D " bandwidth of an iteration, the median" },           \
		{ D ".bw.p5", "B/s", D " bandwidth, 5th percentile of the iterations" }, \
		{ D ".bw.p95", "B/s", D " bandwidth, 95th percentile" },                 \
		{ D ".bw.min", "B/s", D " bandwidth, the slowest iteration" },           \
		{ D ".bw.max", "B/s", D " bandwidth, the fastest iteration" },           \
		{ D ".bw.mean", "B/s", D " bandwidth, the mean" },                       \
	{                                                                                \
		D ".bw.cv", "", D " bandwidth's coefficient of variation (0.05 = 5%)"    \
	}

static const struct sb_figure_def soak_defs[] = {
	{ "verdict", "word", "pass, fail, interrupted or aborted" },
	{ "iterations", "", "iterations run" },
	{ "failed_iterations", "", "iterations that failed" },
	{ "verify_bad_blocks", "", "blocks that did not verify, over every iteration" },
	{ "io_errors", "", "requests that failed, over every iteration" },
	{ "kmsg_lines", "", "kernel messages about the target's devices" },
	{ "anomalies", "", "outliers and change points found in the figures" },
	SOAK_BW("write"),
	SOAK_BW("read"),
};

static const struct sb_figure_def cliff_defs[] = {
	{ "found", "word", "true: a drop that does not recover within the fill was found" },
	{ "cache_bytes", "B", "bytes written at the fast speed before the drop" },
	{ "cache_time", "ns", "the time writing them took" },
	{ "before_bw", "B/s", "the fast level" },
	{ "after_bw", "B/s", "the level after the drop" },
	{ "avg_bw", "B/s", "bytes over time of the whole fill" },
	{ "total_bytes", "B", "bytes the fill wrote" },
	{ "recovered_bytes", "B",
	  "bytes written fast again after the last idle time (--recovery)" },
	{ "recovered_fraction", "", "those bytes over the cache's (1 = 100%)" },
	{ "RECOVERY.recovered_bytes", "B",
	  "the same after recovery N (1, 2 ...: --recovery's times)" },
	{ "RECOVERY.recovered_fraction", "", "the same after recovery N" },
};

static const struct sb_figure_def pts_defs[] = {
	{ "steady", "word", "true: every test with rounds (not WSAT) reached steady state" },
	{ "PART.steady_state.reached", "word", "true: the test reached steady state" },
	{ "PART.steady_state.average", "", "the tracked figure's average over the window" },
	{ "PART.rounds", "", "rounds the test ran" },
};

static const struct sb_figure_def spo_defs[] = {
	{ "result", "word", "pass or fail (spo --check)" },
	{ "lost_acked", "", "blocks of an acknowledged write that were lost" },
	{ "ok", "", "blocks of the last acknowledged write" },
	{ "ok_unacked", "", "blocks in flight at the cut: old or new, whole" },
	{ "torn", "", "blocks whose sectors mix generations" },
	{ "misdirected", "", "blocks written for another address" },
	{ "corrupt", "", "blocks with a bad checksum or a generation never announced" },
	{ "unreadable", "", "blocks the device failed to read" },
	{ "collateral", "", "blocks of the canary region that changed" },
	{ "blocks", "", "blocks checked" },
	{ "writes", "", "writes in the journal" },
	{ "acked", "", "acknowledged writes in the journal" },
};

static const struct sb_figure_def flash_defs[] = {
	{ "erase_block", "B", "the erase block (allocation unit) --align found" },
	{ "erase_block.found", "word", "true: --align found an erase block" },
	{ "erase_block.confidence", "word", "low, medium or high" },
	{ "page", "B", "the page --align found" },
	{ "page.found", "word", "true: --align found a page" },
	{ "page.confidence", "word", "low, medium or high" },
	{ "boundary_effect", "word", "true: reads across a boundary cost more (--align)" },
	{ "open_au.linear", "", "allocation units kept open at once, chunks in order (--open-au)" },
	{ "open_au.random", "", "the same, chunks in random order" },
	{ "scatter.min", "ns", "the fastest read of the map (--scatter)" },
	{ "scatter.median", "ns", "the median read of the map" },
	{ "scatter.max", "ns", "the slowest read of the map" },
	{ "interrupted", "word", "true: stopped before the end" },
};

static const struct sb_figure_def latency_defs[] = {
	{ "requests", "", "requests timed" },
	{ "iops", "IOPS", "requests per second" },
	{ "bw", "B/s", "bandwidth of the requests" },
	{ "lat_min", "ns", "the fastest request" },
	{ "lat_mean", "ns", "the mean request" },
	{ "lat_max", "ns", "the slowest request" },
	{ "lat_mdev", "ns", "the requests' standard deviation" },
	{ "lat_p50", "ns", "the median request" },
	{ "lat_p90", "ns", "90th percentile" },
	{ "lat_p95", "ns", "95th percentile" },
	{ "lat_p99", "ns", "99th percentile" },
	{ "lat_p99.9", "ns", "99.9th percentile" },
	{ "lat_p99.99", "ns", "99.99th percentile" },
	{ "interrupted", "word", "true: stopped before the end" },
};

/* meta's tests: a rate, the CPU it took, its operations' latency */
#define META_TEST(T, RATE, UNIT, WHAT)                                                       \
	{ T "." RATE, UNIT, WHAT }, { T ".cpu", "", "CPU time over the test's (1 = 100%)" }, \
		{ T ".lat_mean", "ns", "mean time of an operation" },                        \
		{ T ".lat_p99", "ns", "99th percentile of an operation" },                   \
	{                                                                                    \
		T ".lat_max", "ns", "the slowest operation"                                  \
	}
static const struct sb_figure_def meta_defs[] = {
	META_TEST("putc", "bw", "B/s", "per-character write (bonnie++'s putc)"),
	META_TEST("write", "bw", "B/s", "block write"),
	META_TEST("rewrite", "bw", "B/s", "block rewrite (read, change, write back)"),
	META_TEST("getc", "bw", "B/s", "per-character read"),
	META_TEST("read", "bw", "B/s", "block read"),
	META_TEST("seeks", "rate", "/s", "random seeks and reads per second"),
	META_TEST("seq_create", "rate", "/s", "files created per second, in order"),
	META_TEST("seq_stat", "rate", "/s", "files stat'ed per second, in order"),
	META_TEST("seq_delete", "rate", "/s", "files deleted per second, in order"),
	META_TEST("rand_create", "rate", "/s", "files created per second, at random"),
	META_TEST("rand_stat", "rate", "/s", "files stat'ed per second, at random"),
	META_TEST("rand_delete", "rate", "/s", "files deleted per second, at random"),
	{ "interrupted", "word", "true: stopped before the end" },
};

static const struct sb_figure_def sweep_defs[] = {
	{ "TEST.bw", "B/s", "bytes over time of the test's cells measured" },
	{ "TEST.bw_min", "B/s", "the slowest cell" },
	{ "TEST.bw_median", "B/s", "the median cell" },
	{ "TEST.bw_max", "B/s", "the fastest cell" },
	{ "TEST.cells", "", "cells of the test measured" },
	{ "cells_planned", "", "cells (file size, record size) of the matrix" },
	{ "cells_done", "", "cells measured" },
	{ "interrupted", "word", "true: stopped before the end" },
};

/* info: the device's health as the result holds it (NVMe SMART) */
static const struct sb_figure_def info_defs[] = {
	{ "health.percent_used", "", "life used, the device's estimate (1 = 100%)" },
	{ "health.available_spare", "", "spare blocks left (1 = 100%)" },
	{ "health.media_errors", "", "unrecovered data integrity errors" },
	{ "health.error_log_entries", "", "entries of the error log" },
	{ "health.unsafe_shutdowns", "", "power lost without a shutdown notice" },
	{ "health.temperature", "", "degrees Celsius" },
	{ "health.power_on_hours", "", "hours powered on" },
	{ "health.data_written", "B", "bytes written over the device's life" },
	{ "health.data_read", "B", "bytes read over its life" },
};

static const struct {
	const char *command;
	const struct sb_figure_def *defs;
	size_t n;
} tables[] = {
	{ "quick", quick_defs, SB_ARRAY_SIZE(quick_defs) },
	{ "run", run_defs, SB_ARRAY_SIZE(run_defs) },
	{ "verify", verify_defs, SB_ARRAY_SIZE(verify_defs) },
	{ "soak", soak_defs, SB_ARRAY_SIZE(soak_defs) },
	{ "cliff", cliff_defs, SB_ARRAY_SIZE(cliff_defs) },
	{ "pts", pts_defs, SB_ARRAY_SIZE(pts_defs) },
	{ "spo", spo_defs, SB_ARRAY_SIZE(spo_defs) },
	{ "flash", flash_defs, SB_ARRAY_SIZE(flash_defs) },
	{ "latency", latency_defs, SB_ARRAY_SIZE(latency_defs) },
	{ "meta", meta_defs, SB_ARRAY_SIZE(meta_defs) },
	{ "sweep", sweep_defs, SB_ARRAY_SIZE(sweep_defs) },
	{ "info", info_defs, SB_ARRAY_SIZE(info_defs) },
};

const char *const sb_figure_commands[] = { "quick", "run",  "verify", "soak",	 "cliff",
					   "pts",   "spo",  "flash",  "latency", "meta",
					   "sweep", "info", NULL };

/* every command's: what the plan sees of its run */
static const struct sb_figure_def common_defs[] = {
	{ "status", "word", "the command's own verdict: pass (it exited 0) or fail (1)" },
};

const struct sb_figure_def *sb_figure_defs(const char *command, size_t *n)
{
	for (size_t i = 0; i < SB_ARRAY_SIZE(tables); i++)
		if (!strcmp(tables[i].command, command)) {
			*n = tables[i].n;
			return tables[i].defs;
		}
	*n = 0;
	return NULL;
}

/* quick's test named s (its '-' for ' '), of either matrix */
static const char *quick_test(const char *s, size_t len)
{
	const struct sb_quick_test *m[] = { sb_quick_default, sb_quick_nvme };
	for (size_t k = 0; k < SB_ARRAY_SIZE(m); k++)
		for (size_t i = 0; i < SB_QUICK_TESTS; i++) {
			const char *n = m[k][i].name;
			if (strlen(n) != len)
				continue;
			size_t j = 0;
			while (j < len && (n[j] == ' ' ? '-' : n[j]) == s[j])
				j++;
			if (j == len)
				return n;
		}
	return NULL;
}

/* Does name match def's pattern? A TEST or JOB part is the name up to
 * the rest of the pattern (a job's name may hold dots). */
static int is_part(const char *pat)
{
	static const char *const parts[] = { "TEST.", "JOB.", "RECOVERY.", "PART." };
	for (size_t i = 0; i < SB_ARRAY_SIZE(parts); i++)
		if (!strncmp(pat, parts[i], strlen(parts[i])))
			return 1;
	return 0;
}

/* sweep's test named s[0..len) */
static int sweep_test(const char *s, size_t len)
{
	for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
		const char *n = sb_sweep_test_name(t);
		if (strlen(n) == len && !memcmp(n, s, len))
			return 1;
	}
	return 0;
}

static int matches(const char *command, const char *pat, const char *name)
{
	if (!is_part(pat))
		return !strcmp(pat, name);
	const char *rest = strchr(pat, '.'); /* ".read.bw" */
	size_t nl = strlen(name), rl = strlen(rest), pl = nl - rl;
	if (nl <= rl || strcmp(name + pl, rest))
		return 0;
	if (!strncmp(pat, "TEST.", 5))
		return !strcmp(command, "sweep") ? sweep_test(name, pl)
						 : quick_test(name, pl) != NULL;
	if (!strncmp(pat, "RECOVERY.", 9)) {
		for (size_t i = 0; i < pl; i++)
			if (name[i] < '0' || name[i] > '9')
				return 0;
		return name[0] != '0';
	}
	if (!strncmp(pat, "PART.", 5))
		return memchr(name, '.', pl) == NULL;
	return 1; /* JOB: any name */
}

const struct sb_figure_def *sb_figure_def_of(const char *command, const char *name)
{
	size_t n;
	const struct sb_figure_def *d = sb_figure_defs(command, &n);
	for (size_t i = 0; i < SB_ARRAY_SIZE(common_defs); i++)
		if (!strcmp(common_defs[i].name, name))
			return &common_defs[i];
	for (size_t i = 0; i < n; i++)
		if (matches(command, d[i].name, name))
			return &d[i];
	return NULL;
}

size_t sb_figure_nearest(const char *command, const char *name, char (*near)[SB_FIGURE_NAME],
			 size_t max)
{
	size_t n, k = 0;
	unsigned dist[16];
	const struct sb_figure_def *d = sb_figure_defs(command, &n);
	max = SB_MIN(max, SB_ARRAY_SIZE(dist));
	for (size_t i = 0; i < n + SB_ARRAY_SIZE(common_defs); i++) {
		const struct sb_figure_def *df = i < n ? &d[i] : &common_defs[i - n];
		/* a pattern compared without its TEST or JOB part when the
		 * name has one */
		const char *pat = df->name, *nm = name, *dot = strchr(name, '.');
		int part = is_part(pat) && dot;
		if (part) {
			pat = strchr(pat, '.');
			nm = dot;
		}
		unsigned dd = sb_edit_distance(pat, nm);
		size_t at = k;
		while (at > 0 && dist[at - 1] > dd)
			at--;
		if (at >= max)
			continue;
		size_t last = k < max ? k : max - 1;
		for (size_t j = last; j > at; j--) {
			dist[j] = dist[j - 1];
			memcpy(near[j], near[j - 1], sizeof(near[j]));
		}
		dist[at] = dd;
		/* the name's own TEST or JOB part in the pattern's place */
		if (part)
			snprintf(near[at], sizeof(near[at]), "%.*s%s", (int)(dot - name), name,
				 pat);
		else
			snprintf(near[at], sizeof(near[at]), "%s", df->name);
		if (k < max)
			k++;
	}
	return k;
}

/* ---- reading them ---- */

static struct sb_figure *add(struct sb_figures *f, const char *unit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct sb_figure *add(struct sb_figures *f, const char *unit, const char *fmt, ...)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;
		struct sb_figure *v = realloc(f->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	struct sb_figure *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->name, sizeof(x->name), fmt, ap);
	va_end(ap);
	x->unit = unit;
	x->value = NAN;
	return x;
}

static int num(struct sb_figures *f, const char *name, const char *unit, double v)
{
	struct sb_figure *x = add(f, unit, "%s", name);
	if (!x)
		return -ENOMEM;
	x->value = v;
	return 0;
}

static int word(struct sb_figures *f, const char *name, const char *w)
{
	struct sb_figure *x = add(f, "word", "%s", name);
	if (!x)
		return -ENOMEM;
	snprintf(x->word, sizeof(x->word), "%s", w && *w ? w : "none");
	return 0;
}

/* A figure named PREFIX.rest (the prefix a test's or a job's name). */
static int pnum(struct sb_figures *f, const char *prefix, const char *rest, const char *unit,
		double v)
{
	if (!isfinite(v))
		return 0; /* not written: no figure */
	struct sb_figure *x = add(f, unit, "%s.%s", prefix, rest);
	if (!x)
		return -ENOMEM;
	x->value = v;
	return 0;
}

static int quick_figures(const struct sb_results_doc *h, struct sb_figures *f, struct sb_error *err)
{
	for (size_t i = 0; i < sb_jv_len(h->summary); i++) {
		struct sb_summary_doc s;
		char where[48], test[64];
		snprintf(where, sizeof(where), "storbench.summary[%zu]", i);
		int e = sb_summary_read(sb_jv_at(h->summary, i), where, &s, err);
		if (e < 0)
			return e;
		if (!s.test || s.ddir < 0 || s.ddir >= SB_DDIR_N)
			continue;
		snprintf(test, sizeof(test), "%s", s.test);
		for (char *c = test; *c; c++)
			if (*c == ' ')
				*c = '-';
		const char *d = sb_ddir_name(s.ddir);
		char r[32];
#define Q(KEY, UNIT, V)                                  \
	do {                                             \
		snprintf(r, sizeof(r), "%s." KEY, d);    \
		if ((e = pnum(f, test, r, UNIT, V)) < 0) \
			return e;                        \
	} while (0)
		Q("bw", "B/s", s.bw_median);
		Q("bw_min", "B/s", s.bw_min);
		Q("bw_max", "B/s", s.bw_max);
		Q("iops", "IOPS", s.iops_median);
		Q("iops_min", "IOPS", s.iops_min);
		Q("iops_max", "IOPS", s.iops_max);
		Q("lat_mean", "ns", s.lat_mean_median);
		Q("lat_p99", "ns", s.lat_p99_median);
#undef Q
	}
	return 0;
}

static double p99(const struct sb_lat_doc *l)
{
	for (unsigned i = 0; i < l->npct; i++)
		if (fabs(l->pct[i] - 99.0) < 1e-9)
			return l->val[i];
	return NAN;
}

static int run_figures(const struct sb_jv *root, struct sb_figures *f, struct sb_error *err)
{
	const struct sb_jv *jobs = sb_jv_get(root, "jobs"),
			   *global = sb_jv_get(root, "global options");
	for (size_t i = 0; i < sb_jv_len(jobs); i++) {
		struct sb_job_doc j;
		char where[32];
		snprintf(where, sizeof(where), "jobs[%zu]", i);
		int e = sb_job_read(sb_jv_at(jobs, i), global, where, &j, err);
		if (e < 0)
			return e;
		for (int d = 0; d < SB_DDIR_N; d++) {
			const struct sb_dir_doc *x = &j.dir[d];
			const char *dn = sb_ddir_name(d);
			char r[32];
			if (!x->present || (!x->ios && !x->bytes))
				continue; /* the direction did nothing */
#define J(KEY, UNIT, V)                                    \
	do {                                               \
		snprintf(r, sizeof(r), "%s." KEY, dn);     \
		if ((e = pnum(f, j.name, r, UNIT, V)) < 0) \
			return e;                          \
	} while (0)
			J("bw", "B/s", x->bw_bytes);
			J("iops", "IOPS", x->iops);
			J("lat_mean", "ns", x->clat.n ? x->clat.mean : NAN);
			J("lat_p99", "ns", p99(&x->clat));
			J("bytes", "B", (double)x->bytes);
			J("ios", "", (double)x->ios);
#undef J
		}
		if ((e = pnum(f, j.name, "errors", "", j.have_sb ? (double)j.errors : NAN)) < 0)
			return e;
	}
	return 0;
}

static int verify_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_verify_doc d;
	int e = sb_verify_read(sec, &d, err);
	if (e < 0) {
		sb_verify_doc_free(&d);
		return e;
	}
	e = word(f, "result", d.result);
	if (!e && d.has_blocks) {
		e = num(f, "damaged_blocks", "", (double)sb_verify_doc_bad(&d.b));
		e = e ? e : num(f, "blocks_checked", "", (double)d.b.blocks);
		for (int c = 0; c < SB_VERIFY_NCLASS && !e; c++)
			e = num(f, sb_verify_class_name(c), "", (double)d.b.count[c]);
	}
	if (!e)
		e = num(f, "io_errors", "", (double)(d.wr.errors + d.rd.errors));
	if (!e && d.wrote && d.wr.ns)
		e = num(f, "write.bw", "B/s", (double)d.wr.bytes * 1e9 / (double)d.wr.ns);
	if (!e && d.checked && d.rd.ns)
		e = num(f, "check.bw", "B/s", (double)d.rd.bytes * 1e9 / (double)d.rd.ns);
	sb_verify_doc_free(&d);
	return e;
}

static int soak_metric(struct sb_figures *f, const char *dir, const struct sb_soak_metric *m)
{
	const struct sb_stability *s = &m->st;
	int e = 0;
	if (!s->n)
		return 0;
	e = e ? e : pnum(f, dir, "bw.median", "B/s", s->median);
	e = e ? e : pnum(f, dir, "bw.p5", "B/s", s->p5);
	e = e ? e : pnum(f, dir, "bw.p95", "B/s", s->p95);
	e = e ? e : pnum(f, dir, "bw.min", "B/s", s->min);
	e = e ? e : pnum(f, dir, "bw.max", "B/s", s->max);
	e = e ? e : pnum(f, dir, "bw.mean", "B/s", s->mean);
	e = e ? e : pnum(f, dir, "bw.cv", "", s->cv);
	return e;
}

static int soak_summary_figures(const struct sb_soak_summary *s, struct sb_figures *f)
{
	int e = word(f, "verdict", sb_soak_verdict_name(s->verdict));
	e = e ? e : num(f, "iterations", "", (double)s->iterations);
	e = e ? e : num(f, "failed_iterations", "", (double)s->failed);
	e = e ? e : num(f, "verify_bad_blocks", "", (double)s->verify_bad);
	e = e ? e : num(f, "io_errors", "", (double)s->io_errors);
	e = e ? e : num(f, "kmsg_lines", "", (double)s->kmsg_lines);
	e = e ? e : num(f, "anomalies", "", (double)s->anomalies);
	e = e ? e : soak_metric(f, "write", &s->m[0]);
	e = e ? e : soak_metric(f, "read", &s->m[1]);
	return e;
}

static int soak_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_soak_doc d;
	memset(&d, 0, sizeof(d));
	int e = sb_soak_read(sec, &d, err);
	if (e == 0)
		e = soak_summary_figures(&d.r.sum, f);
	sb_soak_doc_free(&d);
	return e;
}

int sb_figures_of_soak(const struct sb_soak_summary *s, struct sb_figures *out)
{
	out->n = 0;
	snprintf(out->command, sizeof(out->command), "soak");
	return soak_summary_figures(s, out);
}

static int yes(struct sb_figures *f, const char *name, int v)
{
	return word(f, name, v ? "true" : "false");
}

static int cliff_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_cliff_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_cliff_read(sec, d, err);
	const struct sb_cliff_find *x = &d->r.find;
	if (!e && d->r.measured) {
		e = yes(f, "found", x->found);
		if (!e && x->found) {
			e = num(f, "cache_bytes", "B", (double)x->cache_bytes);
			e = e ? e : num(f, "cache_time", "ns", x->cache_ns);
			e = e ? e : num(f, "before_bw", "B/s", x->before_bw);
			e = e ? e : num(f, "after_bw", "B/s", x->after_bw);
		}
		e = e ? e : num(f, "avg_bw", "B/s", x->avg_bw);
		e = e ? e : num(f, "total_bytes", "B", (double)x->total_bytes);
	}
	for (unsigned i = 0; !e && i < d->r.nrecovery; i++) {
		const struct sb_cliff_recovery *rc = &d->r.recovery[i];
		char k[24];
		snprintf(k, sizeof(k), "%u", i + 1);
		e = pnum(f, k, "recovered_bytes", "B", (double)rc->recovered_bytes);
		e = e ? e : pnum(f, k, "recovered_fraction", "", rc->fraction);
		if (!e && i + 1 == d->r.nrecovery) {
			e = num(f, "recovered_bytes", "B", (double)rc->recovered_bytes);
			e = e ? e : num(f, "recovered_fraction", "", rc->fraction);
		}
	}
	sb_cliff_doc_free(d);
	free(d);
	return e;
}

static int pts_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_pts_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_pts_read(sec, d, err);
	if (!e)
		e = yes(f, "steady", d->r.steady);
	for (unsigned i = 0; !e && i < d->r.nparts && i < SB_PTS_MAX_PARTS; i++) {
		const struct sb_pts_part *p = &d->r.parts[i];
		e = pnum(f, p->name, "rounds", "", (double)p->nrounds);
		if (!e && d->parts[i].has_window) {
			struct sb_figure *x = add(f, "word", "%s.steady_state.reached", p->name);
			if (!x)
				e = -ENOMEM;
			else
				snprintf(x->word, sizeof(x->word), "%s",
					 p->ss.reached ? "true" : "false");
			e = e ? e : pnum(f, p->name, "steady_state.average", "", p->ss.average);
		}
	}
	sb_pts_doc_free(d);
	free(d);
	return e;
}

static int spo_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_spo_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_spo_read(sec, d, err);
	const struct sb_spo_check *c = &d->c;
	if (!e)
		e = word(f, "result", c->pass ? "pass" : "fail");
	for (int k = 0; !e && k < SB_SPO_NCLASS; k++) {
		char n[32];
		snprintf(n, sizeof(n), "%s", sb_spo_class_name(k));
		for (char *p = n; *p; p++)
			if (*p == '-')
				*p = '_';
		e = num(f, n, "", (double)c->count[k]);
	}
	e = e ? e : num(f, "blocks", "", (double)c->blocks);
	e = e ? e : num(f, "writes", "", (double)c->writes);
	e = e ? e : num(f, "acked", "", (double)c->acked);
	sb_spo_doc_free(d);
	free(d);
	return e;
}

static int conf_word(struct sb_figures *f, const char *name, int conf)
{
	return word(f, name, sb_flash_conf_name(conf));
}

static int flash_finding(struct sb_figures *f, const char *name, const struct sb_flash_finding *x)
{
	char k[48];
	snprintf(k, sizeof(k), "%s.found", name);
	int e = yes(f, k, x->found);
	if (e || !x->found)
		return e;
	snprintf(k, sizeof(k), "%s.confidence", name);
	e = num(f, name, "B", (double)x->bytes);
	return e ? e : conf_word(f, k, x->conf);
}

static int flash_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_flash_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_flash_read(sec, d, err);
	const struct sb_flash_result *r = &d->r;
	if (!e && r->align) {
		e = flash_finding(f, "erase_block", &d->erase);
		e = e ? e : flash_finding(f, "page", &d->page);
		if (!e && d->boundary_effect >= 0)
			e = yes(f, "boundary_effect", d->boundary_effect);
	}
	static const char *const order[] = { "open_au.linear", "open_au.random" };
	for (int k = 0; !e && r->open_au && k < 2; k++)
		if (r->au.p.orders & (1 << k))
			e = num(f, order[k], "", (double)r->au.best[k]);
	if (!e && r->scatter) {
		e = pnum(f, "scatter", "min", "ns", d->sc_min_ns);
		e = e ? e : pnum(f, "scatter", "median", "ns", d->sc_median_ns);
		e = e ? e : pnum(f, "scatter", "max", "ns", d->sc_max_ns);
	}
	e = e ? e : yes(f, "interrupted", r->interrupted);
	sb_flash_doc_free(d);
	free(d);
	return e;
}

static int latency_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_latency_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_latency_read(sec, d, err);
	const struct sb_ioping *st = &d->lr.st;
	e = e ? e : num(f, "requests", "", (double)st->count);
	if (!e && st->valid) {
		e = num(f, "iops", "IOPS", d->iops);
		e = e ? e : num(f, "bw", "B/s", d->bw_bytes);
		e = e ? e : num(f, "lat_min", "ns", (double)d->min_ns);
		e = e ? e : num(f, "lat_mean", "ns", d->avg_ns);
		e = e ? e : num(f, "lat_max", "ns", (double)d->max_ns);
		e = e ? e : num(f, "lat_mdev", "ns", d->mdev_ns);
		for (size_t i = 0; !e && i < SB_LAT_NPCTS; i++) {
			char k[24];
			if (sb_lat_pcts[i] < 50)
				continue;
			snprintf(k, sizeof(k), "lat_p%g", sb_lat_pcts[i]);
			if (isfinite(d->pct[i]))
				e = num(f, k, "ns", d->pct[i]);
		}
	}
	e = e ? e : yes(f, "interrupted", d->lr.interrupted);
	sb_latency_doc_free(d);
	free(d);
	return e;
}

static int meta_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_meta_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	int e = sb_meta_read(sec, d, err);
	for (int t = 0; !e && t < SB_META_NTESTS; t++) {
		const struct sb_meta_doc_test *x = &d->t[t];
		const char *n = sb_meta_test_name(t);
		const int io = sb_meta_is_io(t);
		if (!(d->tests & (1u << t)) || !d->m.res[t].ran)
			continue;
		e = pnum(f, n, io ? "bw" : "rate", io ? "B/s" : "/s", x->rate);
		e = e ? e : pnum(f, n, "cpu", "", x->cpu_percent / 100);
		if (!e && x->lat_n) {
			e = pnum(f, n, "lat_mean", "ns", x->lat_mean);
			for (size_t i = 0; !e && i < SB_META_NPCTS; i++)
				if (fabs(sb_meta_pcts[i] - 99.0) < 1e-9)
					e = pnum(f, n, "lat_p99", "ns", x->lat_pct[i]);
			e = e ? e : pnum(f, n, "lat_max", "ns", (double)x->lat_max);
		}
	}
	e = e ? e : yes(f, "interrupted", d->m.interrupted);
	sb_meta_doc_free(d);
	free(d);
	return e;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int sweep_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	struct sb_sweep_doc *d = calloc(1, sizeof(*d));
	double *cell = malloc(SB_SWEEP_MAX_SIZES * SB_SWEEP_MAX_SIZES * sizeof(*cell));
	int e = d && cell ? sb_sweep_read(sec, d, err) : -ENOMEM;
	const struct sb_sweep_result *r = &d->r;
	for (int t = 0; !e && t < SB_SWEEP_NTESTS; t++) {
		const char *n = sb_sweep_test_name(t);
		size_t k = 0;
		if (!(d->o.tests & (1u << t)))
			continue;
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++)
				if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
					cell[k++] = (double)r->kibps[t][fi][ri] * 1024;
		e = pnum(f, n, "cells", "", (double)k);
		if (e || !k)
			continue;
		qsort(cell, k, sizeof(*cell), cmp_double);
		const double rate = sb_sweep_rank_rate(r, t);
		if (rate >= 0)
			e = pnum(f, n, "bw", "B/s", rate);
		e = e ? e : pnum(f, n, "bw_min", "B/s", cell[0]);
		e = e ? e
		      : pnum(f, n, "bw_median", "B/s",
			     k % 2 ? cell[k / 2] : (cell[k / 2 - 1] + cell[k / 2]) / 2);
		e = e ? e : pnum(f, n, "bw_max", "B/s", cell[k - 1]);
	}
	if (!e) {
		e = num(f, "cells_planned", "", (double)r->cells_planned);
		e = e ? e : num(f, "cells_done", "", (double)r->cells_done);
		e = e ? e : yes(f, "interrupted", r->interrupted);
	}
	if (d)
		sb_sweep_doc_free(d);
	free(d);
	free(cell);
	return e;
}

static int info_figures(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err)
{
	static const struct {
		int field;
		double scale;
	} map[] = {
		{ SB_HF_PERCENT_USED, 0.01 },  { SB_HF_AVAIL_SPARE, 0.01 },
		{ SB_HF_MEDIA_ERRORS, 1 },     { SB_HF_ERR_LOG_ENTRIES, 1 },
		{ SB_HF_UNSAFE_SHUTDOWNS, 1 }, { SB_HF_TEMPERATURE_C, 1 },
		{ SB_HF_POWER_ON_HOURS, 1 },   { SB_HF_DATA_WRITTEN, 1 },
		{ SB_HF_DATA_READ, 1 },
	};
	struct sb_health_doc h;
	const struct sb_jv *hv = sb_jv_get(sec, "health");
	int e = sb_health_doc_read(sb_jv_is(hv, SB_JV_OBJ) ? hv : NULL, "storbench.info.health", &h,
				   err);
	for (size_t i = 0; !e && i < SB_ARRAY_SIZE(map); i++)
		if (h.f[map[i].field].has == SB_HV_NUM)
			e = num(f, info_defs[i].name, info_defs[i].unit,
				h.f[map[i].field].num * map[i].scale);
	return e;
}

/* The method's figures from its section of the result, by command. */
static const struct {
	const char *command;
	int (*fn)(const struct sb_jv *sec, struct sb_figures *f, struct sb_error *err);
} sections[] = {
	{ "verify", verify_figures },	{ "soak", soak_figures }, { "cliff", cliff_figures },
	{ "pts", pts_figures },		{ "spo", spo_figures },	  { "flash", flash_figures },
	{ "latency", latency_figures }, { "meta", meta_figures }, { "sweep", sweep_figures },
	{ "info", info_figures },
};

int sb_figures_read(const struct sb_jv *root, struct sb_figures *out, struct sb_error *err)
{
	struct sb_results_doc h;
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	out->n = 0;
	out->command[0] = 0;
	if (!sb_jv_is(sb, SB_JV_OBJ))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "not a storbench result (no \"storbench\" section)");
	int e = sb_results_head_read(sb, "storbench", &h, err);
	if (e < 0)
		return e;
	if (!h.command || !sb_figure_defs(h.command, &(size_t){ 0 }))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "a result of '%s': no figures known",
				    h.command ? h.command : "no command");
	snprintf(out->command, sizeof(out->command), "%s", h.command);
	if (!strcmp(h.command, "quick"))
		e = quick_figures(&h, out, err);
	else if (!strcmp(h.command, "run"))
		e = run_figures(root, out, err);
	for (size_t i = 0; i < SB_ARRAY_SIZE(sections); i++)
		if (!strcmp(h.command, sections[i].command)) {
			const struct sb_jv *sec = sb_jv_get(sb, h.command);
			/* verify and soak always write theirs; cliff, pts, spo...
			 * when they measured */
			if (sec || !strcmp(h.command, "verify") || !strcmp(h.command, "soak"))
				e = sections[i].fn(sec, out, err);
		}
	if (e == -ENOMEM)
		sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	return e;
}

int sb_figures_set_status(struct sb_figures *f, int exit_code)
{
	struct sb_figure *x = (struct sb_figure *)sb_figures_find(f, "status");
	if (!x && !(x = add(f, common_defs[0].unit, "status")))
		return -ENOMEM;
	snprintf(x->word, sizeof(x->word), "%s", exit_code == 0 ? "pass" : "fail");
	return 0;
}

const struct sb_figure *sb_figures_find(const struct sb_figures *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

void sb_figures_free(struct sb_figures *f)
{
	if (!f)
		return;
	free(f->v);
	memset(f, 0, sizeof(*f));
}
