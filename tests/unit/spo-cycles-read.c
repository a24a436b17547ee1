/* needs: none */
/*
 * spo --cycles's log read back: each line spo_cycles_json.c writes (the
 * header, a cycle's record, a cycle that could not run) reads back
 * through sb_spo_cycles_read as it was written, a cycle's record made
 * from a check keeps its first 100 lost writes; a line of a log from
 * before "of", the counts and the histogram were written still reads; a
 * line with a wrong type, a negative count, a missing key, acknowledged
 * writes beyond the writes or a histogram of other than 6 buckets is
 * refused by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/spo/spo.h"

/* one line: the members write() writes, in one compact object */
static char *line(void (*write)(struct sb_json *j, const void *x), const void *x)
{
	char *buf = NULL;
	size_t len = 0;
	struct sb_json j;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	write(&j, x);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void header_w(struct sb_json *j, const void *x)
{
	sb_spo_cycles_header_json(j, x);
}

static void cycle_w(struct sb_json *j, const void *x)
{
	sb_spo_cycle_json(j, x);
}

static void error_w(struct sb_json *j, const void *x)
{
	(void)x;
	sb_spo_cycle_error_json(j, 7, "the board did not come back");
}

static const struct sb_spo_cycles_header hdr = {
	.log_version = 1,
	.storbench = "1.2.3",
	.target = "/dev/mmcblk0",
	.writer = "ssh board storbench spo ...",
	.check = "ssh board storbench spo --check ...",
	.cut_cmd = "relay off",
	.cycles = 1000,
	.bs = 4096,
	.cut_min_ns = 500000000,
	.cut_max_ns = 3000000000ull,
	.started_unix_ns = 1764000000123456789ull,
};

/* A check as sb_spo_check_run leaves one, with 150 lost writes. */
static void check(struct sb_spo_check *c, struct sb_spo_lost *lost, size_t nlost)
{
	memset(c, 0, sizeof(*c));
	c->writes = 900;
	c->acked = 880;
	c->blocks = 1000;
	c->count[SB_SPO_OK] = 840;
	c->count[SB_SPO_LOST_ACKED] = 150;
	c->count[SB_SPO_TORN] = 9;
	c->count[SB_SPO_COLLATERAL] = 1;
	for (size_t i = 0; i < nlost; i++) {
		lost[i] = (struct sb_spo_lost){ .offset = i * 4096, .ack_to_cut_ns = 1000 * i + 7 };
		c->hist[sb_spo_hist_bucket(lost[i].ack_to_cut_ns)]++;
	}
	c->lost = lost;
	c->nlost = c->max_lost = nlost;
}

/* Cycle 3 of 10, cut after 1.5 s, from a check with nlost lost writes. */
static void cycle_rec(struct sb_spo_cycle_rec *r, struct sb_spo_lost *lost, size_t nlost,
		      uint64_t unix_ns, int pass)
{
	struct sb_spo_check c;
	check(&c, lost, nlost);
	sb_spo_cycle_rec_of(r, 3, 10, unix_ns, 1500000000, pass, &c);
}

static struct sb_jdoc *read_line(const char *text, struct sb_spo_cycles_line *l)
{
	struct sb_error err;
	struct sb_jdoc *jd = sj_parse(text);
	if (sb_spo_cycles_read(sb_jdoc_root(jd), l, &err))
		fail_msg("refused: %s", err.msg);
	return jd;
}

static void header_reads_back(void **state)
{
	struct sb_spo_cycles_line l;
	(void)state;
	char *text = line(header_w, &hdr);
	struct sb_jdoc *jd = read_line(text, &l);
	assert_int_equal(l.kind, SB_SPO_LINE_HEADER);
	assert_int_equal(l.h.log_version, hdr.log_version);
	assert_string_equal(l.h.storbench, hdr.storbench);
	assert_string_equal(l.h.target, hdr.target);
	assert_string_equal(l.h.writer, hdr.writer);
	assert_string_equal(l.h.check, hdr.check);
	assert_string_equal(l.h.cut_cmd, hdr.cut_cmd);
	assert_int_equal(l.h.cycles, hdr.cycles);
	assert_int_equal(l.h.bs, hdr.bs);
	assert_int_equal(l.h.cut_min_ns, hdr.cut_min_ns);
	assert_int_equal(l.h.cut_max_ns, hdr.cut_max_ns);
	assert_int_equal(l.h.started_unix_ns, hdr.started_unix_ns);
	/* a configuration line as report finds it: soak's is none of these */
	assert_non_null(strstr(text, "\"type\":\"config\",\"command\":\"spo-cycles\""));
	sb_jdoc_free(jd);
	free(text);
}

static void cycle_reads_back(void **state)
{
	static struct sb_spo_lost lost[150];
	struct sb_spo_check c;
	struct sb_spo_cycle_rec r;
	struct sb_spo_cycles_line l;
	(void)state;
	check(&c, lost, SB_ARRAY_SIZE(lost)); /* the counts compared below */
	cycle_rec(&r, lost, SB_ARRAY_SIZE(lost), 1764000000999ull, 0);
	assert_int_equal(r.nlost, SB_SPO_CYCLE_LOST_MAX); /* the first 100 */
	char *text = line(cycle_w, &r);
	struct sb_jdoc *jd = read_line(text, &l);
	assert_int_equal(l.kind, SB_SPO_LINE_CYCLE);
	assert_int_equal(l.cy.n, 3);
	assert_int_equal(l.cy.of, 10);
	assert_int_equal(l.cy.unix_ns, 1764000000999ull);
	assert_int_equal(l.cy.cut_after_ns, 1500000000);
	assert_int_equal(l.cy.pass, 0);
	assert_int_equal(l.cy.has_counts, 1);
	assert_int_equal(l.cy.writes, 900);
	assert_int_equal(l.cy.acked, 880);
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		assert_int_equal(l.cy.count[k], c.count[k]);
	assert_int_equal(l.cy.has_hist, 1);
	for (int i = 0; i < SB_SPO_HIST_N; i++)
		assert_int_equal(l.cy.hist[i], c.hist[i]);
	assert_int_equal(l.cy.nlost, SB_SPO_CYCLE_LOST_MAX);
	for (size_t i = 0; i < l.cy.nlost; i++)
		assert_int_equal(l.cy.lost_ns[i], lost[i].ack_to_cut_ns);
	sb_jdoc_free(jd);
	free(text);
}

static void error_reads_back(void **state)
{
	struct sb_spo_cycles_line l;
	(void)state;
	char *text = line(error_w, NULL);
	struct sb_jdoc *jd = read_line(text, &l);
	assert_int_equal(l.kind, SB_SPO_LINE_ERROR);
	assert_int_equal(l.error_cycle, 7);
	assert_string_equal(l.error, "the board did not come back");
	sb_jdoc_free(jd);
	free(text);
	/* a line of none of these is no line of the log, and not refused */
	jd = read_line("{\"type\":\"summary\"}", &l);
	assert_int_equal(l.kind, SB_SPO_LINE_OTHER);
	sb_jdoc_free(jd);
}

/* A cycle's line as the first --cycles wrote it: no "of", no histogram. */
static void older_cycle(void **state)
{
	struct sb_spo_cycles_line l;
	(void)state;
	struct sb_jdoc *jd = read_line("{\"cycle\":2,\"unix_ns\":5,\"cut_after_ns\":700,"
				       "\"pass\":true,\"classes\":{\"ok\":12},"
				       "\"lost_ack_to_cut_ns\":[3,20000000]}",
				       &l);
	assert_int_equal(l.kind, SB_SPO_LINE_CYCLE);
	assert_int_equal(l.cy.of, 0);
	assert_int_equal(l.cy.has_counts, 0);
	assert_int_equal(l.cy.has_hist, 0);
	assert_int_equal(l.cy.count[SB_SPO_OK], 12);
	assert_int_equal(l.cy.count[SB_SPO_TORN], 0);
	assert_int_equal(l.cy.nlost, 2);
	assert_int_equal(l.cy.lost_ns[1], 20000000);
	sb_jdoc_free(jd);
}

static int read_doc(const struct sb_jv *v, struct sb_spo_cycles_line *l, struct sb_error *err)
{
	return sb_spo_cycles_read(v, l, err);
}
static void nothing(struct sb_spo_cycles_line *l)
{
	(void)l;
}

static void refused(void **state)
{
	static struct sb_spo_lost lost[3];
	struct sb_spo_cycle_rec r;
	struct sb_spo_cycles_line l;
	(void)state;
	cycle_rec(&r, lost, SB_ARRAY_SIZE(lost), 1, 1);
	char *cy = line(cycle_w, &r), *h = line(header_w, &hdr), *er = line(error_w, NULL);
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"torn\":9", "\"torn\":\"9\"",
		   "classes.torn: expected a whole number from 0 to 1e18, found '9'");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"writes\":900", "\"writes\":-1",
		   "writes: expected a whole number from 0 to 1e18, found -1");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"acknowledged\":880", "\"acknowledged\":901",
		   "acknowledged: expected a whole number from 0 to 900, found 901");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"pass\":true,", "",
		   "pass: expected a boolean, found nothing");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"cycle\":3", "\"cycle\":0",
		   "cycle: expected a cycle number from 1, found 0");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"cut_after_ns\":1500000000", "\"cut_after_ns\":1.5",
		   "cut_after_ns: expected a whole number from 0 to 1e18, "
		   "found 1.5");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"classes\":{", "\"classes\":[],\"x\":{",
		   "classes: expected an object, found an array");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"ack_to_cut_histogram\":[3,",
		   "\"ack_to_cut_histogram\":[",
		   "ack_to_cut_histogram: expected 6 buckets, found "
		   "an array");
	SJ_REFUSED(read_doc, nothing, &l, cy, "\"lost_ack_to_cut_ns\":[7,",
		   "\"lost_ack_to_cut_ns\":[-7,",
		   "lost_ack_to_cut_ns[0]: expected a whole number from 0 to 1e18, found -7");
	SJ_REFUSED(read_doc, nothing, &l, h, "\"target\":\"/dev/mmcblk0\",", "",
		   "target: expected a string, found nothing");
	SJ_REFUSED(read_doc, nothing, &l, h, "\"cycles\":1000", "\"cycles\":true",
		   "cycles: expected a whole number from 0 to 1e18, found true");
	SJ_REFUSED(read_doc, nothing, &l, h, "\"cut_max_ns\":3000000000", "\"cut_max_ns\":5",
		   "cut_max_ns: expected a time from cut_min_ns, found 5");
	SJ_REFUSED(read_doc, nothing, &l, er, "\"the board did not come back\"", "[\"x\"]",
		   "error: expected a string, found an array");
	SJ_REFUSED(read_doc, nothing, &l, er, "\"cycle_error\":7", "\"cycle_error\":0",
		   "cycle_error: expected a cycle number from 1, found 0");
	free(cy);
	free(h);
	free(er);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_reads_back), cmocka_unit_test(cycle_reads_back),
		cmocka_unit_test(error_reads_back),  cmocka_unit_test(older_cycle),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
