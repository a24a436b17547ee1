/* Steps every method takes over the coordination calls (coord.h): the
 * same in both builds, alone each a copy or nothing. */
#include "lib/coord/coord.h"

int sb_coord_round_look(struct sb_coord *c, struct sb_coord_round *r, int done, uint64_t a,
			uint64_t b, uint64_t now, int *any, int *all, uint64_t sum[2],
			double timeout_s)
{
	uint64_t v[SB_COORD_SUMS] = { a, b };
	if (!r->in_flight) {
		if (!done && now - r->ended_ns < SB_COORD_ROUND_EVERY_NS)
			return 0;
		const int e = sb_coord_poll_start(c, done, v);
		if (e < 0)
			return e;
		r->in_flight = 1;
		r->started_ns = now;
	}
	const int e = sb_coord_poll_test(c, any, all, v, timeout_s);
	if (e != 1)
		return e;
	sum[0] = v[0];
	sum[1] = v[1];
	r->in_flight = 0;
	r->ended_ns = now;
	return 1;
}

int sb_coord_sum_look(struct sb_coord *c, struct sb_coord_sum *s, uint64_t done, uint64_t total,
		      int over, uint64_t now, double timeout_s)
{
	int any, all;
	uint64_t sum[2];
	const int e = sb_coord_round_look(c, &s->round, over, done, total, now, &any, &all, sum,
					  timeout_s);
	if (e != 1)
		return e;
	if (sb_coord_rank(c) == 0) {
		sb_rate_add(&s->rate, s->round.started_ns, sum[0], 0);
		s->done = sum[0];
		s->total = sum[1];
		s->have = 1;
	}
	return all;
}

double sb_coord_sum_rate(const struct sb_coord_sum *s)
{
	const unsigned h = (s->rate.head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
	double bps;
	if (!s->have || sb_rate_get(&s->rate, s->rate.t[h], s->rate.bytes[h], 0, &bps, NULL) < 0)
		return -1;
	return bps;
}

int sb_coord_agree(struct sb_coord *c, int *code, int *who, double timeout_s)
{
	const int n = sb_coord_size(c);
	int *all = NULL;
	long v[2] = { 0, -1 }; /* the first failing rank's code, its rank */
	*who = *code ? sb_coord_rank(c) : -1;
	if (n < 2)
		return 0;
	if (sb_coord_rank(c) == 0 && !(all = calloc((size_t)n, sizeof(*all))))
		return -ENOMEM;
	int e = sb_coord_gather(c, code, sizeof(*code), all, timeout_s);
	for (int r = 0; !e && all && r < n && v[1] < 0; r++)
		if (all[r])
			v[0] = all[r], v[1] = r;
	free(all);
	if (!e)
		e = sb_coord_bcast(c, v, sizeof(v), timeout_s);
	if (e)
		return e;
	*code = (int)v[0];
	*who = (int)v[1];
	return 0;
}

int sb_coord_lost(struct sb_error *err, const char *what, int e)
{
	return sb_error_set(err, e, SB_ERR_ENV,
			    "%s: %s: ending the job (a rank died, hangs or never got there)", what,
			    e == -ETIMEDOUT ? "no answer from every rank in time" : strerror(-e));
}
