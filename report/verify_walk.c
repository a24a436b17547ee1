/*
 * Verify results for the report's renderers: the classes, their colours
 * (the same in the HTML map, its legend and the tables), a result's verify
 * section read through lib/verify's reader (sb_verify_read), and what the
 * renderers say of a rank and a bad range, so text, CSV and HTML read
 * verify, run --verify and soak alike.
 */
#include "report/report.h"

#include <math.h>

/* in lib's order of the classes (sb_verify_class_name). Okabe-Ito: bluish
 * green, vermillion, reddish purple, orange, blue, black, sky blue, yellow */
const int rep_vclass_color[REP_VCLASS_N] = { 2, 5, 3, 1, 0, 6, 4, 7 };

int rep_vclass_shown(const struct sb_verify_doc_blocks *b, int k)
{
	/* results written before a class existed do not list it */
	return k < SB_VERIFY_NEWER || (b->classes & 1u << k);
}

const char *rep_rank_verdict(const struct sb_verify_doc_rank *k)
{
	static const char *const known[] = { "pass", "fail", "not checked" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(known); i++)
		if (!strcmp(k->result, known[i]))
			return known[i];
	/* verify's ranks name no result: read it from the figures */
	if (k->failed == 1 || sb_verify_doc_bad(&k->b) > 0)
		return "fail";
	if (!k->b.blocks)
		return "not checked";
	return k->interrupted == 1 ? "interrupted" : "pass";
}

char *rep_bad_classes(const struct sb_verify_doc_blocks *b, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int k = 1; k < REP_VCLASS_N && at < len; k++)
		if (b->count[k] > 0)
			at += (size_t)snprintf(buf + at, len - at, "%s%s %llu", at ? ", " : "",
					       sb_verify_class_name(k),
					       (unsigned long long)b->count[k]);
	return buf;
}

int rep_is_iteration(const struct sb_jv *r)
{
	struct sb_soak_line l;
	sb_soak_line_read(r, &l);
	return l.is_iteration;
}

char *rep_fmt_offset(double bytes, char *buf, size_t len)
{
	char a[32];
	uint64_t b = bytes > 0 && bytes < 1.8e19 ? (uint64_t)bytes : 0;
	snprintf(buf, len, "%s (%llu)", sb_fmt_size(b, a, sizeof(a)), (unsigned long long)b);
	return buf;
}

char *rep_range_detail(const struct sb_verify_doc_range *r, char *buf, size_t len)
{
	char a[64];
	buf[0] = 0;
	if (r->g.cls == SB_VERIFY_MISPLACED && (r->has & SB_VDOC_EXPECTED))
		snprintf(buf, len, "data written for %s",
			 rep_fmt_offset((double)r->g.expected_offset, a, sizeof(a)));
	else if (r->g.cls == SB_VERIFY_STALE && (r->has & SB_VDOC_GENERATION))
		snprintf(buf, len, "generation %llu", (unsigned long long)r->g.generation);
	else if (r->has & SB_VDOC_ERRNO)
		snprintf(buf, len, "errno %d (%s)", r->g.err, rep_or(r->error, strerror(r->g.err)));
	return buf;
}

/* storbench.verify read back (after the document passed its checks). */
int rep_read_verify(struct rep_doc *d, char **why)
{
	const struct sb_jv *v = sb_results_section(d->sb, SB_SECTION_VERIFY);
	struct sb_error err;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return 0;
	if (!(d->verify = malloc(sizeof(*d->verify))))
		return rep_fail(why, -ENOMEM, "out of memory");
	const int e = sb_verify_read(v, d->verify, &err);
	if (!e)
		return 0;
	sb_verify_doc_free(d->verify);
	free(d->verify);
	d->verify = NULL;
	if (e == -EINVAL)
		return rep_fail(why, -REP_EINPUT, "'%s': storbench.verify.%s", d->path, err.msg);
	return rep_fail(why, e, "out of memory");
}
