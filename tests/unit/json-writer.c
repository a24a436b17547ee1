/* needs: none */
/*
 * The JSON writer: exact text in compact and pretty (fio) layout, escapes,
 * non-finite and large numbers, and output that Python's json module reads
 * back with the same values. Errors: depth overflow, misuse, write failure.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_write.h"

#include <math.h>

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m, struct sb_json *j, int compact)
{
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	sb_json_begin(j, m->f, compact);
}

static void mem_close(struct mem *m)
{
	fclose(m->f);
	free(m->buf);
}

static void small_doc(struct sb_json *j)
{
	sb_json_obj_open(j, NULL);
	sb_json_u64(j, "a", 1);
	sb_json_arr_open(j, "b");
	sb_json_u64(j, NULL, 1);
	sb_json_u64(j, NULL, 2);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void test_compact_exact(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 1);
	small_doc(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_string_equal(m.buf, "{\"a\":1,\"b\":[1,2]}\n");
	mem_close(&m);
}

static void test_pretty_exact(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 0);
	small_doc(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_string_equal(m.buf, "{\n"
				   "  \"a\" : 1,\n"
				   "  \"b\" : [\n"
				   "    1,\n"
				   "    2\n"
				   "  ]\n"
				   "}\n");
	mem_close(&m);
}

static void test_empty_containers(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_obj_open(&j, "o");
	sb_json_obj_close(&j);
	sb_json_arr_open(&j, "a");
	sb_json_arr_close(&j);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_string_equal(m.buf, "{\n  \"o\" : {},\n  \"a\" : []\n}\n");
	mem_close(&m);
}

static void test_json_lines(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 1);
	for (int i = 0; i < 2; i++) {
		sb_json_obj_open(&j, NULL);
		sb_json_i64(&j, "i", -i);
		sb_json_obj_close(&j);
	}
	assert_int_equal(sb_json_end(&j), 0);
	assert_string_equal(m.buf, "{\"i\":0}\n{\"i\":-1}\n");
	mem_close(&m);
}

static void test_scalars_exact(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 1);
	sb_json_arr_open(&j, NULL);
	sb_json_double(&j, NULL, 1.5);
	sb_json_double(&j, NULL, -0.25);
	sb_json_double(&j, NULL, 1e15);
	sb_json_double(&j, NULL, NAN);
	sb_json_double(&j, NULL, -INFINITY);
	sb_json_u64(&j, NULL, UINT64_MAX);
	sb_json_i64(&j, NULL, INT64_MIN);
	sb_json_bool(&j, NULL, 7);
	sb_json_bool(&j, NULL, 0);
	sb_json_null(&j, NULL);
	sb_json_str(&j, NULL, NULL);
	sb_json_str(&j, NULL, "q\"b\\s\n\t\x01\x1f\xc3\xa9");
	sb_json_arr_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_string_equal(m.buf, "[1.500000,-0.250000,1000000000000000,null,null,"
				   "18446744073709551615,-9223372036854775808,true,false,"
				   "null,null,\"q\\\"b\\\\s\\n\\t\\u0001\\u001f\xc3\xa9\"]\n");
	mem_close(&m);
}

static int python_check(const char *file, const char *code)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys,math; d=json.load(open(sys.argv[1])); %s' '%s'", code,
		 file);
	return system(cmd);
}

static void write_nested(FILE *f, int compact)
{
	struct sb_json j;

	sb_json_begin(&j, f, compact);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "jobname", "seq \"read\"\\n");
	sb_json_str(&j, "ctl", "a\nb\tc\x02\x7f");
	sb_json_str(&j, "utf8", "\xc3\xa9\xe2\x82\xac");
	sb_json_arr_open(&j, "jobs");
	for (int i = 0; i < 3; i++) {
		sb_json_obj_open(&j, NULL);
		sb_json_i64(&j, "i", i - 1);
		sb_json_obj_open(&j, "read");
		sb_json_u64(&j, "io_bytes", 1ull << 40);
		sb_json_double(&j, "iops", 12345.678);
		sb_json_double(&j, "big", 1.2345e300);
		sb_json_double(&j, "nan", NAN);
		sb_json_double(&j, "inf", INFINITY);
		sb_json_arr_open(&j, "empty");
		sb_json_arr_close(&j);
		sb_json_obj_close(&j);
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_bool(&j, "ok", 1);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
}

static void test_python_reads_it(void **state)
{
	static const char check[] =
		"assert d[\"jobname\"] == \"seq \\\"read\\\"\\\\n\"; "
		"assert d[\"ctl\"] == \"a\\nb\\tc\\x02\\x7f\"; "
		"assert d[\"utf8\"] == \"\\u00e9\\u20ac\"; "
		"r = d[\"jobs\"][2][\"read\"]; "
		"assert d[\"jobs\"][0][\"i\"] == -1 and r[\"io_bytes\"] == 2**40; "
		"assert abs(r[\"iops\"] - 12345.678) < 1e-6 and r[\"big\"] == 1.2345e300; "
		"assert r[\"nan\"] is None and r[\"inf\"] is None and r[\"empty\"] == []; "
		"assert d[\"ok\"] is True";
	(void)state;

	for (int compact = 0; compact <= 1; compact++) {
		const char *file = sbt_path(compact ? "compact.json" : "pretty.json");
		FILE *f = fopen(file, "w");
		assert_non_null(f);
		write_nested(f, compact);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(python_check(file, check), 0);
	}
}

static void test_depth_overflow(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 1);
	for (int i = 0; i < SB_JSON_MAX_DEPTH; i++)
		sb_json_arr_open(&j, NULL);
	assert_int_equal(j.err, 0);
	sb_json_arr_open(&j, NULL);
	assert_int_equal(j.err, -E2BIG);
	for (int i = 0; i < SB_JSON_MAX_DEPTH; i++)
		sb_json_arr_close(&j);
	assert_int_equal(sb_json_end(&j), -E2BIG);
	mem_close(&m);
}

static void test_misuse(void **state)
{
	struct mem m;
	struct sb_json j;
	(void)state;

	mem_open(&m, &j, 1); /* a key inside an array */
	sb_json_arr_open(&j, NULL);
	sb_json_u64(&j, "k", 1);
	sb_json_arr_close(&j);
	assert_int_equal(sb_json_end(&j), -EINVAL);
	mem_close(&m);

	mem_open(&m, &j, 1); /* no key inside an object */
	sb_json_obj_open(&j, NULL);
	sb_json_u64(&j, NULL, 1);
	assert_int_equal(sb_json_end(&j), -EINVAL);
	mem_close(&m);

	mem_open(&m, &j, 1); /* close does not match open */
	sb_json_obj_open(&j, NULL);
	sb_json_arr_close(&j);
	assert_int_equal(sb_json_end(&j), -EINVAL);
	mem_close(&m);

	mem_open(&m, &j, 1); /* left open */
	sb_json_obj_open(&j, NULL);
	assert_int_equal(sb_json_end(&j), -EINVAL);
	mem_close(&m);
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct sb_json j;
	(void)state;

	if (!f)
		skip();
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "k", "v");
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact_exact),	 cmocka_unit_test(test_pretty_exact),
		cmocka_unit_test(test_empty_containers), cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_scalars_exact),	 cmocka_unit_test(test_python_reads_it),
		cmocka_unit_test(test_depth_overflow),	 cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
