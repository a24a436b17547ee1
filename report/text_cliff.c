/* The cliff section of the text report (storbench.cliff, docs/cliff.md). */
#include "report/report.h"

#include <math.h>

static double num(const struct sb_jv *o, const char *key)
{
	return sb_jv_num(sb_jv_get(o, key), NAN);
}

static char *size_of(double b, char *buf, size_t len)
{
	return sb_fmt_size(b > 0 && b < 1.8e19 ? (uint64_t)b : 0, buf, len);
}

void rep_text_cliff(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *s = sb_jv_get(d->sb, "cliff");
	char a[32], b[32], c[32];
	if (!s)
		return;
	fprintf(f, "\nwrite cache (cliff): %s written in %.1f s, stopped: %s\n",
		size_of(num(s, "bytes_written"), a, sizeof(a)), num(s, "time_ns") / 1e9,
		rep_or(sb_jv_str(sb_jv_get(s, "stop_reason")), "?"));
	if (!sb_jv_bool(sb_jv_get(s, "found"), 0)) {
		fprintf(f, "  no drop over %.2f GiB (%s on average)\n",
			num(s, "bytes_written") / (1024.0 * 1024 * 1024),
			rep_fmt_rate(num(s, "avg_bw_bytes"), a, sizeof(a)));
		return;
	}
	fprintf(f, "  cache %s at %s, then %s\n", size_of(num(s, "cache_bytes"), a, sizeof(a)),
		rep_fmt_rate(num(s, "before_bw_bytes"), b, sizeof(b)),
		rep_fmt_rate(num(s, "after_bw_bytes"), c, sizeof(c)));
	const struct sb_jv *steps = sb_jv_get(s, "steps");
	for (size_t i = 0; i < sb_jv_len(steps); i++) {
		const struct sb_jv *st = sb_jv_at(steps, i);
		fprintf(f, "  step %zu at %s: ", i + 1, size_of(num(st, "at_bytes"), a, sizeof(a)));
		fprintf(f, "%s -> ", rep_fmt_rate(num(st, "before_bw_bytes"), a, sizeof(a)));
		fprintf(f, "%s\n", rep_fmt_rate(num(st, "after_bw_bytes"), a, sizeof(a)));
	}
	const struct sb_jv *rs = sb_jv_get(s, "recovery");
	for (size_t i = 0; i < sb_jv_len(rs); i++) {
		const struct sb_jv *r = sb_jv_at(rs, i);
		fprintf(f, "  after %s idle: %s back (%.0f%%)\n",
			rep_fmt_ns(num(r, "idle_ns"), a, sizeof(a)),
			size_of(num(r, "recovered_bytes"), b, sizeof(b)), num(r, "fraction") * 100);
	}
}
