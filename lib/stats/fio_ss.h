/* fio's steady-state detection (steadystate=, ss_dur=, ss_ramp=): a
 * rolling window of per-second iops or bandwidth figures, and fio's
 * criterion over it, as fio 3.33's steadystate.c computes it. */
#ifndef SB_FIO_SS_H
#define SB_FIO_SS_H

#include "lib/sb.h"

/* what the criterion looks at and how (fio's FIO_SS_* flags) */
enum {
	SB_SS_IOPS = 1,	 /* requests per interval (else bandwidth: bytes) */
	SB_SS_SLOPE = 2, /* the least squares slope (else the largest deviation) */
	SB_SS_PCT = 4,	 /* limit in percent of the window's mean (else absolute) */
};

/* The criterion over y[0..n-1], oldest first: mean; slope, the least
 * squares regression slope of y over x = 0..n-1 (with SB_SS_SLOPE, else
 * 0); deviation, the largest |y - mean| (without it, else 0); criterion,
 * the slope or the deviation, in percent of the mean with SB_SS_PCT; and
 * attained: |criterion| below limit. n 0: all 0, not attained. */
struct sb_ss_eval {
	double mean, slope, deviation, criterion;
	int attained;
};
void sb_ss_evaluate(const uint64_t *y, unsigned n, unsigned flags, double limit,
		    struct sb_ss_eval *out);

/* The rolling window: n intervals (fio's ss_dur in seconds, one sample a
 * second), the last n samples of iops and bw kept (fio keeps both,
 * whichever the criterion looks at), the criterion evaluated once the
 * window is full. */
struct sb_ss {
	unsigned flags;
	double limit;
	unsigned n;		/* the window's intervals */
	uint64_t count;		/* samples taken */
	uint64_t *iops, *bw;	/* rings of n, sample k at k % n */
	struct sb_ss_eval last; /* the newest evaluation (all 0 before the window is full) */
	int attained;
};
/* 0 or -ENOMEM (-EINVAL: n 0). */
int sb_ss_init(struct sb_ss *s, unsigned flags, double limit, unsigned n);
void sb_ss_free(struct sb_ss *s);
/* One interval's figures; 1 when the criterion holds (then attained, and
 * no more samples are taken), else 0. */
int sb_ss_add(struct sb_ss *s, uint64_t iops, uint64_t bw);
/* The window oldest first into iops[] and bw[] (n each), 0 where fewer
 * than n samples were taken (after them), as fio's JSON lists them. */
void sb_ss_window(const struct sb_ss *s, uint64_t *iops, uint64_t *bw);
/* One interval's figure as fio's steadystate_check takes it: the bytes
 * (requests) moved over elapsed_ms, scaled by elapsed_ms over the
 * interval_ms squared (so a late look counts more), in integers. */
uint64_t sb_ss_sample(uint64_t delta, uint64_t elapsed_ms, uint64_t interval_ms);

#endif
