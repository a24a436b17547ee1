/* needs: none */
/*
 * The results' "spo" section read back: what spo_json.c writes of a check
 * reads back through sb_spo_read as the check held it (header, journal,
 * classes, the lists, the histogram, the recommendations, a target that
 * ended short or not), and a section with a wrong type, a negative count,
 * a missing key, a class that is none, more acknowledged writes than
 * writes or a bucket out of order is refused by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/spo/spo.h"

static struct sb_spo_range ranges[] = {
	{ 65536, 4096, SB_SPO_LOST_ACKED },
	{ 69632, 8192, SB_SPO_TORN },
	{ 131072, 4096, SB_SPO_OK_UNACKED },
};
static struct sb_spo_lost lost[] = {
	{ 65536, 41, 0, 1500000 },
	{ 73728, 42, 17, 2500000000ull },
};

/* A check as sb_spo_check_run leaves one (short: the target ended early). */
static void check(struct sb_spo_check *c, int short_target)
{
	memset(c, 0, sizeof(*c));
	c->h = (struct sb_spo_header){ .run_id = 0x00c0ffee12345678ull,
				       .bs = 4096,
				       .offset = 1 << 20,
				       .size = 8 << 20,
				       .canary = 256 << 10,
				       .sync = SB_SPO_FSYNC,
				       .rw = SB_SPO_MIXED,
				       .iodepth = 4,
				       .start_unix_ns = 1764000000123456789ull };
	c->writes = 900;
	c->acked = 880;
	c->blocks = 1000;
	c->canary_blocks = 64;
	c->count[SB_SPO_OK] = 990;
	c->count[SB_SPO_OK_UNACKED] = 4;
	c->count[SB_SPO_LOST_ACKED] = 3;
	c->count[SB_SPO_TORN] = 2;
	c->count[SB_SPO_COLLATERAL] = 1;
	c->torn_allowed = 1;
	c->allow_torn = 1024;
	c->cut_known = 1;
	c->t_cut = 7000000000ull;
	c->torn_tail = 1;
	c->hist[0] = 1;
	c->hist[4] = 2;
	c->ranges = ranges;
	c->nranges = c->max_ranges = SB_ARRAY_SIZE(ranges);
	c->ranges_omitted = 5;
	c->lost = lost;
	c->nlost = c->max_lost = SB_ARRAY_SIZE(lost);
	c->short_target = short_target;
	c->target_size = short_target ? 5 << 20 : 0;
	c->missing_blocks = short_target ? 400 : 0;
	c->rec[c->nrec++] = "writes acknowledged with fsync were lost";
	c->rec[c->nrec++] = "a \"quoted\" word, and a second line";
}

static char *section(const struct sb_spo_check *c)
{
	struct sb_results *res = sb_results_create("spo");
	assert_non_null(res);
	sb_results_spo(res, c);
	char *text = sj_write(res);
	sb_results_free(res);
	return text;
}

static void same(const struct sb_spo_check *a, const struct sb_spo_check *b)
{
	assert_memory_equal(&a->h, &b->h, sizeof(a->h));
	assert_int_equal(a->writes, b->writes);
	assert_int_equal(a->acked, b->acked);
	assert_int_equal(a->blocks, b->blocks);
	assert_int_equal(a->canary_blocks, b->canary_blocks);
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		assert_int_equal(a->count[k], b->count[k]);
	assert_int_equal(a->torn_allowed, b->torn_allowed);
	assert_int_equal(a->allow_torn, b->allow_torn);
	assert_int_equal(a->cut_known, b->cut_known);
	assert_int_equal(a->t_cut, b->t_cut);
	assert_int_equal(a->torn_tail, b->torn_tail);
	for (int i = 0; i < SB_SPO_HIST_N; i++)
		assert_int_equal(a->hist[i], b->hist[i]);
	assert_int_equal(a->nranges, b->nranges);
	assert_int_equal(a->max_ranges, b->max_ranges);
	for (size_t i = 0; i < a->nranges; i++) {
		assert_int_equal(a->ranges[i].offset, b->ranges[i].offset);
		assert_int_equal(a->ranges[i].length, b->ranges[i].length);
		assert_int_equal(a->ranges[i].cls, b->ranges[i].cls);
	}
	assert_int_equal(a->ranges_omitted, b->ranges_omitted);
	assert_int_equal(a->nlost, b->nlost);
	for (size_t i = 0; i < a->nlost; i++)
		assert_memory_equal(&a->lost[i], &b->lost[i], sizeof(a->lost[i]));
	assert_int_equal(a->short_target, b->short_target);
	assert_int_equal(a->target_size, b->target_size);
	assert_int_equal(a->missing_blocks, b->missing_blocks);
	assert_int_equal(a->pass, b->pass);
	assert_int_equal(a->nrec, b->nrec);
	for (unsigned i = 0; i < a->nrec; i++)
		assert_string_equal(a->rec[i], b->rec[i]);
}

static void reads_back(void **state)
{
	(void)state;
	for (int s = 0; s < 2; s++) {
		struct sb_spo_check c;
		struct sb_spo_doc d;
		struct sb_error err;
		check(&c, s);
		c.pass = !s;
		char *text = section(&c);
		struct sb_jdoc *jd = sj_parse(text);
		if (sb_spo_read(sb_jdoc_root(jd), &d, &err))
			fail_msg("refused: %s", err.msg);
		same(&c, &d.c);
		sb_spo_doc_free(&d);
		sb_spo_doc_free(&d); /* twice: nothing left */
		sb_jdoc_free(jd);
		free(text);
	}
}

/* A section written before target_size and missing_blocks were. */
static void older_section(void **state)
{
	struct sb_spo_check c;
	struct sb_spo_doc d;
	struct sb_error err;
	(void)state;
	check(&c, 0);
	char *text = section(&c);
	char *a = sj_replace(text, "\"target_size\":null,", "");
	char *b = sj_replace(a, "\"missing_blocks\":0,", "");
	struct sb_jdoc *jd = sj_parse(b);
	if (sb_spo_read(sb_jdoc_root(jd), &d, &err))
		fail_msg("refused: %s", err.msg);
	same(&c, &d.c);
	sb_spo_doc_free(&d);
	sb_jdoc_free(jd);
	free(b);
	free(a);
	free(text);
}

static void refused(void **state)
{
	struct sb_spo_check c;
	struct sb_spo_doc d;
	(void)state;
	check(&c, 1);
	char *text = section(&c);
	memset(&d, 0, sizeof(d));
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"torn\":2", "\"torn\":\"2\"",
		   "classes.torn: expected a whole number from 0 to 1000, found '2'");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"blocks\":1000", "\"blocks\":-1",
		   "blocks: expected a whole number from 0 to 1e18, found -1");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"pass\":false,", "",
		   "pass: expected a boolean, found nothing");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"class\":\"torn\"",
		   "\"class\":\"burnt\"",
		   "ranges[1].class: expected a class (ok, ok-unacked, lost-acked, ...), found "
		   "'burnt'");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"acknowledged\":880",
		   "\"acknowledged\":901",
		   "journal.acknowledged: expected a whole number from 0 to 900, found 901");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"bucket\":\"<1ms\"",
		   "\"bucket\":\"1-10ms\"",
		   "ack_to_cut_histogram[0].bucket: expected <1ms, found '1-10ms'");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"run_id\":\"00c0ffee12345678\"",
		   "\"run_id\":\"c0ffee\"",
		   "run_id: expected 16 hexadecimal digits, found 'c0ffee'");
	SJ_REFUSED(sb_spo_read, sb_spo_doc_free, &d, text, "\"acked_seq\":42", "\"acked_seq\":[42]",
		   "lost_acked[1].acked_seq: expected a whole number from 0 to 1e18, found "
		   "an array");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_back),
		cmocka_unit_test(older_section),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
