/*
 * spo --cycles's log as the report keeps it (docs/spo.md "Cycles from a
 * controlling host"): per cycle line only the figures the charts and the
 * tables take, in arrays of their own; the lost acknowledged writes'
 * times from acknowledgement to cut summed into the check's buckets; the
 * first cycle that could not run, in words.
 */
#include "report/report.h"

#include <math.h>

static int room(struct rep_cycles *c)
{
	if (c->n < c->cap)
		return 0;
	const size_t cap = c->cap ? c->cap * 2 : 256;
	if (rep_grow((void **)&c->x, sizeof(double), cap) < 0 ||
	    rep_grow((void **)&c->cut_s, sizeof(double), cap) < 0 ||
	    rep_grow((void **)&c->failed, 1, cap) < 0)
		return -ENOMEM;
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		if (rep_grow((void **)&c->blocks[k], sizeof(double), cap) < 0)
			return -ENOMEM;
	c->cap = cap;
	return 0;
}

/* The buckets of a cycle line: the check's own counts where the line has
 * them, else the (at most 100) times it lists. */
static void add_hist(struct rep_cycles *c, const struct sb_jv *r)
{
	const struct sb_jv *h = sb_jv_get(r, "ack_to_cut_histogram");
	const struct sb_jv *t = sb_jv_get(r, "lost_ack_to_cut_ns");
	if (sb_jv_len(h) == SB_SPO_HIST_N) {
		for (size_t i = 0; i < SB_SPO_HIST_N; i++) {
			const double n = sb_jv_num(sb_jv_at(h, i), 0);
			c->hist[i] += isfinite(n) && n > 0 ? n : 0;
		}
		return;
	}
	for (size_t i = 0; i < sb_jv_len(t); i++) {
		uint64_t ns;
		if (!sb_jv_u64(sb_jv_at(t, i), &ns))
			c->hist[sb_spo_hist_bucket(ns)]++;
	}
}

int rep_cycles_add(struct rep_doc *d, const struct sb_jv *r)
{
	struct rep_cycles *c = d->cycles;
	const double n = sb_jv_num(sb_jv_get(r, "cycle"), NAN);
	const double err = sb_jv_num(sb_jv_get(r, "cycle_error"), NAN);
	if (isfinite(err)) {
		if (!c->errors++) {
			c->first_error = err;
			snprintf(c->error, sizeof(c->error), "%s",
				 rep_or(sb_jv_str(sb_jv_get(r, "error")), "?"));
		}
		return 0;
	}
	if (!isfinite(n) || !sb_jv_get(r, "pass"))
		return 0; /* not a cycle line: counted as a record, no more */
	if (room(c) < 0)
		return -ENOMEM;
	const struct sb_jv *cl = sb_jv_get(r, "classes");
	const int pass = sb_jv_bool(sb_jv_get(r, "pass"), 0) == 1;
	c->x[c->n] = n;
	c->planned = sb_jv_num(sb_jv_get(r, "of"), c->planned);
	c->cut_s[c->n] = sb_jv_num(sb_jv_get(r, "cut_after_ns"), NAN) / 1e9;
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		c->blocks[k][c->n] = sb_jv_num(sb_jv_get(cl, sb_spo_class_name(k)), 0);
	c->failed[c->n] = !pass;
	if (!pass && !c->nfailed++)
		c->first_failed = n;
	add_hist(c, r);
	c->n++;
	return 0;
}

void rep_cycles_free(struct rep_cycles *c)
{
	if (!c)
		return;
	free(c->x);
	free(c->cut_s);
	free(c->failed);
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		free(c->blocks[k]);
}
