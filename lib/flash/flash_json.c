/*
 * The "flash" section of the results (storbench flash): every row measured
 * (per block size the boundary profile, per open-AU run its chunk rows),
 * the steps and findings the decision made with what supports them, and
 * what they mean. docs/flash.md describes it for readers.
 */
#include "lib/flash/flash.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"

#include <math.h>

static void profile_json(struct sb_json *j, const struct sb_flash_profile *p,
			 const struct sb_flash_decision *d)
{
	sb_json_obj_open(j, NULL);
	sb_json_u64(j, "bs", p->bs);
	sb_json_u64(j, "count", p->count);
	sb_json_u64(j, "positions", SB_FLASH_POSITIONS);
	sb_json_u64(j, "maxalign", p->maxalign);
	sb_json_arr_open(j, "rows");
	for (unsigned i = 0; i < p->nrows; i++) {
		const struct sb_flash_align_row *r = &p->rows[i];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "align", r->align);
		sb_json_double(j, "pre_ns", r->pre_ns);
		sb_json_double(j, "on_ns", r->on_ns);
		sb_json_double(j, "post_ns", r->post_ns);
		sb_json_double(j, "diff_ns", r->diff_ns);
		sb_json_double(j, "pre_post_spread_ns", r->pre_post_spread_ns);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_double(j, "base_ns", d->base_ns);
	sb_json_double(j, "noise_ns", d->noise_ns);
	sb_json_double(j, "threshold_ns", d->threshold_ns);
	sb_json_arr_open(j, "steps");
	for (unsigned i = 0; i < d->nsteps; i++) {
		const struct sb_flash_step *s = &d->steps[i];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "align", s->align);
		sb_json_str(j, "kind",
			    (int)i == d->erase	? "erase_block"
			    : (int)i == d->page ? "page"
						: "other");
		sb_json_double(j, "above_ns", s->above_ns);
		sb_json_double(j, "below_ns", s->below_ns);
		sb_json_double(j, "margin", s->margin);
		sb_json_str(j, "confidence", sb_flash_conf_name(s->conf));
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

/* a finding: its size, confidence and the rows (boundaries) that show it */
static void finding_json(struct sb_json *j, const char *key, const struct sb_flash_result *r,
			 int from, int page, unsigned agree)
{
	if (from < 0) {
		sb_json_null(j, key);
		return;
	}
	const struct sb_flash_decision *d = &r->decisions[from];
	const struct sb_flash_profile *p = &r->profiles[from];
	const struct sb_flash_step *s = &d->steps[page ? d->page : d->erase];
	sb_json_obj_open(j, key);
	sb_json_u64(j, "bytes", s->align);
	sb_json_str(j, "confidence", sb_flash_conf_name(s->conf));
	sb_json_double(j, "margin", s->margin);
	sb_json_u64(j, "bs", p->bs);
	sb_json_u64(j, "seen_at_block_sizes", agree);
	/* the rows that support it: every boundary at and above costs more
	 * than every one below */
	sb_json_arr_open(j, "above_aligns");
	for (unsigned i = 0; i <= s->row; i++)
		sb_json_u64(j, NULL, p->rows[i].align);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "below_aligns");
	for (unsigned i = s->row + 1; i < p->nrows; i++)
		sb_json_u64(j, NULL, p->rows[i].align);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void align_json(struct sb_json *j, const struct sb_flash_result *r)
{
	sb_json_obj_open(j, "align");
	sb_json_arr_open(j, "profiles");
	for (unsigned i = 0; i < r->nprofiles; i++)
		profile_json(j, &r->profiles[i], &r->decisions[i]);
	sb_json_arr_close(j);
	sb_json_bool(j, "decided", !r->align_partial);
	if (r->align_partial && r->erase_from < 0 && r->page_from < 0)
		sb_json_null(j, "boundary_effect");
	else
		sb_json_bool(j, "boundary_effect", r->erase_from >= 0 || r->page_from >= 0);
	finding_json(j, "erase_block", r, r->erase_from, 0, r->erase_agree);
	finding_json(j, "page", r, r->page_from, 1, r->page_agree);
	sb_json_obj_close(j);
}

static void au_json(struct sb_json *j, const struct sb_flash_au_result *au)
{
	static const char *const order[] = { "linear", "random" };
	sb_json_obj_open(j, "open_au");
	sb_json_u64(j, "erase_size", au->p.erase);
	sb_json_u64(j, "bs", au->p.bs);
	sb_json_u64(j, "offset", au->p.offset);
	sb_json_u64(j, "au_spacing", 12 * au->p.erase);
	sb_json_u64(j, "max_au", au->p.max_au);
	sb_json_u64(j, "device_holds_au", au->fits);
	sb_json_arr_open(j, "runs");
	for (unsigned i = 0; i < au->nruns; i++) {
		const struct sb_flash_au_run *run = &au->runs[i];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "open_au", run->nau);
		sb_json_str(j, "order", order[run->random]);
		sb_json_bool(j, "collapsed", run->collapsed);
		sb_json_arr_open(j, "rows");
		for (unsigned k = 0; k < run->nrows; k++) {
			const struct sb_flash_au_row *w = &run->rows[k];
			sb_json_obj_open(j, NULL);
			sb_json_u64(j, "chunk", w->chunk);
			sb_json_u64(j, "writes", w->writes);
			sb_json_double(j, "mean_ns", w->mean_ns);
			sb_json_double(j, "bw_bytes", w->bps);
			sb_json_double(j, "median_ns", w->median_ns);
			sb_json_double(j, "noise_ns", w->noise_ns);
			sb_json_bool(j, "collapsed", w->collapsed);
			sb_json_obj_close(j);
		}
		sb_json_arr_close(j);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	for (int o = 0; o < 2; o++) {
		char k[32];
		snprintf(k, sizeof(k), "max_open_%s", order[o]);
		if (au->p.orders & (1 << o))
			sb_json_u64(j, k, au->best[o]);
		else
			sb_json_null(j, k);
		snprintf(k, sizeof(k), "max_open_%s_limited", order[o]);
		sb_json_bool(j, k, au->limited[o]);
	}
	sb_json_obj_close(j);
}

static void scatter_json(struct sb_json *j, const struct sb_flash_scatter *s)
{
	struct sb_flash_scatter_sum sum;
	sb_flash_scatter_sum(s, &sum);
	sb_json_obj_open(j, "scatter");
	sb_json_u64(j, "bs", s->p.bs);
	sb_json_u64(j, "order", s->p.order);
	sb_json_u64(j, "span", s->p.span);
	sb_json_u64(j, "count", s->p.count);
	sb_json_u64(j, "offset", s->p.offset);
	sb_json_double(j, "min_ns", sum.min_ns);
	sb_json_double(j, "median_ns", sum.median_ns);
	sb_json_double(j, "max_ns", sum.max_ns);
	sb_json_arr_open(j, "slowest_offsets");
	for (unsigned i = 0; i < sum.nslowest; i++)
		sb_json_u64(j, NULL, s->off[sum.slowest[i]]);
	sb_json_arr_close(j);
	/* every position, in offset order: [offset, ns] (null: not read) */
	sb_json_arr_open(j, "rows");
	for (uint32_t i = 0; i < s->n; i++) {
		sb_json_arr_open(j, NULL);
		sb_json_u64(j, NULL, s->off[i]);
		if (isfinite(s->ns[i]))
			sb_json_double(j, NULL, s->ns[i]);
		else
			sb_json_null(j, NULL);
		sb_json_arr_close(j);
	}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void fat_json(struct sb_json *j, const struct sb_flash_fat *f)
{
	sb_json_obj_open(j, "find_fat");
	sb_json_u64(j, "erase_size", f->erase);
	sb_json_u64(j, "bs", f->bs);
	sb_json_u64(j, "blocks", f->nblocks);
	sb_json_arr_open(j, "rows");
	for (unsigned r = 0; r < f->nrows; r++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "chunk", f->rows[r].chunk);
		sb_json_arr_open(j, "bw_bytes");
		for (unsigned b = 0; b < f->nblocks; b++)
			sb_json_double(j, NULL, f->rows[r].bps[b]);
		sb_json_arr_close(j);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_arr_open(j, "different");
	for (unsigned b = 0; b < f->nblocks; b++) {
		if (!f->differs[b])
			continue;
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "block", b);
		sb_json_u64(j, "offset", b * f->erase);
		sb_json_str(j, "how", f->differs[b] > 0 ? "faster" : "slower");
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void meaning(const char *line, void *ctx)
{
	sb_json_str(ctx, NULL, line);
}

static void flash_json(struct sb_json *j, const void *ctx)
{
	const struct sb_flash_result *r = ctx;
	sb_json_str(j, "clock", "CLOCK_MONOTONIC");
	sb_json_bool(j, "direct", 1);
	sb_json_obj_open(j, "priority");
	sb_json_str(j, "asked", r->priority);
	sb_json_bool(j, "raised", !r->priority_err);
	if (r->priority_err)
		sb_json_str(j, "error", strerror(r->priority_err));
	sb_json_obj_close(j);
	sb_json_bool(j, "interrupted", r->interrupted);
	if (r->align)
		align_json(j, r);
	if (r->open_au)
		au_json(j, &r->au);
	if (r->find_fat)
		fat_json(j, &r->fat);
	if (r->scatter)
		scatter_json(j, &r->sc);
	sb_json_arr_open(j, "meaning");
	sb_flash_meaning(r, meaning, j);
	sb_json_arr_close(j);
}

int sb_results_flash(struct sb_results *res, const struct sb_flash_result *r)
{
	res->extra_key = sb_section_name(SB_SECTION_FLASH);
	res->extra_json = flash_json;
	res->extra_ctx = r;
	res->interrupted = r->interrupted;
	if (r->priority_err)
		return sb_results_warn(res,
				       "the scheduling priority could not be raised (%s: %s): other "
				       "work may add to the read times",
				       r->priority, strerror(r->priority_err));
	return 0;
}
