/* needs: none */
/*
 * The JSON reader on valid documents: every value type, escapes decoded to
 * UTF-8 (surrogate pairs included), exact 64-bit integers beside the double,
 * nesting at the depth limit, member order and duplicates, and a document
 * written by storbench's own JSON writer read back field by field.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_write.h"
#include "lib/json/json_read.h"

#include <math.h>

static struct sb_jdoc *parse_ok(const char *text)
{
	struct sb_jdoc *d = NULL;
	struct sb_json_error e;
	int rc = sb_json_parse(text, strlen(text), NULL, &d, &e);
	if (rc < 0)
		fail_msg("'%s': %s", text, e.msg);
	return d;
}

static void test_scalars(void **state)
{
	(void)state;
	struct sb_jdoc *d = parse_ok(" [null, true, false, \"s\", 0, -1, 2.5] ");
	const struct sb_jv *r = sb_jdoc_root(d);
	assert_int_equal(sb_jv_len(r), 7);
	assert_true(sb_jv_is(sb_jv_at(r, 0), SB_JV_NULL));
	assert_int_equal(sb_jv_bool(sb_jv_at(r, 1), -1), 1);
	assert_int_equal(sb_jv_bool(sb_jv_at(r, 2), -1), 0);
	assert_string_equal(sb_jv_str(sb_jv_at(r, 3)), "s");
	assert_true(sb_jv_num(sb_jv_at(r, 6), 0) == 2.5);
	assert_true(sb_jv_num(sb_jv_at(r, 3), -7) == -7); /* not a number: default */
	assert_null(sb_jv_at(r, 7));
	assert_null(sb_jv_get(r, "x")); /* not an object */
	sb_jdoc_free(d);
	/* a bare scalar is a document too */
	d = parse_ok("42");
	assert_true(sb_jv_num(sb_jdoc_root(d), 0) == 42);
	sb_jdoc_free(d);
}

static void test_escapes_utf8(void **state)
{
	(void)state;
	struct sb_jdoc *d = parse_ok(
		"{\"k\\u00e9y\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t"
		"\\u00e9\\u20ac\\ud83d\\ude00\\u0000z\", \"raw\": \"\xc3\xa9\xf0\x9f\x98\x80\"}");
	const struct sb_jv *r = sb_jdoc_root(d);
	const struct sb_jv *v = sb_jv_get(r, "k\xc3\xa9y");
	assert_non_null(v);
	const char want[] = "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\0z";
	assert_int_equal(v->str.len, sizeof(want) - 1);
	assert_memory_equal(v->str.s, want, sizeof(want));
	assert_string_equal(sb_jv_str(sb_jv_get(r, "raw")), "\xc3\xa9\xf0\x9f\x98\x80");
	sb_jdoc_free(d);
	/* a byte order mark before the document is skipped */
	d = parse_ok("\xef\xbb\xbf{}");
	assert_int_equal(sb_jv_len(sb_jdoc_root(d)), 0);
	sb_jdoc_free(d);
}

static void test_integers_exact(void **state)
{
	(void)state;
	struct sb_jdoc *d = parse_ok(
		"[18446744073709551615, 9223372036854775807, "
		"-9223372036854775808, 1e3, 2.0, 1.5, 18446744073709551616, -0]");
	const struct sb_jv *r = sb_jdoc_root(d);
	uint64_t u;
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 0), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_false(sb_jv_at(r, 0)->flags & SB_JV_I64);
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 1), &u), 0);
	assert_true(u == INT64_MAX);
	assert_true(sb_jv_at(r, 2)->flags == SB_JV_I64);
	assert_true(sb_jv_at(r, 2)->num.i == INT64_MIN);
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 3), &u), 0); /* 1e3 is integral */
	assert_true(u == 1000);
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 4), &u), 0);
	assert_true(u == 2);
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 5), &u), -EINVAL);
	assert_int_equal(sb_jv_at(r, 6)->flags, 0); /* 2^64: the double alone */
	assert_true(sb_jv_at(r, 6)->num.d == 18446744073709551616.0);
	assert_int_equal(sb_jv_u64(sb_jv_at(r, 7), &u), 0);
	assert_true(u == 0);
	sb_jdoc_free(d);
}

static void test_depth_limit_inclusive(void **state)
{
	(void)state;
	char buf[2 * 64 + 2];
	struct sb_json_limits lim = { 0, 64 };
	struct sb_jdoc *d;
	memset(buf, '[', 64);
	memset(buf + 64, ']', 64);
	assert_int_equal(sb_json_parse(buf, 128, &lim, &d, NULL), 0);
	const struct sb_jv *v = sb_jdoc_root(d);
	for (int i = 1; i < 64; i++)
		v = sb_jv_at(v, 0);
	assert_true(sb_jv_is(v, SB_JV_ARR) && sb_jv_len(v) == 0);
	sb_jdoc_free(d);
}

static void test_members_order_duplicates(void **state)
{
	(void)state;
	struct sb_jdoc *d = parse_ok("{\"b\":1,\"a\":2,\"b\":3,\"1.000000\":4,\"job options\":{}}");
	const struct sb_jv *r = sb_jdoc_root(d);
	assert_int_equal(sb_jv_len(r), 5);
	assert_string_equal(r->obj.m[0].key, "b");
	assert_string_equal(r->obj.m[1].key, "a");
	assert_true(sb_jv_num(sb_jv_get(r, "b"), 0) == 1); /* the first */
	assert_true(sb_jv_num(sb_jv_get(r, "1.000000"), 0) == 4);
	assert_true(sb_jv_is(sb_jv_get(r, "job options"), SB_JV_OBJ));
	sb_jdoc_free(d);
	/* a key holding \u0000 is not the name before its NUL */
	d = parse_ok("{\"a\\u0000b\":1,\"ab\":2,\"a\":3}");
	r = sb_jdoc_root(d);
	assert_true(sb_jv_num(sb_jv_get(r, "a"), 0) == 3);
	assert_true(sb_jv_num(sb_jv_get(r, "ab"), 0) == 2);
	assert_null(sb_jv_get(r, "abc"));
	sb_jdoc_free(d);
}

/* What storbench writes, storbench reads: the writer's output field by field. */
static void test_reads_writer_output(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sb_json j;
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "name", "RND4K \"Q32\"\n\x01");
	sb_json_u64(&j, "bytes", UINT64_MAX);
	sb_json_i64(&j, "neg", INT64_MIN);
	sb_json_double(&j, "iops", 12345.678901);
	sb_json_double(&j, "nan", NAN);
	sb_json_arr_open(&j, "series");
	for (int i = 0; i < 100; i++) {
		sb_json_obj_open(&j, NULL);
		sb_json_u64(&j, "t_ns", (uint64_t)i * 1000000000ull);
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);

	struct sb_jdoc *d = parse_ok(buf);
	const struct sb_jv *r = sb_jdoc_root(d);
	uint64_t u;
	assert_string_equal(sb_jv_str(sb_jv_get(r, "name")), "RND4K \"Q32\"\n\x01");
	assert_int_equal(sb_jv_u64(sb_jv_get(r, "bytes"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_true(sb_jv_get(r, "neg")->num.i == INT64_MIN);
	assert_true(sb_jv_num(sb_jv_get(r, "iops"), 0) == 12345.678901);
	assert_true(sb_jv_is(sb_jv_get(r, "nan"), SB_JV_NULL));
	const struct sb_jv *s = sb_jv_get(r, "series");
	assert_int_equal(sb_jv_len(s), 100);
	assert_int_equal(sb_jv_u64(sb_jv_get(sb_jv_at(s, 99), "t_ns"), &u), 0);
	assert_true(u == 99000000000ull);
	sb_jdoc_free(d);
	free(buf);
}

static void test_parse_file(void **state)
{
	(void)state;
	const char *p = sbt_path("doc.json");
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("{\"storbench\": {\"schema_version\": 1}}\n", f);
	fclose(f);
	struct sb_jdoc *d;
	struct sb_json_error e;
	assert_int_equal(sb_json_parse_file(p, NULL, &d, &e), 0);
	const struct sb_jv *sb = sb_jv_get(sb_jdoc_root(d), "storbench");
	assert_true(sb_jv_num(sb_jv_get(sb, "schema_version"), 0) == 1);
	sb_jdoc_free(d);
	assert_int_equal(sb_json_parse_file(sbt_path("missing.json"), NULL, &d, &e), -ENOENT);
	assert_int_equal(sb_json_parse_file(sbt_tmpdir(), NULL, &d, &e), -EISDIR);
	struct sb_json_limits lim = { 10, 0 };
	assert_int_equal(sb_json_parse_file(p, &lim, &d, &e), -EFBIG);
	assert_null(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_escapes_utf8),
		cmocka_unit_test(test_integers_exact),
		cmocka_unit_test(test_depth_limit_inclusive),
		cmocka_unit_test(test_members_order_duplicates),
		cmocka_unit_test(test_reads_writer_output),
		cmocka_unit_test(test_parse_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
