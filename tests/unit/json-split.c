/* needs: none */
/*
 * Reading a document in pieces (lib/json/json_split.h) gives what parsing
 * it whole gives: the items of the named arrays, in order and with the
 * index of their job, and the rest as the same tree with those arrays
 * empty; a document past 64 KiB (the read chunk) too. Whatever the whole
 * parse refuses, the split read refuses, at the same line and column:
 * every prefix (cut short, at_end), and every byte of a document replaced
 * by each character that matters to the structure.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"
#include "lib/json/json_split.h"

static const char *const paths[] = { "jobs[].storbench.series", "storbench.soak.records" };

struct got {
	size_t n[2];
	double sum[2];
	size_t outer_of_last;
	int fail_at; /* the callback fails at this item (0: never) */
};

static int on_item(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	struct got *g = ctx;
	assert_true(path < 2);
	g->n[path]++;
	g->sum[path] += sb_jv_num(sb_jv_get(v, "t"), 0) + 1000 * (double)outer;
	g->outer_of_last = outer;
	return g->fail_at && (int)(g->n[0] + g->n[1]) == g->fail_at ? -ECANCELED : 0;
}

static int split_text(const char *text, size_t len, struct got *g, struct sb_jdoc **rest,
		      struct sb_json_error *e)
{
	static const char empty[1];
	FILE *f = fmemopen(len ? (void *)text : (void *)empty, len ? len : 1, "r");
	assert_non_null(f);
	if (!len)
		fgetc(f); /* fmemopen cannot open nothing: read its one byte */
	struct sb_json_split s = { paths, 2, on_item, g, 0, 0, 0, 0, NULL };
	int rc = sb_json_split_read(f, &s, rest, e);
	fclose(f);
	return rc;
}

static char *make_doc(size_t njobs, size_t nseries, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	fprintf(f, "{\n  \"time\" : \"now\",\n  \"jobs\" : [");
	for (size_t j = 0; j < njobs; j++) {
		fprintf(f, "%s\n    {\"jobname\": \"j%zu\", \"series\": [1, 2], \"storbench\": {",
			j ? "," : "", j);
		fprintf(f, "\"runtime_ns\": 5, \"series\" : [");
		for (size_t i = 0; i < nseries; i++)
			fprintf(f, "%s\n      { \"t\" : %zu, \"x\": [1, {\"y\": \"a]\\\"b,\"}] }",
				i ? "," : "", i + 1);
		fprintf(f, "\n    ], \"after\": true}}");
	}
	fprintf(f, "\n  ],\n  \"storbench\" : {\"soak\": {\"records\": [{\"t\": 7}, {\"t\": 8}], "
		   "\"n\": 2}, \"v\": [[1], {\"records\": [9]}]}\n}\n");
	fclose(f);
	return buf;
}

static void test_items_and_rest(void **state)
{
	(void)state;
	size_t len;
	char *doc = make_doc(3, 2000, &len); /* past one 64 KiB chunk */
	struct got g = { 0 };
	struct sb_jdoc *rest, *whole;
	struct sb_json_error e;
	const struct sb_json_limits big = { 64u << 20, 0 };
	assert_true(len > 3 * 65536);
	assert_int_equal(split_text(doc, len, &g, &rest, &e), 0);
	assert_int_equal(g.n[0], 6000);
	assert_int_equal(g.n[1], 2);
	/* sum over jobs of (1..2000) + 1000 * job * 2000 */
	assert_true(g.sum[0] == 3 * 2001000.0 + 1000.0 * 2000 * (0 + 1 + 2));
	assert_true(g.sum[1] == 15);
	assert_int_equal(g.outer_of_last, 0); /* the soak's records are in no array */
	assert_int_equal(sb_json_parse(doc, len, &big, &whole, &e), 0);
	const struct sb_jv *r = sb_jdoc_root(rest), *w = sb_jdoc_root(whole);
	assert_int_equal(sb_jv_len(sb_jv_get(r, "jobs")), 3);
	for (size_t j = 0; j < 3; j++) {
		const struct sb_jv *rj = sb_jv_at(sb_jv_get(r, "jobs"), j);
		const struct sb_jv *sb = sb_jv_get(rj, "storbench");
		assert_int_equal(sb_jv_len(sb_jv_get(sb, "series")), 0);
		assert_true(sb_jv_is(sb_jv_get(sb, "series"), SB_JV_ARR));
		assert_int_equal(sb_jv_len(sb_jv_get(rj, "series")), 2); /* not the path */
		assert_int_equal(sb_jv_bool(sb_jv_get(sb, "after"), 0), 1);
		assert_int_equal(sb_jv_len(sb_jv_get(sb_jv_get(sb_jv_at(sb_jv_get(w, "jobs"), j),
							       "storbench"),
						     "series")),
				 2000);
	}
	assert_int_equal(sb_jv_len(sb_jv_get(sb_jv_get(sb_jv_get(r, "storbench"), "soak"),
					     "records")),
			 0);
	assert_int_equal(sb_jv_num(sb_jv_get(sb_jv_get(sb_jv_get(r, "storbench"), "soak"), "n"), 0),
			 2);
	assert_int_equal(sb_jv_len(sb_jv_get(sb_jv_get(r, "storbench"), "v")), 2);
	sb_jdoc_free(rest);
	sb_jdoc_free(whole);

	/* the callback's error stops the reading and is returned */
	memset(&g, 0, sizeof(g));
	g.fail_at = 10;
	assert_int_equal(split_text(doc, len, &g, &rest, &e), -ECANCELED);
	assert_null(rest);
	assert_int_equal(g.n[0], 10);
	free(doc);
}

/* The split read and the whole parse agree: both accept, or both refuse at
 * the same line and column (the message may name the fault differently:
 * "1 2" is data after an item to one and a missing comma to the other). */
static void agree(const char *text, size_t len, const char *what)
{
	struct got g = { 0 };
	struct sb_jdoc *rest = NULL, *whole = NULL;
	struct sb_json_error e1, e2;
	int r1 = split_text(text, len, &g, &rest, &e1);
	int r2 = sb_json_parse(text, len, NULL, &whole, &e2);
	if ((r1 == 0) != (r2 == 0))
		fail_msg("%s: split %d '%s', whole %d '%s' on '%.*s'", what, r1, e1.msg, r2, e2.msg,
			 (int)len, text);
	if (r1 < 0 && r1 == -EBADMSG && r2 == -EBADMSG &&
	    (e1.line != e2.line || e1.column != e2.column || e1.at_end != e2.at_end))
		fail_msg("%s: split '%s' (end %d), whole '%s' (end %d) on '%.*s'", what, e1.msg,
			 e1.at_end, e2.msg, e2.at_end, (int)len, text);
	sb_jdoc_free(rest);
	sb_jdoc_free(whole);
}

static void test_prefixes_and_damage(void **state)
{
	(void)state;
	static const char subst[] = "[]{},:\" \\\n0a";
	size_t len;
	char *doc = make_doc(2, 3, &len);
	char what[64];
	for (size_t n = 0; n < len; n++) {
		snprintf(what, sizeof(what), "prefix of %zu bytes", n);
		agree(doc, n, what);
	}
	for (size_t i = 0; i < len; i++) {
		char keep = doc[i];
		for (const char *c = subst; *c; c++) {
			doc[i] = *c;
			snprintf(what, sizeof(what), "byte %zu as '%c'", i, *c);
			agree(doc, len, what);
		}
		doc[i] = keep;
	}
	free(doc);
}

static void test_commas(void **state)
{
	(void)state;
	static const char *const docs[] = {
		"{\"jobs\": [{\"storbench\": {\"series\": []}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [,]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [{},]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [,{}]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [{},,{}]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [{} {}]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [{}}]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [1, \"],\", null]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [1, 2]  }  ]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [1]}}]} x",
		"{\"jobs\": [{\"storbench\": {\"series\": [1]}}]}\n\n  {",
		"{\"jobs\": [{\"storbench\": {\"series\": [1]}, \"s\\u0074orbench\": {\"series\": [1]}}]}",
		"[{\"jobs\": []}]",
		"{\"jobs\": [{\"storbench\": {\"series\": [n, 1]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [1., 2]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [tru]}}]}",
		"{\"jobs\": [{\"storbench\": {\"series\": [\xef\xbb\xbf"
		"1]}}]}",
		"\"jobs\"",
		"",
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(docs); i++)
		agree(docs[i], strlen(docs[i]), docs[i]);
}

static void test_depth(void **state)
{
	(void)state;
	char doc[512];
	int n = snprintf(doc, sizeof(doc), "{\"jobs\": [{\"storbench\": {\"series\": [");
	for (int i = 0; i < 70; i++)
		doc[n++] = '[';
	doc[n] = 0;
	struct got g = { 0 };
	struct sb_jdoc *rest;
	struct sb_json_error e;
	assert_int_equal(split_text(doc, (size_t)n, &g, &rest, &e), -E2BIG);
	assert_non_null(strstr(e.msg, "nested too deeply"));
}

/* doc_end: the reading stops after the root value (fio's normal,json text
 * follows its JSON), its items handed over, the offset just past the '}' */
static void test_doc_end(void **state)
{
	(void)state;
	static const char text[] = "{\"jobs\": [{\"storbench\": {\"series\": [{\"t\": 1}, "
				   "{\"t\": 2}]}}]}\nRun status group 0 (all jobs): {[\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	assert_non_null(f);
	struct got g = { 0 };
	size_t end = 0;
	struct sb_json_split s = { paths, 2, on_item, &g, 0, 0, 0, 0, &end };
	struct sb_jdoc *rest;
	struct sb_json_error e;
	assert_int_equal(sb_json_split_read(f, &s, &rest, &e), 0);
	fclose(f);
	assert_int_equal(end, (size_t)(strchr(text, '\n') - text));
	assert_int_equal(g.n[0], 2);
	assert_non_null(sb_jv_get(sb_jdoc_root(rest), "jobs"));
	sb_jdoc_free(rest);
	/* without it, the text after the document is an error */
	g = (struct got){ 0 };
	assert_int_equal(split_text(text, sizeof(text) - 1, &g, &rest, &e), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items_and_rest), cmocka_unit_test(test_prefixes_and_damage),
		cmocka_unit_test(test_commas),	       cmocka_unit_test(test_depth),
		cmocka_unit_test(test_doc_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
