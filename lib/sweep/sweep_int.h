/* Inside lib/sweep: the state of a run and the timed pass shared by the
 * test implementations. Not a public header. */
#ifndef SB_SWEEP_INT_H
#define SB_SWEEP_INT_H

#include "lib/sweep/sweep.h"
#include "lib/coord/coord.h"
#include "lib/stats/live_rate.h"

struct sweep_ranks;

/* What a progress line of a sweep shows (sweep_meter.c), kept by
 * sb_sweep_run for its progress hook: the cell of how many, the bytes of
 * the whole sweep done (each test moves its file's size), and the
 * records' rate. */
struct sb_sweep_meter {
	const struct sb_sweep_result *r; /* planned */
	unsigned cell, ncells, fi, ri;	 /* cell 1.. of ncells (0 before the first) */
	int test;			 /* the test running, -1 none */
	uint64_t total, ended, moved, test_moved0, unchecked; /* bytes */
	struct sb_rate rate;				      /* of moved */
};
void sb_sweep_meter_start(struct sb_sweep_meter *m, const struct sb_sweep_result *r);
/* Before each test of cell (fi, ri), after the cell (-1). 1 when a cell
 * begins on a file size of its own (the first, or another than the cell
 * before). */
int sb_sweep_meter_step(struct sb_sweep_meter *m, unsigned fi, unsigned ri, int test, uint64_t now);
/* Before each record of the test running: counted; 1 once another MiB
 * went (*now then read, the rate given a snapshot), keeping the clock out
 * of small records' timing. */
int sb_sweep_meter_record(struct sb_sweep_meter *m, uint64_t *now);
/* The bytes of the sweep done: a test's file size for each test ended,
 * the records of the one running. */
uint64_t sb_sweep_meter_done(const struct sb_sweep_meter *m);

/* A run: options, hooks, where results go, and the current cell. */
struct sweep_run {
	const struct sb_sweep_opts *o;
	const struct sb_sweep_hooks *h; /* never NULL (an empty one) */
	struct sb_sweep_result *r;
	const char *path;
	int fd;			/* the test file, held open: every pass reopens it
				 * through this (sb_scratch_reopen), never by name */
	unsigned char *buf;	/* one record, aligned for O_DIRECT, random data */
	uint64_t nwritten;	/* records written, and ... */
	uint64_t key;		/* ... the key scrambled into buf for the last one */
	uint64_t burst_written; /* bytes since the last burst sleep (over the whole run) */
	uint64_t *perm;		/* the random tests' record order */
	uint64_t permcap;
	uint64_t fsize, rec, numrecs; /* the cell */
	int have_data;		      /* the file holds numrecs records now */
	/* the last timed pass: the bytes it moved, whether it ended early */
	uint64_t pass_bytes;
	int pass_early;
	struct sb_sweep_meter m; /* what the progress hook is told */
	/* many ranks (sweep_ranks.c); NULL alone */
	struct sb_coord *co;
	struct sweep_ranks *rk;
	/* what the progress hook hears of them (rank 0: every rank's bytes
	 * of the sweep done summed by the last round, and the rate of their
	 * records moved, each round's sum as it was when the round began) */
	unsigned nranks;
	int have_all;
	uint64_t all_done;
	struct sb_rate all;
};

/* ---- the progress hook (sweep_meter.c) ---- */
/* Before each test of cell (fi, ri) (test >= 0) and after the cell (-1):
 * the meter follows, the progress hook is told. */
void sb_sweep_step(struct sweep_run *s, unsigned fi, unsigned ri, int test);
/* The progress hook told (kind, now). */
void sb_sweep_told(struct sweep_run *s, enum sb_sweep_tell kind, uint64_t now);

/* ---- many ranks (sweep_ranks.c); each a no-op when s->rk is NULL ---- */
/* Before each test and each record: the progress meter counts it (a
 * record of the test running), the hooks' stop and the ranks' rounds are
 * asked. 0 go on, SB_SWEEP_END_PASS (the timed pass ends), else stop. */
int sb_sweep_poll(struct sweep_run *s);
/* The ranks' state, when coord has more than one: 0 or -ENOMEM. */
int sb_sweep_ranks_start(struct sweep_run *s);
/* Before timed pass (test, fi, ri): every rank starts it together.
 * -EINTR: another rank failed or stopped (this one stops too); -ETIMEDOUT
 * when a rank did not answer. */
int sb_sweep_ranks_begin(struct sweep_run *s, int test, unsigned fi, unsigned ri);
/* After it (end 1: its figure stored, -1: failed or stopped): its end
 * stamped, then the rounds answered until every rank's pass is over. */
void sb_sweep_ranks_end(struct sweep_run *s, int test, unsigned fi, unsigned ri, int end);
/* From sb_sweep_poll, in a timed pass: a look at the rounds now and then;
 * SB_SWEEP_END_PASS once another rank ended the pass (--stonewall), 1
 * when the ranks cannot be reached (the run stops), else 0. */
int sb_sweep_ranks_poll(struct sweep_run *s);
/* After the run (e its return so far): every rank's worst into err,
 * rank 0 gathers every rank's matrices into the aggregate s->r. The
 * return: e, or -ECANCELED / -EINTR where another rank failed. */
int sb_sweep_ranks_finish(struct sweep_run *s, int e, struct sb_error *err);
void sb_sweep_ranks_free(struct sweep_run *s);

/* One pass over the file: an open descriptor or stream and its timing. */
struct sweep_pass {
	struct sweep_run *s;
	int test;
	int fd;
	FILE *fp;
	char *stdio_buf;
	uint64_t t0, idle_ns;
	int timing;
	uint64_t bytes; /* moved while timing */
	int early;	/* ended early (SB_SWEEP_END_PASS) */
};

void sb_sweep_event(struct sweep_run *s, int test, int op, uint64_t off, uint64_t len,
		    const void *data);

/* Open the test file anew (flags as open(2); O_DIRECT added when asked):
 * a description of its own, as iozone's open of each test. */
int sb_sweep_pass_open(struct sweep_pass *p, struct sweep_run *s, int test, int flags);
/* Open it as a stdio stream (mode as fopen) with a record-sized buffer, as
 * iozone's setvbuf(_IOFBF, reclen). */
int sb_sweep_pass_fopen(struct sweep_pass *p, struct sweep_run *s, int test, const char *mode);
/* Start the clock. */
void sb_sweep_pass_begin(struct sweep_pass *p);
/* One record at off: lseek first when seek (as iozone does there), then
 * read or write it whole. Writes count toward the burst. 0, 1 when the
 * timed pass is to end here (the poll said SB_SWEEP_END_PASS; the
 * record not done), or -errno. */
int sb_sweep_pass_io(struct sweep_pass *p, int wr, uint64_t off, int seek);
/* Stop the clock after fsync/close as the options say; finish the rest
 * untimed, as iozone does. *elapsed_ns excludes burst sleeps; the run's
 * pass_bytes and pass_early say what the timed pass did. */
int sb_sweep_pass_end(struct sweep_pass *p, uint64_t *elapsed_ns);
/* Close whatever is open, untimed (after a failure). */
void sb_sweep_pass_abort(struct sweep_pass *p);

/* Run one test on the current cell; *elapsed_ns of its timed pass. */
int sb_sweep_test_run(struct sweep_run *s, int test, uint64_t *elapsed_ns);
/* Write the whole file untimed (a read test without a write test before it). */
int sb_sweep_layout(struct sweep_run *s);

#endif
