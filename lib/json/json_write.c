/*
 * Streaming JSON writer. Pretty output follows fio's layout (2-space
 * indent, "key" : value, one member per line); compact output is one line
 * per top-level value. The first error sticks and turns every later call
 * into a no-op, so callers check once, at sb_json_end().
 */
#include "lib/json/json_write.h"

#include <inttypes.h>
#include <math.h>

static void fail(struct sb_json *j, int err)
{
	if (!j->err)
		j->err = err;
}

static void put(struct sb_json *j, const char *s, size_t len)
{
	if (len && fwrite(s, 1, len, j->f) != len)
		fail(j, -EIO);
}

static void puts_(struct sb_json *j, const char *s)
{
	put(j, s, strlen(s));
}

static void newline_indent(struct sb_json *j, int depth)
{
	static const char spaces[] = "                                ";

	put(j, "\n", 1);
	for (int n = 2 * depth; n > 0 && !j->err; n -= (int)sizeof(spaces) - 1)
		put(j, spaces, (size_t)SB_MIN(n, (int)sizeof(spaces) - 1));
}

/* A quoted, escaped string. Bytes from 0x80 up (UTF-8) pass through but
 * the C1 controls (U+0080..U+009F), escaped as DEL is: some terminals
 * obey them, and a JSON document may be printed on one. */
static void put_string(struct sb_json *j, const char *s)
{
	const char *run = s;

	put(j, "\"", 1);
	for (; *s; s++) {
		const unsigned char c = (unsigned char)*s;
		const int c1 = c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
			       (unsigned char)s[1] < 0xa0;
		char esc[8];

		if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && !c1)
			continue;
		put(j, run, (size_t)(s - run));
		if (c1) {
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned char)*++s);
			puts_(j, esc);
			run = s + 1;
			continue;
		}
		run = s + 1;
		switch (c) {
		case '"': puts_(j, "\\\""); break;
		case '\\': puts_(j, "\\\\"); break;
		case '\n': puts_(j, "\\n"); break;
		case '\t': puts_(j, "\\t"); break;
		case '\r': puts_(j, "\\r"); break;
		case '\b': puts_(j, "\\b"); break;
		case '\f': puts_(j, "\\f"); break;
		default: snprintf(esc, sizeof(esc), "\\u%04x", c); puts_(j, esc);
		}
	}
	put(j, run, (size_t)(s - run));
	put(j, "\"", 1);
}

/* Everything that precedes a value: the separator, the indent, the key.
 * Returns 0 when the value may be written. */
static int member(struct sb_json *j, const char *key)
{
	if (j->err)
		return -1;
	if (j->depth == 0) {
		if (key) {
			fail(j, -EINVAL);
			return -1;
		}
		return 0;
	}
	const int d = j->depth - 1;
	if (!key != !!j->is_array[d]) {
		fail(j, -EINVAL);
		return -1;
	}
	if (!j->first[d])
		put(j, ",", 1);
	j->first[d] = 0;
	if (!j->compact)
		newline_indent(j, j->depth);
	if (key) {
		put_string(j, key);
		puts_(j, j->compact ? ":" : " : ");
	}
	return 0;
}

/* After a complete value: a finished top-level value ends its line. */
static void value_done(struct sb_json *j)
{
	if (j->depth == 0 && !j->err) {
		put(j, "\n", 1);
		if (fflush(j->f) != 0)
			fail(j, -EIO);
	}
}

static void scalar(struct sb_json *j, const char *key, const char *text)
{
	if (member(j, key))
		return;
	puts_(j, text);
	value_done(j);
}

void sb_json_begin(struct sb_json *j, FILE *f, int compact)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->compact = compact;
}

int sb_json_end(struct sb_json *j)
{
	if (j->depth != 0)
		fail(j, -EINVAL);
	errno = 0;
	if (fflush(j->f) != 0)
		fail(j, errno ? -errno : -EIO); /* a full disk is ENOSPC, not EIO */
	else if (ferror(j->f))
		fail(j, -EIO);
	return j->err;
}

static void open_container(struct sb_json *j, const char *key, int array)
{
	if (member(j, key))
		return;
	if (j->depth >= SB_JSON_MAX_DEPTH) {
		fail(j, -E2BIG);
		return;
	}
	j->first[j->depth] = 1;
	j->is_array[j->depth] = (unsigned char)array;
	j->depth++;
	put(j, array ? "[" : "{", 1);
}

static void close_container(struct sb_json *j, int array)
{
	if (j->err)
		return;
	if (j->depth == 0 || j->is_array[j->depth - 1] != array) {
		fail(j, -EINVAL);
		return;
	}
	const int empty = j->first[j->depth - 1];
	j->depth--;
	if (!j->compact && !empty)
		newline_indent(j, j->depth);
	put(j, array ? "]" : "}", 1);
	value_done(j);
}

void sb_json_obj_open(struct sb_json *j, const char *key)
{
	open_container(j, key, 0);
}

void sb_json_obj_close(struct sb_json *j)
{
	close_container(j, 0);
}

void sb_json_arr_open(struct sb_json *j, const char *key)
{
	open_container(j, key, 1);
}

void sb_json_arr_close(struct sb_json *j)
{
	close_container(j, 1);
}

void sb_json_str(struct sb_json *j, const char *key, const char *val)
{
	if (!val) {
		sb_json_null(j, key);
		return;
	}
	if (member(j, key))
		return;
	put_string(j, val);
	value_done(j);
}

void sb_json_u64(struct sb_json *j, const char *key, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	scalar(j, key, buf);
}

void sb_json_i64(struct sb_json *j, const char *key, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	scalar(j, key, buf);
}

void sb_json_double(struct sb_json *j, const char *key, double v)
{
	char buf[64];

	if (!isfinite(v))
		snprintf(buf, sizeof(buf), "null");
	else if (fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.6f", v);
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	scalar(j, key, buf);
}

void sb_json_bool(struct sb_json *j, const char *key, int v)
{
	scalar(j, key, v ? "true" : "false");
}

void sb_json_null(struct sb_json *j, const char *key)
{
	scalar(j, key, "null");
}
