/*
 * Coordination of ranks: every call that a multi-host run (mpirun -n N
 * storbench ...) makes of MPI, and nothing else does. Two twins implement
 * it: coord_mpi.c (make MPI=1, Open MPI) and coord_single.c (the default
 * build), where a process is rank 0 of 1 and every call is a no-op, so
 * that the commands carry no #ifdef.
 *
 * Nothing here waits forever: a barrier or an exchange that does not end
 * within its deadline returns -ETIMEDOUT (a rank died or hangs), every
 * later call fails so too (sb_coord_failed), and the program ends the job
 * with sb_coord_abort.
 */
#ifndef SB_COORD_H
#define SB_COORD_H

#include "lib/sb.h"
#include "lib/stats/live_rate.h"

struct sb_coord;

/* Joins the job mpirun started (MPI_Init) when mpi is set (the program
 * saw it was launched by mpirun) and the build has MPI; alone otherwise.
 * *out is never NULL after a 0 return. */
int sb_coord_init(struct sb_coord **out, int mpi, int *argc, char ***argv);
/* MPI_Finalize; frees c (NULL accepted). */
void sb_coord_finish(struct sb_coord *c);
int sb_coord_rank(const struct sb_coord *c);
int sb_coord_size(const struct sb_coord *c);
/* This rank's host name (MPI_Get_processor_name, else uname). */
const char *sb_coord_host(const struct sb_coord *c);
/* "Open MPI v4.1.4, ..." where built with MPI, else NULL. */
const char *sb_coord_library(void);
/* Seconds on this rank's clock (MPI_Wtime; CLOCK_MONOTONIC alone). */
double sb_coord_time(const struct sb_coord *c);

/* Every rank waits for all within timeout_s: 0 or -ETIMEDOUT. */
int sb_coord_barrier(struct sb_coord *c, double timeout_s);
/* Each rank gives len bytes; rank 0 gets them all in rank order in out
 * (size * len bytes; NULL elsewhere). 0 or -ETIMEDOUT. */
int sb_coord_gather(struct sb_coord *c, const void *in, size_t len, void *out, double timeout_s);
/* Rank 0's len bytes to every rank. */
int sb_coord_bcast(struct sb_coord *c, void *buf, size_t len, double timeout_s);
/* The maximum over the ranks of each of the n values (in place). */
int sb_coord_max(struct sb_coord *c, long *v, unsigned n, double timeout_s);
/* Rank 0's estimate of each rank's clock against its own (offset[r]: what
 * rank r's sb_coord_time is ahead; offset[0] 0) by the best of a few
 * round trips, and that round trip (rtt[r]); arrays of size entries, on
 * rank 0 only (NULL elsewhere). */
int sb_coord_clock_offsets(struct sb_coord *c, double *offset, double *rtt, double timeout_s);
/* Rank 0: rank r's offset as sb_coord_clock_offsets measured it last (0
 * before, on the other ranks, and alone). */
double sb_coord_clock_offset(const struct sb_coord *c, int r);
/* The round trip that estimate came from (s; 0 likewise). */
double sb_coord_clock_rtt(const struct sb_coord *c, int r);

/* A round of "is anyone done, is everyone done" that runs while the ranks
 * measure, without blocking: start one with this rank's state and its
 * counters (SB_COORD_SUMS of them: bytes and requests so far, and what
 * else the caller sums, 0 where unused), poll until
 * it returns 1 (then *any and *all are set, and on rank 0 sum[] holds
 * every rank's counters summed, as they were when the round started),
 * start the next. */
#define SB_COORD_SUMS 40
int sb_coord_poll_start(struct sb_coord *c, int done, const uint64_t *counters);
/* 0: not yet; 1: ended; -ETIMEDOUT past timeout_s since its start. sum
 * may be NULL. */
int sb_coord_poll_test(struct sb_coord *c, int *any, int *all, uint64_t *sum, double timeout_s);

/* ---- steps every method takes over the calls above (coord_steps.c) ---- */

/* A loop that does work between its looks at the rounds (verify's and
 * soak's phases, meta's tests): one look starts a round when due (the
 * last one ended SB_COORD_ROUND_EVERY_NS ago, or at once when this rank
 * is done) with this rank's two counters, and tests the round in flight
 * (within timeout_s of its start). 1 when it ended: *any, *all set, and
 * on rank 0 sum[0] and sum[1] the ranks' counters as they were at
 * r->started_ns; 0 not yet; -ETIMEDOUT, -EIO. A zeroed struct: none in
 * flight. */
#define SB_COORD_ROUND_EVERY_NS 50000000ull
struct sb_coord_round {
	int in_flight;
	uint64_t started_ns, ended_ns;
};
int sb_coord_round_look(struct sb_coord *c, struct sb_coord_round *r, int done, uint64_t a,
			uint64_t b, uint64_t now, int *any, int *all, uint64_t sum[2],
			double timeout_s);
/* Many ranks in one phase: what rank 0's progress line shows of them all,
 * the bytes done and of the phase summed (a round behind) and their rate.
 * A zeroed struct: none yet. */
struct sb_coord_sum {
	struct sb_coord_round round;
	struct sb_rate rate; /* rank 0: of the sums */
	int have;	     /* rank 0: a round ended */
	uint64_t done, total;
};
/* One look (sb_coord_round_look) with this rank's done of total bytes,
 * over once its phase is: 1 when a round ended with every rank done, 0 not
 * yet, -errno of the coordination. */
int sb_coord_sum_look(struct sb_coord *c, struct sb_coord_sum *s, uint64_t done, uint64_t total,
		      int over, uint64_t now, double timeout_s);
/* Rank 0: the rate of the sums as of the last round; -1 not known yet. */
double sb_coord_sum_rate(const struct sb_coord_sum *s);
/* Every rank's code (0: it goes on) to every rank: *code becomes the first
 * failing rank's (0 when none failed), *who that rank (-1 none). Alone:
 * as given. 0 or -ETIMEDOUT, -ENOMEM. */
int sb_coord_agree(struct sb_coord *c, int *code, int *who, double timeout_s);
/* The same, each rank with a message saying why (NULL or "": none): rank
 * 0 hears every failing rank's message, in rank order, through
 * said(ctx, rank, msg) (a message only that rank printed would be lost
 * among the others', or never seen on another host). */
int sb_coord_agree_said(struct sb_coord *c, int *code, int *who, const char *msg,
			void (*said)(void *ctx, int rank, const char *msg), void *ctx,
			double timeout_s);
/* Every rank runs the same program: ident (the version, the features,
 * the size of what the ranks exchange; cut to SB_COORD_IDENT_LEN - 1
 * bytes) gathered to rank 0 and compared with its own; every rank learns
 * the verdict. 0 with *same, and on rank 0 msg naming the first rank that
 * differs ("" none); or -errno of the coordination (msg may name a
 * difference already). */
#define SB_COORD_IDENT_LEN 160
int sb_coord_same_program(struct sb_coord *c, const char *ident, int *same, char *msg,
			  size_t len, double timeout_s);
/* "rank 2 on HOST: ", what this rank's messages start with in a run of
 * many ranks ("" alone). */
void sb_coord_prefix(const struct sb_coord *c, char *buf, size_t len);
/* A call that failed with e (a rank died or hangs) while doing what: err
 * says so ("what: no answer from every rank in time: ending the job ..."),
 * class SB_ERR_ENV; returns e. */
int sb_coord_lost(struct sb_error *err, const char *what, int e);

/* ---- space on a filesystem the ranks share (coord_space.c) ---- */

/* What a rank will write on a filesystem: which one (its host and the
 * st_dev of the path, or of its parent for a file to make), how much, and
 * what is free there; gathered to rank 0 as it is. */
struct sb_coord_space {
	char host[64];
	uint64_t dev; /* UINT64_MAX: the path and its parent are not there */
	uint64_t need, avail;
	char fs[256]; /* its mount point, else the path */
};
/* This rank's record: path's filesystem, the bytes it needs there and
 * those free, fs its mount point (NULL or "": path is named). */
void sb_coord_space_mine(const struct sb_coord *c, struct sb_coord_space *s, const char *path,
			 uint64_t need, uint64_t avail, const char *fs);
/* Rank 0, with every rank's record (n, in rank order): the first
 * filesystem whose ranks (two or more, on one host) need more together
 * than it has free: the first of those ranks, msg saying which need how
 * much; -1 when every group fits. */
int sb_coord_space_verdict(const struct sb_coord_space *all, int n, char *msg, size_t len);

/* The first call that failed (-ETIMEDOUT: a rank died or hangs; -EIO):
 * after it every call fails so at once, and the program ends the job
 * (sb_coord_abort). 0: none failed. */
int sb_coord_failed(const struct sb_coord *c);

/* Ends every rank of the job with code (MPI_Abort); only returns alone. */
void sb_coord_abort(struct sb_coord *c, int code);

#endif
