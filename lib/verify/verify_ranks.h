/*
 * Inside lib/verify: what a verify run asks of the ranks over lib/coord's
 * steps (the agreement, the round pacer are coord.h's): the largest of the
 * ranks' values, and each rank's part gathered on rank 0. A NULL handle,
 * or one of one rank, is alone: every call answers at once. Every wait is
 * bounded: a rank that does not answer makes the call return -ETIMEDOUT
 * (or -EIO), with err saying what was waited for (sb_coord_lost), and the
 * caller ends the job.
 */
#ifndef SB_VERIFY_RANKS_H
#define SB_VERIFY_RANKS_H

#include "lib/coord/coord.h"
#include "lib/verify/verify_target.h"

/* Setup steps (a fill of files may take long); a round while a phase
 * runs is polled from its I/O loop: a rank may be in a long request or
 * its fsync, so its wait is bounded as a setup's. */
#define SB_VRANKS_TIMEOUT_S 600.0

/* The largest of every rank's *v, on every rank. 0, or -errno with err. */
int sb_vranks_worst(struct sb_coord *c, long *v, struct sb_error *err);

/* Each rank's len bytes to rank 0: *all a malloc'ed array of every
 * rank's, in rank order (the caller frees it), NULL on the other ranks.
 * 0, or -errno with err. */
int sb_vranks_gather_parts(struct sb_coord *c, const void *mine, size_t len, void **all,
			   struct sb_error *err);
/* Each rank's part of r to rank 0, whose r then holds the counts of all
 * (each rank's part in r->ranks, malloc'ed: the caller frees it), a
 * failing rank's failure, and the bytes and write errors summed. The bad
 * ranges stay each rank's (offsets in its own target), in its part. 0, or
 * -errno with err. */
int sb_vranks_gather(struct sb_coord *c, struct sb_verify_report *r, struct sb_error *err);

#endif
