/*
 * Fuzz target of the JSON reader that reads a document in pieces
 * (lib/json/json_split.h; libFuzzer: make fuzz). Any input must be read or
 * refused without a crash, a leak or undefined behaviour, and exactly as
 * the whole-document parser does: both accept or both refuse (at the same
 * line and column for a syntax error), and what is accepted hands over as
 * many items as the whole tree holds at the paths, leaving those arrays
 * empty in the rest. tests/unit/json-split.c checks the same on every
 * prefix and byte substitution of a document in make check.
 */
#include "lib/json/json_read.h"
#include "lib/json/json_split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static const char *const paths[] = { "a[].b", "c", "[]" };

static int on_item(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	size_t *n = ctx;
	CHECK(path < 3 && v != NULL);
	(void)outer;
	n[path]++;
	return 0;
}

/* Items the whole tree holds at the paths. */
static void expected(const struct sb_jv *root, size_t *n)
{
	const struct sb_jv *a = sb_jv_get(root, "a");
	for (size_t i = 0; sb_jv_is(a, SB_JV_ARR) && i < sb_jv_len(a); i++) {
		const struct sb_jv *b = sb_jv_get(sb_jv_at(a, i), "b");
		if (sb_jv_is(b, SB_JV_ARR))
			n[0] += sb_jv_len(b);
	}
	if (sb_jv_is(sb_jv_get(root, "c"), SB_JV_ARR))
		n[1] += sb_jv_len(sb_jv_get(root, "c"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sb_json_limits lim = { 1u << 20, 48 };
	struct sb_json_split s = { paths, 3, on_item, NULL, 1u << 20, 1u << 20, 48, 0, NULL };
	struct sb_json_error e1, e2;
	struct sb_jdoc *rest = NULL, *whole = NULL;
	size_t got[3] = { 0 }, want[3] = { 0 };
	if (!size)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	CHECK(f != NULL);
	s.ctx = got;
	int r1 = sb_json_split_read(f, &s, &rest, &e1);
	fclose(f);
	int r2 = sb_json_parse((const char *)data, size, &lim, &whole, &e2);
	CHECK((r1 == 0) == (r2 == 0));
	if (r1 == -EBADMSG && r2 == -EBADMSG)
		CHECK(e1.line == e2.line && e1.column == e2.column && e1.at_end == e2.at_end);
	if (r1 == 0) {
		expected(sb_jdoc_root(whole), want);
		CHECK(got[0] == want[0] && got[1] == want[1]);
		const struct sb_jv *r = sb_jdoc_root(rest);
		CHECK(!sb_jv_is(sb_jv_get(r, "c"), SB_JV_ARR) || sb_jv_len(sb_jv_get(r, "c")) == 0);
		CHECK(sb_jv_len(r) == sb_jv_len(sb_jdoc_root(whole)));
	}
	sb_jdoc_free(rest);
	sb_jdoc_free(whole);
	return 0;
}
