/*
 * Shared by the run tests of the methods (sweep-run, meta-run,
 * latency-run, cliff-run, flash-run, pts-run): a command's section of the results written as its writer
 * writes it (one compact line), parsed back, and altered by text to feed a
 * reader what it must refuse.
 */
#ifndef SECTION_JSON_H
#define SECTION_JSON_H

#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"

/* The section res's writer hooked (extra_json), as one compact object;
 * out of line: inlined into a caller of sj_replace, gcc's
 * -Wdangling-pointer takes the text for this function's local buf. */
__attribute__((noinline, unused)) static char *sj_write(const struct sb_results *res)
{
	char *buf = NULL;
	size_t len = 0;
	struct sb_json j;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_non_null(res->extra_json);
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	res->extra_json(&j, res->extra_ctx);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static inline struct sb_jdoc *sj_parse(const char *text)
{
	struct sb_jdoc *d = NULL;
	struct sb_json_error e;
	if (sb_json_parse(text, strlen(text), NULL, &d, &e) < 0)
		fail_msg("the section does not parse: %s", e.msg);
	return d;
}

/* The section adder (sb_results_cliff, sb_results_pts, ...) hangs on a
 * results of command cmd for r, as one compact object (sj_write). */
#define SJ_SECTION(cmd_, adder_, r_)                              \
	({                                                        \
		struct sb_results *rs_ = sb_results_create(cmd_); \
		assert_non_null(rs_);                             \
		assert_int_equal(adder_(rs_, r_), 0);             \
		char *text_ = sj_write(rs_);                      \
		sb_results_free(rs_);                             \
		text_;                                            \
	})

/* The section res's writer hooked, with res freed. */
static inline char *sj_written(struct sb_results *res)
{
	char *text = sj_write(res);
	sb_results_free(res);
	return text;
}

/* text with its first from made to (which must be there). */
static inline char *sj_replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		fail_msg("'%s' is not in the section", from);
	const size_t head = (size_t)(at - text), fl = strlen(from), tl = strlen(to);
	char *out = malloc(strlen(text) - fl + tl + 1);
	assert_non_null(out);
	memcpy(out, text, head);
	memcpy(out + head, to, tl);
	memcpy(out + head + tl, at + fl, strlen(at + fl) + 1);
	return out;
}

/* A reader (rd_: 0 or -errno with err) refuses the section text made by
 * replacing from_ with to_, saying want_; doc_ is freed (free_) first. */
#define SJ_REFUSED(rd_, free_, doc_, text_, from_, to_, want_)                   \
	do {                                                                     \
		char *bad_ = sj_replace(text_, from_, to_);                      \
		struct sb_jdoc *jd_ = sj_parse(bad_);                            \
		struct sb_error er_;                                             \
		memset(&er_, 0, sizeof(er_));                                    \
		free_(doc_); /* what an earlier read left */                     \
		assert_int_equal(rd_(sb_jdoc_root(jd_), doc_, &er_), -EINVAL);   \
		if (strcmp(er_.msg, want_))                                      \
			fail_msg("refused with '%s', not '%s'", er_.msg, want_); \
		assert_int_equal(er_.cls, SB_ERR_INPUT);                         \
		free_(doc_);                                                     \
		sb_jdoc_free(jd_);                                               \
		free(bad_);                                                      \
	} while (0)

#endif
