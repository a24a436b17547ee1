/*
 * More typed takes for the methods' readers (json_take.h): a figure that
 * may be null (written for a value not measured, or not finite), and the
 * items of an array member each taken by a function with the item's key
 * path ("steps[2]"), as the sections' lists of rounds, steps and rows.
 */
#ifndef SB_JSON_ITEMS_H
#define SB_JSON_ITEMS_H

#include "lib/json/json_take.h"

/* A number from lo to hi, or null (*out NAN). As sb_jtake_num. */
int sb_jtake_num_or_null(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
			 double lo, double hi, double *out);
/* The array member key of o, at most max items, each an object given to
 * item(t, v, i, ctx) with the path at it (item says what is wrong with
 * sb_jtake_* and returns t->e). *n: the items (0 when absent and
 * optional). 0, 1 when absent and optional, or -EINVAL. */
int sb_jtake_objects(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		     size_t max, size_t *n,
		     int (*item)(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx),
		     void *ctx);
/* The array member key of o: at most max numbers from lo to hi (null:
 * NAN where nulls are allowed), into out. */
#define SB_JTAKE_NULLS 2
int sb_jtake_nums(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, size_t max,
		  double lo, double hi, double *out, size_t *n);

#endif
