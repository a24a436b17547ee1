/* needs: none */
/*
 * bonnie++'s CSV line (format 1.98): always 50 fields; rates, CPU and
 * latencies as bon_time.cpp writes them, computed by hand here; empty
 * fields for tests not run, "+++++"/"+++" under 0.5 s.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"

#define S 1000000000ull

static struct sb_meta_result res[SB_META_NTESTS];

static void set(enum sb_meta_test t, uint64_t ops, uint64_t bytes, uint64_t elapsed, uint64_t cpu,
		uint64_t max_lat)
{
	struct sb_meta_result *r = &res[t];
	memset(r, 0, sizeof(*r));
	sb_hist_init(&r->lat);
	r->ran = 1;
	r->ops = ops;
	r->bytes = bytes;
	r->elapsed_ns = elapsed;
	r->cpu_ns = cpu;
	sb_hist_add(&r->lat, max_lat / 2);
	sb_hist_add(&r->lat, max_lat);
}

/* Split line (without its newline) at commas into f[]; returns the count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	for (char *p = line;; p++) {
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

static struct sb_meta_csv base(void)
{
	struct sb_meta_csv in = { "host",      "storbench-test",
				  1,	       12345,
				  64ull << 20, 8192,
				  8192,	       5,
				  16384,       0,
				  0,	       8192,
				  1,	       res };
	return in;
}

static void fill_all(void)
{
	set(SB_META_PUTC, 2560, 20ull << 20, 4 * S, 4 * S, 5515000);	/* 5120 K/s, 100% */
	set(SB_META_WRITE, 8192, 64ull << 20, 2 * S, 1 * S, 150000000); /* 32768, 50%, 150ms */
	set(SB_META_REWRITE, 8192, 64ull << 20, 8 * S, 2 * S, 120 * S); /* 8192, 25%, 120s */
	set(SB_META_GETC, 2560, 20ull << 20, 400000000, 1, 1000);	/* under 0.5 s; 1us */
	set(SB_META_READ, 8192, 64ull << 20, 3 * S, 1 * S, 99999);	/* 21845, 33%, 99us */
	set(SB_META_SEEKS, 8192, 0, 4 * S, 2 * S, 12000000);		/* 2048 /s, 50%, 12000us */
	set(SB_META_SEQ_CREATE, 16384, 0, 2 * S, 1 * S, 396000);	/* 8192 /s */
	set(SB_META_SEQ_STAT, 16384, 0, 1 * S, 1 * S, 15000);		/* 16384 /s */
	set(SB_META_SEQ_DELETE, 16384, 0, 3 * S, 0, 363000);		/* 5461 /s, 0% */
	set(SB_META_RAND_CREATE, 16384, 0, 100000000, 0, 4270000);	/* under 0.5 s */
	set(SB_META_RAND_STAT, 16384, 0, 1 * S, 0, 246000);
	set(SB_META_RAND_DELETE, 16384, 0, 4 * S, 1 * S, 1922000); /* 4096 /s, 25% */
}

static void test_full_line(void **state)
{
	(void)state;
	char line[2048], *f[64];
	fill_all();
	struct sb_meta_csv in = base();
	assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
	assert_int_equal(line[strlen(line) - 1], '\n');
	assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
	const char *want[SB_META_CSV_FIELDS] = {
		"1.98",	  "storbench-test",
		"host",	  "1",
		"12345",  "64M",
		"",	  "8192",
		"5",	  "5120",
		"100",	  "32768",
		"50",	  "8192",
		"25",	  "+++++",
		"+++",	  "21845",
		"33",	  "2048",
		"50",	  "16",
		"",	  "",
		"",	  "",
		"8192",	  "50",
		"16384",  "100",
		"5461",	  "0",
		"+++++",  "+++",
		"16384",  "0",
		"4096",	  "25",
		"5515us", "150ms",
		"120s",	  "1us",
		"99us",	  "12000us",
		"396us",  "15us",
		"363us",  "4270us",
		"246us",  "1922us",
	};
	for (int i = 0; i < SB_META_CSV_FIELDS; i++) {
		if (strcmp(f[i], want[i])) {
			print_error("field %d: got '%s', want '%s'\n", i, f[i], want[i]);
			fail();
		}
	}
}

static void test_seek_rate_decimal_and_units(void **state)
{
	(void)state;
	char line[2048], *f[64];
	fill_all();
	set(SB_META_SEEKS, 500, 0, 1 * S, 0, 1000); /* below 1000/s: one decimal */
	struct sb_meta_csv in = base();
	in.size = 2048ull << 20; /* "2G" */
	in.chunk = 16384;	 /* "16k" */
	in.seeks = 500;
	in.size_max = 4096;
	in.size_min = 1024;
	in.ndirs = 4;
	in.nfiles = 300; /* not a multiple of 1024 */
	assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
	assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
	assert_string_equal(f[5], "2G");
	assert_string_equal(f[6], "16k");
	assert_string_equal(f[7], "500");
	assert_string_equal(f[19], "500.0");
	assert_string_equal(f[21], "0.292969");
	assert_string_equal(f[22], "4096");
	assert_string_equal(f[23], "1024");
	assert_string_equal(f[24], "");
	assert_string_equal(f[25], "4");
}

/* bonnie++'s print_stat: "+++++" only when the test took less than MinTime
 * (0.5 s), whatever its rate; the 8192 seeks in 0.986 s is 8305/s */
static void test_seeks_min_time(void **state)
{
	(void)state;
	static const struct {
		uint64_t ns;
		const char *rate, *cpu;
	} c[] = {
		{ 986400000ull, "8305", "0" },
		{ 500000000ull, "16384", "0" },
		{ 499999999ull, "+++++", "+++" },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(c); i++) {
		char line[2048], *f[64];
		fill_all();
		set(SB_META_SEEKS, 8192, 0, c[i].ns, 0, 1000);
		struct sb_meta_csv in = base();
		assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
		assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
		assert_string_equal(f[19], c[i].rate);
		assert_string_equal(f[20], c[i].cpu);
	}
}

static void test_parts_left_out(void **state)
{
	(void)state;
	char line[2048], *f[64];
	fill_all();
	struct sb_meta_csv in = base();
	in.size = 0; /* no block tests */
	assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
	assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
	for (int i = 5; i <= 20; i++)
		assert_string_equal(f[i], "");
	assert_string_equal(f[21], "16");

	fill_all();
	in = base();
	in.nfiles = 0; /* no file tests */
	assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
	assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
	for (int i = 21; i <= 37; i++)
		assert_string_equal(f[i], "");
	assert_string_equal(f[20], "50");

	/* a test that did not run leaves rate, CPU and latency empty */
	fill_all();
	memset(&res[SB_META_PUTC], 0, sizeof(res[0]));
	in = base();
	assert_true(sb_meta_csv_line(&in, line, sizeof(line)) > 0);
	assert_int_equal(split(line, f, 64), SB_META_CSV_FIELDS);
	assert_string_equal(f[9], "");
	assert_string_equal(f[10], "");
	assert_string_equal(f[38], "");
}

static void test_latency_format_and_overflow(void **state)
{
	(void)state;
	char b[32], small[40];
	sb_meta_csv_latency(0, b, sizeof(b));
	assert_string_equal(b, "");
	sb_meta_csv_latency(5515000, b, sizeof(b));
	assert_string_equal(b, "5515us");
	sb_meta_csv_latency(99999000, b, sizeof(b)); /* 0.099999 s: still us */
	assert_string_equal(b, "99999us");
	sb_meta_csv_latency(100000000, b, sizeof(b)); /* 0.1 s */
	assert_string_equal(b, "100ms");
	sb_meta_csv_latency(100 * S, b, sizeof(b));
	assert_string_equal(b, "100s");
	fill_all();
	struct sb_meta_csv in = base();
	assert_int_equal(sb_meta_csv_line(&in, small, sizeof(small)), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_line),
		cmocka_unit_test(test_seek_rate_decimal_and_units),
		cmocka_unit_test(test_seeks_min_time),
		cmocka_unit_test(test_parts_left_out),
		cmocka_unit_test(test_latency_format_and_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
