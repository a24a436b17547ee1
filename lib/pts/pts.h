/*
 * SNIA Solid State Storage Performance Test Specification (PTS), as
 * METHODS.md section 3 defines it: per test, purge, workload-independent
 * preconditioning (2x the active range in sequential 128 KiB writes), then
 * rounds of the test's matrix until steady state (lib/analysis/steady.h)
 * or the round limit. This module plans the matrices, builds each cell's
 * job, keeps every round's figures and decides when a test is done; the
 * program runs the cells through the runner (lib/run) and hands back each
 * cell's result.
 */
#ifndef SB_PTS_H
#define SB_PTS_H

#include "lib/sb.h"
#include "lib/analysis/steady.h"
#include "lib/job/job.h"
#include "lib/results/results.h"
#include "lib/device/purge.h"

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
	/* the caller holds the device's volatile write cache off with the
	 * device's own command for the run (enterprise: no deviation) */
	int cache_off_by_command;
};
void sb_pts_opts_default(struct sb_pts_opts *o);

const char *sb_pts_test_name(enum sb_pts_test t);
int sb_pts_test_by_name(const char *name); /* -EINVAL */
const char *sb_pts_profile_name(enum sb_pts_profile p);

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

struct sb_pts_run {
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
};

/* The parts of o's tests on a device of device_bytes (logical block
 * logical_bs) whose write cache the kernel reports as write_cache ("write
 * back", "write through", ""), and every deviation from PTS the options
 * make; for the client profile, the active-range segments placed (seeded
 * by o->seed). -EINVAL with msg ("--bs: ...") when a test's matrix would
 * lack its tracked cell or a size does not fit; -ENOMEM. */
int sb_pts_plan(struct sb_pts_run *r, const struct sb_pts_opts *o, uint64_t device_bytes,
		uint32_t logical_bs, const char *write_cache, char *msg, size_t msglen);
/* Record one more deviation (the purge the device took, ...). */
void sb_pts_deviation(struct sb_pts_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The job of workload-independent preconditioning (one pass) and of a cell. */
void sb_pts_precondition_job(const struct sb_pts_run *r, struct sb_job_opts *j);
void sb_pts_cell_job(const struct sb_pts_run *r, const struct sb_pts_part *p, unsigned cell,
		     struct sb_job_opts *j);
/* The figures of a cell's job result. */
void sb_pts_figures(const struct sb_job_result *jr, struct sb_pts_fig *f);
/* Room for the next round: its row of ncells figures, zeroed; NULL when
 * out of memory. */
struct sb_pts_fig *sb_pts_round_begin(struct sb_pts_part *p);
/* The round is complete: its tracked value, and whether the part is done
 * (1: steady state reached, the round limit or, for WSAT, the bytes). */
int sb_pts_round_end(struct sb_pts_run *r, struct sb_pts_part *p);
/* The part stopped (done or interrupted): its measurement window. */
void sb_pts_part_close(struct sb_pts_part *p);
/* The average of a cell's figures over the measurement window. */
void sb_pts_window_average(const struct sb_pts_part *p, unsigned cell, struct sb_pts_fig *avg);
/* The tracked figure of a cell's figures. */
double sb_pts_tracked(enum sb_pts_metric m, const struct sb_pts_fig *f);
const char *sb_pts_metric_name(enum sb_pts_metric m);
void sb_pts_run_free(struct sb_pts_run *r); /* what the parts hold; r itself stays */

#endif
