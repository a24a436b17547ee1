/*
 * A latency probe: one synchronous request at a time (pread/pwrite), timed
 * on its own, as ioping does, and the sequential passes of hdparm -t and the
 * dd latency loop. The caller opens the target and prints; this loop only
 * issues, times and reports each request through a callback.
 *
 * Scheduling follows ioping: request k starts at start + k * interval, or
 * at once when the previous one ran late (no catching up), back to back when
 * interval is 0.
 */
#ifndef SB_PROBE_H
#define SB_PROBE_H

#include "lib/sb.h"
#include "lib/stats/ioping.h"

enum sb_probe_pattern {
	SB_PROBE_RANDOM, /* ioping: (rand % (size / bs)) * bs */
	SB_PROBE_SEQ,	 /* from the region's start, wrapping (or stopping) at its end */
	SB_PROBE_FIXED,	 /* always the region's start (hdparm -T) */
};

struct sb_probe_req {
	uint64_t n;	 /* 1-based request number */
	uint64_t offset; /* absolute, in the target */
	uint64_t ns;	 /* time of the request */
	int warmup;	 /* not in the statistics */
	int mark;	 /* sb_ioping_mark of a valid request */
};

struct sb_probe_params {
	int fd;
	uint64_t offset, size; /* the region; requests never leave it */
	uint32_t bs;
	int write; /* pwrite (fresh random data each time) instead of pread */
	enum sb_probe_pattern pattern;
	int stop_at_end;      /* SEQ: stop after the last whole block of the region */
	int drop_cache;	      /* posix_fadvise(DONTNEED) on the range before each request */
	int use_lseek;	      /* lseek + read/write (hdparm), not pread/pwrite */
	uint64_t interval_ns; /* 0: back to back */
	uint64_t count;	      /* requests, warm-up included; 0 = no limit */
	uint64_t deadline_ns; /* stop once this long has passed (0 = none) */
	uint64_t min_time_ns; /* hdparm: stop once this long has passed (0 = none) */
	unsigned warmup;      /* first requests left out of the statistics */
	uint64_t settle_ns;   /* sb_probe_settle's idle time (0 = none) */
	uint64_t seed;
	/* polled between requests: nonzero stops the probe (Ctrl-C) */
	int (*stop)(void *ctx);
	/* called after each request */
	void (*on_request)(void *ctx, const struct sb_probe_req *r);
	void *ctx;
};

/* Aligned buffer of bs bytes for the probe (free with free()). */
void *sb_probe_buffer(uint32_t bs);
/* Run the probe, adding every request to st (initialised by the caller,
 * with the wall time set at the end). Returns 0, or -errno of the first
 * failed request (st holds the requests before it); *fail_offset gets its
 * offset. -EINVAL for a region smaller than bs. */
int sb_probe_run(const struct sb_probe_params *p, struct sb_ioping *st, uint64_t *fail_offset);

/* Before the first request: sync(), then p->settle_ns idle (hdparm's "give
 * time for I/O to settle"), ended early by p->stop. */
void sb_probe_settle(const struct sb_probe_params *p);

/* hdparm -T's correction: the time of n lseek(fd, off, SEEK_SET) calls with
 * a clock read after each, in ns (hdparm subtracts it from the elapsed time
 * of n cached reads). */
uint64_t sb_probe_seek_overhead_ns(int fd, uint64_t off, uint64_t n);

#endif
