/*
 * fio's latency_target, as fio 3.33's io_u.c: the depth starts at 1 and
 * doubles after each latency_window in which latency_percentile of the
 * requests completed within latency_target, bisects between the last
 * good and the first bad depth once one failed (the bad one raised by 1
 * after three good windows just under it), and once the depth stops
 * changing the requests in flight are waited for and one more window
 * measures that depth alone. With percentile 100 a single request over
 * the target is a failure at once.
 */
#include "lib/stats/lat_target.h"

#include <math.h>

static void new_cycle(struct sb_lat_target *s, uint64_t now)
{
	s->cycle_ns = now;
	s->cycle_ios = s->ios;
	s->failed = 0;
}

void sb_lat_target_init(struct sb_lat_target *s, uint64_t target_ns, uint64_t window_ns,
			double percentile, unsigned iodepth, int run, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	s->target_ns = target_ns;
	s->window_ns = window_ns;
	s->percentile = percentile;
	s->iodepth = iodepth ? iodepth : 1;
	s->run = run;
	s->qd = 1;
	s->qd_low = 1;
	s->qd_high = s->iodepth;
	new_cycle(s, now);
}

/* fio's __lat_target_failed: 1 at depth 1 (nothing lower to try) */
static enum sb_lat_act failed(struct sb_lat_target *s, uint64_t now)
{
	if (s->qd == 1)
		return SB_LAT_FATAL;
	s->qd_high = s->qd;
	if (s->qd == s->qd_low)
		s->qd_low--;
	s->qd = (s->qd + s->qd_low) / 2;
	s->stable = 0;
	new_cycle(s, now);
	return SB_LAT_QUIESCE;
}

static enum sb_lat_act success(struct sb_lat_target *s, uint64_t now)
{
	const unsigned qd = s->qd;
	enum sb_lat_act act = SB_LAT_NONE;
	s->qd_low = s->qd;
	if (s->qd + 1 == s->qd_high && ++s->stable >= 3) {
		s->qd_high++;
		s->stable = 0;
	}
	if (s->qd_high != s->iodepth)
		s->qd = (s->qd + s->qd_high) / 2;
	else
		s->qd *= 2;
	if (s->qd > s->iodepth)
		s->qd = s->iodepth;
	if (!s->run && s->qd == qd) {
		if (s->end_run) {
			act = SB_LAT_DONE;
		} else {
			s->end_run = 1;
			act = SB_LAT_FINAL;
		}
	}
	new_cycle(s, now);
	return act;
}

enum sb_lat_act sb_lat_target_io(struct sb_lat_target *s, uint64_t lat_ns, uint64_t now)
{
	s->ios++;
	if (lat_ns <= s->target_ns)
		return SB_LAT_NONE;
	if (s->percentile == 100.0)
		return failed(s, now);
	s->failed++;
	return SB_LAT_NONE;
}

enum sb_lat_act sb_lat_target_check(struct sb_lat_target *s, uint64_t now)
{
	if (now - s->cycle_ns < s->window_ns)
		return SB_LAT_NONE;
	const uint64_t ios = s->ios - s->cycle_ios;
	/* fio divides by the window's requests: none is 0/0, not a success */
	const double ok = ios ? 100.0 * (double)(ios - s->failed) / (double)ios : NAN;
	if (ok >= s->percentile)
		return success(s, now);
	/* fio's lat_target_check ignores a failure at depth 1: that window
	 * goes on */
	const enum sb_lat_act a = failed(s, now);
	return a == SB_LAT_FATAL ? SB_LAT_NONE : a;
}
