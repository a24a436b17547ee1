/* needs: none */
/*
 * The results history's store (lib/history): a record written and read
 * back by a query, field by field; its labels and figures; the groups a
 * query makes; a database of something else and one of a newer schema
 * refused by name and left as they were; the stored figure names nearest
 * to one not there; records read from storbench's and fio's JSON, and
 * labels refused as the program says; a plan's check before its first
 * step (labels, then the history opens) naming the key. A build without SQLite refuses a
 * history by saying so.
 */
#include "tests/lib/sbtest.h"
#include "lib/history/history.h"
#include "report/history_groups.h"

#include <math.h>
#include <sys/stat.h>
#ifdef HAVE_SQLITE
#include <sqlite3.h>

/* ---- the tests of a SQLite history (a build without it checks the
 * refusal below) ---- */

static void fig(struct sb_history_rec *r, const char *name, const char *unit, double v,
		const char *word)
{
	struct sb_figure *x = realloc(r->figs.v, (r->figs.n + 1) * sizeof(*x));
	assert_non_null(x);
	r->figs.v = x;
	x = &r->figs.v[r->figs.n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->unit = unit;
	x->value = v;
	snprintf(x->word, sizeof(x->word), "%s", word ? word : "");
}

static void make_rec(struct sb_history_rec *r, int64_t started, const char *fw, double iops)
{
	struct sb_error err;
	memset(r, 0, sizeof(*r));
	r->ext_csd_rev = 8;
	r->fw_slot = -1;
	r->started = started;
	r->command = strdup("quick");
	r->options = strdup("quick --repeat=5 /dev/mmcblk0");
	r->host = strdup("bench1");
	r->version = strdup("0.1.0");
	r->model = strdup("SDINBDG4-8G");
	r->serial = strdup("0x1234");
	r->firmware = strdup(fw);
	r->capacity = 7818182656;
	r->json = strdup("{}");
	r->json_len = 2;
	assert_int_equal(sb_history_rec_label(r, "chamber=85C", &err), 0);
	assert_int_equal(sb_history_rec_label(r, "board=rk3399", &err), 0);
	fig(r, "RND4K-Q1T1.read.iops", "IOPS", iops, NULL);
	fig(r, "status", "word", NAN, "pass");
}

struct seen {
	int n;
	struct sb_history_row last; /* its strings are the store's: copied below */
	char labels[128], group[64], word[16], model[32], serial[16], firmware[16], options[64],
		unit[8];
	double sum;
};

static int on_row(void *ctx, const struct sb_history_row *r)
{
	struct seen *s = ctx;
	s->n++;
	s->last = *r;
	snprintf(s->labels, sizeof(s->labels), "%s", r->labels);
	snprintf(s->group, sizeof(s->group), "%s", r->group ? r->group : "(null)");
	snprintf(s->word, sizeof(s->word), "%s", r->word ? r->word : "");
	snprintf(s->model, sizeof(s->model), "%s", r->model ? r->model : "");
	snprintf(s->serial, sizeof(s->serial), "%s", r->serial ? r->serial : "");
	snprintf(s->firmware, sizeof(s->firmware), "%s", r->firmware ? r->firmware : "");
	snprintf(s->options, sizeof(s->options), "%s", r->options ? r->options : "");
	snprintf(s->unit, sizeof(s->unit), "%s", r->unit ? r->unit : "");
	if (isfinite(r->value))
		s->sum += r->value;
	return 0;
}

static void sql(const char *path, const char *statement)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, statement, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_record_and_query(void **state)
{
	struct sb_history *h;
	struct sb_error err = { 0 };
	struct sb_history_rec r;
	int64_t id = 0;
	const char *path = sbt_path("h.db");
	assert_int_equal(sb_history_open(path, &h, &err), 0);
	for (int i = 0; i < 4; i++) {
		make_rec(&r, 1796000000 + i * 86400, i < 2 ? "1.0" : "1.1", 1000 + i);
		assert_int_equal(sb_history_record(h, &r, &id, &err), 0);
		assert_int_equal(id, i + 1);
		sb_history_rec_free(&r);
	}
	struct seen s = { 0 };
	struct sb_history_query q = { 0 };
	assert_int_equal(sb_history_query(h, &q, on_row, &s, &err), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.labels, "board=rk3399,chamber=85C"); /* by key */
	assert_string_equal(s.model, "SDINBDG4-8G");
	assert_string_equal(s.serial, "0x1234");
	assert_string_equal(s.firmware, "1.1");
	assert_string_equal(s.options, "quick --repeat=5 /dev/mmcblk0");
	assert_int_equal(s.last.started, 1796000000 + 3 * 86400);

	/* a figure by firmware, of one firmware, of a label */
	memset(&s, 0, sizeof(s));
	q.figure = "RND4K-Q1T1.read.iops";
	q.group_by = "firmware";
	q.firmware = "1.0";
	assert_int_equal(sb_history_query(h, &q, on_row, &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_true(s.sum == 2001);
	assert_string_equal(s.group, "1.0");
	assert_string_equal(s.unit, "IOPS");
	memset(&s, 0, sizeof(s));
	const char *labels[] = { "chamber=85C" };
	q.firmware = NULL;
	q.labels = labels;
	q.nlabels = 1;
	q.group_by = "label:board";
	q.since = 1796000000 + 86400;
	assert_int_equal(sb_history_query(h, &q, on_row, &s, &err), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.group, "rk3399");
	memset(&s, 0, sizeof(s));
	q.group_by = "day";
	q.since = 0;
	q.until = 1796000000 + 86400;
	assert_int_equal(sb_history_query(h, &q, on_row, &s, &err), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.group, "2026-11-30"); /* 1796000000: 2026-11-30T00:53:20Z */
	memset(&s, 0, sizeof(s));
	const char *none[] = { "chamber=25C" };
	q.labels = none;
	assert_int_equal(sb_history_query(h, &q, on_row, &s, &err), 0);
	assert_int_equal(s.n, 0);
	/* a word's figure */
	memset(&s, 0, sizeof(s));
	struct sb_history_query w = { .figure = "status" };
	assert_int_equal(sb_history_query(h, &w, on_row, &s, &err), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.word, "pass");
	assert_true(isnan(s.last.value));

	/* the nearest stored names */
	char near[3][SB_FIGURE_NAME];
	assert_int_equal(sb_history_nearest(h, "RND4K-Q1T1.read.iop", near, 3, &err), 2);
	assert_string_equal(near[0], "RND4K-Q1T1.read.iops");
	assert_string_equal(near[1], "status");
	sb_history_close(h);

	/* opened again: the same rows, the schema not made twice */
	assert_int_equal(sb_history_open(path, &h, &err), 0);
	memset(&s, 0, sizeof(s));
	struct sb_history_query all = { 0 };
	assert_int_equal(sb_history_query(h, &all, on_row, &s, &err), 0);
	assert_int_equal(s.n, 4);
	sb_history_close(h);
}

static void test_refusals(void **state)
{
	struct sb_history *h = NULL;
	struct sb_error err = { 0 };
	const char *other = sbt_path("other.db"), *newer = sbt_path("newer.db");
	sql(other, "CREATE TABLE t(x)");
	assert_int_equal(sb_history_open(other, &h, &err), -EPROTO);
	assert_null(h);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "is not a storbench history"));
	assert_non_null(strstr(err.msg, other));
	assert_int_equal(sb_history_open(newer, &h, &err), 0);
	sb_history_close(h);
	sql(newer, "UPDATE storbench_schema SET version = 2");
	assert_int_equal(sb_history_open(newer, &h, &err), -EPROTO);
	assert_non_null(
		strstr(err.msg, "is a history of schema 2, newer than this storbench's (1)"));
	sql(newer, "UPDATE storbench_schema SET application = 'x', version = 1");
	assert_int_equal(sb_history_open(newer, &h, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "is not a storbench history"));
	FILE *f = fopen(sbt_path("text.db"), "w");
	fputs("not a database, but long enough to look at its header at all\n", f);
	fclose(f);
	assert_int_equal(sb_history_open(sbt_path("text.db"), &h, &err), -EPROTO);
	assert_int_equal(sb_history_open(sbt_path("no/such/dir/h.db"), &h, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot open"));
}
#else
static void test_record_and_query(void **state)
{
	struct sb_history *h = NULL;
	struct sb_error err = { 0 };
	assert_int_equal(sb_history_open(sbt_path("h.db"), &h, &err), -ENOTSUP);
	assert_null(h);
	assert_non_null(strstr(err.msg, "needs a storbench built with SQLite"));
}

static void test_refusals(void **state)
{
}
#endif

static void test_query_checks(void **state)
{
	struct sb_error err = { 0 };
	assert_int_equal(sb_history_group_check("firmware", &err), 0);
	assert_int_equal(sb_history_group_check("label:chamber", &err), 0);
	assert_int_equal(sb_history_group_check("label:", &err), -EINVAL);
	assert_int_equal(sb_history_group_check("colour", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'colour' is not a group"));
#ifndef HAVE_PQ
	assert_null(sb_history_backend("postgresql://lab/h", &err));
	assert_non_null(strstr(err.msg, "needs a storbench built with PostgreSQL"));
#endif
}

static void test_labels(void **state)
{
	struct sb_history_rec r;
	struct sb_error err = { 0 };
	char big[300];
	memset(&r, 0, sizeof(r));
	memset(big, 'v', sizeof(big));
	memcpy(big, "k=", 2);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(sb_history_rec_label(&r, "firmware=1.2b", &err), 0);
	assert_int_equal(sb_history_rec_label(&r, "a.b-c_d=", &err), 0); /* an empty value */
	assert_int_equal(sb_history_rec_label(&r, "novalue", &err), -EINVAL);
	assert_int_equal(sb_history_rec_label(&r, "=x", &err), -EINVAL);
	assert_int_equal(sb_history_rec_label(&r, "a b=x", &err), -EINVAL);
	assert_int_equal(sb_history_rec_label(&r, "k=a\nb", &err), -EINVAL);
	assert_int_equal(sb_history_rec_label(&r, big, &err), -EINVAL);
	assert_int_equal(sb_history_rec_label(&r, "firmware=2", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "given twice"));
	assert_int_equal(r.nlabels, 2);
	sb_history_rec_free(&r);
	sb_history_rec_free(NULL);
}

static void test_check(void **state)
{
	struct sb_error err;
	struct stat st;
	const char *ok[] = { "fw=1", "x=y" }, *bad[] = { "fw=1", "fw=2" };
	const char *db = sbt_path("check.db");
	(void)state;
	assert_int_equal(sb_history_check(db, bad, 2, &err), -EINVAL);
	assert_string_equal(err.msg, "label=label 'fw' given twice"); /* as the plan says it */
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_int_not_equal(stat(db, &st), 0); /* refused before it opens */
#ifdef HAVE_SQLITE
	assert_int_equal(sb_history_check(db, ok, 2, &err), 0);
	assert_int_equal(stat(db, &st), 0);
	assert_int_equal(sb_history_check(db, NULL, 0, &err), 0); /* opens again */
#else /* the labels are fine; the history cannot be opened without SQLite */
	assert_int_equal(sb_history_check(db, ok, 2, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "needs a storbench built with SQLite"));
	assert_int_equal(strncmp(err.msg, "db=", 3), 0);
#endif
	assert_true(sb_history_check(sbt_path("none/here.db"), ok, 2, &err) < 0);
	assert_int_equal(strncmp(err.msg, "db=", 3), 0);
}

static void test_read(void **state)
{
	static const char fio[] =
		"note: a line fio printed first\n"
		"{\"fio version\": \"fio-3.33\", \"timestamp\": 1796000000, \"jobs\": [{\"jobname\": "
		"\"j1\", \"error\": 0, \"read\": {\"io_bytes\": 4096, \"bw_bytes\": 1048576, "
		"\"iops\": 256, \"total_ios\": 1, \"runtime\": 4}}]}\n";
	static const char *const bad[] = {
		"",
		"[]",
		"{",
		"{\"a\": 1}",
		"{\"storbench\": 1}",
		"{\"storbench\": {\"command\": \"verify\", \"device\": {\"model\": 3}}}",
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": 4}]}",
	};
	struct sb_history_rec r;
	struct sb_error err = { 0 };
	assert_int_equal(sb_history_rec_read(fio, sizeof(fio) - 1, &r, &err), 0);
	assert_string_equal(r.command, "fio");
	assert_string_equal(r.version, "fio-3.33");
	assert_int_equal(r.started, 1796000000);
	const struct sb_figure *f = sb_figures_find(&r.figs, "j1.read.bw");
	assert_non_null(f);
	assert_true(f->value == 1048576);
	assert_int_equal(strncmp(r.json, "{\"fio version\"", 14), 0); /* fio's note left out */
	sb_history_rec_free(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(sb_history_rec_read(bad[i], strlen(bad[i]), &r, &err), -EINVAL);
		assert_int_equal(err.cls, SB_ERR_INPUT);
		assert_true(err.msg[0]);
		sb_history_rec_free(&r);
	}
	assert_non_null(strstr(err.msg, "jobs[0]"));
	static const char dev[] =
		"{\"timestamp\": 1796000001, \"storbench\": {\"command\": \"info\", \"version\": "
		"\"0.1.0\", \"host\": {\"hostname\": \"b1\"}, \"device\": {\"model\": null, "
		"\"serial\": null, \"firmware\": null, \"capacity\": 4096, \"mmc\": {\"cid\": "
		"\"0123\", \"serial\": \"0xab\", \"fwrev\": \"0x7\"}}, \"health\": {\"before\": "
		"{\"ext_csd\": {\"revision\": 8}}}}}";
	assert_int_equal(sb_history_rec_read(dev, sizeof(dev) - 1, &r, &err), 0);
	assert_string_equal(r.command, "info");
	assert_string_equal(r.host, "b1");
	assert_null(r.model);
	assert_string_equal(r.serial, "0xab");
	assert_string_equal(r.firmware, "0x7");
	assert_string_equal(r.cid, "0123");
	assert_int_equal(r.ext_csd_rev, 8);
	assert_int_equal(r.capacity, 4096);
	assert_int_equal(r.figs.n, 0); /* info: no figures named */
	sb_history_rec_free(&r);
}

/* groups of 5000 results each (100 M pairs, past what the interval's
 * pairwise bounds take): judged on 512 values of each, evenly spaced by
 * rank; the same distribution is no difference, a shift is found */
static void test_large_groups(void **state)
{
	struct rep_hist h = { .db = "x", .figure = "f", .group_by = "firmware" };
	static const char *const names[] = { "a", "b", "c" };
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 5000; i++) {
			struct sb_history_row r = { .group = names[k], .unit = "IOPS" };
			/* a: 1000..5999, b: the same half a step up, c: 30% higher */
			r.value = (k == 2 ? 1.3 : 1.0) * (1000 + i + (k == 1 ? 0.5 : 0));
			assert_int_equal(rep_history_add(&h, &r), 0);
		}
	assert_int_equal(rep_history_judge(&h, NULL), 0);
	assert_int_equal(h.ng, 3);
	assert_int_equal(h.g[1].n, 5000);
	assert_true(h.g[0].med == 3499.5);
	assert_true(h.g[1].have_d && h.g[1].d.verdict == SB_DIFF_NOISE);
	assert_true(h.g[2].have_d && h.g[2].d.verdict == SB_DIFF_BETTER);
	assert_true(h.g[2].d.lo_pct > 0);
	char v[160];
	rep_history_verdict(&h, &h.g[1], v, sizeof(v));
	assert_int_equal(strncmp(v, "no difference (", 15), 0);
	assert_int_equal(rep_history_judge(&h, "b"), 0);
	assert_int_equal(h.base, 1);
	assert_int_equal(rep_history_judge(&h, "zz"), -ENOENT);
	rep_history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_and_query),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_query_checks),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_large_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
