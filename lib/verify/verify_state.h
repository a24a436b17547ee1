/*
 * fio's verify_state_save and verify_state_load in storbench's terms: a
 * verify= job that writes leaves a state file saying which of its blocks
 * are valid (its region once the fill before the workload ended: the
 * workload rewrites the same blocks), and a later run's job that only
 * reads checks those blocks with the writer's seed and block size.
 *
 * The file is named as fio names its own (verify-state.h:
 * PREFIX-JOB-N-verify.state, '/' in the job's name made '.', PREFIX
 * "local", N the job's thread number from 0), but it is text, not fio's
 * binary struct, so neither program reads the other's:
 *
 *   storbench verify state 1
 *   job NAME          the job's name
 *   file PATH         its file, as the job named it (a line each, in
 *                     the job's order, for a filename= list's files)
 *   seed N            the blocks' seed, block size, generation and
 *   block_size N      checksum algorithm (lib/verify/block.h)
 *   generation N
 *   csum N
 *   offset N          the job's region in the file, bytes (several
 *   size N            files: 0, and their sizes together)
 *   done N            bytes of the region valid from its start: 0 until
 *                     the fill ended, then size
 *   ended 0|1         1: the job ran to its end
 *
 * Every line is required, in this order; the file is written whole or not
 * at all (lib/base/outfile.h), and never over a file that is not a state
 * file.
 */
#ifndef SB_VERIFY_STATE_H
#define SB_VERIFY_STATE_H

#include "lib/sb.h"
#include "lib/verify/block.h"

#define SB_VERIFY_STATE_MAGIC "storbench verify state 1"
#define SB_VERIFY_STATE_MAX 65536 /* bytes: a longer file is no state file */

struct sb_verify_state {
	char job[64];
	char file[4096];
	/* the files after the first (a filename= list), each NUL-ended one
	 * after the other, nmore of them */
	char more[8192];
	unsigned nmore;
	struct sb_verify_fmt fmt; /* seed, block_size, generation, csum */
	uint64_t offset, size, done;
	int ended;
};

/* fio's name of job `job`'s state file (its thread number num) in
 * directory dir ("" or "." the current one). 0, or -ENAMETOOLONG. */
int sb_verify_state_name(char *out, size_t n, const char *dir, const char *job, unsigned num);

/* s as a state file's text (NUL-ended in out). 0, or -ENOSPC. */
int sb_verify_state_format(const struct sb_verify_state *s, char *out, size_t n);
/* A state file's text (len bytes, not NUL-ended) into s. 0, or -EINVAL
 * with msg saying what is wrong (the line). */
int sb_verify_state_parse(const char *text, size_t len, struct sb_verify_state *s, char *msg,
			  size_t ml);

/* Whether path may be written as a state file: not there, or a state
 * file (a regular file whose first line is the magic). 0, or -EEXIST
 * (another file), -errno, with msg. */
int sb_verify_state_may_write(const char *path, char *msg, size_t ml);
/* Writes s to path whole (after sb_verify_state_may_write). 0 or -errno
 * with msg. */
int sb_verify_state_write(const char *path, const struct sb_verify_state *s, char *msg, size_t ml);
/* Reads path (never through a symlink). 0, or -errno (-EINVAL: not a
 * state file of this storbench, fio's own binary one included) with msg. */
int sb_verify_state_read(const char *path, struct sb_verify_state *s, char *msg, size_t ml);

#endif
