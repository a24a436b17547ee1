/*
 * The text report: the HTML report's tables for a terminal, columns
 * aligned, IEC units spelled out. A run's intervals are summed up as their
 * range and spread, the first sign of a speed that changes over time.
 */
#include "report/report.h"
#include "lib/storbench.h"

#include <math.h>

static void header(FILE *f, const struct rep_doc *d)
{
	const struct sb_target_doc *t = &d->target;
	const struct sb_host_doc *h = &d->host;
	char a[32];
	struct rep_vis_ring v = { .k = 0 };
	fprintf(f, "== %s%s%s: %s (%s) ==\n", rep_vs(&v, rep_or(d->plan_step, "")),
		d->plan_step ? " " : "", rep_vs(&v, d->command), rep_vs(&v, rep_or(t->path, "?")),
		rep_vs(&v, d->path));
	fprintf(f, "measured by %s%s%s%s\n", rep_vs(&v, d->producer), d->time ? ", " : "",
		rep_vs(&v, rep_or(d->time, "")),
		d->interrupted ? " (interrupted: the figures cover what ran)" : "");
	if (t->device) {
		fprintf(f, "device: %s", rep_vs(&v, t->device));
		if (t->model)
			fprintf(f, " (%s)", rep_vs(&v, t->model));
		if (t->capacity)
			fprintf(f, ", %s", sb_fmt_size(t->capacity, a, sizeof(a)));
		if (t->rotational >= 0)
			fprintf(f, ", %s", t->rotational ? "rotational" : "non-rotational");
		if (t->scheduler)
			fprintf(f, ", scheduler %s", rep_vs(&v, t->scheduler));
		if (t->write_cache)
			fprintf(f, ", write cache %s", rep_vs(&v, t->write_cache));
		fputc('\n', f);
	}
	if (t->filesystem)
		fprintf(f, "filesystem: %s on %s%s\n", rep_vs(&v, t->filesystem),
			rep_vs(&v, rep_or(t->mountpoint, "?")), t->in_ram ? " (in RAM)" : "");
	if (d->state)
		fprintf(f, "state: %s (%s)\n", rep_vs(&v, d->state),
			rep_vs(&v, rep_or(d->state_detail, "")));
	if (h->hostname)
		fprintf(f, "host: %s, %s, %s, %s (%u CPUs), %s\n", rep_vs(&v, h->hostname),
			rep_vs(&v, rep_or(h->kernel, "?")), rep_vs(&v, rep_or(h->arch, "?")),
			rep_vs(&v, rep_or(h->cpu, "?")), h->cpus,
			sb_fmt_size(h->mem_total, a, sizeof(a)));
}

static void summary(FILE *f, const struct rep_doc *d)
{
	struct rep_ttable t = { { "test", "dir", "runs", "bandwidth", "min .. max", "IOPS",
				  "mean lat", "p99 lat" },
				8,
				2,
				NULL,
				0,
				0 };
	char a[48], b[48], c[112];
	if (!d->nsummary)
		return;
	fprintf(f, "\nsummary (median of the runs, and the slowest .. fastest run)\n");
	for (size_t i = 0; i < d->nsummary; i++) {
		const struct rep_summary *s = &d->summary[i];
		if (!rep_tt_row(&t))
			break;
		rep_tt_set(&t, 0, s->test);
		rep_tt_set(&t, 1, sb_ddir_name(s->ddir));
		snprintf(a, sizeof(a), "%u", s->runs);
		rep_tt_set(&t, 2, a);
		rep_tt_set(&t, 3, rep_fmt_rate(s->bw_median, a, sizeof(a)));
		snprintf(c, sizeof(c), "%s .. %s", rep_fmt_rate(s->bw_min, a, sizeof(a)),
			 rep_fmt_rate(s->bw_max, b, sizeof(b)));
		rep_tt_set(&t, 4, c);
		rep_tt_set(&t, 5, rep_fmt_count(s->iops_median, a, sizeof(a)));
		rep_tt_set(&t, 6, rep_fmt_ns(s->lat_mean_median, a, sizeof(a)));
		rep_tt_set(&t, 7, rep_fmt_ns(s->lat_p99_median, a, sizeof(a)));
	}
	rep_tt_print(f, &t);
}

static void results(FILE *f, const struct rep_doc *d)
{
	struct rep_ttable t = { { "measurement", "dir", "bandwidth", "IOPS", "mean lat", "p50",
				  "p99", "p99.9", "max lat", "errors" },
				10,
				2,
				NULL,
				0,
				0 };
	char a[48];
	for (size_t i = 0; i < d->njobs; i++) {
		const struct rep_job *j = &d->jobs[i];
		for (int k = 0; k < SB_DDIR_N; k++) {
			const struct rep_dir *r = &j->dir[k];
			if (!r->used || !rep_tt_row(&t))
				continue;
			rep_tt_set(&t, 0, j->name);
			rep_tt_set(&t, 1, sb_ddir_name(k));
			rep_tt_set(&t, 2, rep_fmt_rate(r->bw, a, sizeof(a)));
			rep_tt_set(&t, 3, rep_fmt_count(r->iops, a, sizeof(a)));
			rep_tt_set(&t, 4, rep_fmt_ns(r->lat.n ? r->lat.mean : NAN, a, sizeof(a)));
			rep_tt_set(&t, 5, rep_fmt_ns(rep_pct(&r->lat, 50), a, sizeof(a)));
			rep_tt_set(&t, 6, rep_fmt_ns(rep_pct(&r->lat, 99), a, sizeof(a)));
			rep_tt_set(&t, 7, rep_fmt_ns(rep_pct(&r->lat, 99.9), a, sizeof(a)));
			rep_tt_set(&t, 8, rep_fmt_ns(r->lat.n ? r->lat.max : NAN, a, sizeof(a)));
			snprintf(a, sizeof(a), "%llu", (unsigned long long)j->errors);
			rep_tt_set(&t, 9, a);
		}
	}
	if (!t.nrows)
		return;
	fputs("\nresults (", f);
	rep_vis_put(f, d->njobs ? d->jobs[0].lat_kind : "total");
	fputs(" latency)\n", f);
	rep_tt_print(f, &t);
}

/* Bandwidth per interval: range and coefficient of variation. */
static void intervals(FILE *f, const struct rep_doc *d)
{
	struct rep_ttable t = {
		{ "measurement", "dir", "intervals", "slowest", "fastest", "variation" },
		6,
		2,
		NULL,
		0,
		0
	};
	char a[48];
	for (size_t i = 0; i < d->njobs; i++) {
		const struct rep_job *j = &d->jobs[i];
		for (int k = 0; k < SB_DDIR_N; k++) {
			double lo = INFINITY, hi = 0, sum = 0, sq = 0;
			size_t n = 0;
			for (size_t p = 0; p < j->series.n; p++) {
				double v = j->series.bw[k] ? j->series.bw[k][p] : 0;
				lo = SB_MIN(lo, v);
				hi = SB_MAX(hi, v);
				sum += v;
				sq += v * v;
				n++;
			}
			if (!j->dir[k].used || n < 2 || !rep_tt_row(&t))
				continue;
			double mean = sum / (double)n, var = sq / (double)n - mean * mean;
			rep_tt_set(&t, 0, j->name);
			rep_tt_set(&t, 1, sb_ddir_name(k));
			snprintf(a, sizeof(a), "%zu", n);
			rep_tt_set(&t, 2, a);
			rep_tt_set(&t, 3, rep_fmt_rate(lo, a, sizeof(a)));
			rep_tt_set(&t, 4, rep_fmt_rate(hi, a, sizeof(a)));
			snprintf(a, sizeof(a), "%.1f%%",
				 mean > 0 && var > 0 ? 100 * sqrt(var) / mean : 0);
			rep_tt_set(&t, 5, a);
		}
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nbandwidth per interval (variation: standard deviation / mean)\n");
	rep_tt_print(f, &t);
}

/* A soak of many ranks: a row per rank, its own iterations' medians. */
static void soak_ranks(FILE *f, const struct rep_iters *it)
{
	struct rep_ttable t = {
		{ "rank", "host", "iterations", "failed", "write median", "read median" },
		6,
		2,
		NULL,
		0,
		0
	};
	char a[64];
	if (!it->nrk)
		return;
	for (size_t k = 0; k < it->nrk; k++) {
		const struct rep_rankser *r = &it->rk[k];
		if (!rep_tt_row(&t))
			break;
		snprintf(a, sizeof(a), "%.0f", r->rank);
		rep_tt_set(&t, 0, a);
		rep_tt_set(&t, 1, r->host);
		snprintf(a, sizeof(a), "%zu", r->n);
		rep_tt_set(&t, 2, a);
		snprintf(a, sizeof(a), "%zu", r->failed);
		rep_tt_set(&t, 3, a);
		rep_tt_set(&t, 4, rep_fmt_rate(rep_finite_median(r->bw[0], r->n), a, sizeof(a)));
		rep_tt_set(&t, 5, rep_fmt_rate(rep_finite_median(r->bw[1], r->n), a, sizeof(a)));
	}
	fprintf(f, "\neach rank's own iterations (%zu ranks)\n", it->nrk);
	rep_tt_print(f, &t);
}

/* The soak's one word, as it wrote it (the verdict is the soak's, never
 * made up here; a log without it: the soak was killed or still runs),
 * then why (report/soak_lead.c): each failed iteration and what failed,
 * changes of level and outliers with their size, then what it was asked. */
static void soak_verdict(FILE *f, const struct rep_doc *d, const struct rep_soak_lead *l)
{
	const struct rep_iters *it = &d->iters;
	const char *kv[12][2];
	char cut[48] = "", buf[12][64], name[REP_VIS];
	if (it->cut_short)
		snprintf(cut, sizeof(cut), " (%zu cut short)", it->cut_short);
	fprintf(f, "\n%zu iteration%s%s, %zu failed", it->n, it->n == 1 ? "" : "s", cut,
		it->failed);
	if (!l->has_verdict)
		fprintf(f, ": no verdict (no summary after the last iteration: the soak was "
			   "killed, or still runs; storbench soak --resume=LOG goes on with it)\n");
	else
		fprintf(f, ": %s\n", rep_vis(l->word, name, sizeof(name)));
	for (size_t i = 0; i < l->nwhy; i++)
		if (l->why[i].kind != REP_WHY_NONE) {
			rep_vis_put(f, l->why[i].text);
			fputc('\n', f);
		}
	const size_t n = rep_soak_settings_kv(l, kv, buf, SB_ARRAY_SIZE(kv));
	for (size_t i = 0; i < n; i++) {
		snprintf(name, 32, "%s", kv[i][0]);
		name[0] = (char)(name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a' : name[0]);
		fprintf(f, "%s%s ", i ? ", " : "settings: ", name);
		rep_vis_put(f, kv[i][1]);
		fputs(i + 1 == n ? "\n" : "", f);
	}
}

/* A soak: the verdict and why, then its iterations' throughput: median,
 * range, p5, p95, variation and trend, outliers and changes of level. */
static void soak(FILE *f, const struct rep_doc *d)
{
	static const char *const names[2] = { "write", "read" };
	const struct rep_iters *it = &d->iters;
	struct rep_soak_lead *l = malloc(sizeof(*l));
	char a[48], b[48], c[48];
	if (!l || rep_soak_lead(d, l) < 0) {
		fprintf(f, "\nsoak: out of memory\n");
		free(l);
		return;
	}
	soak_verdict(f, d, l);
	for (int k = 0; k < 2 && it->n; k++) {
		const struct rep_anomalies *an = &l->an[k];
		if (!an->m.st.n)
			continue;
		/* an iozone soak: every write test's bytes over their time, and the reads' */
		fprintf(f, "%-5s%s per iteration: median %s, %s .. %s", names[k],
			it->ncs ? " tests" : "", rep_fmt_rate(an->m.st.median, a, sizeof(a)),
			rep_fmt_rate(an->m.st.min, b, sizeof(b)),
			rep_fmt_rate(an->m.st.max, c, sizeof(c)));
		if (an->m.st.n > 1)
			fprintf(f, ", p5 %s, p95 %s", rep_fmt_rate(an->m.st.p5, a, sizeof(a)),
				rep_fmt_rate(an->m.st.p95, b, sizeof(b)));
		fprintf(f, ", variation %.1f%%", 100 * an->m.st.cv);
		if (isfinite(l->trend[k]))
			fprintf(f, ", trend %+.1f%%", 100 * l->trend[k]);
		if (!an->judged.outliers)
			fprintf(f, "; too few iterations to judge");
		else
			fprintf(f, "; %zu outlier%s, %zu change%s of level%s", an->m.outliers_total,
				an->m.outliers_total == 1 ? "" : "s", an->m.nchanges,
				an->m.nchanges == 1 ? "" : "s",
				an->judged.changes ? "" : " (too few to tell)");
		fputc('\n', f);
	}
	free(l);
	rep_text_soak_cells(f, d);
	soak_ranks(f, it);
}

/* A bad range's row: from column `at` on, its class, offset, length and
 * what the class adds. */
static void range_row(struct rep_ttable *t, unsigned at, const struct sb_verify_doc_range *x)
{
	char a[64];
	rep_tt_set(t, at, sb_verify_class_name(x->g.cls));
	rep_tt_set(t, at + 1, rep_fmt_offset((double)x->g.offset, a, sizeof(a)));
	rep_tt_set(t, at + 2, rep_fmt_offset((double)x->g.length, a, sizeof(a)));
	rep_tt_set(t, at + 3, rep_range_detail(x, a, sizeof(a)));
}

/* Verify of many ranks: a row per rank (its verdict and counts; its path
 * is in the HTML and CSV reports), then the bad ranges of each rank,
 * offsets in its own target. */
static void verify_ranks(FILE *f, const struct sb_verify_doc_rank *ranks, size_t n)
{
	struct rep_ttable t = {
		{ "rank", "host", "result", "checked", "not intact", "classes" }, 6, 3, NULL, 0, 0
	};
	struct rep_ttable r = {
		{ "rank", "class", "offset", "length", "detail" }, 5, 2, NULL, 0, 0
	};
	char a[160];
	size_t failed = 0;
	for (size_t i = 0; i < n && rep_tt_row(&t); i++) {
		const struct sb_verify_doc_rank *k = &ranks[i];
		const char *verdict = rep_rank_verdict(k);
		failed += !strcmp(verdict, "fail");
		snprintf(a, sizeof(a), "%d", k->rank);
		rep_tt_set(&t, 0, a);
		rep_tt_set(&t, 1, rep_or(k->host, "?"));
		rep_tt_set(&t, 2, verdict);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)k->b.blocks);
		rep_tt_set(&t, 3, a);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)sb_verify_doc_bad(&k->b));
		rep_tt_set(&t, 4, a);
		rep_tt_set(&t, 5, rep_bad_classes(&k->b, a, sizeof(a)));
	}
	fprintf(f, "\neach rank's verify (%zu ranks, %zu failed)\n", n, failed);
	rep_tt_print(f, &t);
	double omitted = 0;
	for (size_t i = 0; i < n; i++) {
		omitted += (double)ranks[i].b.omitted;
		for (size_t j = 0; j < ranks[i].b.nranges && rep_tt_row(&r); j++) {
			snprintf(a, sizeof(a), "%d", ranks[i].rank);
			rep_tt_set(&r, 0, a);
			range_row(&r, 1, &ranks[i].b.ranges[j]);
		}
	}
	if (!r.nrows)
		return;
	fprintf(f, "\neach rank's bad ranges (bytes from the start of its own target)");
	if (omitted > 0)
		fprintf(f, "; %.0f more not listed", omitted);
	fputc('\n', f);
	rep_tt_print(f, &r);
}

/* verify of a directory: what its write covered of the free space */
static void coverage(FILE *f, const struct sb_verify_doc *v)
{
	char a[32], b[32];
	if (!v->has_coverage || !isfinite(v->coverage_percent))
		return;
	fprintf(f, "covered: %s, %.1f%% of the %s free before%s\n",
		sb_fmt_size(v->coverage_bytes, a, sizeof(a)), v->coverage_percent,
		sb_fmt_size(v->free_before, b, sizeof(b)), v->coverage_fill ? " (a fill)" : "");
}

/* storbench.verify (verify, run --verify): blocks per class and the bad ranges. */
static void verify(FILE *f, const struct rep_doc *d)
{
	const struct sb_verify_doc *v = d->verify;
	struct rep_ttable c = { { "class", "blocks", "bytes", "share" }, 4, 1, NULL, 0, 0 };
	struct rep_ttable r = { { "class", "offset", "length", "detail" }, 4, 1, NULL, 0, 0 };
	char a[64];
	if (!v || !v->has_blocks)
		return;
	const double all = (double)v->b.blocks, bs = v->block_size;
	fprintf(f, "\nverify: %.0f blocks of %.0f B checked, result %s\n", all, bs,
		rep_vis(rep_or(v->result, "-"), a, sizeof(a)));
	coverage(f, v);
	for (int k = 0; k < REP_VCLASS_N; k++) {
		if (!rep_vclass_shown(&v->b, k) || !rep_tt_row(&c))
			continue;
		const double n = (double)v->b.count[k];
		rep_tt_set(&c, 0, sb_verify_class_name(k));
		snprintf(a, sizeof(a), "%.0f", n);
		rep_tt_set(&c, 1, a);
		rep_tt_set(&c, 2, sb_fmt_size((uint64_t)(n * bs), a, sizeof(a)));
		snprintf(a, sizeof(a), "%.3g%%", all > 0 ? 100 * n / all : 0);
		rep_tt_set(&c, 3, a);
	}
	rep_tt_print(f, &c);
	if (v->nranks)
		verify_ranks(f, v->ranks, v->nranks);
	for (size_t i = 0; i < v->b.nranges && rep_tt_row(&r); i++)
		range_row(&r, 0, &v->b.ranges[i]);
	if (!r.nrows)
		return;
	fprintf(f, "\nbad ranges (bytes from the target's start)");
	if (v->b.omitted > 0)
		fprintf(f, "; %.0f more not listed", (double)v->b.omitted);
	fputc('\n', f);
	rep_tt_print(f, &r);
}

/* What a command adds to the generic tables, one row per command. */
/* storbench.spo (spo --check): blocks per class, the verdict, what to do. */
static void spo(FILE *f, const struct rep_doc *d)
{
	struct rep_ttable t = { { "class", "blocks" }, 2, 1, NULL, 0, 0 };
	char a[32];
	if (!d->spo)
		return;
	const struct sb_spo_check *c = &d->spo->c;
	fprintf(f, "\nspo: %llu blocks checked, %llu writes journaled, %llu acknowledged, %s\n",
		(unsigned long long)c->blocks, (unsigned long long)c->writes,
		(unsigned long long)c->acked, c->pass ? "pass" : "FAIL");
	for (int k = 0; k < SB_SPO_NCLASS && rep_tt_row(&t); k++) {
		rep_tt_set(&t, 0, sb_spo_class_name(k));
		snprintf(a, sizeof(a), "%llu", (unsigned long long)c->count[k]);
		rep_tt_set(&t, 1, a);
	}
	rep_tt_print(f, &t);
	for (unsigned i = 0; i < c->nrec; i++)
		fputs("recommended: ", f), rep_vis_put(f, c->rec[i]), fputc('\n', f);
}

/* spo --cycles's log: the verdict, blocks per class over the cycles, the
 * cycles that failed, the lost writes' times from acknowledgement to cut. */
static void spo_cycles(FILE *f, const struct rep_doc *d)
{
	const struct rep_cycles *c = d->cycles;
	struct rep_ttable t = { { "class", "blocks", "cycles" }, 3, 1, NULL, 0, 0 };
	char a[32], b[32];
	double lost = 0;
	if (!c)
		return;
	fprintf(f, "\nspo cycles: %zu of %.0f run", c->n, c->planned);
	if (c->nfailed)
		fprintf(f, ", first failure at cycle %.0f (%zu failed)\n", c->first_failed,
			c->nfailed);
	else
		fprintf(f, ", %s\n", c->n ? "all passed" : "none complete");
	if (c->errors)
		fprintf(f, "cycle %.0f could not run: ", c->first_error), rep_vis_put(f, c->error),
			fputc('\n', f);
	for (int k = 0; k < SB_SPO_NCLASS && c->n && rep_tt_row(&t); k++) {
		double sum = 0, in = 0;
		for (size_t i = 0; i < c->n; i++) {
			sum += c->blocks[k][i];
			in += c->blocks[k][i] > 0;
		}
		rep_tt_set(&t, 0, sb_spo_class_name(k));
		snprintf(a, sizeof(a), "%.0f", sum);
		rep_tt_set(&t, 1, a);
		snprintf(b, sizeof(b), "%.0f", in);
		rep_tt_set(&t, 2, b);
	}
	rep_tt_print(f, &t);
	if (c->nfailed) {
		size_t shown = 0;
		fputs("failed cycles:", f);
		for (size_t i = 0; i < c->n && shown < 20; i++)
			if (c->failed[i])
				fprintf(f, "%s%.0f", shown++ ? ", " : " ", c->x[i]);
		fprintf(f, "%s\n", c->nfailed > shown ? ", ..." : "");
	}
	for (int i = 0; i < SB_SPO_HIST_N; i++)
		lost += c->hist[i];
	if (lost > 0) {
		fputs("lost acknowledged writes by time from acknowledgement to cut:", f);
		for (int i = 0; i < SB_SPO_HIST_N; i++)
			fprintf(f, " %s %.0f", sb_spo_hist_label[i], c->hist[i]);
		fputc('\n', f);
	}
}

static const struct {
	const char *command;
	void (*render)(FILE *f, const struct rep_doc *d);
} sections[] = {
	{ "run", intervals },
	{ "fio", intervals },
	{ "soak", soak },
	{ "pts", rep_text_pts },
	{ "cliff", rep_text_cliff },
	{ "flash", rep_text_flash },
	{ "spo", spo },
	{ "spo-cycles", spo_cycles },
	{ "meta", rep_text_meta },
	{ "sweep", rep_text_sweep },
};

static void conditions(FILE *f, const struct rep_doc *d)
{
	struct rep_ttable t = { { "measurement", "pattern", "bs", "depth", "jobs", "engine", "I/O",
				  "cache", "size", "time" },
				10,
				2,
				NULL,
				0,
				0 };
	char a[48];
	for (size_t i = 0; i < d->njobs && rep_tt_row(&t); i++) {
		const struct rep_job *j = &d->jobs[i];
		rep_tt_set(&t, 0, j->name);
		rep_tt_set(&t, 1, j->rw);
		rep_tt_set(&t, 2, j->bs);
		snprintf(a, sizeof(a), "%u", j->iodepth);
		rep_tt_set(&t, 3, a);
		snprintf(a, sizeof(a), "%u", j->numjobs);
		rep_tt_set(&t, 4, a);
		rep_tt_set(&t, 5, j->engine);
		rep_tt_set(&t, 6, j->direct < 0 ? "?" : j->direct ? "direct" : "buffered");
		rep_tt_set(&t, 7, j->cache);
		rep_tt_set(&t, 8, j->size ? sb_fmt_size(j->size, a, sizeof(a)) : "");
		snprintf(a, sizeof(a), "%.2f s", j->runtime_s);
		rep_tt_set(&t, 9, a);
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nconditions\n");
	rep_tt_print(f, &t);
}

int rep_text(FILE *f, struct rep_doc *const *docs, size_t n)
{
	return rep_plan_text(f, NULL, docs, n);
}

int rep_plan_text(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n)
{
	if (p)
		rep_plan_text_lead(f, p); /* the verdict first, its steps after */
	for (size_t i = 0; i < n; i++) {
		const struct rep_doc *d = docs[i];
		if (i || p)
			fputc('\n', f);
		header(f, d);
		summary(f, d);
		results(f, d);
		for (size_t k = 0; k < SB_ARRAY_SIZE(sections); k++)
			if (!strcmp(sections[k].command, d->command))
				sections[k].render(f, d);
		verify(f, d);
		conditions(f, d);
		if (d->nrecords)
			fprintf(f, "\n%zu log record%s (see the HTML or CSV report)\n", d->nrecords,
				d->nrecords == 1 ? "" : "s");
		for (size_t k = 0; k < d->nwarnings; k++)
			fprintf(f, "%swarning: ", k ? "" : "\n"), rep_vis_put(f, d->warnings[k]),
				fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}
