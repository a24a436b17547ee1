/* More typed takes for the methods' readers (json_items.h). */
#include "lib/json/json_items.h"

#include <math.h>

int sb_jtake_num_or_null(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
			 double lo, double hi, double *out)
{
	const struct sb_jv *v = t->e ? NULL : sb_jv_get(o, key);
	if (v && sb_jv_is(v, SB_JV_NULL)) {
		*out = NAN;
		return 0;
	}
	return sb_jtake_num(t, o, key, flags, lo, hi, out);
}

/* "an array of at most N objects" */
static const struct sb_jv *array(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				 int flags, size_t max, const char *of, int *rc)
{
	char what[64];
	snprintf(what, sizeof(what), "an array of at most %zu %s", max, of);
	*rc = t->e;
	const struct sb_jv *a = t->e ? NULL : sb_jv_get(o, key);
	if (!a && !t->e)
		*rc = flags & SB_JTAKE_OPTIONAL ? 1 : sb_jtake_bad(t, key, what, NULL);
	else if (a && (!sb_jv_is(a, SB_JV_ARR) || a->arr.n > max)) {
		*rc = sb_jtake_bad(t, key, what, a);
		a = NULL;
	}
	return a;
}

int sb_jtake_objects(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		     size_t max, size_t *n,
		     int (*item)(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx),
		     void *ctx)
{
	int rc;
	const struct sb_jv *a = array(t, o, key, flags, max, "objects", &rc);
	*n = 0;
	if (!a)
		return rc;
	const size_t top = sb_jtake_down(t, key);
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		if (!sb_jv_is(&a->arr.v[i], SB_JV_OBJ))
			sb_jtake_bad(t, NULL, "an object", &a->arr.v[i]);
		else
			item(t, &a->arr.v[i], i, ctx);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	*n = t->e ? 0 : a->arr.n;
	return t->e;
}

int sb_jtake_nums(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, size_t max,
		  double lo, double hi, double *out, size_t *n)
{
	char what[64];
	int rc;
	const struct sb_jv *a = array(t, o, key, flags, max, "numbers", &rc);
	*n = 0;
	if (!a)
		return rc;
	snprintf(what, sizeof(what), "a number from %g to %g%s", lo, hi,
		 flags & SB_JTAKE_NULLS ? " or null" : "");
	const size_t top = sb_jtake_down(t, key);
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const struct sb_jv *v = &a->arr.v[i];
		const size_t at = sb_jtake_item(t, i);
		if (sb_jv_is(v, SB_JV_NULL) && (flags & SB_JTAKE_NULLS))
			out[i] = NAN;
		else if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < lo ||
			 v->num.d > hi)
			sb_jtake_bad(t, NULL, what, v);
		else
			out[i] = v->num.d;
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	*n = t->e ? 0 : a->arr.n;
	return t->e;
}
