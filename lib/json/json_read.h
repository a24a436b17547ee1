/*
 * A small, strict JSON reader (RFC 8259) that builds a read-only tree.
 *
 *   struct sb_jdoc *d; struct sb_json_error e;
 *   if (sb_json_parse(text, len, NULL, &d, &e) < 0) -> e.msg says
 *       "line 3 column 17: expected ',' or '}' after a member"
 *   const struct sb_jv *jobs = sb_jv_get(sb_jdoc_root(d), "jobs");
 *   for (size_t i = 0; i < sb_jv_len(jobs); i++) ... sb_jv_at(jobs, i)
 *   sb_jdoc_free(d);
 *
 * Strict: one value per document, no comments, no trailing commas, no
 * leading zeros, no NaN or Infinity, no numbers beyond double's range,
 * strings of valid UTF-8 without raw control characters, \uXXXX escapes
 * with surrogate pairs decoded to UTF-8 (an unpaired surrogate is an
 * error). A UTF-8 byte order mark at the start is skipped.
 *
 * Safe on any input: the parser is iterative (nesting costs one small
 * frame on a heap stack, up to max_depth), the input size is bounded by
 * max_size, and everything the tree holds lives in one arena freed by
 * sb_jdoc_free. Member order is kept; duplicate keys are kept too and
 * sb_jv_get returns the first.
 */
#ifndef SB_JSON_READ_H
#define SB_JSON_READ_H

#include "lib/sb.h"

enum sb_jv_type {
	SB_JV_NULL,
	SB_JV_BOOL,
	SB_JV_NUM,
	SB_JV_STR,
	SB_JV_ARR,
	SB_JV_OBJ,
};

/* Number flags: the value is an integer held exactly in i or u. */
#define SB_JV_I64 1u
#define SB_JV_U64 2u

struct sb_jmember;

struct sb_jv {
	unsigned char type;  /* enum sb_jv_type */
	unsigned char flags; /* SB_JV_I64, SB_JV_U64 for numbers */
	union {
		int boolean;
		struct {
			double d; /* always set */
			union {
				int64_t i;  /* exact when flags & SB_JV_I64 */
				uint64_t u; /* exact when flags & SB_JV_U64 */
			};
		} num;
		struct {
			const char *s; /* NUL-terminated; may hold NUL (\u0000): see len */
			size_t len;
		} str;
		struct {
			const struct sb_jv *v;
			size_t n;
		} arr;
		struct {
			const struct sb_jmember *m;
			size_t n;
		} obj;
	};
};

struct sb_jmember {
	const char *key; /* decoded, NUL-terminated */
	size_t keylen;
	struct sb_jv val;
};

#define SB_JSON_READ_MAX_SIZE (32u << 20) /* default input limit, bytes */
#define SB_JSON_READ_MAX_DEPTH 64	  /* default nesting limit */

struct sb_json_limits {
	size_t max_size;    /* 0: SB_JSON_READ_MAX_SIZE */
	unsigned max_depth; /* 0: SB_JSON_READ_MAX_DEPTH */
};

struct sb_json_error {
	unsigned line, column; /* 1-based; column counts bytes */
	size_t offset;	       /* byte offset of the problem */
	int at_end;	       /* the input ended inside the document (truncated) */
	char msg[192];	       /* "line L column C: what", or "what" without a position */
};

struct sb_jdoc;

/* Parses text[0..len) (no NUL needed). Returns 0 and *doc, or a negative
 * errno with err filled (err may be NULL): -EBADMSG for a syntax error,
 * -E2BIG nesting deeper than max_depth, -EFBIG input over max_size,
 * -ENOMEM. */
int sb_json_parse(const char *text, size_t len, const struct sb_json_limits *lim,
		  struct sb_jdoc **doc, struct sb_json_error *err);
/* Reads and parses a whole file; -errno of open/read besides the above. */
int sb_json_parse_file(const char *path, const struct sb_json_limits *lim, struct sb_jdoc **doc,
		       struct sb_json_error *err);
const struct sb_jv *sb_jdoc_root(const struct sb_jdoc *doc);
void sb_jdoc_free(struct sb_jdoc *doc);

/* Accessors; each accepts NULL and answers "absent". */
const struct sb_jv *sb_jv_get(const struct sb_jv *obj, const char *key);
const struct sb_jv *sb_jv_at(const struct sb_jv *arr, size_t i);
size_t sb_jv_len(const struct sb_jv *v);      /* items or members; 0 otherwise */
const char *sb_jv_str(const struct sb_jv *v); /* NULL unless a string */
int sb_jv_is(const struct sb_jv *v, enum sb_jv_type t);
/* The number, or dflt when v is absent or not a number. */
double sb_jv_num(const struct sb_jv *v, double dflt);
/* 0 and *out when v is a non-negative integer held exactly; else -EINVAL. */
int sb_jv_u64(const struct sb_jv *v, uint64_t *out);
/* 1 true, 0 false, dflt when absent or not a boolean. */
int sb_jv_bool(const struct sb_jv *v, int dflt);
/* What v is, for a message that says what was found instead of what was
 * expected: its value for a number ("-5"), else its kind ("a string",
 * "nothing" when absent); into buf, which it returns. */
const char *sb_jv_found(const struct sb_jv *v, char *buf, size_t len);

#endif
