/*
 * A plan's criteria judged on a step's figures (plan.h).
 */
#include "lib/plan/plan.h"

#include <math.h>

#include "lib/base/units.h"

void sb_plan_judge(const struct sb_plan_expect *ex, const struct sb_figures *f,
		   struct sb_plan_judged *out)
{
	const struct sb_figure *x = sb_figures_find(f, ex->figure);
	memset(out, 0, sizeof(*out));
	out->ex = ex;
	out->value = NAN;
	if (!x)
		return; /* missing: fails */
	out->found = 1;
	if (!strcmp(ex->unit, "word")) {
		snprintf(out->word, sizeof(out->word), "%s", x->word);
		int eq = !strcmp(x->word, ex->word);
		out->pass = ex->op == SB_PLAN_EQ ? eq : ex->op == SB_PLAN_NE ? !eq : 0;
		return;
	}
	double v = x->value, l = ex->value;
	out->value = v;
	if (!isfinite(v))
		return;
	switch (ex->op) {
	case SB_PLAN_GE: out->pass = v >= l; break;
	case SB_PLAN_LE: out->pass = v <= l; break;
	case SB_PLAN_GT: out->pass = v > l; break;
	case SB_PLAN_LT: out->pass = v < l; break;
	case SB_PLAN_EQ: out->pass = v == l; break;
	case SB_PLAN_NE: out->pass = v != l; break;
	}
}

char *sb_plan_fmt(const char *unit, double value, const char *word, char *buf, size_t len)
{
	if (!strcmp(unit, "word"))
		snprintf(buf, len, "%s", word && *word ? word : "-");
	else if (!isfinite(value))
		snprintf(buf, len, "-");
	else if (!strcmp(unit, "B/s"))
		sb_fmt_rate(value, buf, len);
	else if (!strcmp(unit, "B"))
		sb_fmt_size((uint64_t)value, buf, len);
	else if (!strcmp(unit, "ns"))
		sb_fmt_ns(value, buf, len);
	else if (!strcmp(unit, "IOPS"))
		sb_fmt_count(value, buf, len);
	else if (!strcmp(unit, "/s")) {
		sb_fmt_count(value, buf, len);
		snprintf(buf + strlen(buf), len - strlen(buf), "/s");
	} else if (value == floor(value) && fabs(value) < 1e15)
		snprintf(buf, len, "%.0f", value);
	else
		snprintf(buf, len, "%.4g", value);
	return buf;
}
