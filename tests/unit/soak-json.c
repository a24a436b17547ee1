/* needs: none */
/*
 * The soak's JSON both ways: a log written with the record writers reads
 * back (configuration, iterations, a torn last line left out, bad lines
 * refused, the stop condition a resume changed) and a summary's verdict
 * reads back as it was written, with the count of every outlier.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/soak/soak_json.h"

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void line(struct mem *m, void (*write)(struct sb_json *j, const void *ctx), const void *ctx)
{
	struct sb_json j;
	sb_json_begin(&j, m->f, 1);
	write(&j, ctx);
	assert_int_equal(sb_json_end(&j), 0); /* the line's newline included */
}

static void config(struct sb_json *j, const void *ctx)
{
	sb_soak_config_record(j, ctx);
}
static void iteration(struct sb_json *j, const void *ctx)
{
	sb_soak_iter_record(j, ctx);
}
static void summary(struct sb_json *j, const void *ctx)
{
	sb_soak_summary_record(j, ctx);
}

static void make_iter(struct sb_soak_iter *it, uint64_t n)
{
	memset(it, 0, sizeof(*it));
	it->n = n;
	it->start_ns = 1000 * n;
	it->end_ns = 1000 * n + 500;
	it->write_bw = 100e6 + (double)n;
	it->read_bw = 200e6;
	it->wlat[0] = 7;
	it->rlat[2] = 9;
	it->blocks = 2048;
	it->count[SB_VERIFY_INTACT] = 2046;
	it->count[SB_VERIFY_STALE] = 2;
	it->io_errors = 1;
	it->nkmsg = 1;
	snprintf(it->kmsg[0].category, sizeof(it->kmsg[0].category), "io");
	snprintf(it->kmsg[0].text, sizeof(it->kmsg[0].text), "mmc0: timeout");
	it->interrupted = n == 2;
}

static void test_log_roundtrip(void **state)
{
	(void)state;
	char *argv[] = { "soak", "--iterations=2", "/mnt/x" };
	const struct sb_soak_config c = { .started_ns = 42,
					  .seed = 7,
					  .target = "/mnt/x",
					  .argc = 3,
					  .argv = argv,
					  .engine = "psync" };
	struct sb_soak_iter it[2], back;
	struct sb_soak_summary sum, got;
	struct sb_soak_log log;
	struct mem m;
	m.f = open_memstream(&m.buf, &m.len);
	assert_non_null(m.f);
	line(&m, config, &c);
	for (int i = 0; i < 2; i++) {
		make_iter(&it[i], (uint64_t)i + 1);
		line(&m, iteration, &it[i]);
	}
	assert_int_equal(sb_soak_summarize(it, 2, 0, &sum), 0);
	const struct sb_soak_result r = { .sum = sum, .kmsg_watched = 1, .it = it, .nit = 2 };
	line(&m, summary, &r);
	size_t whole = m.len;
	fputs("{\"type\":\"iteration\",\"itera", m.f); /* a power cut */
	fflush(m.f);

	assert_int_equal(sb_soak_log_parse(m.buf, m.len, &log), 0);
	assert_int_equal(log.good, whole);
	assert_int_equal(log.seed, 7);
	assert_int_equal(log.started_ns, 42);
	assert_int_equal(log.argc, 3);
	assert_string_equal(log.argv[1], "--iterations=2");
	assert_null(log.argv[3]);
	assert_int_equal(log.nit, 2);
	back = log.it[1];
	assert_int_equal(back.n, 2);
	assert_int_equal(back.end_ns, 2500);
	assert_true(back.write_bw == it[1].write_bw);
	assert_int_equal(back.wlat[0], 7);
	assert_int_equal(back.rlat[2], 9);
	assert_int_equal(back.count[SB_VERIFY_STALE], 2);
	assert_int_equal(back.io_errors, 1);
	assert_int_equal(back.nkmsg, 1);
	assert_string_equal(back.kmsg[0].text, "mmc0: timeout");
	assert_true(back.interrupted);
	assert_true(sb_soak_iter_failed(&back));
	sb_soak_log_free(&log);

	/* the summary line's verdict reads back as written */
	const char *last = m.buf;
	for (const char *p = m.buf; p < m.buf + whole - 1; p++)
		if (*p == '\n')
			last = p + 1;
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(last, (size_t)(m.buf + whole - last), NULL, &d, NULL), 0);
	assert_int_equal(sb_soak_summary_from_json(sb_jdoc_root(d), &got), 0);
	assert_int_equal(got.iterations, 2);
	assert_int_equal(got.failed, 2);
	assert_int_equal(got.verify_bad, 4);
	assert_false(got.pass);
	assert_int_equal(got.m[0].st.n, 1); /* iteration 2 was interrupted */
	assert_true(fabs(got.m[0].st.median - sum.m[0].st.median) < 1e-3);
	assert_string_equal(got.m[1].name, "read_bw");
	sb_jdoc_free(d);
	fclose(m.f);
	free(m.buf);
}

static int parse(const char *text, struct sb_soak_log *log)
{
	return sb_soak_log_parse(text, strlen(text), log);
}

static void resume(struct sb_json *j, const void *ctx)
{
	sb_soak_resume_record(j, ctx);
}

/* A resume that changed the stop condition logs it; the last such record
 * is the one a later resume goes by, whatever came between. */
static void test_log_stop_change(void **state)
{
	(void)state;
	char *argv[] = { "soak", "--iterations=100000", "/mnt/x" };
	const struct sb_soak_config c = { .target = "/mnt/x", .argc = 3, .argv = argv };
	const struct sb_soak_stop_change a = { 1, 100000, 0, 50, 0 }, b = { 2, 50, 0, 0, 3600e9 };
	struct sb_soak_iter it;
	struct sb_soak_log log;
	struct mem m;
	m.f = open_memstream(&m.buf, &m.len);
	assert_non_null(m.f);
	line(&m, config, &c);
	fflush(m.f);
	assert_int_equal(sb_soak_log_parse(m.buf, m.len, &log), 0);
	assert_false(log.stop_changed);
	sb_soak_log_free(&log);
	make_iter(&it, 1);
	line(&m, iteration, &it);
	line(&m, resume, &a);
	fflush(m.f);
	assert_int_equal(sb_soak_log_parse(m.buf, m.len, &log), 0);
	assert_true(log.stop_changed);
	assert_int_equal(log.iterations, 50);
	assert_int_equal(log.duration_ns, 0);
	sb_soak_log_free(&log);
	make_iter(&it, 2);
	line(&m, iteration, &it);
	line(&m, resume, &b);
	fflush(m.f);
	assert_int_equal(sb_soak_log_parse(m.buf, m.len, &log), 0);
	assert_int_equal(log.nit, 2);
	assert_string_equal(log.argv[1], "--iterations=100000"); /* as it was started */
	assert_int_equal(log.iterations, 0);
	assert_int_equal(log.duration_ns, 3600000000000ull);
	sb_soak_log_free(&log);
	fclose(m.f);
	free(m.buf);
}

static void test_log_refused(void **state)
{
	(void)state;
	struct sb_soak_log log;
	const char *cfg = "{\"type\":\"config\",\"log_version\":1,\"argv\":[\"soak\"]}\n";
	char text[256];
	assert_int_equal(parse("", &log), -ENODATA);
	sb_soak_log_free(&log);
	assert_int_equal(parse("{\"type\":\"conf", &log), -ENODATA);
	sb_soak_log_free(&log);
	assert_int_equal(parse("not a log\n", &log), -EBADMSG);
	assert_int_equal(log.line, 1);
	sb_soak_log_free(&log);
	assert_int_equal(parse("{\"type\":\"iteration\",\"iteration\":1}\n", &log), -EINVAL);
	sb_soak_log_free(&log);
	assert_int_equal(parse("{\"type\":\"config\",\"log_version\":2,\"argv\":[]}\n", &log),
			 -EINVAL);
	sb_soak_log_free(&log);
	snprintf(text, sizeof(text), "%s{\"type\":\"iteration\",\"iteration\":1}\n{oops}\n", cfg);
	assert_int_equal(parse(text, &log), -EBADMSG);
	assert_int_equal(log.line, 3);
	sb_soak_log_free(&log);
	/* a summary line (a soak resumed before) is not an iteration */
	snprintf(text, sizeof(text), "%s{\"type\":\"summary\",\"iterations\":0}\n", cfg);
	assert_int_equal(parse(text, &log), 0);
	assert_int_equal(log.nit, 0);
	assert_int_equal(log.argc, 1);
	sb_soak_log_free(&log);
	/* a summary without stability (hand-made): no verdict to read */
	struct sb_jdoc *d = NULL;
	struct sb_soak_summary s;
	const char *bare = "{\"type\":\"summary\",\"iterations\":3,\"verdict\":\"pass\"}";
	assert_int_equal(sb_json_parse(bare, strlen(bare), NULL, &d, NULL), 0);
	assert_int_equal(sb_soak_summary_from_json(sb_jdoc_root(d), &s), -ENOENT);
	sb_jdoc_free(d);
}

/* outliers_total: every outlier, while "outliers" lists the first ones;
 * the verdict's anomaly count reads back from it. A summary written
 * before it existed listed them all. */
static void test_outliers_total(void **state)
{
	(void)state;
	struct sb_soak_summary sum, got;
	struct mem m;
	struct sb_jdoc *d = NULL;
	memset(&sum, 0, sizeof(sum));
	sum.iterations = 1000;
	sum.m[0].name = "write_bw";
	sum.m[1].name = "read_bw";
	sum.m[0].noutliers = 2;
	sum.m[0].outliers[0] = 17;
	sum.m[0].outliers[1] = 40;
	sum.m[0].outliers_total = 70;
	sum.anomalies = 70;
	const struct sb_soak_result r = { .sum = sum };
	m.f = open_memstream(&m.buf, &m.len);
	assert_non_null(m.f);
	line(&m, summary, &r);
	fflush(m.f);
	assert_non_null(strstr(m.buf, "\"outliers\":[17,40],\"outliers_total\":70"));
	assert_int_equal(sb_json_parse(m.buf, m.len, NULL, &d, NULL), 0);
	assert_int_equal(sb_soak_summary_from_json(sb_jdoc_root(d), &got), 0);
	assert_int_equal(got.m[0].noutliers, 2);
	assert_int_equal(got.m[0].outliers[1], 40);
	assert_int_equal(got.m[0].outliers_total, 70);
	assert_int_equal(got.m[1].outliers_total, 0);
	assert_int_equal(got.anomalies, 70);
	sb_jdoc_free(d);
	fclose(m.f);
	free(m.buf);

	const char *old = "{\"type\":\"summary\",\"iterations\":9,\"stability\":{"
			  "\"write_bw\":{\"n\":9,\"outliers\":[3,5],\"change_points\":[]},"
			  "\"read_bw\":{\"n\":9,\"outliers\":[],\"change_points\":[]}}}";
	assert_int_equal(sb_json_parse(old, strlen(old), NULL, &d, NULL), 0);
	assert_int_equal(sb_soak_summary_from_json(sb_jdoc_root(d), &got), 0);
	assert_int_equal(got.m[0].outliers_total, 2);
	assert_int_equal(got.anomalies, 2);
	sb_jdoc_free(d);
}

/* What the soak was asked reads back from its summary as written; a
 * configuration line of an older storbench tells no stop condition. */
static void test_settings(void **state)
{
	(void)state;
	struct sb_soak_summary got;
	struct sb_soak_settings set;
	struct mem m;
	struct sb_jdoc *d = NULL;
	struct sb_soak_result r;
	memset(&r, 0, sizeof(r));
	r.sum.m[0].name = "write_bw";
	r.sum.m[1].name = "read_bw";
	r.sum.set = (struct sb_soak_settings){ .size = 1 << 30,
					       .block_size = 4096,
					       .request_size = 1 << 20,
					       .iterations = 40,
					       .duration_ns = 72 * 3600ull * 1000000000ull,
					       .idle_ns = 5000000000ull,
					       .known = 1,
					       .stop_known = 1 };
	m.f = open_memstream(&m.buf, &m.len);
	assert_non_null(m.f);
	line(&m, summary, &r);
	fflush(m.f);
	assert_int_equal(sb_json_parse(m.buf, m.len, NULL, &d, NULL), 0);
	assert_int_equal(sb_soak_summary_from_json(sb_jdoc_root(d), &got), 0);
	assert_memory_equal(&got.set, &r.sum.set, sizeof(got.set));
	sb_jdoc_free(d);
	fclose(m.f);
	free(m.buf);

	const char *old = "{\"type\":\"config\",\"size\":4194304,\"block_size\":4096}";
	assert_int_equal(sb_json_parse(old, strlen(old), NULL, &d, NULL), 0);
	sb_soak_settings_from_json(sb_jdoc_root(d), &set);
	assert_true(set.known);
	assert_false(set.stop_known);
	assert_int_equal(set.size, 4194304);
	assert_int_equal(set.block_size, 4096);
	sb_jdoc_free(d);
}

/* A text longer than its room is cut at a word with an ellipsis: never
 * inside a word, nor inside a UTF-8 character when one word fills it. */
static void test_cut_text(void **state)
{
	(void)state;
	char out[24];
	const char *msg = "EXT4-fs error (device loop3): inode #2: comm du: bad extra_isize";
	sb_soak_cut_text(out, sizeof(out), "short line");
	assert_string_equal(out, "short line");
	sb_soak_cut_text(out, sizeof(out), msg);
	assert_string_equal(out, "EXT4-fs error...");
	assert_true(strlen(out) < sizeof(out));
	/* exactly its room: whole */
	char fits[sizeof(out)];
	memset(fits, 'a', sizeof(fits) - 1);
	fits[sizeof(fits) - 1] = 0;
	sb_soak_cut_text(out, sizeof(out), fits);
	assert_string_equal(out, fits);
	/* one long word of two-byte characters: cut between characters */
	char wide[64] = "";
	for (int i = 0; i < 20; i++)
		memcpy(wide + 2 * i, "\xc3\xa9", 2);
	sb_soak_cut_text(out, sizeof(out), wide);
	const size_t n = strlen(out);
	assert_string_equal(out + n - 3, "...");
	assert_int_equal((n - 3) % 2, 0);
	/* every word before the cut whole: the text before "..." and a space
	 * after it in the message, once the first word fits */
	for (size_t len = sizeof("EXT4-fs..."); len < strlen(msg); len++) {
		char buf[128];
		sb_soak_cut_text(buf, len, msg);
		const size_t k = strlen(buf);
		assert_true(k < len);
		if (k > 3 && !strcmp(buf + k - 3, "...")) {
			assert_memory_equal(buf, msg, k - 3);
			assert_true(msg[k - 3] == ' ' || msg[k - 3] == ':' || msg[k - 3] == ',' ||
				    msg[k - 3] == ';');
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_roundtrip),	cmocka_unit_test(test_log_refused),
		cmocka_unit_test(test_log_stop_change), cmocka_unit_test(test_outliers_total),
		cmocka_unit_test(test_settings),	cmocka_unit_test(test_cut_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
