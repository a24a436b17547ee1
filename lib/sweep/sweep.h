/*
 * The iozone-class sweep: iozone's tests (write, rewrite, read, reread,
 * random read and write, backward read, record rewrite, stride read and the
 * stdio variants) over a matrix of file sizes x record sizes, each cell in
 * KiB/s. The definitions are iozone's (see docs/sweep.md and METHODS.md
 * section 4): the same system calls per record (read/write, lseek where
 * iozone seeks), the same order of tests and the same timing rules (fsync
 * and close inside the timing when asked, burst sleeps outside).
 *
 *   struct sb_sweep_opts o; sb_sweep_opts_default(&o);
 *   struct sb_sweep_result *r = calloc(1, sizeof(*r));
 *   sb_sweep_plan(r, &o);              shape of the matrix, nothing touched
 *   o.path = path; o.fd = -1;
 *   sb_sweep_run(&o, &hooks, NULL, r, &err);   creates, measures, removes path
 */
#ifndef SB_SWEEP_H
#define SB_SWEEP_H

#include "lib/sb.h"

struct sb_coord;
struct sb_json;
struct sb_target_info;

/* The tests, in iozone's order (its console columns and -R report order). */
enum sb_sweep_test {
	SB_SWEEP_WRITE,
	SB_SWEEP_REWRITE,
	SB_SWEEP_READ,
	SB_SWEEP_REREAD,
	SB_SWEEP_RANDREAD,
	SB_SWEEP_RANDWRITE,
	SB_SWEEP_BKWDREAD,
	SB_SWEEP_RECREWRITE,
	SB_SWEEP_STRIDEREAD,
	SB_SWEEP_FWRITE,
	SB_SWEEP_FREWRITE,
	SB_SWEEP_FREAD,
	SB_SWEEP_FREREAD,
	SB_SWEEP_NTESTS,
	SB_SWEEP_LAYOUT = SB_SWEEP_NTESTS, /* untimed: writing the file for a read test */
};
#define SB_SWEEP_ALL_TESTS ((1u << SB_SWEEP_NTESTS) - 1)
/* The second passes that iozone -+n leaves out. */
#define SB_SWEEP_RETESTS                                                                  \
	((1u << SB_SWEEP_REWRITE) | (1u << SB_SWEEP_REREAD) | (1u << SB_SWEEP_FREWRITE) | \
	 (1u << SB_SWEEP_FREREAD))

/* "write", "randread", "bkwdread", ... ("layout" for SB_SWEEP_LAYOUT). */
const char *sb_sweep_test_name(int test);
/* A test that writes: write, rewrite, random write, record rewrite,
 * fwrite, frewrite (the layout pass is not a test). */
int sb_sweep_test_writes(int test);
/* iozone's report title: "Writer report", "Re-Fread report", ... */
const char *sb_sweep_test_title(int test);
/* Index of a test name, or -EINVAL. */
int sb_sweep_test_by_name(const char *name);

/* What a trace callback sees: every operation on the test file. */
enum sb_sweep_op {
	SB_SWEEP_OP_BEGIN, /* the timed section starts */
	SB_SWEEP_OP_END,   /* the timed section ends */
	SB_SWEEP_OP_READ,  /* offset, length, data: one record */
	SB_SWEEP_OP_WRITE,
	SB_SWEEP_OP_FSYNC,
	SB_SWEEP_OP_CLOSE,
	SB_SWEEP_OP_DROP, /* the page cache was dropped */
	SB_SWEEP_OP_IDLE, /* burst sleep; length = ns slept */
};
const char *sb_sweep_op_name(int op);

struct sb_sweep_event {
	int test; /* enum sb_sweep_test */
	int op;	  /* enum sb_sweep_op */
	uint64_t file_size, record_size;
	uint64_t offset, length;
	const void *data; /* READ/WRITE: the record's bytes, else NULL */
};

#define SB_SWEEP_MAX_SIZES 40
#define SB_SWEEP_MAX_RECORD (16ull << 20) /* iozone's MAXBUFFERSIZE */
#define SB_SWEEP_CROSSOVER (16ull << 20)  /* files above: no small records */
#define SB_SWEEP_LARGE_REC (64ull << 10)  /* the smallest record above it */

struct sb_sweep_opts {
	/* Sizes in bytes; nfile/nrec 0 means iozone's auto range (file sizes
	 * 64 KiB..512 MiB, record sizes 4 KiB..16 MiB, powers of two). */
	uint64_t file_sizes[SB_SWEEP_MAX_SIZES];
	unsigned nfile;
	uint64_t record_sizes[SB_SWEEP_MAX_SIZES];
	unsigned nrec;
	uint32_t tests;		/* bit mask of 1 << enum sb_sweep_test */
	int all_records;	/* do not skip records < 64 KiB on files > 16 MiB */
	int flush;		/* fsync (fflush for stdio) inside the timing (-e) */
	int close;		/* close inside the timing (-c) */
	int direct;		/* O_DIRECT for the non-stdio tests (-I) */
	int warm;		/* do not drop the page cache before read tests */
	unsigned stride;	/* stride read: records (-j) */
	uint64_t burst_bytes;	/* -+b: after each burst of writes, fsync ... */
	uint64_t burst_idle_ns; /* ... then sleep this long (not counted) */
	uint64_t seed;		/* data, and the random-test permutation */
	int keep;		/* leave the last cell's file in place (iozone -w) */
	/* The test file (struct sb_sweep_file): fd < 0, path is created new
	 * for each cell (O_EXCL, never through a symlink; marked as ours) and
	 * removed after it, as iozone unlinks its file after each cell;
	 * otherwise fd is an existing file the user gave over (path names it
	 * in messages): it is truncated and rewritten, never removed. */
	const char *path;
	int fd;
	/* Many ranks (a coordination handle of more than one): each timed
	 * pass ends on every rank when the first rank's ends (--stonewall).
	 * The ranks' stamps are put on rank 0's clock with the offsets the
	 * handle measured (sb_coord_clock_offset). */
	int stonewall;
};
/* iozone -a -e -c with every test, stride 17, no file (fd -1). */
void sb_sweep_opts_default(struct sb_sweep_opts *o);
/* The values of --tests (names, or all: a mask of 1 << test), of
 * --file-sizes and --record-sizes (at most SB_SWEEP_MAX_SIZES sizes from
 * min to max) and of --burst (SIZE,IDLE: SIZE above 0, IDLE up to 1h;
 * iozone -+b): 0 or -EINVAL. The lists are comma-separated, no item empty. */
int sb_sweep_parse_tests(const char *v, uint32_t *mask);
int sb_sweep_parse_sizes(const char *v, uint64_t *out, unsigned *n, uint64_t min, uint64_t max);
int sb_sweep_parse_burst(struct sb_sweep_opts *o, const char *v);

/* What a progress line of a sweep shows, told to the progress hook:
 * kind says why it is told now. */
enum sb_sweep_tell {
	SB_SWEEP_TELL_STEP,  /* a test of a cell begins (test >= 0), a cell ended (-1) */
	SB_SWEEP_TELL_MIB,   /* another MiB of records went (now_ns read then) */
	SB_SWEEP_TELL_ROUND, /* many ranks: a round ended (rank 0: all_* new) */
	SB_SWEEP_TELL_WAIT,  /* many ranks: this rank's pass ended, the others' not yet */
};
struct sb_sweep_progress {
	enum sb_sweep_tell kind;
	int test;	       /* the test running, -1 between cells */
	unsigned fi, ri;       /* its cell (file size, record size) */
	unsigned cell, ncells; /* the cell, 1.., of the cells that run */
	int size_begins;       /* STEP: a cell on a file size of its own begins */
	uint64_t done, total;  /* this rank's bytes of the sweep: each test ended
				 * counts its file size, the one running its records */
	uint64_t moved;	       /* bytes of records asked for (every pass, untimed too) */
	double bps;	       /* their rate over the last second (sb_rate), -1 not known */
	uint64_t now_ns;       /* sb_now_ns() when told */
	/* many ranks, rank 0: every rank's bytes of the sweep done summed by
	 * the last round, and the rate of their records moved as of that
	 * round (-1 not known yet); have_all 0 before one */
	unsigned nranks;
	int have_all;
	uint64_t all_done;
	double all_bps;
};

/* What the program hears of as a sweep runs; each may be NULL. */
struct sb_sweep_hooks {
	void *ctx;
	/* Polled before each test and each record: non-zero stops the run
	 * (the result interrupted); SB_SWEEP_END_PASS ends the timed pass in
	 * progress there (kept, with the bytes it moved; ignored outside a
	 * timed pass). */
	int (*stop)(void *ctx);
	/* As each test of a cell begins and after the cell, every MiB of
	 * records, and under mpirun at each round and while waiting. */
	void (*progress)(void *ctx, const struct sb_sweep_progress *p);
	/* Each timed pass: begun after its untimed preparation (end 0), its
	 * figure stored (1), or it failed or was stopped (-1). */
	void (*timed)(void *ctx, int test, unsigned fi, unsigned ri, int end);
	/* Every operation on the test file (the tests' trace). */
	void (*trace)(void *ctx, const struct sb_sweep_event *ev);
	/* What is said as it happens, the run going on: rank 0's word that
	 * the ranks' matrices could not be aggregated. */
	void (*error)(void *ctx, const char *msg);
};
/* stop's answer that ends the timed pass where it is. */
#define SB_SWEEP_END_PASS 2

/* State of one cell of one test. */
enum { SB_SWEEP_CELL_SKIP = 0, SB_SWEEP_CELL_PLANNED = 1, SB_SWEEP_CELL_DONE = 2 };

struct sb_sweep_result {
	unsigned nfile, nrec; /* sorted ascending, no duplicates */
	uint64_t file_sizes[SB_SWEEP_MAX_SIZES];
	uint64_t record_sizes[SB_SWEEP_MAX_SIZES];
	int small_record_rule; /* the rule was applied */
	unsigned char state[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	uint64_t kibps[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	uint64_t elapsed_ns[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	/* a timed pass ended early (SB_SWEEP_END_PASS), and
	 * then the bytes it moved (sb_sweep_pass_bytes) */
	unsigned char ended_early[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	uint64_t bytes[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	unsigned cells_planned, cells_done; /* (file, record) pairs */
	int interrupted;
	int cache_method; /* enum sb_cache_method of the drops, 0 none */
	int cache_error;  /* positive errno of a failed drop, 0 when none */
	/* the failure that stopped the run */
	int fail_test; /* enum sb_sweep_test, -1 outside a test */
	int fail_op;   /* SB_SWEEP_OP_*; -1 creating or opening
					 * the file, -2 removing it */
	uint64_t fail_file_size, fail_record_size, fail_offset;
	int fail_errno;
	/* the options of the run (set by sb_sweep_run), for its results */
	const struct sb_sweep_opts *opts;
	/* many ranks (mpirun): the matrices above are the All clients
	 * aggregate of these (sb_sweep_aggregate); NULL, 0 for one process */
	const struct sb_sweep_rank *ranks;
	unsigned nranks;
	int stonewall; /* many ranks: each timed pass ended with the first rank's */
	/* many ranks: a rank did not answer in time (err says so): the
	 * program ends the job (sb_coord_abort), the others may be waiting */
	int ranks_lost;
};

/* One rank's sweep under mpirun: its own matrices and, per cell and test,
 * when its timed pass started and ended (seconds, on rank 0's clock). */
struct sb_sweep_rank {
	int rank;
	char host[64];
	double clock_offset_s; /* its clock ahead of rank 0's */
	double start_s[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	double end_s[SB_SWEEP_NTESTS][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	struct sb_sweep_result r; /* opts, ranks not set */
};
/* Bytes a timed pass of cell (fi, ri) moves: whole records of the file. */
uint64_t sb_sweep_cell_bytes(const struct sb_sweep_result *r, unsigned fi, unsigned ri);
/* Bytes the timed pass of test t in cell (fi, ri) moved: the cell's,
 * fewer where it ended early (in an aggregate: the ranks' summed). */
uint64_t sb_sweep_pass_bytes(const struct sb_sweep_result *r, int t, unsigned fi, unsigned ri);
/* The All clients aggregate of n ranks into agg (planned as they were): a
 * cell of a test is measured where every rank measured it; its bytes are
 * the ranks' summed (each pass's own, fewer where it ended early; the
 * aggregate's ended_early where any rank's did), its elapsed_ns the span from the earliest start to
 * the latest end, its KiB/s those bytes over that span (iozone's integer
 * rounding); cells_done the cells every rank finished. agg->ranks = ranks.
 * -EINVAL when the ranks' shapes differ from agg's. */
int sb_sweep_aggregate(struct sb_sweep_result *agg, const struct sb_sweep_rank *ranks, unsigned n);
/* Per cell and test of the aggregate: how far apart the ranks' timed
 * passes started and ended (seconds); 0 for one rank or a cell not
 * measured. */
void sb_sweep_spread(const struct sb_sweep_result *agg, int test, unsigned fi, unsigned ri,
		     double *start_spread, double *end_spread);

/* Fills the shape of the matrix: sizes (auto ranges when o gives none),
 * and which cells of which tests will run: records never larger than the
 * file, and on files over 16 MiB no records under 64 KiB when the record
 * sizes are automatic, unless all_records (iozone -a without -z). -EINVAL
 * for a size of 0, a record over SB_SWEEP_MAX_RECORD, no test, or a shape
 * without any cell; -ERANGE for a file size no offset can hold. */
int sb_sweep_plan(struct sb_sweep_result *r, const struct sb_sweep_opts *o);
/* sb_sweep_plan from what the command was given: the tests named in
 * --tests (0: all), less the re-tests with --no-retest (refused when
 * --tests names one). 0, or -EINVAL with the message. */
int sb_sweep_plan_given(struct sb_sweep_result *r, struct sb_sweep_opts *o, uint32_t tests_given,
			int no_retest, char *msg, size_t ml);
/* 1 when the cell (fi, ri) runs under the shape rules. */
int sb_sweep_cell_runs(const struct sb_sweep_result *r, unsigned fi, unsigned ri);

/*
 * Runs the matrix out was planned for (sb_sweep_plan(out, o)) on o's test
 * file, telling h (NULL: nothing) as it goes, over coord's ranks (NULL or
 * one: alone). Every test reopens the file through its descriptor, never
 * by name. Under mpirun every rank runs the same matrix on its own file:
 * each timed pass starts on every rank together (after every rank's
 * untimed preparation: an agreement, which also carries a rank's failure
 * or stop to the others), rounds every 50 ms at most sum the ranks'
 * bytes for rank 0's progress and say when a pass ended on any rank
 * (o->stonewall), and at the end rank 0 gathers every rank's matrices
 * into out: each cell the All clients aggregate (sb_sweep_aggregate),
 * the ranks beside it (out->ranks, freed by sb_sweep_result_free).
 *
 * 0 when every rank ran the whole matrix. Else -errno, with err: this
 * rank's failure (out->fail_* say where, err->msg in words), -EINTR when
 * h->stop or another rank stopped it (out->interrupted; cells measured so
 * far are kept), -ECANCELED when it ran through but another rank failed
 * or was stopped, -EINVAL for a result not planned; err->cls the worst of
 * every rank's (the ranks agree on it), err->msg "" where this rank has
 * nothing to say.
 */
int sb_sweep_run(const struct sb_sweep_opts *o, const struct sb_sweep_hooks *h,
		 struct sb_coord *coord, struct sb_sweep_result *out, struct sb_error *err);
/* What a run's result holds besides itself (the ranks gathered); NULL
 * accepted. */
void sb_sweep_result_free(struct sb_sweep_result *r);
/* Under mpirun, before any rank touches its target: every rank plans the
 * same matrix (tests, sizes) and has o->stonewall or none does. 0, or
 * -EINVAL with err (rank 0 says why, the others nothing), -ETIMEDOUT. */
int sb_sweep_agree(struct sb_coord *coord, const struct sb_sweep_result *planned,
		   const struct sb_sweep_opts *o, struct sb_error *err);
/* What sb_sweep_run's failure e on file was, in words, from where r's
 * fail_* say it happened ("write failed in the write test (file 1.00 MiB,
 * record 64.0 KiB) at offset 0: ..."; a name another run holds names that
 * run); its class: SB_ERR_ENV for the environment's (no space, no
 * permission, read-only, a name in use), else SB_ERR_FAIL. */
int sb_sweep_failure(const struct sb_sweep_result *r, const char *file, int e, char *msg,
		     size_t ml);

/* The results' "sweep" section (sweep_json.c): the matrices of a run, one
 * per test (file sizes down, record sizes across, null where a cell was
 * not measured), under mpirun each rank's beside the aggregate (and res's
 * ranks, MPI library and --stonewall), and a warning when the page cache
 * could not be dropped. r must outlive res. 0 or -ENOMEM. */
struct sb_results;
int sb_results_sweep(struct sb_results *res, const struct sb_sweep_result *r);

/* The "sweep" section read back (sweep_read.c), a subset of what the run
 * filled: r holds the shape; per test the section has (o.tests) and cell,
 * state (SB_SWEEP_CELL_DONE where kib_per_s has a figure, PLANNED where
 * the cell is in the shape), kibps, elapsed_ns, and under mpirun bytes
 * (the ranks' summed) and ended_early; cells_planned, cells_done,
 * interrupted, stonewall; r.opts = &o (tests and the options written);
 * r.ranks, r.nranks each rank's figures with start_s, end_s from the
 * earliest start of the run (as written). Under mpirun spread[t][0] and
 * [1] are the start and end spreads written per cell (s, NAN where not
 * measured); NULL for one process. */
struct sb_jv;
struct sb_sweep_doc {
	struct sb_sweep_result r;
	struct sb_sweep_opts o;
	char cache[48]; /* "warm", "dropped (drop_caches)", ... */
	double (*spread)[2][SB_SWEEP_MAX_SIZES][SB_SWEEP_MAX_SIZES];
	struct sb_sweep_rank *ranks;
};
/* Reads section (storbench.sweep) into out, each value's type and range
 * checked: 0, or -EINVAL with err->msg naming the key path of what is
 * wrong ("tests[0].kib_per_s[1][0]: expected ..."), -ENOMEM. Free out with
 * sb_sweep_doc_free (also after a failure). */
int sb_sweep_read(const struct sb_jv *section, struct sb_sweep_doc *out, struct sb_error *err);
void sb_sweep_doc_free(struct sb_sweep_doc *d);
/* Test t of a rank's (or one process's) matrices: its bytes over its
 * time in the cells measured, bytes/s; -1 when none was. */
double sb_sweep_rank_rate(const struct sb_sweep_result *m, int t);

/* The test file of a sweep. */
struct sb_sweep_file {
	char path[4200]; /* sb_sweep_opts.path */
	int fd;		 /* a file the user gave over, held open (sb_sweep_opts.fd);
			  * -1: none */
	int owned;	 /* ours: created for each cell and removed after it */
};
/* From TARGET (in: what sb_target_probe found at path) to the test file:
 * in a directory a name nobody can guess, a new file as named, or the
 * file named: one storbench made is removed now (each cell makes it
 * anew), one it did not is taken over only with destroy, held open; never
 * through a symlink. Then --direct (a filesystem with O_DIRECT, records in
 * whole logical blocks) and the space the largest file of the planned
 * matrix r needs. 0, or -errno with er filled. */
int sb_sweep_file_open(struct sb_sweep_file *f, const char *path, const struct sb_target_info *in,
		       const struct sb_sweep_result *r, const struct sb_sweep_opts *o, int destroy,
		       struct sb_error *er);
/* The same checks as sb_sweep_file_open, touching nothing: a file of
 * storbench's is neither removed nor held (many ranks check before any
 * writes). */
int sb_sweep_file_check(const char *path, const struct sb_target_info *in,
			const struct sb_sweep_result *r, const struct sb_sweep_opts *o, int destroy,
			struct sb_error *er);
/* Close what f holds (nothing is removed). */
void sb_sweep_file_close(struct sb_sweep_file *f);

/* iozone's command line (lib/sweep/iozone_args.c): its options as iozone
 * takes them (bundled "-azecI", "-L64", "-s 2G", "-+n", "-Rb FILE"), sizes
 * in KiB unless suffixed k, m or g, mapped to a sweep. */
struct sb_iozone_args {
	struct sb_sweep_opts o;		/* the sweep: sizes, tests, -e -c -I -j -+b -w */
	int auto_mode;			/* -a (-A) */
	int all_records;		/* -z, -A, or -s given: no crossover */
	int no_retest;			/* -+n: the second passes show 0 */
	uint32_t tests;			/* -i's tests (0: all) */
	int excel;			/* -R */
	int ops;			/* -O: operations per second */
	int keep;			/* -w */
	int help, version;		/* -h, -v */
	const char *file;		/* -f (default "iozone.tmp") */
	const char *xls;		/* -b, NULL: none */
	uint64_t cache_kib, line_bytes; /* -S, -L: shown, not used */
	uint64_t min_file, max_file, min_rec, max_rec; /* -n -g -y -q */
	/* the lines iozone prints about the options, in the order given */
	char notes[2048];
	char error[512]; /* why the parse failed: names the option */
};
/* Parse argv (the options after "iozone"). 0, or -EINVAL with a->error
 * naming the option and what to use instead; nothing is touched. */
int sb_iozone_args_parse(struct sb_iozone_args *a, int argc, char **argv);

#endif
