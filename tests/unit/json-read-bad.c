/* needs: none */
/*
 * The JSON reader refuses what is not strict JSON, and says where: every
 * case names the line, the column and what was wrong, with the error code
 * the caller tells apart (syntax, too deep, too large).
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"

struct bad {
	const char *text;
	size_t len; /* 0: strlen */
	int rc;
	const char *msg; /* the whole message */
};

static const struct bad cases[] = {
	{ "", 0, -EBADMSG, "line 1 column 1: unexpected end of input" },
	{ "   \n  ", 0, -EBADMSG, "line 2 column 3: unexpected end of input" },
	{ "{\"a\":1,}", 0, -EBADMSG, "line 1 column 8: expected a member name in double quotes" },
	{ "[1,2,]", 0, -EBADMSG,
	  "line 1 column 6: expected a value (object, array, string, number, true, false or null)" },
	{ "{\"a\" 1}", 0, -EBADMSG, "line 1 column 6: expected ':' after a member name" },
	{ "{\"a\":1 \"b\":2}", 0, -EBADMSG, "line 1 column 8: expected ',' or '}' after a member" },
	{ "[1 2]", 0, -EBADMSG, "line 1 column 4: expected ',' or ']' after an item" },
	{ "{a:1}", 0, -EBADMSG, "line 1 column 2: expected a member name in double quotes" },
	{ "[01]", 0, -EBADMSG, "line 1 column 3: expected ',' or ']' after an item" },
	{ "[1.]", 0, -EBADMSG, "line 1 column 4: expected a digit after '.'" },
	{ "[1e]", 0, -EBADMSG, "line 1 column 4: expected a digit in the exponent" },
	{ "[-]", 0, -EBADMSG, "line 1 column 3: expected a digit" },
	{ "[+1]", 0, -EBADMSG,
	  "line 1 column 2: expected a value (object, array, string, number, true, false or null)" },
	{ "[.5]", 0, -EBADMSG,
	  "line 1 column 2: expected a value (object, array, string, number, true, false or null)" },
	{ "[1e999]", 0, -EBADMSG, "line 1 column 2: number out of range" },
	{ "[NaN]", 0, -EBADMSG,
	  "line 1 column 2: expected a value (object, array, string, number, true, false or null)" },
	{ "[nul]", 0, -EBADMSG,
	  "line 1 column 2: expected a value (object, array, string, number, true, false or null)" },
	{ "[True]", 0, -EBADMSG,
	  "line 1 column 2: expected a value (object, array, string, number, true, false or null)" },
	{ "\"a\\x\"", 0, -EBADMSG, "line 1 column 4: unknown escape in a string" },
	{ "\"\\u12g4\"", 0, -EBADMSG, "line 1 column 3: \\u needs four hex digits" },
	{ "\"\\ud800\"", 0, -EBADMSG, "line 1 column 2: unpaired high surrogate in a string" },
	{ "\"\\ud800\\u0041\"", 0, -EBADMSG,
	  "line 1 column 2: unpaired high surrogate in a string" },
	{ "\"\\udc00\"", 0, -EBADMSG, "line 1 column 2: unpaired low surrogate in a string" },
	{ "\"a\tb\"", 0, -EBADMSG, "line 1 column 3: control character in a string (escape it)" },
	{ "\"\xc0\x80\"", 0, -EBADMSG,
	  "line 1 column 2: invalid UTF-8 in a string" }, /* overlong */
	{ "\"\xed\xa0\x80\"", 0, -EBADMSG,
	  "line 1 column 2: invalid UTF-8 in a string" }, /* surrogate */
	{ "\"\xf4\x90\x80\x80\"", 0, -EBADMSG, "line 1 column 2: invalid UTF-8 in a string" },
	{ "\"\xe2\x82\"", 0, -EBADMSG, "line 1 column 2: invalid UTF-8 in a string" },
	{ "\"\xff\"", 0, -EBADMSG, "line 1 column 2: invalid UTF-8 in a string" },
	{ "{} {}", 0, -EBADMSG, "line 1 column 4: unexpected data after the document" },
	{ "{}\n\n  x", 0, -EBADMSG, "line 3 column 3: unexpected data after the document" },
	{ "[1]\0", 4, -EBADMSG, "line 1 column 4: unexpected data after the document" },
	{ "// c\n{}", 0, -EBADMSG,
	  "line 1 column 1: expected a value (object, array, string, number, true, false or null)" },
	{ "{\n  \"jobs\": [\n    {\"x\": 1,,}\n  ]\n}", 0, -EBADMSG,
	  "line 3 column 13: expected a member name in double quotes" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		const struct bad *c = &cases[i];
		struct sb_jdoc *d = (struct sb_jdoc *)1;
		struct sb_json_error e;
		size_t len = c->len ? c->len : strlen(c->text);
		int rc = sb_json_parse(c->text, len, NULL, &d, &e);
		if (rc != c->rc || strcmp(e.msg, c->msg))
			fail_msg("case %zu '%s': got %d '%s', expected %d '%s'", i, c->text, rc,
				 e.msg, c->rc, c->msg);
		assert_null(d);
	}
}

static void test_too_deep(void **state)
{
	(void)state;
	char buf[200];
	struct sb_json_limits lim = { 0, 64 };
	struct sb_jdoc *d;
	struct sb_json_error e;
	memset(buf, '[', sizeof(buf));
	assert_int_equal(sb_json_parse(buf, 65, &lim, &d, &e), -E2BIG);
	assert_string_equal(e.msg, "line 1 column 65: nested too deeply");
	/* the default limit holds for objects too, with no recursion to blow */
	char *big = malloc(3000000);
	assert_non_null(big);
	for (size_t i = 0; i + 5 <= 3000000; i += 5)
		memcpy(big + i, "{\"a\":", 5);
	assert_int_equal(sb_json_parse(big, 3000000, NULL, &d, &e), -E2BIG);
	free(big);
}

static void test_too_large(void **state)
{
	(void)state;
	struct sb_json_limits lim = { 8, 0 };
	struct sb_jdoc *d;
	struct sb_json_error e;
	assert_int_equal(sb_json_parse("[1,2,3,4]", 9, &lim, &d, &e), -EFBIG);
	assert_string_equal(e.msg, "larger than the limit of 8 bytes");
	assert_int_equal(sb_json_parse("[1,2,3]", 7, &lim, &d, &e), 0);
	sb_jdoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_too_deep),
		cmocka_unit_test(test_too_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
