/*
 * A walk over a JSON tree that knows where it is: the members and items
 * down to the value, made into a key path such as jobs[0].read.bw_bytes
 * only when a problem is found (a day of log lines is walked at every
 * member). report/check.c's check of every document and lib/results' rules
 * of the ranks' entries (clients_read.c) walk with it.
 *
 *   struct sb_jwalk w = { .prefix = "" };
 *   if (sb_jwalk(&w, root, 0, member) < 0) ... w.msg says what and where
 *
 * member(w, m, in) judges member m of an object (w's path ends at it): 0
 * to go on (sb_jwalk(w, &m->val, in', member) goes down into it), < 0
 * with w.msg said (sb_jwalk_bad). in: the caller's own flags of where the
 * walk is, handed down.
 */
#ifndef SB_JSON_WALK_H
#define SB_JSON_WALK_H

#include "lib/json/json_read.h"

#define SB_JWALK_DEPTH (SB_JSON_READ_MAX_DEPTH + 8)
struct sb_jwalk {
	const char *prefix; /* the key path of the value walked ("" at the top) */
	struct {
		const char *key; /* NULL: an item, index */
		size_t index;
	} at[SB_JWALK_DEPTH];
	unsigned depth;
	char msg[512];
};
typedef int (*sb_jwalk_member_fn)(struct sb_jwalk *w, const struct sb_jmember *m, unsigned in);

/* Every member of v's objects, at any depth below it (as deep as a
 * document read goes): 0, or the first of member's < 0. */
int sb_jwalk(struct sb_jwalk *w, const struct sb_jv *v, unsigned in, sb_jwalk_member_fn member);
/* The key path where the walk is into buf. */
void sb_jwalk_path(const struct sb_jwalk *w, char *buf, size_t len);
/* "PATH: expected what, found <v>" into w->msg; -EINVAL. */
int sb_jwalk_bad(struct sb_jwalk *w, const char *expected, const struct sb_jv *v);

/* A member's name, its length first: most names differ there. */
struct sb_jkey {
	const char *name;
	size_t len;
};
#define SB_JKEY(s)               \
	{                        \
		s, sizeof(s) - 1 \
	}
int sb_jkey_is(const struct sb_jmember *m, const struct sb_jkey *k);
/* Whether m is named one of keys[0..n). */
int sb_jkey_in(const struct sb_jmember *m, const struct sb_jkey *keys, size_t n);

#endif
