/*
 * A walk over a JSON tree that names where it is (json_walk.h).
 */
#include "lib/json/json_walk.h"

int sb_jwalk(struct sb_jwalk *w, const struct sb_jv *v, unsigned in, sb_jwalk_member_fn member)
{
	const unsigned at = w->depth;
	if (at >= SB_JWALK_DEPTH || (!sb_jv_is(v, SB_JV_OBJ) && !sb_jv_is(v, SB_JV_ARR)))
		return 0; /* the reader nests no deeper */
	w->depth++;
	if (v->type == SB_JV_OBJ) {
		for (size_t i = 0; i < v->obj.n; i++) {
			w->at[at].key = v->obj.m[i].key;
			const int e = member(w, &v->obj.m[i], in);
			if (e < 0)
				return e;
		}
	} else {
		w->at[at].key = NULL;
		for (size_t i = 0; i < v->arr.n; i++) {
			w->at[at].index = i;
			const int e = sb_jwalk(w, &v->arr.v[i], in, member);
			if (e < 0)
				return e;
		}
	}
	w->depth = at;
	return 0;
}

void sb_jwalk_path(const struct sb_jwalk *w, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", w->prefix);
	for (unsigned i = 0; i < w->depth && n < len; i++)
		n += w->at[i].key ? (size_t)snprintf(buf + n, len - n, "%s%s", n ? "." : "",
						     w->at[i].key)
				  : (size_t)snprintf(buf + n, len - n, "[%zu]", w->at[i].index);
}

int sb_jwalk_bad(struct sb_jwalk *w, const char *expected, const struct sb_jv *v)
{
	char found[64], path[256];
	sb_jv_found(v, found, sizeof(found));
	sb_jwalk_path(w, path, sizeof(path));
	snprintf(w->msg, sizeof(w->msg), "%s: expected %s, found %s", path, expected, found);
	return -EINVAL;
}

int sb_jkey_is(const struct sb_jmember *m, const struct sb_jkey *k)
{
	return m->keylen == k->len && m->key[0] == k->name[0] && !memcmp(m->key, k->name, k->len);
}

int sb_jkey_in(const struct sb_jmember *m, const struct sb_jkey *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sb_jkey_is(m, &keys[i]))
			return 1;
	return 0;
}
