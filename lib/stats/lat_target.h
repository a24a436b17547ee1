/* fio's latency_target: the search for the deepest queue whose requests
 * meet a latency, as fio 3.33's io_u.c (lat_target_*) runs it. */
#ifndef SB_LAT_TARGET_H
#define SB_LAT_TARGET_H

#include "lib/sb.h"

struct sb_lat_target {
	uint64_t target_ns, window_ns;
	double percentile; /* of the window's requests that must meet it */
	unsigned iodepth;  /* the job's: the most the search tries */
	int run;	   /* fio's latency_run: never settle, keep adjusting */
	unsigned qd, qd_low, qd_high, stable;
	int end_run;	      /* the final window at the depth found */
	uint64_t cycle_ns;    /* this window's start */
	uint64_t ios, failed; /* requests completed in all; those over target this window */
	uint64_t cycle_ios;   /* ios when the window began */
};

/* What the worker does after a request or a check */
enum sb_lat_act {
	SB_LAT_NONE,
	SB_LAT_QUIESCE, /* wait for the requests in flight (the depth went down) */
	SB_LAT_FINAL,	/* wait for them, then measure anew: the final window */
	SB_LAT_DONE,	/* the final window is over: the job ends */
	SB_LAT_FATAL,	/* over target at depth 1 with percentile 100: fio's ETIMEDOUT */
};

/* fio's lat_target_init: depth 1, searching up to iodepth. */
void sb_lat_target_init(struct sb_lat_target *s, uint64_t target_ns, uint64_t window_ns,
			double percentile, unsigned iodepth, int run, uint64_t now);
/* A request completed after lat_ns (fio's lat_target_failed when over). */
enum sb_lat_act sb_lat_target_io(struct sb_lat_target *s, uint64_t lat_ns, uint64_t now);
/* fio's lat_target_check: once a window is over, up (success) or down. */
enum sb_lat_act sb_lat_target_check(struct sb_lat_target *s, uint64_t now);

#endif
