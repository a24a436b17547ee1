/* A rate over the last second (live_rate.h). */
#include "lib/stats/live_rate.h"

#define RATE_WINDOW_NS 1000000000ull
#define RATE_MIN_STEP_NS 50000000ull
#define RATE_MIN_WINDOW_NS 150000000ull

void sb_rate_reset(struct sb_rate *r)
{
	memset(r, 0, sizeof(*r));
}

void sb_rate_add(struct sb_rate *r, uint64_t now, uint64_t bytes, uint64_t ops)
{
	if (r->n) {
		const unsigned last = (r->head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
		if (now - r->t[last] < RATE_MIN_STEP_NS)
			return;
	}
	r->t[r->head] = now;
	r->bytes[r->head] = bytes;
	r->ops[r->head] = ops;
	r->head = (r->head + 1) % SB_RATE_SLOTS;
	if (r->n < SB_RATE_SLOTS)
		r->n++;
}

int sb_rate_get(const struct sb_rate *r, uint64_t now, uint64_t bytes, uint64_t ops, double *bps,
		double *ops_s)
{
	/* the newest snapshot at least a second old; the oldest one when the
	 * count is younger than that */
	unsigned pick = SB_RATE_SLOTS;
	for (unsigned k = 0; k < r->n; k++) {
		const unsigned i = (r->head + SB_RATE_SLOTS - 1 - k) % SB_RATE_SLOTS;
		if (r->t[i] >= now)
			continue;
		pick = i;
		if (now - r->t[i] >= RATE_WINDOW_NS)
			break;
	}
	/* a shorter window would say more about the clock than the rate */
	if (pick == SB_RATE_SLOTS || now - r->t[pick] < RATE_MIN_WINDOW_NS)
		return -1;
	const double s = (double)(now - r->t[pick]) / 1e9;
	*bps = bytes >= r->bytes[pick] ? (double)(bytes - r->bytes[pick]) / s : 0;
	if (ops_s)
		*ops_s = ops >= r->ops[pick] ? (double)(ops - r->ops[pick]) / s : 0;
	return 0;
}
