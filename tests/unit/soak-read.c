/* needs: none */
/*
 * A soak's results section is written in one place (lib/soak/soak_json.c)
 * and read back in one (soak_read.c): a result written and read again
 * holds, field by field, what was written (iterations with their bad
 * ranges, kernel lines, first error, cache method; each rank's of many;
 * the summary, its stability and the stop change); a section with a
 * member of the wrong type, a negative count, a missing key is refused,
 * named by its key path.
 */
#include "tests/lib/sbtest.h"

#include <math.h>
#include <stdio.h>

#include "lib/storbench.h"

static void iteration(struct sb_soak_iter *it, uint64_t n)
{
	memset(it, 0, sizeof(*it));
	it->n = n;
	it->generation = n + 10;
	it->start_ns = 1000000000ull * n;
	it->end_ns = it->start_ns + 5000;
	it->write_bw = 1048576.5 * (double)n;
	it->read_bw = 2097152.25;
	for (int i = 0; i < 3; i++) {
		it->wlat[i] = 100u * (unsigned)(i + 1);
		it->rlat[i] = 200u * (unsigned)(i + 1);
	}
	it->blocks = 256;
	it->count[SB_VERIFY_INTACT] = 250;
	it->cache = SB_CACHE_DROP_CACHES;
	if (n != 2)
		return;
	/* the second one went wrong in every way a record tells */
	it->count[SB_VERIFY_INTACT] = 246;
	it->count[SB_VERIFY_STALE] = 4;
	it->count[SB_VERIFY_UNREADABLE] = 6;
	it->nranges = 2;
	it->ranges[0] = (struct sb_verify_range){ 4096, 16384, 0, 1, SB_VERIFY_STALE, 0 };
	it->ranges[1] = (struct sb_verify_range){ 65536, 24576, 0, 0, SB_VERIFY_UNREADABLE, EIO };
	it->ranges_omitted = 3;
	it->io_errors = 7;
	it->first_errno = EIO;
	it->first_error_offset = 65536;
	it->nkmsg = 1;
	it->kmsg[0] = (struct sb_soak_kline){ 42, "io", "vdb", "blk_update_request: I/O error" };
	it->kmsg_omitted = 2;
	const struct sb_soak_kline other = { 43, "io", "loop9", "loop9: read error" };
	sb_soak_iter_add_other(it, &other);
	it->kother_omitted = 1;
	it->interrupted = 1;
	it->cache = SB_CACHE_FADVISE;
}

/* A result of 3 iterations, of 2 ranks when ranks. */
static void result(struct sb_soak_result *r, int ranks)
{
	memset(r, 0, sizeof(*r));
	r->nit = 3;
	r->it = calloc(3, sizeof(*r->it));
	assert_non_null(r->it);
	for (unsigned i = 0; i < 3; i++)
		iteration(&r->it[i], i + 1);
	assert_int_equal(sb_soak_summarize(r->it, 3, 0, &r->sum), 0);
	sb_soak_stop(&r->sum, SB_SOAK_INTERRUPTED, "interrupted by SIGINT (Ctrl-C) in iteration 2",
		     "storbench soak --resume=s.jsonl");
	r->stop_changed = 1;
	r->stop_change = (struct sb_soak_stop_change){ 1, 10, 0, 3, 0 };
	r->kmsg_watched = 1;
	if (!ranks)
		return;
	r->nranks = 2;
	r->iter_ranks = calloc(3, sizeof(*r->iter_ranks));
	assert_non_null(r->iter_ranks);
	for (unsigned i = 0; i < 3; i++) {
		struct sb_soak_rank *k = calloc(2, sizeof(*k));
		assert_non_null(k);
		for (int j = 0; j < 2; j++) {
			k[j].rank = j;
			snprintf(k[j].host, sizeof(k[j].host), "host%d", j);
			k[j].start_s = 0.5 * j;
			k[j].end_s = 4 + 0.25 * j;
			k[j].wstart_s = k[j].start_s;
			k[j].wend_s = 2;
			k[j].rstart_s = 2.5;
			k[j].rend_s = k[j].end_s;
			k[j].write_bytes = k[j].read_bytes = 1048576u * (unsigned)(j + 1);
			iteration(&k[j].it, i + 1);
			sb_soak_iter_release(&k[j].it); /* what a gathered rank holds */
			k[j].it.nkother = 0;
		}
		r->iter_ranks[i] = k;
	}
}

/* The section as the results write it, parsed. */
static char *written(const struct sb_soak_result *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct sb_json j;
	assert_non_null(f);
	sb_json_begin(&j, f, 1); /* one line, as a log writes */
	sb_json_obj_open(&j, NULL);
	sb_soak_results_json(&j, r);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	return buf;
}

static int read_text(const char *text, struct sb_soak_doc *doc, struct sb_error *err)
{
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(text, strlen(text), NULL, &d, NULL), 0);
	memset(doc, 0, sizeof(*doc));
	const int e = sb_soak_read(sb_jdoc_root(d), doc, err);
	sb_jdoc_free(d);
	return e;
}

static void same_kline(const struct sb_soak_kline *a, const struct sb_soak_kline *b)
{
	assert_int_equal(a->time_us, b->time_us);
	assert_string_equal(a->category, b->category);
	assert_string_equal(a->device, b->device);
	assert_string_equal(a->text, b->text);
}

static void same_iter(const struct sb_soak_iter *a, const struct sb_soak_iter *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->generation, b->generation);
	assert_int_equal(a->start_ns, b->start_ns);
	assert_int_equal(a->end_ns, b->end_ns);
	assert_true(a->write_bw == b->write_bw && a->read_bw == b->read_bw);
	assert_memory_equal(a->wlat, b->wlat, sizeof(a->wlat));
	assert_memory_equal(a->rlat, b->rlat, sizeof(a->rlat));
	assert_int_equal(a->blocks, b->blocks);
	assert_memory_equal(a->count, b->count, sizeof(a->count));
	assert_int_equal(a->nranges, b->nranges);
	for (size_t i = 0; i < a->nranges; i++) {
		assert_int_equal(a->ranges[i].offset, b->ranges[i].offset);
		assert_int_equal(a->ranges[i].length, b->ranges[i].length);
		assert_int_equal(a->ranges[i].cls, b->ranges[i].cls);
		assert_int_equal(a->ranges[i].generation, b->ranges[i].generation);
		assert_int_equal(a->ranges[i].err, b->ranges[i].err);
	}
	assert_int_equal(a->ranges_omitted, b->ranges_omitted);
	assert_int_equal(a->io_errors, b->io_errors);
	assert_int_equal(a->first_errno, b->first_errno);
	assert_int_equal(a->first_error_offset, b->first_error_offset);
	assert_int_equal(a->unwritten, b->unwritten);
	assert_int_equal(a->cache, b->cache);
	assert_int_equal(a->nkmsg, b->nkmsg);
	for (size_t i = 0; i < a->nkmsg; i++)
		same_kline(&a->kmsg[i], &b->kmsg[i]);
	assert_int_equal(a->kmsg_omitted, b->kmsg_omitted);
	assert_int_equal(a->nkother, b->nkother);
	for (size_t i = 0; i < a->nkother; i++)
		same_kline(&a->kother[i], &b->kother[i]);
	assert_int_equal(a->kother_omitted, b->kother_omitted);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_int_equal(b->failed, sb_soak_iter_failed(a)); /* as written */
}

static void same_metric(const struct sb_soak_metric *a, const struct sb_soak_metric *b)
{
	assert_int_equal(a->st.n, b->st.n);
	assert_true(fabs(a->st.median - b->st.median) < 1e-6);
	assert_true(fabs(a->st.cv - b->st.cv) < 1e-6);
	assert_int_equal(a->noutliers, b->noutliers);
	assert_int_equal(a->outliers_total, b->outliers_total);
	assert_int_equal(a->nchanges, b->nchanges);
}

static void same_summary(const struct sb_soak_summary *a, const struct sb_soak_summary *b)
{
	assert_int_equal(a->iterations, b->iterations);
	assert_int_equal(a->failed, b->failed);
	assert_int_equal(a->cut_short, b->cut_short);
	assert_int_equal(a->verify_bad, b->verify_bad);
	assert_int_equal(a->io_errors, b->io_errors);
	assert_int_equal(a->kmsg_lines, b->kmsg_lines);
	assert_int_equal(a->kmsg_other_lines, b->kmsg_other_lines);
	assert_int_equal(a->nother, b->nother);
	assert_string_equal(a->other[0].device, b->other[0].device);
	assert_int_equal(a->other[0].lines, b->other[0].lines);
	assert_int_equal(a->verdict, b->verdict);
	assert_int_equal(a->stopped, b->stopped);
	assert_string_equal(a->reason, b->reason);
	assert_string_equal(a->resume, b->resume);
	for (int k = 0; k < 2; k++)
		same_metric(&a->m[k], &b->m[k]);
}

static void test_round_trip(void **state)
{
	(void)state;
	for (int ranks = 0; ranks < 2; ranks++) {
		struct sb_soak_result r;
		struct sb_soak_doc doc;
		struct sb_error err;
		size_t len;
		result(&r, ranks);
		char *text = written(&r, &len);
		if (read_text(text, &doc, &err))
			fail_msg("%s", err.msg);
		same_summary(&r.sum, &doc.r.sum);
		assert_int_equal(doc.r.kmsg_watched, 1);
		assert_int_equal(doc.r.stop_changed, 1);
		assert_memory_equal(&doc.r.stop_change, &r.stop_change, sizeof(r.stop_change));
		assert_int_equal(doc.r.nit, 3);
		for (size_t i = 0; i < 3; i++)
			same_iter(&r.it[i], &doc.r.it[i]);
		assert_int_equal(doc.r.nranks, r.nranks);
		for (size_t i = 0; ranks && i < 3; i++)
			for (unsigned k = 0; k < 2; k++) {
				const struct sb_soak_rank *a = &r.iter_ranks[i][k],
							  *b = &doc.r.iter_ranks[i][k];
				assert_int_equal(a->rank, b->rank);
				assert_string_equal(a->host, b->host);
				assert_true(a->start_s == b->start_s && a->end_s == b->end_s);
				assert_true(a->wend_s == b->wend_s && a->rstart_s == b->rstart_s);
				assert_int_equal(a->write_bytes, b->write_bytes);
				assert_int_equal(a->read_bytes, b->read_bytes);
				same_iter(&a->it, &b->it);
			}
		/* what is read is what is written again */
		size_t len2;
		char *again = written(&doc.r, &len2);
		assert_string_equal(text, again);
		free(again);
		free(text);
		sb_soak_doc_free(&doc);
		sb_soak_result_free(&r);
	}
}

/* text with the first "from" made "to" */
static char *swapped(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		fail_msg("no '%s' in %s", from, text);
	char *out = malloc(strlen(text) + strlen(to) + 1);
	assert_non_null(out);
	snprintf(out, strlen(text) + strlen(to) + 1, "%.*s%s%s", (int)(at - text), text, to,
		 at + strlen(from));
	return out;
}

static void test_refused(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to, *path;
	} bad[] = {
		/* the wrong type */
		{ "\"iterations\":3", "\"iterations\":\"3\"",
		  "iterations: expected a whole number from 0, found a string" },
		/* a negative count */
		{ "\"io_errors\":7,\"first_errno\"", "\"io_errors\":-3,\"first_errno\"",
		  "iteration_records[1].io_errors: expected a whole number from 0, found -3" },
		{ "\"stale\":4", "\"stale\":-4",
		  "iteration_records[1].verify.stale: expected a whole number from 0, found -4" },
		/* a missing key */
		{ "{\"iteration\":1,", "{",
		  "iteration_records[0].iteration: expected an iteration number from 1, found "
		  "nothing" },
		{ "\"iteration_records\":[", "\"iteration_record\":[",
		  "iteration_records: expected an array of iteration records" },
		{ "\"rank\":1,", "\"rank\":\"one\",",
		  "iteration_records[0].ranks[1].rank: expected a rank number from 0, found a "
		  "string" },
		{ "\"iterations\":3,\"duration_ns\"", "\"iterations\":-3,\"duration_ns\"",
		  "stop_change.iterations: expected a whole number from 0" },
		{ "\"verdict\":\"fail\"", "\"verdict\":\"maybe\"",
		  "verdict: expected pass, fail, interrupted or aborted, found a string" },
	};
	struct sb_soak_result r;
	size_t len;
	result(&r, 1);
	char *text = written(&r, &len);
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad); i++) {
		struct sb_soak_doc doc;
		struct sb_error err;
		char *t = swapped(text, bad[i].from, bad[i].to);
		assert_int_equal(read_text(t, &doc, &err), -EINVAL);
		assert_int_equal(err.cls, SB_ERR_INPUT);
		if (strcmp(err.msg, bad[i].path))
			fail_msg("'%s' for '%s', expected '%s'", err.msg, bad[i].to, bad[i].path);
		assert_int_equal(doc.r.nit, 0); /* nothing kept */
		free(t);
	}
	free(text);
	sb_soak_result_free(&r);
}

/* One record as the writer w writes it, parsed. */
static struct sb_jdoc *record(void (*w)(struct sb_json *j, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sb_json j;
	struct sb_jdoc *d = NULL;
	assert_non_null(f);
	sb_json_begin(&j, f, 1);
	w(&j, ctx);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	assert_int_equal(sb_json_parse(buf, len, NULL, &d, NULL), 0);
	free(buf);
	return d;
}

static void config_w(struct sb_json *j, const void *ctx)
{
	sb_soak_config_record(j, ctx);
}
static void iter_w(struct sb_json *j, const void *ctx)
{
	sb_soak_iter_record(j, ctx);
}
static void summary_w(struct sb_json *j, const void *ctx)
{
	sb_soak_summary_record(j, ctx);
}

/* What a reader of every kind of line needs of each (sb_soak_line_read):
 * the log's configuration, an iteration, the summary, and an entry of the
 * results' iteration_records (which names no type). */
static void test_lines(void **state)
{
	struct sb_soak_result r;
	struct sb_soak_line l;
	struct sb_health h = { .kind = SB_HEALTH_NONE };
	struct sb_soak_config c = { .seed = 7, .target = "/t/f", .health_before = &h };
	(void)state;
	result(&r, 0);
	c.set.block_size = 4096;
	c.set.size = 1 << 20;
	struct sb_jdoc *d = record(config_w, &c);
	sb_soak_line_read(sb_jdoc_root(d), &l);
	assert_false(l.is_iteration);
	assert_true(isnan(l.iteration));
	assert_true(l.block_size == 4096);
	assert_non_null(l.health_before);
	assert_null(l.verify);
	sb_jdoc_free(d);

	d = record(iter_w, &r.it[1]);
	sb_soak_line_read(sb_jdoc_root(d), &l);
	assert_true(l.is_iteration);
	assert_true(l.iteration == 2);
	assert_true(sb_jv_is(l.verify, SB_JV_OBJ));
	struct sb_verify_doc v;
	struct sb_error err;
	assert_int_equal(sb_verify_read(l.verify, &v, &err), 0);
	assert_int_equal(v.b.count[SB_VERIFY_STALE], 4);
	sb_verify_doc_free(&v);
	assert_true(isnan(l.block_size));
	assert_null(l.health_before);
	sb_jdoc_free(d);

	r.health_ok[0] = r.health_ok[1] = 1;
	r.health[0] = r.health[1] = h;
	d = record(summary_w, &r);
	sb_soak_line_read(sb_jdoc_root(d), &l);
	assert_false(l.is_iteration);
	assert_non_null(l.health);
	sb_jdoc_free(d);

	size_t len;
	char *text = written(&r, &len);
	d = NULL;
	assert_int_equal(sb_json_parse(text, len, NULL, &d, NULL), 0);
	const struct sb_jv *recs = sb_jv_get(sb_jdoc_root(d), "iteration_records");
	assert_int_equal(sb_jv_len(recs), 3);
	for (size_t i = 0; i < 3; i++) {
		sb_soak_line_read(sb_jv_at(recs, i), &l);
		assert_true(l.is_iteration);
		assert_true(l.iteration == (double)i + 1);
		assert_non_null(l.verify);
	}
	sb_jdoc_free(d);
	free(text);
	sb_soak_line_read(NULL, &l);
	assert_false(l.is_iteration);
	assert_null(l.verify);
	sb_soak_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
