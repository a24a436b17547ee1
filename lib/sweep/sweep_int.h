/* Inside lib/sweep: the state of a run and the timed pass shared by the
 * test implementations. Not a public header. */
#ifndef SB_SWEEP_INT_H
#define SB_SWEEP_INT_H

#include "lib/sweep/sweep.h"

/* A run: options, where results go, and the current cell. */
struct sweep_run {
	const struct sb_sweep_opts *o;
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
};

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
 * timed pass is to end here (should_stop said SB_SWEEP_END_PASS; the
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
