/*
 * Many ranks at once (mpirun -n N storbench COMMAND ...): the state a run
 * of ranks keeps and every step the program takes over lib/coord's calls
 * (coord_ranks.c). The program owns one struct sb_ranks, joins the job with it
 * and hands its coord to the methods; nothing here prints or ends the job:
 *
 *   - a step that loses a rank (no answer within its deadline, no memory)
 *     returns -errno with err saying so (sb_coord_lost, class SB_ERR_ENV),
 *     and the program ends the job;
 *   - what a person reads is told through the hooks: rank 0 hears each
 *     failing rank's message in an agreement (said), this rank's errors and
 *     warnings (error, warning).
 *
 * Alone (one rank), every step is a copy or nothing.
 */
#ifndef SB_COORD_RANKS_H
#define SB_COORD_RANKS_H

#include "lib/coord/coord.h"
#include "lib/target/rankdir.h"

/* Setup (a layout of test files) may take long: how long a step waits
 * for the slowest rank. */
#define SB_RANKS_SETUP_S 600.0

struct sb_ranks_hooks {
	void *ctx;
	/* rank 0: a failing rank's message in an agreement (it starts with
	 * that rank's name: "rank 2 on HOST: ") */
	void (*said)(void *ctx, int rank, const char *msg);
	/* this rank's own error and warning */
	void (*error)(void *ctx, const char *msg);
	void (*warning)(void *ctx, const char *msg);
};

struct sb_ranks {
	struct sb_coord *c;
	int size, rank;
	double *offset,
		*rtt; /* rank 0: each rank's clock against its own (sb_coord_clock_offset) */
	int stonewall;
	int per_rank_dir; /* -1: default (on for a directory), 0, 1 */
	char dir[4096];	  /* the rank's directory made here, "" none */
	/* its marker (lib/target/rankdir.h), when open; the files noted in it */
	struct sb_rankdir rd;
	int rd_open;
	unsigned noted;
	char run_id[64]; /* rank 0's host, pid and start: the same on every rank */
	struct sb_ranks_hooks h;
};

/* A struct sb_ranks before sb_ranks_join: one rank, defaults. */
#define SB_RANKS_INIT                         \
	{                                     \
		.size = 1, .per_rank_dir = -1 \
	}

/* Joins the job (sb_coord_init: mpi when launched by mpirun and built with
 * MPI) and learns this rank and the size; h (NULL: none) is kept. 0 or
 * -errno. */
int sb_ranks_join(struct sb_ranks *r, int mpi, int *argc, char ***argv,
		  const struct sb_ranks_hooks *h);
/* Of many ranks, before any command: every rank runs the same program
 * (ident: the version, the features, the size of what the ranks exchange;
 * rank 0 tells the first difference through the error hook), rank 0
 * measures each rank's clock, and the run's name is rank 0's on every
 * rank. 0; -EPROTO when the programs differ (said already: err's message
 * empty); else the job is lost (err). Alone: 0. */
int sb_ranks_start(struct sb_ranks *r, const char *ident, long pid, long long now,
		   struct sb_error *err);
/* Leaves the job (MPI_Finalize) and frees what r holds. */
void sb_ranks_finish(struct sb_ranks *r);

/* Every rank's code (0: it goes on) with its message (NULL: none); rank 0
 * hears every failing rank's message through the said hook; every rank
 * gets the first failing rank's code in *code and that rank in *who (-1
 * none), so that all stop together. Alone: as given. 0 or lost. */
int sb_ranks_agree(struct sb_ranks *r, int *code, int *who, const char *msg, struct sb_error *err);
/* A refusal or failure (*code: the caller's exit code for it, 0 none) with
 * its message in er, agreed by every rank as sb_ranks_agree: the message
 * goes to rank 0 with this rank's name. */
int sb_ranks_agree_error(struct sb_ranks *r, int *code, int *who, const struct sb_error *er,
			 struct sb_error *err);
/* The largest of each of v[0..n) over every rank, on every rank, waiting
 * up to timeout_s for the slowest; what names the step in err when a rank
 * is lost. Alone: v as it is. */
int sb_ranks_max(struct sb_ranks *r, long *v, unsigned n, double timeout_s, const char *what,
		 struct sb_error *err);
/* Every rank's len bytes to rank 0: r->size entries in rank order in *all
 * (the caller frees them; NULL on the other ranks). Alone: a copy. */
int sb_ranks_gather(struct sb_ranks *r, const void *mine, size_t len, void **all,
		    struct sb_error *err);
/* Rank 0's len bytes to every rank. */
int sb_ranks_bcast(struct sb_ranks *r, void *buf, size_t len, struct sb_error *err);

/* ---- a rank's own directory under a directory TARGET ---- */

/* The path this rank works on: TARGET/storbench-rank-N under a directory
 * TARGET (of many ranks, unless --per-rank-dir=0), else path. */
const char *sb_ranks_target(struct sb_ranks *r, const char *path, int is_dir);
/* Makes this rank's directory with a marker naming this run, or finds the
 * one a killed run left and decides whether it may be taken over (a
 * refusal touches nothing: -errno, er why). */
int sb_ranks_make_dir(struct sb_ranks *r, struct sb_error *er);
/* After every rank agreed: removes what a killed run made in the
 * directory taken over, with a warning naming it. */
int sb_ranks_claim_dir(struct sb_ranks *r, struct sb_error *er);
/* What an agreed step of many takes and gives back: code_of maps a
 * refusal to the code the ranks agree on (the program's exit code); code
 * is then 0, or the code every rank agreed on, and who the first rank that
 * refused (-1 none). */
struct sb_ranks_agreed {
	int (*code_of)(const struct sb_error *er);
	int code, who;
};
/* The one rule of every command for a rank's directory: where this rank
 * works (*where). To write (write), the directory is this run's: made with
 * its marker, or one a killed storbench run left taken over (make, then
 * claim once every rank agreed); anything else under that name is a
 * refusal on every rank that touches nothing (a->code). 0 or lost. */
int sb_ranks_dir(struct sb_ranks *r, const char *path, int is_dir, int write, const char **where,
		 struct sb_ranks_agreed *a, struct sb_error *err);
/* A file made in the directory: noted in its marker. */
void sb_ranks_note_file(struct sb_ranks *r, const char *path);
/* The directory made here removed (keep: its noted files kept, and marked
 * so); one this run did not make is never removed. */
void sb_ranks_remove_dir(struct sb_ranks *r, int keep);

/* ---- a job's target (coord_target.c) ---- */

struct sb_jobtarget;
struct sb_job_opts;
/* Many ranks: every rank checks its target creating nothing (a check-only
 * sb_jobtarget_prepare), and they agree; the ranks on one filesystem fit
 * on it together (sb_ranks_space_agree); a directory TARGET gets the
 * rank's own directory (sb_ranks_dir; *own_dir set); then each prepares
 * its files and they agree again (a full disk on one host stops all).
 * Nothing is written before the first agreement. a->code: 0 or the code
 * every rank agreed on. 0 or lost. */
int sb_ranks_jobtarget_prepare(struct sb_ranks *r, struct sb_jobtarget *t, const char *path,
			       struct sb_job_opts *job, int needs_data, int noio, int *own_dir,
			       struct sb_ranks_agreed *a, struct sb_error *err);

/* The target probed on every rank (sb_jobtarget_probe, creating nothing;
 * a rank's refusal told through its error hook, as alone) and agreed. 0 or
 * lost; a->code 0 or the code every rank agreed on. */
int sb_ranks_probe(struct sb_ranks *r, struct sb_jobtarget *t, const char *path,
		   struct sb_ranks_agreed *a, struct sb_error *err);
/* sb_ranks_probe, then the rank's own directory (sb_ranks_dir: to write
 * when write): *path becomes it, t zeroed to be probed anew there. */
int sb_ranks_probe_dir(struct sb_ranks *r, struct sb_jobtarget *t, const char **path, int write,
		       struct sb_ranks_agreed *a, struct sb_error *err);

/* ---- space on a filesystem the ranks share ---- */

/* Before any rank writes: each rank's filesystem, the bytes it will need
 * there and those free (fs: its name in the message); rank 0 finds the
 * first filesystem whose ranks need more together than it has free
 * (sb_coord_space_verdict), and the first of those ranks refuses with
 * refuse (an exit code) and the message naming them, agreed as
 * sb_ranks_agree: *code on every rank. Alone: *code 0. */
int sb_ranks_space_agree(struct sb_ranks *r, const char *path, uint64_t need, uint64_t avail,
			 const char *fs, int refuse, int *code, int *who, struct sb_error *err);

#endif
