/*
 * Bandwidth cap as a schedule: the I/O that follows b bytes may start at
 * start + b / bps. Unlike a token bucket there is no burst size to choose,
 * and a caller that falls behind catches up to the average rate.
 */
#include "lib/job/rate.h"
#include "lib/base/u128.h"
#include "lib/stats/gap.h"

void sb_rate_init(struct sb_rate *r, uint64_t bps, uint64_t now_ns)
{
	r->bps = bps;
	r->start_ns = now_ns;
	r->bytes = 0;
	r->poisson = 0;
	r->due_ns = now_ns;
}

void sb_rate_poisson(struct sb_rate *r, uint64_t seed)
{
	r->poisson = 1;
	r->due_ns = r->start_ns;
	sb_rng_seed(&r->rng, seed);
}

/* Poisson: this request is due at due_ns, the next one an exponential gap
 * later, of the mean len bytes take at bps (fio's usec_for_io: 1e6 / iops
 * microseconds on average, iops its rate over the block size). */
static uint64_t poisson_delay(struct sb_rate *r, uint64_t now_ns, uint32_t len)
{
	const uint64_t due = r->due_ns;
	const double mean = (double)len * 1e9 / (double)r->bps;
	const double gap = sb_exp_gap(mean, sb_rng_double(&r->rng));
	r->due_ns += gap < 1e18 ? (uint64_t)gap : (uint64_t)1e18;
	r->bytes += len;
	return due > now_ns ? due - now_ns : 0;
}

uint64_t sb_rate_delay(struct sb_rate *r, uint64_t now_ns, uint32_t len)
{
	sb_u128 due;
	uint64_t rem;

	if (r->bps == 0) {
		r->bytes += len;
		return 0;
	}
	if (r->poisson)
		return poisson_delay(r, now_ns, len);
	/* 128 bits: bytes * 1e9 overflows 64 bits past 18 GB. Rounded up, so
	 * the bytes before never exceed bps * elapsed, not even by one ns. */
	due = sb_u128_add(sb_u128_mul(r->bytes, 1000000000u), sb_u128_from(r->bps - 1));
	due = sb_u128_add(sb_u128_div(due, r->bps, &rem), sb_u128_from(r->start_ns));
	r->bytes += len;
	return sb_u128_cmp(due, sb_u128_from(now_ns)) > 0 ? sb_u128_lo(due) - now_ns : 0;
}

uint64_t sb_rate_wait(const struct sb_rate *r, uint64_t now_ns)
{
	if (r->bps == 0)
		return 0;
	if (r->poisson)
		return r->due_ns > now_ns ? r->due_ns - now_ns : 0;
	uint64_t rem;
	sb_u128 due = sb_u128_add(sb_u128_mul(r->bytes, 1000000000u), sb_u128_from(r->bps - 1));
	due = sb_u128_add(sb_u128_div(due, r->bps, &rem), sb_u128_from(r->start_ns));
	return sb_u128_cmp(due, sb_u128_from(now_ns)) > 0 ? sb_u128_lo(due) - now_ns : 0;
}
