/* Typed reading of a JSON section with the key path of what is wrong
 * (json_take.h). */
#include "lib/json/json_take.h"

#include <math.h>

void sb_jtake_init(struct sb_jtake *t, struct sb_error *err)
{
	t->err = err;
	t->e = 0;
	t->path[0] = '\0';
	t->len = 0;
}

static void set_len(struct sb_jtake *t, size_t n)
{
	t->len = n < sizeof(t->path) ? n : sizeof(t->path) - 1;
	t->path[t->len] = '\0';
}

size_t sb_jtake_down(struct sb_jtake *t, const char *key)
{
	const size_t was = t->len;
	const int n = snprintf(t->path + was, sizeof(t->path) - was, "%s%s", was ? "." : "", key);
	set_len(t, was + (n > 0 ? (size_t)n : 0));
	return was;
}

size_t sb_jtake_item(struct sb_jtake *t, size_t i)
{
	const size_t was = t->len;
	const int n = snprintf(t->path + was, sizeof(t->path) - was, "[%zu]", i);
	set_len(t, was + (n > 0 ? (size_t)n : 0));
	return was;
}

void sb_jtake_up(struct sb_jtake *t, size_t len)
{
	set_len(t, len);
}

/* A bound as people write it: 4096, 1e18 */
static const char *bound(double v, char *buf, size_t len)
{
	char *e;
	snprintf(buf, len, "%g", v);
	if ((e = strstr(buf, "e+")))
		memmove(e + 1, e + 2, strlen(e + 2) + 1);
	return buf;
}

static const char *type_name(const struct sb_jv *v)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };
	return v->type <= SB_JV_OBJ ? names[v->type] : "?";
}

int sb_jtake_bad(struct sb_jtake *t, const char *key, const char *what, const struct sb_jv *v)
{
	char found[96];
	if (t->e)
		return t->e;
	const size_t was = key ? sb_jtake_down(t, key) : t->len;
	if (!v)
		snprintf(found, sizeof(found), "nothing");
	else if (v->type == SB_JV_NUM)
		snprintf(found, sizeof(found), "%g", v->num.d);
	else if (v->type == SB_JV_BOOL)
		snprintf(found, sizeof(found), "%s", v->boolean ? "true" : "false");
	else if (v->type == SB_JV_STR)
		snprintf(found, sizeof(found), "'%.64s'", v->str.s);
	else
		snprintf(found, sizeof(found), "%s", type_name(v));
	t->e = sb_error_set(t->err, -EINVAL, SB_ERR_INPUT, "%s%sexpected %s, found %s", t->path,
			    t->len ? ": " : "", what, found);
	sb_jtake_up(t, was);
	return t->e;
}

/* The member, or NULL (1: absent and optional; < 0: a problem said). */
static const struct sb_jv *member(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				  int flags, const char *what, int *rc)
{
	*rc = t->e;
	if (t->e)
		return NULL;
	const struct sb_jv *v = sb_jv_get(o, key);
	if (!v)
		*rc = flags & SB_JTAKE_OPTIONAL ? 1 : sb_jtake_bad(t, key, what, NULL);
	return v;
}

int sb_jtake_u64(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 uint64_t max, uint64_t *out)
{
	char what[64], hi[32];
	int rc;
	if (max < 1000000000ull)
		snprintf(what, sizeof(what), "a whole number from 0 to %llu",
			 (unsigned long long)max);
	else
		snprintf(what, sizeof(what), "a whole number from 0 to %s",
			 bound((double)max, hi, sizeof(hi)));
	const struct sb_jv *v = member(t, o, key, flags, what, &rc);
	uint64_t n;
	if (!v)
		return rc;
	if (sb_jv_u64(v, &n) < 0 || n > max)
		return sb_jtake_bad(t, key, what, v);
	*out = n;
	return 0;
}

int sb_jtake_num(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, double lo,
		 double hi, double *out)
{
	char what[80], a[32], b[32];
	int rc;
	snprintf(what, sizeof(what), "a number from %s to %s", bound(lo, a, sizeof(a)),
		 bound(hi, b, sizeof(b)));
	const struct sb_jv *v = member(t, o, key, flags, what, &rc);
	if (!v)
		return rc;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < lo || v->num.d > hi)
		return sb_jtake_bad(t, key, what, v);
	*out = v->num.d;
	return 0;
}

int sb_jtake_bool(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, int *out)
{
	int rc;
	const struct sb_jv *v = member(t, o, key, flags, "a boolean", &rc);
	if (!v)
		return rc;
	if (!sb_jv_is(v, SB_JV_BOOL))
		return sb_jtake_bad(t, key, "a boolean", v);
	*out = v->boolean;
	return 0;
}

int sb_jtake_str(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 const char **out)
{
	int rc;
	const struct sb_jv *v = member(t, o, key, flags, "a string", &rc);
	if (!v)
		return rc;
	if (!sb_jv_is(v, SB_JV_STR))
		return sb_jtake_bad(t, key, "a string", v);
	*out = v->str.s;
	return 0;
}

int sb_jtake_word(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		  const char *(*name)(int), int n, const char *what, int *out)
{
	const char *v;
	const int rc = sb_jtake_str(t, o, key, flags, &v);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++)
		if (!strcmp(v, name(i))) {
			*out = i;
			return 0;
		}
	return sb_jtake_bad(t, key, what, sb_jv_get(o, key));
}

static const struct sb_jv *typed(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags, enum sb_jv_type type, const char *what)
{
	int rc;
	const struct sb_jv *v = member(t, o, key, flags, what, &rc);
	if (v && !sb_jv_is(v, type)) {
		sb_jtake_bad(t, key, what, v);
		return NULL;
	}
	return v;
}

const struct sb_jv *sb_jtake_obj(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags)
{
	return typed(t, o, key, flags, SB_JV_OBJ, "an object");
}

const struct sb_jv *sb_jtake_arr(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags)
{
	return typed(t, o, key, flags, SB_JV_ARR, "an array");
}

int sb_jtake_pcts(struct sb_jtake *t, const struct sb_jv *o, const char *key, const double *pct,
		  size_t n, double *out)
{
	char k[32];
	const struct sb_jv *p = sb_jtake_obj(t, o, key, 0);
	const size_t top = sb_jtake_down(t, key);
	for (size_t i = 0; p && i < n; i++) {
		uint64_t v;
		snprintf(k, sizeof(k), "%f", pct[i]);
		out[i] = NAN;
		if (!sb_jtake_u64(t, p, k, SB_JTAKE_OPTIONAL, 1000000000000000000ull, &v))
			out[i] = (double)v;
	}
	sb_jtake_up(t, top);
	return t->e;
}

int sb_jtake_matrix(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		    size_t rows, size_t cols,
		    int (*cell)(struct sb_jtake *t, const struct sb_jv *v, size_t r, size_t c,
				void *ctx),
		    void *ctx)
{
	char what[64];
	int rc;
	snprintf(what, sizeof(what), "an array of %zu rows", rows);
	const struct sb_jv *m = member(t, o, key, flags, what, &rc);
	if (!m)
		return rc;
	if (!sb_jv_is(m, SB_JV_ARR) || m->arr.n != rows)
		return sb_jtake_bad(t, key, what, m);
	snprintf(what, sizeof(what), "a row of %zu values", cols);
	const size_t top = sb_jtake_down(t, key);
	for (size_t r = 0; r < rows && !t->e; r++) {
		const struct sb_jv *row = &m->arr.v[r];
		const size_t at = sb_jtake_item(t, r);
		if (!sb_jv_is(row, SB_JV_ARR) || row->arr.n != cols)
			sb_jtake_bad(t, NULL, what, row);
		for (size_t c = 0; c < cols && !t->e; c++) {
			const size_t in = sb_jtake_item(t, c);
			if (cell(t, &row->arr.v[c], r, c, ctx) < 0 && !t->e)
				sb_jtake_bad(t, NULL, "a cell's value", &row->arr.v[c]);
			sb_jtake_up(t, in);
		}
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	return t->e;
}
