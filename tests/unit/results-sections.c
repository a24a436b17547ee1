/* needs: none */
/*
 * A method's section is found where its writer hung it (sb_section_name
 * as sb_results.extra_key), by sb_results_section, which report/ finds
 * each section through; and the schema version a result was written with
 * is read back, a missing or wrong one told apart (sb_results_schema_read).
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"
#include "lib/results/results_read.h"

#include <math.h>

static void marker(struct sb_json *j, const void *ctx)
{
	sb_json_str(j, "section", ctx);
}

/* A result of command "x" with section s written by the writer. */
static struct sb_jdoc *written_with(enum sb_section s)
{
	struct sb_results *r = sb_results_create("x");
	assert_non_null(r);
	r->extra_key = sb_section_name(s);
	r->extra_json = marker;
	r->extra_ctx = sb_section_name(s);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(sb_results_write_json(r, f), 0);
	assert_int_equal(fclose(f), 0);
	sb_results_free(r);
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(buf, len, NULL, &d, NULL), 0);
	free(buf);
	return d;
}

static void each_section_where_written(void **state)
{
	(void)state;
	for (int s = 0; s < SB_SECTION_N; s++) {
		struct sb_jdoc *d = written_with((enum sb_section)s);
		const struct sb_jv *sb = sb_jv_get(sb_jdoc_root(d), "storbench");
		for (int k = 0; k < SB_SECTION_N; k++) {
			const struct sb_jv *v = sb_results_section(sb, (enum sb_section)k);
			if (k != s) {
				assert_null(v);
				continue;
			}
			assert_non_null(v);
			assert_string_equal(sb_jv_str(sb_jv_get(v, "section")),
					    sb_section_name((enum sb_section)s));
		}
		uint64_t n = 0;
		double found = 0;
		assert_int_equal(sb_results_schema_read(sb, &n, &found), 0);
		assert_int_equal(n, SB_SCHEMA_VERSION);
		sb_jdoc_free(d);
	}
	assert_null(sb_section_name(SB_SECTION_N));
	assert_null(sb_results_section(NULL, SB_SECTION_VERIFY));
}

static int schema_of(const char *text, uint64_t *n, double *found)
{
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(text, strlen(text), NULL, &d, NULL), 0);
	const int e = sb_results_schema_read(sb_jdoc_root(d), n, found);
	sb_jdoc_free(d);
	return e;
}

static void schema_versions(void **state)
{
	uint64_t n;
	double found;
	(void)state;
	assert_int_equal(schema_of("{\"schema_version\": 7}", &n, &found), 0);
	assert_int_equal(n, 7);
	assert_int_equal(schema_of("{\"command\": \"run\"}", &n, &found), -ENOENT);
	assert_int_equal(schema_of("[1]", &n, &found), -ENOENT);
	assert_int_equal(schema_of("{\"schema_version\": 0}", &n, &found), -EINVAL);
	assert_true(found == 0);
	assert_int_equal(schema_of("{\"schema_version\": -2}", &n, &found), -EINVAL);
	assert_true(found == -2);
	assert_int_equal(schema_of("{\"schema_version\": 1.5}", &n, &found), -EINVAL);
	assert_true(found == 1.5);
	assert_int_equal(schema_of("{\"schema_version\": \"1\"}", &n, &found), -EINVAL);
	assert_true(isnan(found));
	assert_int_equal(schema_of("{\"schema_version\": null}", &n, &found), -EINVAL);
	assert_true(isnan(found));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_section_where_written),
		cmocka_unit_test(schema_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
