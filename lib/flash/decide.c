/*
 * Deciding what a diff profile shows (METHODS.md 1.2, "implementation
 * notes"): flashbench prints the table and leaves the reading to a person;
 * here a boundary size is named only when the boundaries at and above it
 * all cost clearly more than every boundary below it, clearly meaning more
 * than the reads vary by on their own. A profile without such a step (a
 * RAM disk, most SSDs) gives no decision, never a size picked from noise.
 */
#include "lib/flash/flash_int.h"
#include "lib/analysis/robust.h"

#include <math.h>

#define STEP_RATIO 1.5	       /* above >= 1.5 x below */
#define ERASE_MIN (128u << 10) /* a lone step this high is an erase block */

double sb_flash_threshold(double noise_ns, double base_ns)
{
	return fmax(SB_FLASH_NOISE_FACTOR * noise_ns, SB_FLASH_BASE_SHARE * base_ns);
}

const char *sb_flash_conf_name(int conf)
{
	switch (conf) {
	case SB_FLASH_CONF_HIGH: return "high";
	case SB_FLASH_CONF_MEDIUM: return "medium";
	case SB_FLASH_CONF_LOW: return "low";
	default: return "none";
	}
}

/* base: the median plain read; noise: the robust spread of pre against
 * post (1.4826 x their median distance) or the deepest negative diff */
static void noise_of(const struct sb_flash_profile *p, struct sb_flash_decision *d)
{
	double plain[2 * SB_FLASH_MAX_ROWS], gap[SB_FLASH_MAX_ROWS], neg = 0;
	for (unsigned i = 0; i < p->nrows; i++) {
		const struct sb_flash_align_row *r = &p->rows[i];
		plain[2 * i] = r->pre_ns;
		plain[2 * i + 1] = r->post_ns;
		gap[i] = fabs(r->pre_ns - r->post_ns);
		neg = fmax(neg, -r->diff_ns);
	}
	d->base_ns = sb_median(plain, 2 * p->nrows);
	d->noise_ns = fmax(1.4826 * sb_median(gap, p->nrows), neg);
	d->threshold_ns = sb_flash_threshold(d->noise_ns, d->base_ns);
}

static int conf_of(double margin, double ratio, unsigned above_rows)
{
	if (margin >= 4 && ratio >= 2 && above_rows >= 2)
		return SB_FLASH_CONF_HIGH;
	if (margin >= 2 && above_rows >= 2)
		return SB_FLASH_CONF_MEDIUM;
	return SB_FLASH_CONF_LOW;
}

/* the step between row k and row k + 1, when there is one */
static int step_at(const struct sb_flash_profile *p, const struct sb_flash_decision *d, unsigned k,
		   struct sb_flash_step *s)
{
	double above = INFINITY, below = -INFINITY;
	for (unsigned i = 0; i <= k; i++)
		above = fmin(above, p->rows[i].diff_ns);
	for (unsigned i = k + 1; i < p->nrows; i++)
		below = fmax(below, p->rows[i].diff_ns);
	const double margin = (above - below) / d->threshold_ns;
	const double ratio = above / fmax(below, d->threshold_ns / 2);
	/* one boundary alone above the step is no plateau: it must stand out
	 * by far (the largest boundary is read at fewer distinct places) */
	if (margin <= 1 || ratio < STEP_RATIO || (k == 0 && margin < 3))
		return 0;
	*s = (struct sb_flash_step){
		p->rows[k].align, k, above, below, margin, conf_of(margin, ratio, k + 1)
	};
	return 1;
}

int sb_flash_decide(const struct sb_flash_profile *p, struct sb_flash_decision *d)
{
	memset(d, 0, sizeof(*d));
	d->erase = d->page = -1;
	if (p->nrows < 3)
		return -EINVAL;
	noise_of(p, d);
	if (!(d->threshold_ns > 0))
		d->threshold_ns = 1; /* every read took as long: nothing stands out */
	for (unsigned k = 0; k + 1 < p->nrows && d->nsteps < SB_FLASH_MAX_STEPS; k++)
		d->nsteps += (unsigned)step_at(p, d, k, &d->steps[d->nsteps]);
	if (d->nsteps >= 2) {
		d->erase = 0;
		d->page = (int)d->nsteps - 1;
	} else if (d->nsteps == 1) {
		if (d->steps[0].align >= ERASE_MIN)
			d->erase = 0;
		else
			d->page = 0;
	}
	return 0;
}
