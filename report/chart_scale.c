/*
 * Chart axes: from a data range to a domain with round ticks, the display
 * unit (MiB/s, µs) chosen so tick labels stay short, and data to pixels
 * for linear, log and "nines" axes. Ticks are kept in data units so one
 * mapping serves data and ticks alike.
 */
#include "report/chart_int.h"
#include "report/report.h"

#include <math.h>

static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
static const char *const si[] = { "B", "kB", "MB", "GB", "TB", "PB" };

/* Rates in binary or decimal units (--units, rep_units_si); sizes always
 * in binary (block and chunk sizes are powers of two). */
static double unit_base(enum chart_unit u)
{
	return u == CHART_U_BYTES_S && rep_units_si() ? 1000 : 1024;
}
static const char *const times[] = { "ns", "µs", "ms", "s" };
static const char *const counts[] = { "", "k", "M", "G", "T" };

/* 1, 2 or 5 times a power of ten, the nearest to x (Heckbert's rounding). */
static double nice_step(double x)
{
	double e = floor(log10(x)), f = x / pow(10, e);
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * pow(10, e);
}

/* The divisor and unit name for values up to m. */
static void pick_unit(struct chart_map *m, double big)
{
	m->div = 1;
	m->uname = "";
	switch (m->unit) {
	case CHART_U_BYTES_S:
	case CHART_U_BYTES: {
		const double base = unit_base(m->unit);
		unsigned k = 0;
		while (k + 1 < SB_ARRAY_SIZE(iec) && big >= base * m->div)
			m->div *= base, k++;
		m->uname = base == 1000 ? si[k] : iec[k];
		break;
	}
	case CHART_U_NS:
	case CHART_U_COUNT: {
		const char *const *names = m->unit == CHART_U_NS ? times : counts;
		size_t nn = m->unit == CHART_U_NS ? SB_ARRAY_SIZE(times) : SB_ARRAY_SIZE(counts);
		unsigned k = 0;
		while (k + 1 < nn && big >= 1000 * m->div)
			m->div *= 1000, k++;
		m->uname = names[k];
		break;
	}
	case CHART_U_S: m->uname = "s"; break;
	case CHART_U_PCT: m->uname = "%"; break;
	default: break;
	}
}

static void add_tick(struct chart_map *m, double v)
{
	if (m->nticks < SB_ARRAY_SIZE(m->ticks))
		m->ticks[m->nticks++] = v;
}

static void add_minor(struct chart_map *m, double v)
{
	if (m->nminor < SB_ARRAY_SIZE(m->minor))
		m->minor[m->nminor++] = v;
}

static void fit_linear(struct chart_map *m, const struct chart_axis *a, double lo, double hi)
{
	if (!a->no_zero) {
		lo = SB_MIN(lo, 0);
		hi = SB_MAX(hi, 0);
	}
	if (!(hi > lo)) {
		double pad = fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
		hi += pad;
		if (a->no_zero || lo < 0)
			lo -= pad;
	}
	pick_unit(m, SB_MAX(fabs(lo), fabs(hi)));
	double slo = lo / m->div, shi = hi / m->div;
	m->step = nice_step((shi - slo) / 5);
	if (m->unit == CHART_U_COUNT && m->div == 1 && m->step < 1)
		m->step = 1; /* no half a request */
	slo = floor(slo / m->step + 1e-9) * m->step;
	shi = ceil(shi / m->step - 1e-9) * m->step;
	for (double t = slo; t <= shi + m->step * 1e-6; t += m->step)
		add_tick(m, (fabs(t) < m->step * 1e-9 ? 0 : t) * m->div);
	m->lo = slo * m->div;
	m->hi = shi * m->div;
}

/*
 * Log axes of bytes and rates: ticks from a ladder of round values, so a
 * tick reads "64 KiB" or "200 MiB/s", never "97.7 KiB" (a decade of bytes
 * in binary units). Level 0 is the densest ladder; each level keeps fewer
 * rungs. Sizes: powers of two, every 1, 2, 5, 10 or 20 bits. Rates: 1, 2
 * and 5 times 1, 10 and 100 of each binary unit (500 MiB/s, then 1 GiB/s;
 * in decimal units, 1-2-5 steps), then 1, 10 and 100 only, then 1 of each
 * unit.
 */
#define LADDER_MAX 72

static const int ladder_bits[] = { 1, 2, 5, 10, 20 };

static int ladder_levels(enum chart_unit u)
{
	return u == CHART_U_BYTES ? (int)SB_ARRAY_SIZE(ladder_bits) : 3;
}

static size_t ladder(enum chart_unit u, int level, double *v)
{
	size_t n = 0;
	if (level >= ladder_levels(u))
		return 0;
	if (u == CHART_U_BYTES) {
		for (int e = 0; e <= 62; e += ladder_bits[level])
			v[n++] = ldexp(1, e);
		return n;
	}
	static const double mant[3][9] = { { 1, 2, 5, 10, 20, 50, 100, 200, 500 },
					   { 1, 10, 100 },
					   { 1 } };
	static const size_t nmant[3] = { 9, 3, 1 };
	for (unsigned k = 0; k < SB_ARRAY_SIZE(iec); k++)
		for (size_t i = 0; i < nmant[level]; i++)
			v[n++] = mant[level][i] * pow(unit_base(u), k);
	return n;
}

/* The rungs of the level around lo..hi: their first and last index, or
 * -1 when the ladder does not reach. */
static int rungs(const double *v, size_t n, double lo, double hi, size_t *a, size_t *b)
{
	size_t i = 0, j;
	if (!n || lo < v[0] * (1 - 1e-9) || hi > v[n - 1] * (1 + 1e-9))
		return -1;
	while (i + 1 < n && v[i + 1] <= lo * (1 + 1e-9))
		i++;
	for (j = i; j + 1 < n && v[j] < hi * (1 - 1e-9); j++)
		;
	if (j == i && j + 1 < n)
		j++;
	else if (j == i)
		i--;
	*a = i;
	*b = j;
	return 0;
}

/* The densest level whose ticks stay gap pixels apart; 0 when the data
 * lies off the ladder (the caller draws decades). */
static int fit_ladder(struct chart_map *m, double lo, double hi, double gap)
{
	double v[LADDER_MAX], dense[LADDER_MAX];
	size_t a, b, n, nd = ladder(m->unit, 0, dense);
	for (int level = 0; (n = ladder(m->unit, level, v)) > 0; level++) {
		if (rungs(v, n, lo, hi, &a, &b))
			return 0;
		if (fabs(m->p1 - m->p0) / (double)(b - a) < gap &&
		    level + 1 < ladder_levels(m->unit))
			continue;
		m->lo = log10(v[a]);
		m->hi = log10(v[b]);
		for (size_t i = a; i <= b; i++)
			add_tick(m, v[i]);
		for (size_t i = 0; i < nd && level; i++) {
			size_t k = a;
			while (k <= b && fabs(v[k] / dense[i] - 1) > 1e-9)
				k++;
			if (k > b && dense[i] > v[a] && dense[i] < v[b])
				add_minor(m, dense[i]);
		}
		return 1;
	}
	return 0;
}

static void fit_log(struct chart_map *m, double lo, double hi)
{
	if (!(lo > 0))
		lo = hi > 0 ? hi / 10 : 1;
	if (!(hi > 0))
		hi = lo * 10;
	/* a label is some 60 px wide across, a line of text high down */
	if ((m->unit == CHART_U_BYTES || m->unit == CHART_U_BYTES_S) &&
	    fit_ladder(m, lo, hi, m->p1 > m->p0 ? 76 : 26))
		return;
	double e0 = floor(log10(lo) + 1e-9), e1 = ceil(log10(hi) - 1e-9);
	if (e1 <= e0)
		e1 = e0 + 1;
	m->lo = e0;
	m->hi = e1;
	for (double e = e0; e <= e1; e++) {
		double p = pow(10, e);
		add_tick(m, p);
		for (int k = 2; k <= 9 && e < e1; k++) {
			if (e1 - e0 <= 2 && (k == 2 || k == 5))
				add_tick(m, k * p);
			else if (e1 - e0 <= 5)
				add_minor(m, k * p);
		}
	}
}

static void fit_nines(struct chart_map *m, double hi)
{
	double t = hi < 100 ? -log10(1 - hi / 100) : 6;
	m->lo = 0;
	m->hi = SB_MAX(2, ceil(t - 1e-9));
	add_tick(m, 0);
	if (m->hi <= 4)
		add_tick(m, 50);
	for (double k = 1, p = 90; k <= m->hi; k++, p = 100 - (100 - p) / 10)
		add_tick(m, p);
	m->uname = "%";
}

void chart_map_fit(struct chart_map *m, const struct chart_axis *a, double lo, double hi, double p0,
		   double p1)
{
	memset(m, 0, sizeof(*m));
	m->scale = a->scale;
	m->unit = a->unit;
	m->p0 = p0;
	m->p1 = p1;
	m->div = 1;
	m->uname = "";
	if (!isfinite(lo) || !isfinite(hi))
		lo = hi = 0;
	if (a->scale == CHART_LOG)
		fit_log(m, lo, hi);
	else if (a->scale == CHART_NINES)
		fit_nines(m, hi);
	else
		fit_linear(m, a, lo, hi);
}

/* Where v lies in the domain, 0..1; NaN when it cannot be drawn. */
static double frac(const struct chart_map *m, double v)
{
	double t;
	if (!isfinite(v))
		return NAN;
	if (m->scale == CHART_LOG) {
		if (!(v > 0))
			return NAN;
		t = log10(v);
	} else if (m->scale == CHART_NINES) {
		if (!(v >= 0 && v < 100))
			return NAN;
		t = -log10(1 - v / 100);
	} else {
		t = v;
	}
	return m->hi > m->lo ? (t - m->lo) / (m->hi - m->lo) : 0.5;
}

double chart_map_px(const struct chart_map *m, double v)
{
	double f = frac(m, v);
	return isfinite(f) ? m->p0 + f * (m->p1 - m->p0) : NAN;
}

/* A value with its unit, for hover titles and bar labels: "1.23 GiB/s". */
void chart_fmt_value(enum chart_unit u, double v, char *buf, size_t len)
{
	struct chart_map m;
	memset(&m, 0, sizeof(m));
	m.unit = u;
	pick_unit(&m, fabs(v));
	double s = v / m.div;
	int dec = fabs(s) >= 100 || s == floor(s) ? 0 : fabs(s) >= 10 ? 1 : 2;
	const char *suffix = u == CHART_U_BYTES_S ? "/s" : "";
	const char *sep = u == CHART_U_COUNT || u == CHART_U_NONE ? "" : " ";
	snprintf(buf, len, "%.*f%s%s%s", dec, s, sep, m.uname, suffix);
}

void chart_map_label(const struct chart_map *m, double v, char *buf, size_t len)
{
	if (m->scale == CHART_NINES) {
		snprintf(buf, len, "%.6g", v);
	} else if (m->scale == CHART_LOG) {
		chart_fmt_value(m->unit, v, buf, len);
	} else {
		double s = v / m->div, st = m->step;
		int dec = st >= 1 ? 0 : (int)ceil(-log10(st) - 1e-9);
		if (fabs(s) < st * 1e-9)
			snprintf(buf, len, "0");
		else
			snprintf(buf, len, "%.*f%s", dec, s,
				 m->unit == CHART_U_COUNT ? m->uname : "");
	}
}

/* 7.2 px a character: a little more than the widest of a system font's. */
double chart_label_px(const char *s)
{
	double n = 0;
	for (size_t k; *s; s += k ? k : 1, n++)
		k = sb_utf8_char_len(s);
	return 7.2 * n;
}

void chart_axis_title(const struct chart_map *m, const struct chart_axis *a, char *buf, size_t len)
{
	const char *t = a->title ? a->title : "";
	if (m->scale == CHART_NINES)
		snprintf(buf, len, "%s (%%)", t);
	else if (m->scale == CHART_LOG && m->unit != CHART_U_PCT && m->unit != CHART_U_S)
		snprintf(buf, len, "%s", t); /* each tick carries its unit */
	else if (m->unit == CHART_U_COUNT || m->unit == CHART_U_NONE || !m->uname[0])
		snprintf(buf, len, "%s", t);
	else
		snprintf(buf, len, "%s (%s%s)", t, m->uname,
			 m->unit == CHART_U_BYTES_S ? "/s" : "");
}
