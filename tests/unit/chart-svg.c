/* needs: none */
/*
 * The SVG chart module (report/chart*.c): round ticks in the
 * right display unit, log and percentile ("nines") axes, and output that
 * never holds NaN, infinities or an empty path, whatever the data: NaN,
 * zeros on a log axis, 1e300, a single point, no point at all.
 */
#include "tests/lib/sbtest.h"
#include "report/chart.h"
#include "report/chart_int.h"

#include <math.h>

struct out {
	char *buf;
	size_t len;
};

static void render(struct out *o, const struct chart *c)
{
	FILE *f = open_memstream(&o->buf, &o->len);
	assert_non_null(f);
	chart_svg(f, c);
	assert_int_equal(fclose(f), 0);
}

/* Nothing a browser would choke on. */
static void assert_clean(const char *svg)
{
	for (const char *p = svg; *p; p++) {
		if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3))
			fail_msg("'%.3s' in the SVG: ...%.60s", p, p > svg + 30 ? p - 30 : svg);
	}
	assert_null(strstr(svg, " d=\"\""));
	assert_non_null(strstr(svg, "<svg class=\"chart "));
	assert_non_null(strstr(svg, "</svg>"));
}

/* The tick labels of an axis fitted to lo..hi over pixels p0..p1 (p0 > p1:
 * a y axis, drawn upwards). */
static void labels_px(const struct chart_axis *a, double lo, double hi, double p0, double p1,
		      const char *want)
{
	struct chart_map m;
	char all[512] = "", one[48];
	chart_map_fit(&m, a, lo, hi, p0, p1);
	for (unsigned i = 0; i < m.nticks; i++) {
		chart_map_label(&m, m.ticks[i], one, sizeof(one));
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? "|" : "", one);
	}
	if (strcmp(all, want))
		fail_msg("ticks '%s', expected '%s'", all, want);
}

static void labels(const struct chart_axis *a, double lo, double hi, const char *want)
{
	labels_px(a, lo, hi, 0, 100, want);
}

/* Log axes of sizes and rates tick at powers of two and round rates, not at
 * decades that read 9.77 KiB or 954 MiB/s (issue 30 item 8), as many as fit
 * the axis' pixels. */
static void test_log_ticks_round_in_binary_units(void **state)
{
	(void)state;
	struct chart_axis size = { "Chunk size", CHART_U_BYTES, CHART_LOG, 0 };
	struct chart_axis rate = { "Write rate", CHART_U_BYTES_S, CHART_LOG, 0 };
	labels_px(&size, 4096, 4 << 20, 84, 932,
		  "4 KiB|8 KiB|16 KiB|32 KiB|64 KiB|128 KiB|256 KiB|512 KiB|1 MiB|2 MiB|4 MiB");
	labels_px(&size, 4096, 64 << 20, 84, 932,
		  "4 KiB|16 KiB|64 KiB|256 KiB|1 MiB|4 MiB|16 MiB|64 MiB");
	labels_px(
		&size, 10000, 1e7, 84, 932,
		"8 KiB|16 KiB|32 KiB|64 KiB|128 KiB|256 KiB|512 KiB|1 MiB|2 MiB|4 MiB|8 MiB|16 MiB");
	labels_px(&size, 512, 1e12, 84, 932, "32 B|1 KiB|32 KiB|1 MiB|32 MiB|1 GiB|32 GiB|1 TiB");
	labels_px(&size, 1 << 20, 1 << 20, 84, 932, "1 MiB|2 MiB");
	labels_px(&rate, 86.3 * 1048576, 2.5 * 1073741824.0, 330, 40,
		  "50 MiB/s|100 MiB/s|200 MiB/s|500 MiB/s|1 GiB/s|2 GiB/s|5 GiB/s");
	labels_px(&rate, 954 * 1048576.0, 9.31 * 1073741824.0, 330, 40,
		  "500 MiB/s|1 GiB/s|2 GiB/s|5 GiB/s|10 GiB/s");
	labels_px(&rate, 2000, 3e9, 330, 40,
		  "1 KiB/s|10 KiB/s|100 KiB/s|1 MiB/s|10 MiB/s|100 MiB/s|1 GiB/s|10 GiB/s");
	labels_px(&rate, 2000, 3e9, 330, 300, "1 KiB/s|1 MiB/s|1 GiB/s|1 TiB/s");
	/* off the ladder (under 1 B/s): decades, still drawn */
	labels_px(&rate, 0.01, 0.5, 330, 40,
		  "0.01 B/s|0.02 B/s|0.05 B/s|0.10 B/s|0.20 B/s|0.50 B/s|1 B/s");
}

static void test_ticks(void **state)
{
	(void)state;
	struct chart_axis bw = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 };
	struct chart_axis ns = { "Latency", CHART_U_NS, CHART_LOG, 0 };
	struct chart_axis pct = { "Percentile", CHART_U_NONE, CHART_NINES, 0 };
	struct chart_axis io = { "IOPS", CHART_U_COUNT, CHART_LINEAR, 0 };
	struct chart_axis t = { "Time", CHART_U_S, CHART_LINEAR, 0 };
	labels(&bw, 0, 30.3 * 1048576, "0|5|10|15|20|25|30|35");
	labels(&bw, 0, 1.6 * 1073741824.0, "0|0.5|1.0|1.5|2.0");
	labels(&ns, 28000, 15e6, "10 µs|100 µs|1 ms|10 ms|100 ms");
	labels(&ns, 300, 900, "100 ns|200 ns|500 ns|1 µs");
	labels(&pct, 0, 99.99, "0|50|90|99|99.9|99.99");
	labels(&io, 0, 55500, "0|10k|20k|30k|40k|50k|60k");
	labels(&io, 0, 1, "0|1");
	labels(&t, 0.2, 1.2, "0|0.2|0.4|0.6|0.8|1.0|1.2");
	struct chart_map m;
	char title[64];
	chart_map_fit(&m, &bw, 0, 30.3 * 1048576, 0, 100);
	chart_axis_title(&m, &bw, title, sizeof(title));
	assert_string_equal(title, "Bandwidth (MiB/s)");
	chart_map_fit(&m, &pct, 0, 99.9, 0, 100);
	chart_axis_title(&m, &pct, title, sizeof(title));
	assert_string_equal(title, "Percentile (%)");
	/* nothing to fit: a sane range still */
	labels(&bw, NAN, NAN, "0|0.2|0.4|0.6|0.8|1.0");
}

static void test_value_format(void **state)
{
	(void)state;
	char b[48];
	chart_fmt_value(CHART_U_BYTES_S, 1.5 * 1073741824.0, b, sizeof(b));
	assert_string_equal(b, "1.50 GiB/s");
	chart_fmt_value(CHART_U_NS, 12345, b, sizeof(b));
	assert_string_equal(b, "12.3 µs");
	chart_fmt_value(CHART_U_COUNT, 48000, b, sizeof(b));
	assert_string_equal(b, "48k");
}

static void test_line_with_gaps(void **state)
{
	(void)state;
	const double x[] = { 0, 1, 2, 3, 4, 5 }, y[] = { 5, NAN, 7, INFINITY, 9, 10 };
	struct chart_series s = { .name = "read", .x = x, .y = y, .n = 6, .color = CHART_C_READ };
	struct chart c = { .kind = CHART_LINE,
			   .title = "t",
			   .x = { "Time", CHART_U_S, 0, 0 },
			   .y = { "Bandwidth", CHART_U_BYTES_S, 0, 0 },
			   .series = &s,
			   .nseries = 1 };
	struct out o;
	render(&o, &c);
	assert_clean(o.buf);
	/* the gaps split the line: three runs, each starting with M */
	const char *d = strstr(o.buf, "class=\"series\"");
	assert_non_null(d);
	d = strstr(d, " d=\"");
	int moves = 0;
	for (const char *p = d + 4; *p != '"'; p++)
		moves += *p == 'M';
	assert_int_equal(moves, 3);
	assert_int_equal(strstr(o.buf, "#0072B2") != NULL, 1);
	free(o.buf);
}

static void test_no_data(void **state)
{
	(void)state;
	const double x[] = { 1, 2 }, y[] = { NAN, NAN }, zero[] = { 0, -5 };
	struct chart_series s = { .name = "read", .x = x, .y = y, .n = 2, .color = -1 };
	struct chart c = { .kind = CHART_LINE, .title = "t", .series = &s, .nseries = 1 };
	struct out o;
	render(&o, &c);
	assert_clean(o.buf);
	assert_non_null(strstr(o.buf, ">no data</text>"));
	assert_null(strstr(o.buf, "class=\"series\""));
	free(o.buf);
	/* zero and negative on a log axis cannot be drawn either */
	s.y = zero;
	c.y.scale = CHART_LOG;
	render(&o, &c);
	assert_clean(o.buf);
	assert_non_null(strstr(o.buf, ">no data</text>"));
	free(o.buf);
	c.nseries = 0;
	render(&o, &c);
	assert_clean(o.buf);
	free(o.buf);
}

static void test_bars_and_heatmap(void **state)
{
	(void)state;
	const char *cats[] = { "SEQ1M Q8T1", "RND4K Q32T1 with a long name", "x" };
	const double y[] = { 1e9, 5e7, NAN }, lo[] = { 9e8, NAN, 1 }, hi[] = { 1.2e9, 6e7, 2 };
	struct chart_series s = { .name = "read", .y = y, .lo = lo, .hi = hi, .n = 3, .color = 0 };
	struct chart c = { .kind = CHART_BAR,
			   .title = "bars",
			   .y = { "Bandwidth", CHART_U_BYTES_S, 0, 0 },
			   .cats = cats,
			   .ncats = 3,
			   .series = &s,
			   .nseries = 1 };
	struct out o;
	render(&o, &c);
	assert_clean(o.buf);
	assert_non_null(strstr(o.buf, "class=\"errbar\""));
	assert_non_null(strstr(o.buf, "(runs from 858 MiB/s to 1.12 GiB/s)"));
	free(o.buf);
	const char *rows[] = { "4 KiB", "1 MiB" };
	const double cells[] = { 1, 2, NAN, 4, 0, 1e300 };
	struct chart h = { .kind = CHART_HEATMAP,
			   .title = "heat",
			   .cats = cats,
			   .ncats = 3,
			   .rows = rows,
			   .nrows = 2,
			   .cells = cells,
			   .z = { "Bandwidth", CHART_U_BYTES_S, CHART_LOG, 0 } };
	render(&o, &h);
	assert_clean(o.buf);
	assert_non_null(strstr(o.buf, "linearGradient"));
	free(o.buf);
	/* a row named at length moves the plot right, by half the chart at most */
	char name[400];
	memset(name, 'w', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	rows[0] = name;
	render(&o, &h);
	assert_clean(o.buf);
	const char *cell = strstr(o.buf, "<g class=\"cells\">");
	assert_non_null(cell);
	cell = strstr(cell, " x=\"");
	assert_non_null(cell);
	assert_true(atof(cell + 4) <= 480);
	free(o.buf);
}

/* Random data of every kind and scale, extremes included. */
static double pick(uint64_t *r)
{
	static const double special[] = { NAN, INFINITY, -INFINITY, 0, -1, 1e-300, 1e300, 5e-324 };
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	if (*r % 5 == 0)
		return special[(*r >> 8) % SB_ARRAY_SIZE(special)];
	return (double)(*r >> 11) / 9007199254740992.0 * pow(10, (double)(*r % 12));
}

/* Any range of sizes or rates, on any axis length: ticks ascending, at
 * least two, the domain spanning the data, the labels distinct. */
static void test_log_ticks_any_range(void **state)
{
	(void)state;
	uint64_t r = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20000; round++) {
		struct chart_axis a = { "a", round % 2 ? CHART_U_BYTES : CHART_U_BYTES_S, CHART_LOG,
					0 };
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		double lo = pow(10, (double)(r % 1600) / 100); /* 1 B .. 10^16 */
		double hi = lo * pow(10, (double)(r >> 32 & 1023) / 100);
		double len = 20 + (double)(r >> 16 & 1023), p0 = round % 4 ? 0 : len;
		struct chart_map m;
		char prev[48] = "", cur[48];
		chart_map_fit(&m, &a, lo, hi, p0, round % 4 ? len : 0);
		assert_true(m.nticks >= 2);
		assert_true(pow(10, m.lo) <= lo * (1 + 1e-9) && pow(10, m.hi) >= hi * (1 - 1e-9));
		for (unsigned i = 0; i < m.nticks; i++) {
			assert_true(isfinite(m.ticks[i]) && m.ticks[i] > 0);
			assert_true(i == 0 || m.ticks[i] > m.ticks[i - 1]);
			chart_map_label(&m, m.ticks[i], cur, sizeof(cur));
			if (!strcmp(cur, prev))
				fail_msg("two ticks read '%s' (%g..%g)", cur, lo, hi);
			snprintf(prev, sizeof(prev), "%s", cur);
		}
	}
}

static void test_random_data_stays_clean(void **state)
{
	(void)state;
	uint64_t r = 88172645463325252ull;
	const char *cats[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	for (int round = 0; round < 400; round++) {
		double x[9], y[8], lo[8], hi[8], cells[64];
		size_t n = (size_t)(round % 9);
		for (size_t i = 0; i < 9; i++)
			x[i] = pick(&r);
		for (size_t i = 0; i < 8; i++)
			y[i] = pick(&r), lo[i] = pick(&r), hi[i] = pick(&r);
		for (size_t i = 0; i < 64; i++)
			cells[i] = pick(&r);
		if (round % 3 == 0) /* sorted edges for histograms */
			for (size_t i = 1; i < 9; i++)
				x[i] = fabs(x[i - 1]) + fabs(x[i]);
		struct chart_series s = { .name = "s",
					  .x = x,
					  .y = y,
					  .lo = lo,
					  .hi = hi,
					  .n = n,
					  .color = round % 9 - 1 };
		struct chart c = { .kind = (enum chart_kind)(round % 5),
				   .title = "r",
				   .x = { "x", (enum chart_unit)(round % 7),
					  (enum chart_scale)(round / 5 % 3), 0 },
				   .y = { "y", (enum chart_unit)(round / 7 % 7),
					  (enum chart_scale)(round / 15 % 2), round % 2 },
				   .z = { "z", CHART_U_NS, (enum chart_scale)(round % 2), 0 },
				   .cats = cats,
				   .ncats = n,
				   .rows = cats,
				   .nrows = 8 - n,
				   .cells = cells,
				   .series = &s,
				   .nseries = 1,
				   .vlines = x,
				   .nvlines = n };
		struct out o;
		render(&o, &c);
		assert_clean(o.buf);
		free(o.buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_log_ticks_round_in_binary_units),
		cmocka_unit_test(test_value_format),
		cmocka_unit_test(test_line_with_gaps),
		cmocka_unit_test(test_no_data),
		cmocka_unit_test(test_bars_and_heatmap),
		cmocka_unit_test(test_log_ticks_any_range),
		cmocka_unit_test(test_random_data_stays_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
