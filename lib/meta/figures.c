/* The figures of a meta test, as the text and the results show them. */
#include "lib/meta/meta.h"

int sb_meta_is_io(enum sb_meta_test t)
{
	return t <= SB_META_READ;
}

double sb_meta_rate(const struct sb_meta_result *r, enum sb_meta_test t)
{
	if (!r->elapsed_ns)
		return 0;
	const double s = (double)r->elapsed_ns / 1e9;
	return sb_meta_is_io(t) ? (double)r->bytes / s : (double)r->ops / s;
}

double sb_meta_cpu_percent(const struct sb_meta_result *r)
{
	return r->elapsed_ns ? 100.0 * (double)r->cpu_ns / (double)r->elapsed_ns : 0;
}
