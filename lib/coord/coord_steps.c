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
	return sb_coord_agree_said(c, code, who, NULL, NULL, NULL, timeout_s);
}

struct verdict {
	int code; /* 0: goes on */
	char msg[1024];
};

int sb_coord_agree_said(struct sb_coord *c, int *code, int *who, const char *msg,
			void (*said)(void *ctx, int rank, const char *msg), void *ctx,
			double timeout_s)
{
	const int n = sb_coord_size(c);
	struct verdict mine = { *code, "" }, *all = NULL;
	long v[2] = { 0, -1 }; /* the first failing rank's code, its rank */
	*who = *code ? sb_coord_rank(c) : -1;
	if (n < 2)
		return 0;
	snprintf(mine.msg, sizeof(mine.msg), "%s", msg ? msg : "");
	if (sb_coord_rank(c) == 0 && !(all = calloc((size_t)n, sizeof(*all))))
		return -ENOMEM;
	int e = sb_coord_gather(c, &mine, sizeof(mine), all, timeout_s);
	for (int r = 0; !e && all && r < n; r++) {
		if (!all[r].code)
			continue;
		if (v[1] < 0)
			v[0] = all[r].code, v[1] = r;
		if (all[r].msg[0] && said)
			said(ctx, r, all[r].msg);
	}
	free(all);
	if (!e)
		e = sb_coord_bcast(c, v, sizeof(v), timeout_s);
	if (e)
		return e;
	*code = (int)v[0];
	*who = (int)v[1];
	return 0;
}

void sb_coord_prefix(const struct sb_coord *c, char *buf, size_t len)
{
	if (sb_coord_size(c) < 2 && len)
		buf[0] = '\0';
	else if (len)
		snprintf(buf, len, "rank %d on %.64s: ", sb_coord_rank(c), sb_coord_host(c));
}

int sb_coord_lost(struct sb_error *err, const char *what, int e)
{
	return sb_error_set(err, e, SB_ERR_ENV,
			    "%s: %s: ending the job (a rank died, hangs or never got there)", what,
			    e == -ETIMEDOUT ? "no answer from every rank in time" : strerror(-e));
}

int sb_coord_same_program(struct sb_coord *c, const char *ident, int *same, char *msg, size_t len,
			  double timeout_s)
{
	char mine[SB_COORD_IDENT_LEN], *all = NULL;
	const int n = sb_coord_size(c);
	long bad = 0;
	if (len)
		msg[0] = '\0';
	*same = 1;
	snprintf(mine, sizeof(mine), "%s", ident);
	if (sb_coord_rank(c) == 0 && !(all = calloc((size_t)n, SB_COORD_IDENT_LEN)))
		bad = 1;
	int e = sb_coord_gather(c, mine, SB_COORD_IDENT_LEN, all, timeout_s);
	if (e) {
		free(all);
		return e;
	}
	for (int r = 1; all && r < n && !bad; r++)
		if (strcmp(all + (size_t)r * SB_COORD_IDENT_LEN, mine)) {
			snprintf(msg, len,
				 "rank %d runs another storbench ('%s') than rank 0 ('%s'): run the "
				 "same build on every host",
				 r, all + (size_t)r * SB_COORD_IDENT_LEN, mine);
			bad = 1;
		}
	free(all);
	if ((e = sb_coord_max(c, &bad, 1, timeout_s)))
		return e;
	*same = !bad;
	return 0;
}
