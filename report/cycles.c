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
static void add_hist(struct rep_cycles *c, const struct sb_spo_cycle_rec *r)
{
	if (r->has_hist) {
		for (size_t i = 0; i < SB_SPO_HIST_N; i++)
			c->hist[i] += (double)r->hist[i];
		return;
	}
	for (size_t i = 0; i < r->nlost; i++)
		c->hist[sb_spo_hist_bucket(r->lost_ns[i])]++;
}

static int add_cycle(struct rep_cycles *c, const struct sb_spo_cycle_rec *r)
{
	if (room(c) < 0)
		return -ENOMEM;
	c->x[c->n] = (double)r->n;
	if (r->of)
		c->planned = (double)r->of;
	c->cut_s[c->n] = (double)r->cut_after_ns / 1e9;
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		c->blocks[k][c->n] = (double)r->count[k];
	c->failed[c->n] = !r->pass;
	if (!r->pass && !c->nfailed++)
		c->first_failed = (double)r->n;
	add_hist(c, r);
	c->n++;
	return 0;
}

int rep_cycles_add(struct rep_doc *d, const struct sb_jv *r, struct sb_error *err)
{
	struct rep_cycles *c = d->cycles;
	struct sb_spo_cycles_line l;
	int e = sb_spo_cycles_read(r, &l, err);
	if (!e && l.kind == SB_SPO_LINE_ERROR && !c->errors++) {
		c->first_error = (double)l.error_cycle;
		snprintf(c->error, sizeof(c->error), "%s", l.error);
	}
	if (!e && l.kind == SB_SPO_LINE_CYCLE)
		e = add_cycle(c, &l.cy);
	/* another line: counted as a record, no more */
	return e;
}

void rep_cycles_header(struct rep_cycles *c, const struct sb_jv *header)
{
	struct sb_spo_cycles_line l;
	c->planned = c->bs = NAN;
	if (sb_spo_cycles_read(header, &l, NULL) < 0 || l.kind != SB_SPO_LINE_HEADER)
		return;
	c->planned = (double)l.h.cycles;
	if (l.h.bs)
		c->bs = (double)l.h.bs;
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
