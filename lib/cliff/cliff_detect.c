/* The drop of a cache in the binned series (cliff.h): the change points
 * of lib/analysis, kept when they move the level by SB_CLIFF_MIN_STEP. */
#include "lib/cliff/cliff.h"
#include "lib/analysis/anomalies.h"

#include <math.h>

/* The series as analysed: bins of equal bytes (the last may hold fewer). */
struct binned {
	size_t n;
	uint64_t bin;
	double *bytes, *ns, *y;
	size_t cps[SB_ANOMALY_MAX_CHANGES + 2]; /* 0, the changes kept, n */
	size_t ncps;				/* entries of cps */
};

/* Bins of b->bin_bytes x f, f the smallest power of 2 that holds a sample
 * on average; the bin being filled counts when it is half full. */
static size_t rebin(const struct sb_cliff_bins *b, struct binned *s)
{
	const double per_sample = b->samples ? (double)b->total_bytes / (double)b->samples : 0;
	size_t f = 1;
	while (((double)(b->bin_bytes * f) < per_sample || b->bin_bytes * f < b->min_bin) &&
	       f < b->n)
		f *= 2;
	s->bin = b->bin_bytes * f;
	s->n = 0;
	for (size_t i = 0; i < b->n; i += f) {
		size_t m = SB_MIN(f, b->n - i);
		double ns = 0;
		for (size_t k = 0; k < m; k++)
			ns += b->ns[i + k];
		s->bytes[s->n] = (double)(m * b->bin_bytes);
		s->ns[s->n++] = ns;
	}
	/* a short last bin takes the bytes being filled */
	if (s->n && s->bytes[s->n - 1] < (double)s->bin) {
		s->bytes[s->n - 1] += (double)b->part_bytes;
		s->ns[s->n - 1] += b->part_ns;
	} else if (b->part_bytes * 2 >= s->bin) {
		s->bytes[s->n] = (double)b->part_bytes;
		s->ns[s->n++] = b->part_ns;
	}
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->ns[i] > 0) { /* a bin without time has no rate */
			s->bytes[k] = s->bytes[i];
			s->ns[k] = s->ns[i];
			s->y[k++] = s->bytes[i] / s->ns[i] * 1e9;
		}
	return s->n = k;
}

/* The rate of bins [a, b): their bytes over their time. */
static double rate_of(const struct binned *s, size_t a, size_t b)
{
	double bytes = 0, ns = 0;
	for (size_t i = a; i < b; i++) {
		bytes += s->bytes[i];
		ns += s->ns[i];
	}
	return ns > 0 ? bytes / ns * 1e9 : 0;
}

/* The level of segment [a, b) for the report: its rate without its first
 * and last bin when it has 4 or more (a bin at a change holds both
 * levels). */
static double level_of(const struct binned *s, size_t a, size_t b)
{
	return b - a >= 4 ? rate_of(s, a + 1, b - 1) : rate_of(s, a, b);
}

/* 1 - smaller / larger: the step as a share of the larger level. */
static double rel_step(double a, double b)
{
	double lo = SB_MIN(a, b), hi = SB_MAX(a, b);
	return hi > 0 ? 1 - lo / hi : 0;
}

/* Drop the weakest change while it moves the level by less than
 * SB_CLIFF_MIN_STEP (its neighbours' segments merge, so steps are judged
 * again after each drop). */
static void keep_big_steps(struct binned *s)
{
	while (s->ncps > 2) {
		size_t weakest = 0;
		double w = INFINITY;
		for (size_t j = 1; j + 1 < s->ncps; j++) {
			double st = rel_step(rate_of(s, s->cps[j - 1], s->cps[j]),
					     rate_of(s, s->cps[j], s->cps[j + 1]));
			if (st < w) {
				w = st;
				weakest = j;
			}
		}
		if (w >= SB_CLIFF_MIN_STEP)
			return;
		memmove(s->cps + weakest, s->cps + weakest + 1,
			(s->ncps - weakest - 1) * sizeof(*s->cps));
		s->ncps--;
	}
}

/* Bytes written at the fast level f in bin i of bytes B and time t, the
 * rest at the slow level l: x / f + (B - x) / l = t. */
static double fast_part(const struct binned *s, size_t i, double f, double l)
{
	const double B = s->bytes[i], t = s->ns[i] / 1e9;
	if (!(f > l) || !(l > 0))
		return 0;
	double x = (t - B / l) / (1 / f - 1 / l);
	return x < 0 ? 0 : x > B ? B : x;
}

static double ns_before(const struct binned *s, size_t i)
{
	double t = 0;
	for (size_t k = 0; k < i; k++)
		t += s->ns[k];
	return t;
}

/* Where the fast writing ended: within bin cp - 1 when it was mixed, else
 * within bin cp (a bin holding both levels may fall on either side). */
static void place_cliff(const struct binned *s, size_t cp, struct sb_cliff_find *o)
{
	const double f = o->before_bw, l = o->after_bw;
	size_t i = cp - 1;
	double x = fast_part(s, i, f, l);
	if (x >= 0.98 * s->bytes[i] && cp < s->n) {
		i = cp;
		x = fast_part(s, i, f, l);
	}
	o->cache_bytes = (uint64_t)((double)i * (double)s->bin + x);
	o->cache_ns = ns_before(s, i) + x / f * 1e9;
}

/* The first drop after which the level never comes back to within
 * SB_CLIFF_MIN_STEP of the level before it; the changes after it are
 * its further steps. */
static void judge(const struct binned *s, struct sb_cliff_find *o)
{
	const size_t k = s->ncps - 2; /* changes */
	double med[SB_ANOMALY_MAX_CHANGES + 1];
	for (size_t j = 0; j <= k; j++)
		med[j] = level_of(s, s->cps[j], s->cps[j + 1]);
	for (size_t j = 0; j < k; j++) {
		if (!(med[j + 1] < med[j]))
			continue;
		const double before = level_of(s, 0, s->cps[j + 1]);
		int back = 0;
		for (size_t i = j + 1; i <= k; i++)
			back |= med[i] > before * (1 - SB_CLIFF_MIN_STEP);
		if (back)
			continue;
		o->found = 1;
		o->before_bw = before;
		o->after_bw = med[j + 1];
		place_cliff(s, s->cps[j + 1], o);
		o->last_change_ns = o->cache_ns;
		for (size_t i = j + 1; i < k && o->nsteps < SB_CLIFF_MAX_STEPS; i++) {
			struct sb_cliff_step *st = &o->steps[o->nsteps++];
			st->at_bytes = (uint64_t)s->cps[i + 1] * s->bin;
			st->at_ns = ns_before(s, s->cps[i + 1]);
			st->before_bw = med[i];
			st->after_bw = med[i + 1];
			o->last_change_ns = st->at_ns;
		}
		return;
	}
}

static int analyse(struct binned *s, struct sb_cliff_find *o)
{
	struct sb_anomalies *an = malloc(sizeof(*an));
	if (!an)
		return -ENOMEM;
	int e = sb_series_anomalies(s->y, s->n, an);
	if (e == 0) {
		s->cps[0] = 0;
		s->ncps = 1;
		for (size_t j = 0; j < an->nchanges; j++)
			s->cps[s->ncps++] = an->changes[j].at;
		s->cps[s->ncps++] = s->n;
		keep_big_steps(s);
		judge(s, o);
	}
	free(an);
	return e;
}

int sb_cliff_detect(const struct sb_cliff_bins *b, struct sb_cliff_find *o, double *bw)
{
	struct binned s;
	memset(o, 0, sizeof(*o));
	o->total_bytes = b->total_bytes;
	o->total_ns = b->total_ns;
	const size_t cap = SB_CLIFF_MAX_BINS + 1;
	double *d = malloc(3 * cap * sizeof(double));
	if (!d)
		return -ENOMEM;
	s.bytes = d, s.ns = d + cap, s.y = d + 2 * cap;
	int e = 0;
	if (rebin(b, &s)) {
		o->nbins = s.n;
		o->bin_bytes = s.bin;
		o->last_bytes = (uint64_t)s.bytes[s.n - 1];
		o->avg_bw = rate_of(&s, 0, s.n);
		if (bw)
			memcpy(bw, s.y, s.n * sizeof(*bw));
		if (s.n >= 2 * SB_ANOMALY_MIN_SEGMENT)
			e = analyse(&s, o);
	}
	free(d);
	return e;
}
