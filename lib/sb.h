/*
 * Common definitions of libstorbench. Every lib/ and cli/ file includes this
 * first. lib/ never prints and never exits: calls return 0 (or a count) on
 * success and a negative errno on failure.
 */
#ifndef SB_H
#define SB_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SB_LIKELY(x) __builtin_expect(!!(x), 1)
#define SB_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SB_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SB_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Data directions. READ/WRITE/TRIM are measured; SYNC is an fsync request. */
enum sb_ddir {
	SB_DDIR_READ = 0,
	SB_DDIR_WRITE = 1,
	SB_DDIR_TRIM = 2,
	SB_DDIR_N = 3,	  /* number of measured directions */
	SB_DDIR_SYNC = 3, /* fsync/fdatasync, not counted as I/O */
};

static inline const char *sb_ddir_name(int ddir)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	return ddir >= 0 && ddir <= SB_DDIR_SYNC ? names[ddir] : "?";
}

/* Monotonic time in nanoseconds. */
static inline uint64_t sb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Version and the optional features compiled in, e.g. "io_uring libaio". */
const char *sb_version(void);
const char *sb_features(void);

#include "lib/banned.h"
#endif
