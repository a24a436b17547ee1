/*
 * Inside lib/verify: what a verify run asks of the ranks (lib/coord), in
 * one small adapter over coord.h's calls: an agreement, the largest of the
 * ranks' values, a round of "anyone done, all done" while a phase runs,
 * and each rank's part gathered on rank 0. A NULL handle, or one of one
 * rank, is alone: every call answers at once. Every wait is bounded: a
 * rank that does not answer makes the call return -ETIMEDOUT (or -EIO),
 * with err saying what was waited for, and the caller ends the job.
 *
 * The round pacer and the agreement are lib/coord's to hold for every
 * method (issue 27); until they are there, they are here.
 */
#ifndef SB_VERIFY_RANKS_H
#define SB_VERIFY_RANKS_H

#include "lib/coord/coord.h"
#include "lib/verify/verify_target.h"

/* Setup steps (a fill of files may take long); a round while a phase
 * runs is polled from its I/O loop: a rank may be in a long request or
 * its fsync, so its wait is bounded as a setup's. */
#define SB_VRANKS_TIMEOUT_S 600.0

int sb_vranks_size(const struct sb_coord *c);
int sb_vranks_rank(const struct sb_coord *c);
double sb_vranks_time(const struct sb_coord *c);

/* Every rank's code (0: it goes on): *code becomes the first failing
 * rank's on every rank, *who that rank (-1 none). 0, or -errno with err. */
int sb_vranks_agree(struct sb_coord *c, int *code, int *who, struct sb_error *err);
/* The largest of every rank's *v, on every rank. 0, or -errno with err. */
int sb_vranks_worst(struct sb_coord *c, long *v, struct sb_error *err);

/* A round while a phase runs: one look starts one when due (every 50 ms,
 * at once when this rank is done) with this rank's two counters, and tests
 * the one in flight. 1 when it ended (*all: every rank done; on rank 0
 * sum[] every rank's counters as they were at r->started_ns), 0 not yet,
 * -errno with err. A zeroed struct has none in flight. */
struct sb_vranks_round {
	int in_flight;
	uint64_t started_ns, ended_ns;
};
int sb_vranks_round_look(struct sb_coord *c, struct sb_vranks_round *r, int done, uint64_t a,
			 uint64_t b, uint64_t now, int *all, uint64_t sum[2], struct sb_error *err);

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
