/*
 * Fuzz target of the methods' section readers (libFuzzer: make fuzz):
 * sb_pts_read, sb_cliff_read, sb_flash_read (lib/pts, lib/cliff,
 * lib/flash), sb_sweep_read, sb_meta_read, sb_latency_read and
 * sb_spo_read on any JSON, and sb_spo_cycles_read (a line of spo
 * --cycles's log): the document itself and its storbench.METHOD
 * section, as report/ reads a result's. Each must read or refuse without
 * a crash, a leak or undefined behaviour; a refusal names the key path
 * (or, at the top, what it expected), and what is read holds the
 * section's rules (sizes within the matrix, cells measured only in its
 * shape, a skew's ranks among the ranks, requests numbered in order,
 * spo's classes and acknowledgements within its blocks and writes, a
 * pts window within its rounds); and a plan's result (sb_plan_result_read,
 * lib/plan) on the document, each step's criteria within it. tests/unit/sections-corpus.c runs this
 * same function over the corpus and its mutations in make check, without
 * clang.
 */
#include "lib/cliff/cliff.h"
#include "lib/flash/flash.h"
#include "lib/json/json_read.h"
#include "lib/latency/lat_run.h"
#include "lib/meta/meta.h"
#include "lib/plan/plan.h"
#include "lib/pts/pts.h"
#include "lib/spo/spo.h"
#include "lib/sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void refused_well(int e, const struct sb_error *err)
{
	CHECK(e == 0 || e == -ENOMEM || e == -EINVAL);
	CHECK(e != -EINVAL || strchr(err->msg, ':') || !strncmp(err->msg, "expected ", 9));
}

static void pts(const struct sb_jv *v)
{
	static struct sb_pts_doc d;
	struct sb_error err;
	const int e = sb_pts_read(v, &d, &err);
	refused_well(e, &err);
	CHECK(d.r.nparts <= SB_PTS_MAX_PARTS && d.r.ndeviations <= SB_PTS_MAX_DEVIATIONS);
	for (unsigned i = 0; !e && i < d.r.nparts; i++) {
		const struct sb_pts_part *p = &d.r.parts[i];
		CHECK(p->ncells == p->nmix * p->nbs && p->ncells <= SB_PTS_MAX_CELLS);
		CHECK(p->track_cell < p->ncells && p->partial_cells <= p->ncells);
		CHECK(p->ss.last <= p->nrounds);
		/* every figure the renderers take is there */
		volatile double sum = 0;
		for (size_t c = 0; c < (size_t)p->nrounds * p->ncells + p->partial_cells; c++)
			sum += p->fig[c].iops;
		for (unsigned k = 0; k < p->nrounds; k++)
			sum += p->tracked[k] + (double)d.parts[i].written_total[k];
		for (unsigned c = 0; d.parts[i].avg && c < p->ncells; c++)
			sum += d.parts[i].avg[c].iops;
		(void)sum;
	}
	sb_pts_doc_free(&d);
}

static void cliff(const struct sb_jv *v)
{
	static struct sb_cliff_doc d;
	struct sb_error err;
	const int e = sb_cliff_read(v, &d, &err);
	refused_well(e, &err);
	CHECK(d.r.find.nsteps <= SB_CLIFF_MAX_STEPS && d.r.nrecovery <= SB_CLIFF_MAX_RECOVERY);
	sb_cliff_doc_free(&d);
}

static void flash(const struct sb_jv *v)
{
	static struct sb_flash_doc d;
	struct sb_error err;
	const int e = sb_flash_read(v, &d, &err);
	refused_well(e, &err);
	sb_flash_doc_free(&d);
}

/* what is wrong is said: what was expected, or (every section's rule of a
 * run of many ranks, sb_ranks_check) an entry of "ranks" without its rank */
static void refused(int e, const struct sb_error *er)
{
	CHECK(e == -EINVAL || e == -ENOMEM);
	CHECK(e == -ENOMEM || strstr(er->msg, "expected ") ||
	      strstr(er->msg, ": a rank's entry without its 'rank'"));
}

static void sweep(const struct sb_jv *v)
{
	struct sb_sweep_doc *d = calloc(1, sizeof(*d));
	struct sb_error er;
	if (!d)
		return;
	const int e = sb_sweep_read(v, d, &er);
	if (e) {
		refused(e, &er);
	} else {
		const struct sb_sweep_result *r = &d->r;
		CHECK(r->nfile >= 1 && r->nfile <= SB_SWEEP_MAX_SIZES);
		CHECK(r->nrec >= 1 && r->nrec <= SB_SWEEP_MAX_SIZES);
		CHECK(r->cells_done <= r->cells_planned);
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < r->nfile; fi++)
				for (unsigned ri = 0; ri < r->nrec; ri++)
					if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
						CHECK((d->o.tests >> t & 1u) &&
						      sb_sweep_cell_runs(r, fi, ri));
		for (unsigned k = 0; k < r->nranks; k++)
			for (int t = 0; t < SB_SWEEP_NTESTS; t++)
				(void)sb_sweep_rank_rate(&r->ranks[k].r, t);
	}
	sb_sweep_doc_free(d);
	free(d);
}

static void meta(const struct sb_jv *v)
{
	struct sb_meta_doc *d = calloc(1, sizeof(*d));
	struct sb_error er;
	if (!d)
		return;
	const int e = sb_meta_read(v, d, &er);
	if (e) {
		refused(e, &er);
	} else {
		for (int t = 0; t < SB_META_NTESTS; t++) {
			const struct sb_meta_skew *k = &d->m.skew[t];
			CHECK(!(d->skews >> t & 1u) || (d->m.nranks && (d->tests >> t & 1u)));
			CHECK(!(d->skews >> t & 1u) ||
			      (k->slowest_rank >= -1 && k->slowest_rank < (int)d->m.nranks));
			CHECK(!(d->skews >> t & 1u) ||
			      (k->fastest_rank >= -1 && k->fastest_rank < (int)d->m.nranks));
			for (unsigned i = 0; i < d->m.nranks; i++)
				CHECK(!d->m.ranks[i].t[t].ran || (d->tests >> t & 1u));
		}
	}
	sb_meta_doc_free(d);
	free(d);
}

static void latency(const struct sb_jv *v)
{
	struct sb_latency_doc *d = calloc(1, sizeof(*d));
	struct sb_error er;
	if (!d)
		return;
	const int e = sb_latency_read(v, d, &er);
	if (e) {
		refused(e, &er);
	} else {
		CHECK(d->lr.st.valid <= d->lr.st.count);
		CHECK(d->lr.nrec <= SB_LAT_MAX_RECORDS);
		CHECK((unsigned)d->lr.preset < SB_LAT_NPRESETS);
	}
	sb_latency_doc_free(d);
	free(d);
}

static void spo(const struct sb_jv *v)
{
	struct sb_spo_doc *d = calloc(1, sizeof(*d));
	struct sb_error er;
	if (!d)
		return;
	const int e = sb_spo_read(v, d, &er);
	if (e) {
		refused(e, &er);
	} else {
		const struct sb_spo_check *c = &d->c;
		CHECK(c->acked <= c->writes && c->canary_blocks <= c->blocks);
		CHECK(c->nrec <= SB_SPO_REC_MAX);
		for (int k = 0; k < SB_SPO_NCLASS; k++)
			CHECK(c->count[k] <= c->blocks);
		for (size_t i = 0; i < c->nranges; i++)
			CHECK((unsigned)c->ranges[i].cls < SB_SPO_NCLASS);
	}
	sb_spo_doc_free(d);
	free(d);
}

/* a line of spo --cycles's log (its reader takes any line) */
static void spo_cycles(const struct sb_jv *v)
{
	struct sb_spo_cycles_line l;
	struct sb_error er;
	const int e = sb_spo_cycles_read(v, &l, &er);
	if (e) {
		refused(e, &er);
	} else if (l.kind == SB_SPO_LINE_CYCLE) {
		CHECK(l.cy.n >= 1 && l.cy.nlost <= SB_SPO_CYCLE_LOST_MAX);
		CHECK(!l.cy.has_counts || l.cy.acked <= l.cy.writes);
	} else if (l.kind == SB_SPO_LINE_HEADER) {
		CHECK(l.h.target && l.h.cut_min_ns <= l.h.cut_max_ns);
	} else if (l.kind == SB_SPO_LINE_ERROR) {
		CHECK(l.error && l.error_cycle >= 1);
	}
}

static void plan(const struct sb_jv *v)
{
	struct sb_plan_doc d;
	struct sb_error err;
	const int e = sb_plan_result_read(v, &d, &err);
	refused_well(e, &err);
	for (size_t i = 0; !e && i < d.nsteps; i++) {
		CHECK(d.steps[i].step && d.steps[i].state &&
		      (d.steps[i].crit || !d.steps[i].ncrit));
		for (size_t k = 0; k < d.steps[i].ncrit; k++)
			CHECK(d.steps[i].crit[k].result && d.steps[i].crit[k].op &&
			      (d.steps[i].crit[k].limit_word ||
			       strcmp(d.steps[i].crit[k].unit, "word") != 0));
	}
	sb_plan_doc_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_json_limits lim = { 1u << 20, 48 };
	struct sb_jdoc *doc = NULL;
	if (sb_json_parse((const char *)data, size, &lim, &doc, NULL) < 0)
		return 0;
	const struct sb_jv *root = sb_jdoc_root(doc), *sb = sb_jv_get(root, "storbench");
	/* a whole result: its storbench section's method, else the root */
	const struct sb_jv *s = sb ? sb : root;
	pts(sb_jv_get(s, "pts") ? sb_jv_get(s, "pts") : s);
	cliff(sb_jv_get(s, "cliff") ? sb_jv_get(s, "cliff") : s);
	flash(sb_jv_get(s, "flash") ? sb_jv_get(s, "flash") : s);
	sweep(root);
	meta(root);
	latency(root);
	spo(root);
	spo_cycles(root);
	plan(root);
	if (sb_jv_get(sb, "sweep"))
		sweep(sb_jv_get(sb, "sweep"));
	if (sb_jv_get(sb, "meta"))
		meta(sb_jv_get(sb, "meta"));
	if (sb_jv_get(sb, "latency"))
		latency(sb_jv_get(sb, "latency"));
	if (sb_jv_get(sb, "spo"))
		spo(sb_jv_get(sb, "spo"));
	sb_jdoc_free(doc);
	return 0;
}
