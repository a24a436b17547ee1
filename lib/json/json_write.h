/*
 * Streaming JSON writer to a FILE*, indented like fio's output. Keys and
 * string values are escaped; non-finite doubles are written as null.
 * Errors are sticky: sb_json_end() returns -errno of the first failure.
 *
 *   struct sb_json j; sb_json_begin(&j, f);
 *   sb_json_obj_open(&j, NULL);
 *     sb_json_str(&j, "jobname", "x");
 *     sb_json_obj_open(&j, "read"); sb_json_u64(&j, "io_bytes", n); sb_json_obj_close(&j);
 *   sb_json_obj_close(&j);
 *   return sb_json_end(&j);
 * Inside an array pass key NULL; inside an object a key is required. Misuse
 * (a key in an array, none in an object, a close that does not match its
 * open, unclosed containers at the end) is the sticky error -EINVAL; nesting
 * deeper than SB_JSON_MAX_DEPTH is -E2BIG; a failed write is -EIO. Each
 * complete top-level value ends with a newline and a flush, so compact mode
 * writes JSON Lines.
 */
#ifndef SB_JSON_H
#define SB_JSON_H

#include "lib/sb.h"

#define SB_JSON_MAX_DEPTH 32

struct sb_json {
	FILE *f;
	int depth;
	int err;
	unsigned char first[SB_JSON_MAX_DEPTH];	   /* no member written yet at this depth */
	int compact;				   /* one line, no spaces (JSON Lines) */
	unsigned char is_array[SB_JSON_MAX_DEPTH]; /* container kind, to catch misuse */
};

void sb_json_begin(struct sb_json *j, FILE *f, int compact);
int sb_json_end(struct sb_json *j); /* flushes; 0 or -errno */
void sb_json_obj_open(struct sb_json *j, const char *key);
void sb_json_obj_close(struct sb_json *j);
void sb_json_arr_open(struct sb_json *j, const char *key);
void sb_json_arr_close(struct sb_json *j);
void sb_json_str(struct sb_json *j, const char *key, const char *val); /* NULL -> null */
void sb_json_u64(struct sb_json *j, const char *key, uint64_t v);
void sb_json_i64(struct sb_json *j, const char *key, int64_t v);
void sb_json_double(struct sb_json *j, const char *key,
		    double v); /* %.6f like fio, or %.17g when large */
void sb_json_bool(struct sb_json *j, const char *key, int v);
void sb_json_null(struct sb_json *j, const char *key);

#endif
