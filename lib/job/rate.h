/* Bandwidth cap: a schedule, not a bucket: I/O n may start when the bytes
 * before it fit under bps since start. */
#ifndef SB_RATE_H
#define SB_RATE_H

#include "lib/sb.h"
#include "lib/base/rng.h"

struct sb_rate {
	uint64_t bps; /* bytes per second, 0 = unlimited */
	uint64_t start_ns;
	uint64_t bytes; /* bytes issued so far */
	/* fio's rate_process=poisson: the next request is due at due_ns,
	 * each gap after it drawn from rng (sb_exp_gap, the mean the bytes
	 * take at bps) */
	int poisson;
	uint64_t due_ns;
	struct sb_rng rng;
};

void sb_rate_init(struct sb_rate *r, uint64_t bps, uint64_t now_ns);
/* fio's rate_process=poisson for r (after sb_rate_init): the same mean
 * rate, the gaps exponential, drawn from seed. */
void sb_rate_poisson(struct sb_rate *r, uint64_t seed);
/* Nanoseconds to wait before issuing the next len bytes (0 = go now);
 * accounts the bytes. */
uint64_t sb_rate_delay(struct sb_rate *r, uint64_t now_ns, uint32_t len);
/* How long the next bytes would have to wait from now, 0: none (without
 * accounting them). */
uint64_t sb_rate_wait(const struct sb_rate *r, uint64_t now_ns);

#endif
