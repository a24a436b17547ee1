/*
 * SNIA Solid State Storage Performance Test Specification (PTS), as
 * METHODS.md section 3 defines it: per test, purge, workload-independent
 * preconditioning (2x the active range in sequential 128 KiB writes), then
 * rounds of the test's matrix until steady state (lib/analysis/steady.h)
 * or the round limit. This module plans the matrices, builds each cell's
 * job, keeps every round's figures and decides when a test is done;
 * sb_pts_run runs the whole sequence (each cell through the program's
 * runner, a hook, or the library's: lib/run). pts_json.c writes the
 * results' section and pts_read.c reads it back.
 */
#ifndef SB_PTS_H
#define SB_PTS_H

#include "lib/sb.h"
#include "lib/analysis/steady.h"
#include "lib/job/job.h"
#include "lib/json/json_read.h"
#include "lib/results/results.h"
#include "lib/device/purge.h"

struct sb_jobtarget;
struct sb_target_info;
struct sb_coord;

enum sb_pts_test { SB_PTS_IOPS, SB_PTS_THROUGHPUT, SB_PTS_LATENCY, SB_PTS_WSAT, SB_PTS_NTESTS };
enum sb_pts_profile { SB_PTS_CLIENT, SB_PTS_ENTERPRISE };
/* what a test tracks from round to round (METHODS.md 3.1) */
enum sb_pts_metric { SB_PTS_M_IOPS, SB_PTS_M_WRITE_BW, SB_PTS_M_LAT_MEAN };

#define SB_PTS_MAX_BS 16
#define SB_PTS_MAX_MIX 16
#define SB_PTS_MAX_CELLS (SB_PTS_MAX_BS * SB_PTS_MAX_MIX)
#define SB_PTS_MAX_PARTS 8
#define SB_PTS_MAX_DEVIATIONS 16
#define SB_PTS_ROUND_NS 60000000000ull /* one minute a cell */
#define SB_PTS_MAX_ROUNDS 25
#define SB_PTS_WSAT_MAX_ROUNDS 1440 /* 24 h of one-minute rounds */
#define SB_PTS_PRECONDITION_PASSES 2
#define SB_PTS_AR_AMOUNT (8ull << 30) /* PTS-C: 8 GiB (or 16 GiB) */

struct sb_pts_opts {
	unsigned tests; /* 1 << enum sb_pts_test */
	enum sb_pts_profile profile;
	uint64_t round_ns; /* each cell of a round */
	unsigned max_rounds;
	uint32_t bs[SB_PTS_MAX_BS]; /* nbs 0: the test's own list */
	unsigned nbs;
	unsigned mix[SB_PTS_MAX_MIX]; /* read percent; nmix 0: the test's own */
	unsigned nmix;
	unsigned active_pct; /* of the device, from its start */
	/* client: the ActiveRange amount the random tests address, in
	 * SB_PTS_SEGMENTS segments (METHODS.md 3.7); 0: 8 GiB */
	uint64_t ar_amount;
	enum sb_purge_method purge;
	unsigned precondition; /* passes of 128 KiB sequential writes; 0: none */
	unsigned threads, iodepth;
	unsigned wsat_capacity; /* WSAT ends after this many times the active range */
	uint64_t seed;
	/* the device's volatile write cache is held off with the device's
	 * own command for the run (enterprise: no deviation): the node it
	 * is switched through and its kind (sb_pts_cache_plan) */
	int cache_off_by_command;
	char cache_node[96];
	int cache_kind; /* enum sb_devcache_kind */
	/* sb_pts_run: the device as the caller prepared it for the
	 * preconditioning job (held O_EXCL, lib/target/jobtarget.h), named
	 * path in messages */
	const struct sb_jobtarget *t;
	const char *path;
};
void sb_pts_opts_default(struct sb_pts_opts *o);

const char *sb_pts_test_name(enum sb_pts_test t);
int sb_pts_test_by_name(const char *name); /* -EINVAL */
const char *sb_pts_profile_name(enum sb_pts_profile p);
/* The values of --test (names, or all: a mask of 1 << enum sb_pts_test),
 * --bs (the PTS block sizes: 1024k, 128k, ... 0.5k) and --mix (the PTS
 * R/W mixes: 100/0 ... 0/100), each a comma-separated list: 0 or -EINVAL. */
int sb_pts_parse_tests(const char *v, unsigned *mask);
int sb_pts_parse_bs(struct sb_pts_opts *o, const char *v);
int sb_pts_parse_mix(struct sb_pts_opts *o, const char *v);

/* One cell of a matrix: a read share and a block size. */
struct sb_pts_cell {
	unsigned read_pct;
	uint32_t bs;
};

/* What one cell measured in one round. */
struct sb_pts_fig {
	double iops, read_iops, write_iops;
	double bw, read_bw, write_bw;	/* bytes/s */
	double lat_mean_ns, lat_max_ns; /* over every request, read and write */
	uint64_t bytes_written;
};

/* One test as run: IOPS, latency and WSAT are one each; throughput is one
 * per block size, each with its own purge, preconditioning and rounds. */
struct sb_pts_part {
	enum sb_pts_test test;
	char name[32]; /* "iops", "throughput-1024k" */
	int random;
	int segmented; /* confined to the run's active-range segments */
	unsigned threads, iodepth;
	unsigned mixes[SB_PTS_MAX_MIX], nmix; /* the matrix: mixes outer */
	uint32_t bss[SB_PTS_MAX_BS];	      /* block sizes inner */
	unsigned nbs;
	struct sb_pts_cell cells[SB_PTS_MAX_CELLS];
	unsigned ncells;
	unsigned track_cell; /* the cell whose figure is tracked */
	enum sb_pts_metric track;
	unsigned max_rounds;
	/* what happened */
	int started;
	enum sb_purge_method purge_used;
	char purge_how[SB_PURGE_HOW_SIZE]; /* the command: sb_purge_how */
	uint64_t precondition_bytes;
	unsigned nrounds;
	unsigned partial_cells; /* a round stopped before its end (Ctrl-C, an
				 * error): the cells it measured, their figures
				 * in fig after the whole rounds' */
	struct sb_pts_fig *fig; /* nrounds * ncells, round by round */
	double *tracked;	/* per round */
	uint64_t written;	/* bytes written by the rounds, all together */
	struct sb_steady ss;	/* the measurement window (not for WSAT) */
	int finished;		/* ran to its end (not stopped) */
};

struct sb_pts_result {
	struct sb_pts_opts o;
	uint64_t device_bytes, region_bytes; /* the active range: [0, region_bytes) */
	char write_cache[32];		     /* the device's, as the kernel says */
	/* client profile: the active-range segments of the random tests
	 * (IOPS, latency); n 0 for enterprise */
	struct sb_segments segs;
	/* the cache as the device's own command saw and set it (o.cache_off_by_command) */
	struct {
		const char *command; /* NULL: not switched by storbench */
		int before;	     /* 1 on, 0 off, before the run */
		int changed;	     /* switched off for the run */
		int restored;	     /* switched back on after it */
	} devcache;
	struct sb_pts_part parts[SB_PTS_MAX_PARTS];
	unsigned nparts;
	char deviations[SB_PTS_MAX_DEVIATIONS][160];
	unsigned ndeviations;
	/* sb_pts_run: stopped (h->stop), and every test with rounds but WSAT
	 * reached steady state */
	int interrupted;
	int steady;
};

/* The parts of o's tests on a device of device_bytes (logical block
 * logical_bs) whose write cache the kernel reports as write_cache ("write
 * back", "write through", ""), and every deviation from PTS the options
 * make; for the client profile, the active-range segments placed (seeded
 * by o->seed). -EINVAL with msg ("--bs: ...") when a test's matrix would
 * lack its tracked cell or a size does not fit; -ENOMEM. */
int sb_pts_plan(struct sb_pts_result *r, const struct sb_pts_opts *o, uint64_t device_bytes,
		uint32_t logical_bs, const char *write_cache, char *msg, size_t msglen);
/* Record one more deviation (the purge the device took, ...). */
void sb_pts_deviation(struct sb_pts_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The job of workload-independent preconditioning (one pass) and of a cell. */
void sb_pts_precondition_job(const struct sb_pts_result *r, struct sb_job_opts *j);
void sb_pts_cell_job(const struct sb_pts_result *r, const struct sb_pts_part *p, unsigned cell,
		     struct sb_job_opts *j);
/* The figures of a cell's job result. */
void sb_pts_figures(const struct sb_job_result *jr, struct sb_pts_fig *f);
/* Room for the next round: its row of ncells figures, zeroed; NULL when
 * out of memory. */
struct sb_pts_fig *sb_pts_round_begin(struct sb_pts_part *p);
/* The round is complete: its tracked value, and whether the part is done
 * (1: steady state reached, the round limit or, for WSAT, the bytes). */
int sb_pts_round_end(struct sb_pts_result *r, struct sb_pts_part *p);
/* The part stopped (done or interrupted): its measurement window. */
void sb_pts_part_close(struct sb_pts_part *p);
/* The average of a cell's figures over the measurement window. */
void sb_pts_window_average(const struct sb_pts_part *p, unsigned cell, struct sb_pts_fig *avg);
/* The tracked figure of a cell's figures. */
double sb_pts_tracked(enum sb_pts_metric m, const struct sb_pts_fig *f);
const char *sb_pts_metric_name(enum sb_pts_metric m);
void sb_pts_result_free(struct sb_pts_result *r); /* what the parts hold; r itself stays */

/* PTS-E asks for the volatile write cache disabled: on an NVMe, ATA drive
 * or eMMC that reports one, sb_pts_run switches it off with the device's
 * own command (and back after the run); elsewhere sb_pts_plan records the
 * deviation. This looks at the device of info (nothing is sent): the
 * node and kind into o, and o->cache_off_by_command, for an enterprise
 * run that may touch the device (may_write). */
void sb_pts_cache_plan(struct sb_pts_opts *o, const struct sb_target_info *info, int may_write);

/* One measurement of the run, as the program's line names it. */
struct sb_pts_step {
	const struct sb_pts_part *part;
	int precondition;      /* a preconditioning pass, else a cell of a round */
	unsigned step, nsteps; /* pass of passes, or round of the part's max_rounds */
	unsigned later;	       /* measurements as long after this one, this part's */
};

/* What the program hears of as the run goes; each may be NULL. */
struct sb_pts_hooks {
	void *ctx;
	/* polled before each measurement: non-zero stops the run
	 * (out->interrupted; what was measured is kept) */
	int (*stop)(void *ctx);
	/* runs job on o->t, its figures into f: 0, or -errno with err
	 * (its class; msg "" when the program said it). NULL: the library
	 * runs it (lib/run, nothing drawn; a stop stops it within 50 ms).
	 * The program's runner draws its progress line and its errors. */
	int (*measure)(void *ctx, const struct sb_pts_step *s, const struct sb_job_opts *job,
		       struct sb_pts_fig *f, struct sb_error *err);
	/* a round of p ended: its tracked figure p->tracked[p->nrounds - 1] */
	void (*round)(void *ctx, const struct sb_pts_part *p);
	/* what is said as it happens, the run going on or ending: a step's
	 * failure (also in err when it is the first), the cache not switched
	 * back */
	void (*error)(void *ctx, const char *msg);
	/* the cache switch: hold(ctx, 1) before, hold(ctx, 0) after (a stop
	 * asked between is seen after it); on_exit(ctx, undo, arg): what a
	 * program that exits at once (a second Ctrl-C) runs first to switch the
	 * cache back on (async-signal-safe), undo NULL once it is back */
	void (*hold)(void *ctx, int on);
	void (*on_exit)(void *ctx, void (*undo)(void *arg), void *arg);
};

/*
 * Runs the parts out was planned for (sb_pts_plan(out, o, ...)) on o->t,
 * telling h (NULL: nothing); coord NULL or one process (pts runs alone).
 * Per part: the purge (o->purge; a discard recorded as a deviation), the
 * preconditioning passes (not for WSAT), then rounds of its matrix until
 * steady state, the round limit or (WSAT) the bytes; before the first part
 * the device's cache switched off when o->cache_off_by_command (back on
 * after the last, and on a failure). 0 when every part ran (out->steady
 * says whether they reached steady state); -EINTR when h->stop stopped it
 * (out->interrupted); else -errno with err (the first failure: a purge, a
 * measurement, the cache switch). Whatever was measured is in out.
 */
int sb_pts_run(const struct sb_pts_opts *o, const struct sb_pts_hooks *h, struct sb_coord *coord,
	       struct sb_pts_result *out, struct sb_error *err);
/* The results' "pts" section (pts_json.c): the conditions, deviations,
 * per test its rounds, steady state and window averages, and a warning for
 * each test that did not reach steady state. r must outlive res. 0 or
 * -ENOMEM. */
struct sb_results;
int sb_results_pts(struct sb_results *res, const struct sb_pts_result *r);

/* The "pts" section read back (pts_read.c): the result as the run filled
 * it, for the parts written (those started: parts[i] of r is tests[i]),
 * and beside it what the writer derives from it. r.o holds the
 * conditions written (profile, purge asked, active range percent,
 * preconditioning passes, threads, iodepth, round time, round limit, WSAT
 * capacity, seed); a part's cells are its mixes by its block sizes. */
struct sb_pts_doc_part {
	int has_window;		 /* steady_state written (not WSAT, a round) */
	struct sb_pts_fig *avg;	 /* window_average: ncells, NULL when null */
	uint64_t *written_total; /* per round: bytes_written_total */
};
struct sb_pts_doc {
	struct sb_pts_result r;
	struct sb_pts_doc_part parts[SB_PTS_MAX_PARTS];
	int pts_result;		 /* no deviation */
	uint64_t active_bytes;	 /* of the segments (r.segs.n) */
	char cache_required[16]; /* "disabled" (enterprise) or "enabled" */
	char cache_command[64];	 /* r.devcache.command points here */
};
/* Reads sec (storbench.pts) into d, every value's type and range checked:
 * 0; -EINVAL with err naming the key path ("tests[0].rounds[2].cells[1].bs:
 * expected ..."); -ENOMEM. d is filled as far as it was read: free it
 * with sb_pts_doc_free in every case. */
int sb_pts_read(const struct sb_jv *sec, struct sb_pts_doc *d, struct sb_error *err);
void sb_pts_doc_free(struct sb_pts_doc *d); /* what d holds; d itself stays */

/* The library's runner of one measurement (sb_pts_hooks.measure NULL):
 * job on t with the engine it names (else the default), its figures into
 * f; stop polled every 50 ms stops it. 0, -EIO when requests failed, or
 * -errno, with err. */
int sb_pts_measure(const struct sb_jobtarget *t, const struct sb_job_opts *job,
		   int (*stop)(void *ctx), void *ctx, struct sb_pts_fig *f, struct sb_error *err);

#endif
