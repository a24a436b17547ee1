/*
 * Typed reading of a JSON section that came from outside (a results file):
 * each value is taken with its type and range checked, and what is wrong
 * is named by its key path, as "tests[2].kib_per_s[0][1]: expected a whole
 * number from 0 or null, found -3". A method's reader (sb_sweep_read, ...)
 * takes its section through these and fills its own struct.
 *
 *   struct sb_jtake t;
 *   sb_jtake_init(&t, err);
 *   if (sb_jtake_u64(&t, sec, "cells_done", 0, UINT32_MAX, &n) < 0) return t.e;
 *
 * The first problem is kept (err filled, -EINVAL); every later take fails
 * at once, so a reader may take a series of values and look at the end.
 */
#ifndef SB_JSON_TAKE_H
#define SB_JSON_TAKE_H

#include "lib/json/json_read.h"

struct sb_jtake {
	struct sb_error *err;
	int e; /* 0, or the first problem's -EINVAL */
	char path[256];
	size_t len; /* of path */
};
void sb_jtake_init(struct sb_jtake *t, struct sb_error *err);

/* The key path goes down into member key, or item i; each returns the
 * path's length before, for sb_jtake_up. */
size_t sb_jtake_down(struct sb_jtake *t, const char *key);
size_t sb_jtake_item(struct sb_jtake *t, size_t i);
void sb_jtake_up(struct sb_jtake *t, size_t len);
/* A problem at the path (with key below it when not NULL): "PATH: expected
 * what, found <v>" (v NULL: nothing; at the top "expected what, found
 * <v>"). -EINVAL. */
int sb_jtake_bad(struct sb_jtake *t, const char *key, const char *what, const struct sb_jv *v);

/* The member key of object o as a type: 0 and *out; 1 when absent and
 * optional (*out untouched); else -EINVAL with the problem said. */
#define SB_JTAKE_OPTIONAL 1
int sb_jtake_u64(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 uint64_t max, uint64_t *out);
int sb_jtake_num(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, double lo,
		 double hi, double *out);
int sb_jtake_bool(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, int *out);
int sb_jtake_str(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 const char **out);
/* A string member that is one of n words: name(i) reads as i. */
int sb_jtake_word(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		  const char *(*name)(int), int n, const char *what, int *out);
/* An object or array member (NULL: absent and optional, or a problem
 * said: t->e tells them apart). */
const struct sb_jv *sb_jtake_obj(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags);
const struct sb_jv *sb_jtake_arr(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags);

/* An object member key of o of percentiles as the writers key them
 * ("%f" of each of pct[0..n)): each a whole number of ns (out[i], NAN where
 * the object has none of it). */
int sb_jtake_pcts(struct sb_jtake *t, const struct sb_jv *o, const char *key, const double *pct,
		  size_t n, double *out);

/* A matrix member key of o: an array of rows arrays of cols items, each
 * taken by cell (which says what is wrong with sb_jtake_bad(t, NULL, ...)
 * at the item's path and returns < 0). 1 when absent and optional. */
int sb_jtake_matrix(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		    size_t rows, size_t cols,
		    int (*cell)(struct sb_jtake *t, const struct sb_jv *v, size_t r, size_t c,
				void *ctx),
		    void *ctx);

#endif
