/*
 * Verify results for the report's renderers: the classes, their colours
 * (the same in the HTML map, its legend and the tables), and a walk over
 * every verify object a result holds, so text, CSV and HTML read verify,
 * run --verify and soak alike.
 */
#include "report/report.h"

#include <math.h>

/* in lib's order of the classes (sb_verify_class_name). Okabe-Ito: bluish
 * green, vermillion, reddish purple, orange, blue, black, sky blue, yellow */
const int rep_vclass_color[REP_VCLASS_N] = { 2, 5, 3, 1, 0, 6, 4, 7 };

int rep_vclass_shown(const struct sb_jv *v, int k)
{
	/* results written before a class existed do not list it */
	return k < SB_VERIFY_NEWER || sb_jv_get(v, sb_verify_class_name(k)) != NULL;
}

int rep_vclass_index(const char *name)
{
	for (int i = 0; name && i < REP_VCLASS_N; i++) {
		const char *c = sb_verify_class_name(i);
		if (name[0] == c[0] && !strcmp(name, c)) /* asked of every soak iteration */
			return i;
	}
	return -1;
}

double rep_verify_bad(const struct sb_jv *v)
{
	double bad = 0;
	for (size_t i = 0; sb_jv_is(v, SB_JV_OBJ) && i < v->obj.n; i++) {
		int k = v->obj.m[i].val.type == SB_JV_NUM ? rep_vclass_index(v->obj.m[i].key) : -1;
		if (k > 0)
			bad += v->obj.m[i].val.num.d;
	}
	return bad;
}

const char *rep_rank_host(const struct sb_jv *rank)
{
	const char *h = sb_jv_str(sb_jv_get(rank, "hostname"));
	return h ? h : sb_jv_str(sb_jv_get(rank, "host"));
}

const char *rep_rank_verdict(const struct sb_jv *rank)
{
	static const char *const known[] = { "pass", "fail", "not checked" };
	const char *r = sb_jv_str(sb_jv_get(rank, "result"));
	for (size_t i = 0; r && i < SB_ARRAY_SIZE(known); i++)
		if (!strcmp(r, known[i]))
			return known[i];
	/* verify's ranks name no result: read it from the figures */
	if (sb_jv_bool(sb_jv_get(rank, "failed"), 0) == 1 || rep_verify_bad(rank) > 0)
		return "fail";
	if (!(sb_jv_num(sb_jv_get(rank, "blocks_checked"), 0) > 0))
		return "not checked";
	return sb_jv_bool(sb_jv_get(rank, "interrupted"), 0) == 1 ? "interrupted" : "pass";
}

char *rep_bad_classes(const struct sb_jv *v, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int k = 1; k < REP_VCLASS_N && at < len; k++) {
		const double n = sb_jv_num(sb_jv_get(v, sb_verify_class_name(k)), 0);
		if (n > 0)
			at += (size_t)snprintf(buf + at, len - at, "%s%s %.0f", at ? ", " : "",
					       sb_verify_class_name(k), n);
	}
	return buf;
}

int rep_is_iteration(const struct sb_jv *r)
{
	const char *t = sb_jv_str(sb_jv_get(r, "type"));
	return t ? !strcmp(t, "iteration") : sb_jv_is(sb_jv_get(r, "iteration"), SB_JV_NUM);
}

char *rep_fmt_offset(double bytes, char *buf, size_t len)
{
	char a[32];
	uint64_t b = bytes > 0 && bytes < 1.8e19 ? (uint64_t)bytes : 0;
	snprintf(buf, len, "%s (%llu)", sb_fmt_size(b, a, sizeof(a)), (unsigned long long)b);
	return buf;
}

char *rep_range_detail(const struct sb_jv *r, char *buf, size_t len)
{
	const char *cls = sb_jv_str(sb_jv_get(r, "class"));
	const struct sb_jv *g = sb_jv_get(r, "generation"), *e = sb_jv_get(r, "errno");
	char a[64];
	buf[0] = 0;
	if (cls && !strcmp(cls, "misplaced") && sb_jv_get(r, "expected_offset"))
		snprintf(buf, len, "data written for %s",
			 rep_fmt_offset(sb_jv_num(sb_jv_get(r, "expected_offset"), 0), a,
					sizeof(a)));
	else if (cls && !strcmp(cls, "stale") && g)
		snprintf(buf, len, "generation %.0f", sb_jv_num(g, 0));
	else if (e)
		snprintf(buf, len, "errno %.0f (%s)", fabs(sb_jv_num(e, 0)),
			 rep_or(sb_jv_str(sb_jv_get(r, "error")),
				strerror((int)fabs(sb_jv_num(e, 0)))));
	return buf;
}
