/*
 * A rate over the last second from snapshots of counters that only grow
 * (bytes, and requests or operations), as a progress line shows it.
 * Snapshots closer than 50 ms to the last are not kept; 32 cover 1.6 s.
 */
#ifndef SB_LIVE_RATE_H
#define SB_LIVE_RATE_H

#include "lib/sb.h"

#define SB_RATE_SLOTS 32
struct sb_rate {
	uint64_t t[SB_RATE_SLOTS], bytes[SB_RATE_SLOTS], ops[SB_RATE_SLOTS];
	unsigned head, n;
};
void sb_rate_reset(struct sb_rate *r);
void sb_rate_add(struct sb_rate *r, uint64_t now, uint64_t bytes, uint64_t ops);
/* Per second, from the newest snapshot at least 1 s before now (the oldest
 * when all are younger) to (now, bytes, ops); -1 when there is none at
 * least 150 ms old. ops_s may be NULL. */
int sb_rate_get(const struct sb_rate *r, uint64_t now, uint64_t bytes, uint64_t ops, double *bps,
		double *ops_s);

#endif
