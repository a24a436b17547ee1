/*
 * bonnie++'s tests (bonnie++.cpp TestFileOps/TestDirOps, bon_io.cpp,
 * bon_file.cpp), for storbench meta:
 *
 *  - block and seek tests on one file: per-character write and read, block
 *    write, rewrite (read, change a byte, seek back, write) and read, each
 *    timed from its start to after fsync and close; random seeks by several
 *    threads drawing from one list of tickets (a random chunk each, every
 *    one whose number is a multiple of 10 also rewritten);
 *  - file tests: create, stat (and read, when files have data) and delete
 *    of N files spread over D directories, in sequential order (names that
 *    begin with the file's number; stat and delete in readdir order) and in
 *    random order (names that begin with random characters; stat and delete
 *    in a shuffled order).
 *
 * Everything happens inside a run directory that storbench creates and
 * marks (rundir below), through a descriptor of it held from its creation
 * on (names are relative to it, as bonnie++ works in the directory it
 * chdir()s to): whatever happens to the directory's name meanwhile, no
 * test touches anything outside it. Only what it made there is ever
 * removed.
 */
#ifndef SB_META_H
#define SB_META_H

#include "lib/sb.h"
#include "lib/stats/hist.h"

struct sb_coord;
/* bonnie++'s tests_t order, which its CSV follows. */
enum sb_meta_test {
	SB_META_PUTC,
	SB_META_WRITE,
	SB_META_REWRITE,
	SB_META_GETC,
	SB_META_READ,
	SB_META_SEEKS,
	SB_META_SEQ_CREATE,
	SB_META_SEQ_STAT,
	SB_META_SEQ_DELETE,
	SB_META_RAND_CREATE,
	SB_META_RAND_STAT,
	SB_META_RAND_DELETE,
	SB_META_NTESTS
};

/* "putc", "write", ..., "seq_create", ... "rand_delete" */
const char *sb_meta_test_name(enum sb_meta_test t);

struct sb_meta_result {
	int ran;	     /* 0: not run (left out, or never reached) */
	int interrupted;     /* stopped before the end */
	int stonewalled;     /* its timing ended where another rank's test ended
				(--stonewall): the figures are what it did until then */
	uint64_t ops;	     /* files, seeks, or chunks for the I/O tests */
	uint64_t bytes;	     /* I/O tests: bytes moved */
	uint64_t elapsed_ns; /* from the start to after the last close/sync */
	uint64_t start_ns;   /* sb_now_ns() when the timing began */
	uint64_t cpu_ns;     /* user + system time of the process meanwhile */
	struct sb_hist lat;  /* per operation: a file, a seek, a chunk */
};

/* Shared by both kinds of test. stop() is polled before each operation,
 * from whichever thread does it: 0 go on, SB_META_STOP end the run (the test
 * is marked interrupted, -EINTR), SB_META_STONEWALL end this test's timing
 * here (another rank ended it first, mdtest's stonewalling): what was done
 * so far is the test's figure, marked stonewalled; a test whose work the
 * next ones need (write, the creates and deletes) finishes it untimed, the
 * others end, and the run goes on. tick() (NULL: none) is called often by
 * the thread that runs the tests (never by a test's own threads): per
 * operation in the single-threaded block tests, and every few milliseconds
 * while the threads of the seek and file tests work. */
#define SB_META_STOP 1
#define SB_META_STONEWALL 2
struct sb_meta_ctl {
	int (*stop)(void *ctx);
	void (*phase)(void *ctx, enum sb_meta_test t); /* a test starts */
	void *ctx;
	void (*tick)(void *ctx);
	/* within an operation (every 64 characters of a chunk): non-zero ends
	 * the run as stop() would, but it is not an operation (stop() counts
	 * each for the progress); NULL: stop() is asked */
	int (*peek)(void *ctx);
};

/* Where a test failed, for the message. */
struct sb_meta_error {
	enum sb_meta_test test;
	int err; /* positive errno */
	char path[4096];
	char what[128]; /* e.g. "found 1000 of 1024 files" */
};

/* ---- file tests (files.c) ---- */
struct sb_meta_files {
	const char *dir; /* the run directory's name, for messages */
	uint64_t nfiles;
	unsigned ndirs;		     /* > 1: subdirectories 00000, 00001, ... */
	unsigned nthreads;	     /* each owns directories t, t + nthreads, ... */
	uint64_t size_min, size_max; /* bytes per file, uniform in [min, max] */
	uint32_t chunk;		     /* write/read size for file data */
	int fsync;		     /* fsync each file and its directory (bonnie++ -b) */
	uint64_t seed;
	int dirfd; /* the run directory (sb_meta_rundir_create) */
};
/* The six file tests; res is indexed by enum sb_meta_test. Returns 0,
 * -EINTR when stopped, or -errno with *err filled. */
int sb_meta_files_run(const struct sb_meta_files *p, const struct sb_meta_ctl *ctl,
		      struct sb_meta_result *res, struct sb_meta_error *err);

/* File names: bonnie++'s ten hex digits of the number with 0-12 random
 * alphanumerics after (sequential test) or before (random test). */
#define SB_META_NAME_MAX 23
void sb_meta_file_name(uint64_t seed, uint64_t i, int random_first, char *buf);
/* Could name be one of ours (alphanumerics only, 10 to 22 of them)? */
int sb_meta_is_file_name(const char *name);

/* ---- the figures of a test (figures.c) ---- */
/* bonnie++'s MinTime: a test that ran shorter is too short to trust (its
 * CSV shows "+++++"). */
#define SB_META_MIN_TIME_NS 500000000ull
/* The block and per-character tests (putc .. read) move bytes; the others
 * count seeks or files. */
int sb_meta_is_io(enum sb_meta_test t);
/* bytes/s for the I/O tests, seeks/s or files/s for the others */
double sb_meta_rate(const struct sb_meta_result *r, enum sb_meta_test t);
/* CPU time of the process during the test, in percent of its elapsed time */
double sb_meta_cpu_percent(const struct sb_meta_result *r);

/* ---- block and seek tests (blockio.c, seeks.c) ---- */
struct sb_meta_io {
	const char *path;   /* the test file's name, for messages */
	uint64_t size;	    /* bytes, a multiple of chunk; the block tests */
	uint64_t char_size; /* bytes for putc/getc; 0 leaves them out */
	uint32_t chunk;
	unsigned seeks, seekers;
	int direct;	  /* O_DIRECT for the block tests and seeks */
	int fsync;	  /* fsync after each rewritten seek (bonnie++ -b) */
	int char_syscall; /* 1-byte write()/read() as bonnie++ 1.97+, not putc/getc */
	int bonnie_data;  /* bonnie++'s zero buffer, one byte changed per chunk */
	int drop_cache;	  /* drop the page cache before each reading test */
	uint64_t seed;
	int dirfd; /* the run directory: the file is SB_META_IO_FILE in it */
};
/* Why the block test file has its size. bonnie++ makes it twice the RAM so
 * that the page cache cannot hold it; that is needed only where the cache
 * cannot be dropped before each reading test. */
enum sb_meta_size_rule {
	SB_META_SIZE_GIVEN,	/* --size */
	SB_META_SIZE_TWICE_RAM, /* bonnie++'s: the cache cannot be dropped here */
	SB_META_SIZE_COLD,	/* the cache is dropped: the smaller of that and 1 GiB */
};
#define SB_META_COLD_SIZE (1ull << 30)
/* bonnie++'s size: twice mem_total, in whole MiB, rounded up to a whole GiB
 * when the remainder is over 512 MiB; 300 MiB when mem_total is 0. */
uint64_t sb_meta_twice_ram(uint64_t mem_total);
/* The default size, and in *rule why: where the whole page cache can be
 * dropped (can_drop), the smaller of twice the RAM and SB_META_COLD_SIZE. */
uint64_t sb_meta_default_size(uint64_t mem_total, int can_drop, enum sb_meta_size_rule *rule);

/* ---- what meta and bonnie are asked, judged first (meta_check.c) ---- */
/* A size in MiB: a plain number is MiB (bonnie++'s -s), "64M", "4G". */
int sb_meta_parse_mib(const char *v, uint64_t *out);
/* A power of two from 256 to 1M (--chunk, --file-chunk). */
int sb_meta_parse_pow2(const char *v, uint64_t *out);
/* --file-size: SIZE or MIN:MAX, each up to 1G, MIN <= MAX. */
int sb_meta_parse_file_size(const char *v, uint64_t *min, uint64_t *max);
/* Each 0 or -EINVAL. The counts together: something to do, a directory
 * for each thread (*dirs: threads where not given), no more directories
 * than files. 0, or -EINVAL with the message. */
int sb_meta_check_counts(uint64_t files, uint64_t size, int dirs_set, uint64_t *dirs,
			 uint64_t threads, char *msg, size_t ml);
/* Here (this host's RAM, whether its page cache can be dropped): bonnie++'s
 * twice the RAM, and the block test file's size where --size was not
 * given (size_set 0: sb_meta_default_size) with the rule that chose it. */
void sb_meta_size_here(int size_set, uint64_t *size, uint64_t *twice_ram,
		       enum sb_meta_size_rule *rule);
/* bonnie++'s machine name for the CSV line: given (NULL: the host's name,
 * or localhost), cut to nl, its commas made '_'. */
void sb_meta_machine_name(const char *given, char *name, size_t nl);
/* The directory the run works in, probed (ti): a directory, direct I/O
 * there with a chunk of its block size when asked, room for need bytes.
 * 0, or with the message -EINVAL (the options) or -ENOSPC. */
struct sb_target_info;
int sb_meta_check_dir(const struct sb_target_info *ti, const char *dir, int direct,
		      uint64_t chunk, uint64_t need, char *msg, size_t ml);

/* The six I/O tests in bonnie++'s order; res indexed by enum sb_meta_test.
 * The file is removed at the end. *cache_method gets sb_cache_drop's
 * method (0 when none). Returns 0, -EINTR, or -errno with *err filled. */
int sb_meta_io_run(const struct sb_meta_io *p, const struct sb_meta_ctl *ctl,
		   struct sb_meta_result *res, int *cache_method, struct sb_meta_error *err);
/* The seek test alone (seeks.c), on the file the block tests wrote. */
int sb_meta_seeks_run(const struct sb_meta_io *p, const struct sb_meta_ctl *ctl,
		      struct sb_meta_result *res, struct sb_meta_error *err);

/* ---- many ranks (mpirun, mdtest's model): one test's All clients figure
 * (aggregate.c) ---- */
/* A rank's figures of one test, without its histogram. */
struct sb_meta_rank_test {
	int ran, interrupted, stonewalled;
	uint64_t ops, bytes, elapsed_ns, cpu_ns;
	double start_s, end_s; /* on one clock (rank 0's), from any origin */
	double rate;	       /* sb_meta_rate */
	uint64_t lat_min, lat_p50, lat_p99, lat_max;
};
/* How far the ranks were apart in a test (as struct sb_skew of a job). */
struct sb_meta_skew {
	double start_spread_s, end_spread_s;	     /* latest less earliest */
	double span_s;				     /* earliest start to latest end */
	double median_rate;			     /* of the median rank */
	int slowest_rank, fastest_rank;		     /* by rate: indexes into the ranks */
	double slowest_vs_median, fastest_vs_median; /* e.g. -0.08, +0.03 */
};
/* Test t of n ranks (r[i], started at start_s[i] on one clock): agg gets
 * ops, bytes and CPU summed, the histograms merged bucket by bucket, and
 * elapsed_ns from the earliest start to the latest end (start_s[i] +
 * r[i].elapsed_ns), so that sb_meta_rate(agg) is all operations over that
 * span; ran when every rank ran it, interrupted (stonewalled) when any
 * was. rk[i] gets
 * rank i's own figures and k the skew. -EINVAL when n is 0. */
int sb_meta_aggregate(enum sb_meta_test t, const struct sb_meta_result *r, const double *start_s,
		      unsigned n, struct sb_meta_result *agg, struct sb_meta_rank_test *rk,
		      struct sb_meta_skew *k);

/* ---- run directory (rundir.c) ---- */
/* parent/.storbench-meta-<pid>-<random>, created exclusively (mode 0700),
 * with the marker file SB_META_MARKER inside. Returns a descriptor of it
 * (close-on-exec), checked to be the directory made, or -errno; out gets
 * the path. */
#define SB_META_MARKER ".storbench-meta"
int sb_meta_rundir_create(const char *parent, char *out, size_t outlen);
/* 1 when path is a directory storbench meta created (name and marker),
 * 0 when not, -errno when that cannot be told. */
int sb_meta_rundir_is_ours(const char *path);
/* Remove what storbench puts in a run directory (test files, the
 * subdirectories 00000..., the block I/O file, the marker), then the
 * directory. -ENOTEMPTY when anything else is left (it stays, marked);
 * -EPERM when path is not a run directory. */
int sb_meta_rundir_remove(const char *path);
/* The same for the run directory open as dfd (sb_meta_rundir_create):
 * path is removed only while it still names that directory (-ESTALE when
 * not). dfd stays open. Async-signal-safe: a signal handler may call it. */
int sb_meta_rundir_remove_fd(int dfd, const char *path);
/* Run directories in parent whose process is gone: cb for each. Returns
 * how many, or -errno. */
int sb_meta_leftovers(const char *parent, void (*cb)(void *ctx, const char *path), void *ctx);
/* The block I/O test file's name inside a run directory. */
#define SB_META_IO_FILE "blockio.tmp"

/* ---- bonnie++'s CSV line, format 1.98 (bonnie_csv.c) ---- */
struct sb_meta_csv {
	const char *name;    /* machine name */
	const char *version; /* field 1: the program that wrote it */
	unsigned concurrency;
	uint64_t seed;
	uint64_t size; /* bytes; 0: no block tests (fields 5-20 empty) */
	uint32_t chunk;
	unsigned seeks, seekers;
	uint64_t nfiles; /* 0: no file tests (fields 21-37 empty) */
	uint64_t size_max, size_min;
	uint32_t file_chunk;
	unsigned ndirs;
	const struct sb_meta_result *res; /* SB_META_NTESTS entries */
};
#define SB_META_CSV_FIELDS 50
/* The line, with its newline, into buf. Returns its length, or -ENOSPC. */
int sb_meta_csv_line(const struct sb_meta_csv *in, char *buf, size_t len);
/* bonnie++'s latency field: "" (not run), "N us", "N ms" or "N s" without
 * the space, from ns. */
void sb_meta_csv_latency(uint64_t ns, char *buf, size_t len);

/* ---- bonnie++'s command line (bonnie_args.c) ---- */
#define SB_BONNIE_MAX_ARGS 32
struct sb_bonnie_args {
	const char *dir;		/* -d [.] */
	const char *user;		/* -u as given; NULL: not given (the program checks it) */
	const char *group;		/* -g */
	unsigned reps;			/* -x [1] */
	int quiet;			/* -q: the CSV alone on stdout */
	int size_given, ram_given;	/* -s, -r given */
	uint64_t size_mib, ram_mib;	/* their values (-r 0: no RAM check) */
	int n;				/* storbench meta's arguments in argv, DIR last */
	char *argv[SB_BONNIE_MAX_ARGS]; /* NULL-terminated, into store */
	char store[2048];
};
/* bonnie++'s options (argv[0] is the command's name) as storbench meta's:
 * per-char by 1-byte syscalls and bonnie++'s data always; -s/-f/-r in MiB;
 * -r without -s: bonnie++'s default size, twice -r (sb_bonnie_size).
 * Returns 0, 1 for --help/-h, or -EINVAL with msg naming the option and
 * what to use instead. */
int sb_bonnie_args(int argc, char *const *argv, struct sb_bonnie_args *a, char *msg, size_t len);
/* bonnie++'s default file size for ram_mib of RAM: twice it, rounded up to
 * the next GiB when over 512 MiB past one (bonnie++.cpp). */
uint64_t sb_bonnie_size(uint64_t ram_mib);
/* bonnie++'s RAM in MiB as it counts it: page size / 1024 * (pages / 1024);
 * 0 when unknown. */
uint64_t sb_bonnie_ram_mib(void);

/* ---- one run of storbench meta, as its results keep it ---- */
struct sb_meta_run {
	struct sb_meta_files files;
	struct sb_meta_io io;
	char rundir[4096];
	int dirfd;	   /* rundir, held open from its creation on */
	char iopath[4200]; /* io.path: the block test file in rundir */
	char name[64];	   /* machine name in the CSV */
	struct sb_meta_result res[SB_META_NTESTS];
	int cache_method;
	enum sb_meta_size_rule size_rule;
	uint64_t twice_ram; /* bonnie++'s block test file size on this host */
	int interrupted;
	int kept; /* the run directory could not be removed */
	uint64_t seed;
	/* many ranks (mpirun): res is the All clients aggregate, and each
	 * rank's own figures are here (NULL, 0: one process) */
	unsigned nranks;
	const struct sb_meta_rank *ranks;
	int stonewall; /* --stonewall: each test ended on every rank with the first */
	struct sb_meta_skew skew[SB_META_NTESTS];
	/* how sb_meta_run ended besides its figures: the run directory's
	 * removal (0, -ENOTEMPTY when it holds what storbench did not make,
	 * -ESTALE when its name no longer names it, -errno); the first rank
	 * that could not begin (its run directory: nothing ran; alone 0) and
	 * under mpirun the first that failed a test (-1: none; rank 0 says so),
	 * and a rank that did not answer in time (the program ends the job) */
	int remove_err;
	int refused_rank, failed_rank;
	int ranks_lost;
};
/* A rank of a run under mpirun, as rank 0 keeps it. */
struct sb_meta_rank {
	int rank;
	char host[64];
	double clock_offset_s; /* its clock less rank 0's */
	char rundir[4096];
	int kept, interrupted;
	struct sb_meta_rank_test t[SB_META_NTESTS];
};
/* The run's CSV line, with its newline, or "" when it does not fit
 * (bonnie_csv.c). */
void sb_meta_run_csv(const struct sb_meta_run *m, char *buf, size_t len);

/* The results' "meta" section (meta_json.c): the run's parameters, each
 * test's figures and latency, bonnie++'s CSV line, under mpirun each
 * rank's and the skew (and res's ranks, MPI library and --stonewall); a
 * warning when the block test file is smaller than twice the RAM
 * (res->host must be filled) and for ranks far apart. m must outlive res.
 * 0 or -ENOMEM. */
struct sb_results;
int sb_results_meta(struct sb_results *res, const struct sb_meta_run *m);

/* The percentiles of a test's latency the section has, and the key of a
 * test's rate ("bw_bytes", "seeks_per_s", "files_per_s"). */
#define SB_META_NPCTS 9
extern const double sb_meta_pcts[SB_META_NPCTS];
const char *sb_meta_rate_key(enum sb_meta_test t);
/* The test of a name ("seq_create"), or -EINVAL. */
int sb_meta_test_by_name(const char *name);

/* The "meta" section read back (meta_read.c): a subset of what the run
 * filled. m holds the run directory and whether it was removed (kept),
 * interrupted, the parameters (files, io, seed, size_rule, twice_ram),
 * per test res[t].ran, interrupted, stonewalled, ops, bytes, elapsed_ns,
 * cpu_ns (no histogram: the section has the latency's figures, in t[]),
 * and under mpirun stonewall, the ranks (their tests' start_s, end_s from
 * the test's earliest start, as written) and the skew (slowest_rank,
 * fastest_rank: indexes into the ranks, -1 none). */
struct sb_meta_doc_test {
	double rate; /* bytes/s (the I/O tests), seeks/s or files/s */
	double cpu_percent;
	int too_short;
	uint64_t lat_min, lat_max, lat_n;
	double lat_mean, lat_stddev;
	double lat_pct[SB_META_NPCTS]; /* ns at sb_meta_pcts[i]; NAN where not written */
};
struct sb_meta_doc {
	struct sb_meta_run m;
	struct sb_meta_doc_test t[SB_META_NTESTS];
	unsigned tests, skews; /* the tests the section has (bit t), those its skew has */
	double first_start_s[SB_META_NTESTS]; /* many ranks: from the run's first start */
	char cache[32];			      /* "drop_caches", "fadvise", "warm" */
	char bonnie_csv[1024];
};
struct sb_jv;
/* Reads section (storbench.meta) into out: 0, or -EINVAL with err->msg
 * naming the key path of what is wrong, -ENOMEM. Free out with
 * sb_meta_doc_free (also after a failure). */
int sb_meta_read(const struct sb_jv *section, struct sb_meta_doc *out, struct sb_error *err);
void sb_meta_doc_free(struct sb_meta_doc *d);

/* ---- storbench meta as a library call (meta_run.c) ---- */
struct sb_meta_opts {
	const char *parent; /* the directory to work in: the run directory is made there */
	/* the tests' parameters (nfiles 0: no file tests, size 0: no block
	 * tests); their dir, path, dirfd and seed are the run's */
	struct sb_meta_files files;
	struct sb_meta_io io;
	uint64_t seed;
	const char *name; /* machine name in the CSV */
	enum sb_meta_size_rule size_rule;
	uint64_t twice_ram;
	/* many ranks: each test ends on every rank when the first rank's ends
	 * (--stonewall); the ranks' clocks are put on rank 0's with the
	 * offsets the handle measured (sb_coord_clock_offset) */
	int stonewall;
	/* sb_meta_runs: bonnie++'s -x, this many runs one after another (0:
	 * one); seed 0: each run a seed of its own */
	unsigned runs;
};
/* The tests a run of these parameters makes (bit t: enum sb_meta_test t). */
unsigned sb_meta_tests(const struct sb_meta_io *io, uint64_t nfiles);
/* What a progress line of the test running shows. */
struct sb_meta_progress {
	enum sb_meta_test test;
	unsigned step, nsteps; /* the test, 1.., of the tests that run */
	uint64_t ops, total;   /* this rank's operations of the test so far, to do */
	uint64_t now_ns;
	/* many ranks, rank 0: every rank's summed by the last round, as they
	 * were at all_ns (nranks 0 alone) */
	unsigned nranks;
	uint64_t all_ops, all_total, all_ns;
};
/* What the program hears of as the run goes on; each may be NULL. */
struct sb_meta_hooks {
	void *ctx;
	/* polled before each operation, from whichever thread does it:
	 * non-zero stops the run (the test running is marked interrupted) */
	int (*stop)(void *ctx);
	/* a test begins (step 1.. of the tests that run) */
	void (*phase)(void *ctx, enum sb_meta_test t, unsigned step);
	/* at most every 50 ms (from any thread of the test); under mpirun on
	 * rank 0 as each round ends */
	void (*progress)(void *ctx, const struct sb_meta_progress *p);
	/* the run directory: 1 once it exists and every rank has its own (a
	 * second Ctrl-C may remove it: sb_meta_rundir_remove_fd(dirfd,
	 * path)), 0 just before the run removes it */
	void (*track)(void *ctx, const char *path, int dirfd, int on);
	/* sb_meta_runs: run i (0..) is about to begin (not 0: it does not,
	 * and that is the verdict); it has ended, with sb_meta_run's return
	 * e and err: the caller's verdict, 0 to go on */
	int (*run_begin)(void *ctx, unsigned i);
	int (*run_end)(void *ctx, struct sb_meta_run *m, int e, const struct sb_error *err);
};
/*
 * Runs storbench meta as o describes: makes a run directory in o->parent,
 * runs the block and seek tests, then the file tests, in it, and removes
 * it (out->kept, out->remove_err say how that went), telling h (NULL:
 * nothing) as it goes, over coord's ranks (NULL or one: alone). Under
 * mpirun every rank runs the tests in its own run directory, each test
 * starting on every rank together (an agreement, which also tells a rank
 * that another failed or stopped), rounds sum the ranks' operations for
 * rank 0's progress and carry --stonewall, and rank 0 gathers every
 * rank's figures into out: each test the All clients aggregate
 * (sb_meta_aggregate), each rank's beside it (free with
 * sb_meta_result_free).
 *
 * 0 when every rank ran its tests. Else -errno with err: the run
 * directory could not be made (nothing ran; out->refused_rank), a test
 * failed here (err->msg names it), -EINTR when h->stop or another rank
 * stopped it (out->interrupted), -ECANCELED when another rank failed
 * (out->failed_rank: no result is to be written); err->cls the worst of
 * every rank's (the ranks agree on it), err->msg "" where this rank has
 * nothing to say (rank 0 says the ranks met at different tests).
 */
int sb_meta_run(const struct sb_meta_opts *o, const struct sb_meta_hooks *h, struct sb_coord *coord,
		struct sb_meta_run *out, struct sb_error *err);
/*
 * o->runs runs of sb_meta_run one after another (bonnie++'s -x), out
 * cleared before each, h->run_begin before and h->run_end after each (out
 * is the caller's until the next run begins). Ends after a run whose
 * verdict is not 0 (under mpirun, with more than one run, the highest of
 * the ranks': all go on to the next run or none), or when h->stop asks.
 * Returns the last verdict (without run_end: sb_meta_run's return), or
 * -errno with err when the ranks could not agree on it (out->ranks_lost:
 * the job is to end).
 */
int sb_meta_runs(const struct sb_meta_opts *o, const struct sb_meta_hooks *h,
		 struct sb_coord *coord, struct sb_meta_run *out, struct sb_error *err);
/* What the result holds besides itself (the ranks); NULL accepted. */
void sb_meta_result_free(struct sb_meta_run *m);
/* Under mpirun, before any rank makes anything: every rank runs the same
 * tests (mask, sb_meta_tests). 0, or -EINVAL with err (rank 0 says why,
 * the others nothing), -ETIMEDOUT. */
int sb_meta_agree(struct sb_coord *coord, unsigned mask, struct sb_error *err);

#endif
