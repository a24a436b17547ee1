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
	SB_DDIR_SYNC = 3,     /* fsync, not counted as I/O */
	SB_DDIR_DATASYNC = 4, /* fdatasync (fio's fdatasync=N), likewise */
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

/* What kind of error a call met, which the program turns into its exit
 * code: the input was wrong (an option, a target of the wrong kind, a
 * refusal the user can lift), the target or the environment cannot be
 * used (missing, read-only, full, permission, a busy device), the test
 * ran and failed, or a stop was asked for (a Ctrl-C: no message). */
enum sb_errclass { SB_ERR_INPUT, SB_ERR_ENV, SB_ERR_FAIL, SB_ERR_STOPPED };

/* A call's error where a person must be told why: err, the -errno the
 * call returned; cls, its kind; msg, what the program prints (without its
 * name, "" when there is nothing to say). */
struct sb_error {
	int err;
	enum sb_errclass cls;
	char msg[4352]; /* room for a path and the words around it */
};
/* The class of an -errno a path or a device answered with: SB_ERR_ENV for
 * a target or a system that cannot be used now (missing, read-only, full,
 * no permission, busy, out of memory), SB_ERR_FAIL for an I/O error (the
 * device failed a request), SB_ERR_INPUT for the rest (a name too long, a
 * path of the wrong kind, an invalid argument). */
enum sb_errclass sb_errno_class(int err);
/* Fill e (msg from fmt) and return err. */
int sb_error_set(struct sb_error *e, int err, enum sb_errclass cls, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A class as a code that ranks agree on by their maximum (1 a failure, 2
 * wrong input, 3 the environment, 4 a stop: the order of the program's exit
 * codes, so that the worst wins as it would there), and back (0: none
 * reads as SB_ERR_FAIL). */
long sb_errclass_code(enum sb_errclass cls);
enum sb_errclass sb_errclass_of(long code);

/* Version and the optional features compiled in, e.g. "io_uring libaio". */
const char *sb_version(void);
const char *sb_features(void);

#include "lib/banned.h"
#endif
