/*
 * storbench cliff: where a device's fast write cache (pSLC) ends, and how
 * much of it comes back after idle. ../shared/METHODS.md section 7; the
 * user's page is docs/cliff.md.
 *
 * Throughput is sampled every SB_CLIFF_SAMPLE_NS while the region is
 * written from its start; each sample's bytes and time are spread over
 * equal-byte bins (a bin's rate weighs data, not time), at most
 * SB_CLIFF_MAX_BINS of them: when they are full, neighbours are merged and
 * a bin holds twice the bytes, so memory never grows with the bytes
 * written. The drop is a change point of the binned series
 * (sb_series_anomalies, lib/analysis) that moves the level by
 * SB_CLIFF_MIN_STEP or more and after which the level never comes back:
 * a short dip (garbage collection) is not a cliff.
 */
#ifndef SB_CLIFF_H
#define SB_CLIFF_H

#include "lib/sb.h"
#include "lib/run/run.h"
#include "lib/device/purge.h"

#define SB_CLIFF_SAMPLE_NS 100000000ull	    /* 100 ms */
#define SB_CLIFF_MAX_BINS 4096		    /* even */
#define SB_CLIFF_FIRST_BIN (1u << 20)	    /* bytes of a bin before any merge */
#define SB_CLIFF_MIN_STEP 0.2		    /* a step moves the level by 20% or more */
#define SB_CLIFF_MAX_STEPS 8		    /* further steps after the cliff, kept */
#define SB_CLIFF_AFTER_FACTOR 10	    /* stable after the drop for 10x the cache's time */
#define SB_CLIFF_MIN_AFTER_NS 2000000000ull /* ... and at least 2 s */
#define SB_CLIFF_MAX_RECOVERY 8

/* Equal-byte bins of a write's throughput. */
struct sb_cliff_bins {
	uint64_t bin_bytes; /* bytes of each full bin */
	size_t n;	    /* full bins */
	double ns[SB_CLIFF_MAX_BINS];
	uint64_t part_bytes; /* the bin being filled */
	double part_ns;
	uint64_t total_bytes;
	double total_ns;
	uint64_t samples; /* samples added */
	/* the analysis's bins hold at least this (0: no minimum): the
	 * requests in flight, so that a bin's rate is not one completion */
	uint64_t min_bin;
};

/* Empty bins of first_bin bytes (0: SB_CLIFF_FIRST_BIN). */
void sb_cliff_bins_init(struct sb_cliff_bins *b, uint64_t first_bin);
/* One sample: bytes written in ns nanoseconds, spread evenly over the
 * bins it covers. A sample of 0 bytes only adds its time to the bin being
 * filled. */
void sb_cliff_bins_add(struct sb_cliff_bins *b, uint64_t bytes, uint64_t ns);

/* A level change of the binned series. */
struct sb_cliff_step {
	uint64_t at_bytes;	    /* bytes written when the new level began */
	double at_ns;		    /* time then, from the start */
	double before_bw, after_bw; /* rates of the segments either side, bytes/s */
};

/* What the series shows. */
struct sb_cliff_find {
	int found;		    /* a drop that never recovers */
	uint64_t cache_bytes;	    /* bytes written at the fast speed before it */
	double cache_ns;	    /* the time that took */
	double before_bw, after_bw; /* bytes/s: the fast level, the level after */
	size_t nsteps;		    /* further steps after the drop */
	struct sb_cliff_step steps[SB_CLIFF_MAX_STEPS];
	double last_change_ns; /* the drop or the last step after it */
	double avg_bw;	       /* bytes / time of the whole fill */
	uint64_t total_bytes;
	double total_ns;
	/* the series analysed: nbins bins of bin_bytes (the last may hold
	 * fewer: last_bytes) */
	size_t nbins;
	uint64_t bin_bytes, last_bytes;
};

/* Finds the drop in b. The series is analysed in bins of b->bin_bytes
 * times the smallest power of 2 that holds a sample on average and
 * b->min_bin (so that a bin's rate is measured, not spread from one
 * sample). A level (before_bw, after_bw, a step's) is its segment's bytes
 * over its time: the sustained rate, unbiased where samples see whole
 * requests complete. bw (room for
 * SB_CLIFF_MAX_BINS + 1, or NULL) receives the analysed bins' rates. 0 or
 * -ENOMEM. */
int sb_cliff_detect(const struct sb_cliff_bins *b, struct sb_cliff_find *out, double *bw);

/* One recovery: after idle_ns without writes, a burst from the region's
 * start until the rate has been below the geometric middle of the fast
 * and the slow level for 1 s (or the burst wrote 1.25 x the cache). */
struct sb_cliff_recovery {
	uint64_t idle_ns;
	uint64_t burst_bytes;	  /* written by the burst */
	double burst_ns;	  /* its time */
	uint64_t recovered_bytes; /* written at the fast speed */
	double fraction;	  /* recovered_bytes / the cache's bytes */
	double fast_bw;		  /* the burst's fast level (0: none) */
	int at_least;		  /* the burst stopped while still fast */
	int interrupted;
};

struct sb_cliff_progress {
	int phase;			  /* 0 the fill, i >= 1 recovery i */
	int idle;			  /* waiting before a recovery burst */
	uint64_t elapsed_ns;		  /* of this phase */
	uint64_t bytes;			  /* written in this phase */
	double bw;			  /* last sample's rate, bytes/s */
	uint64_t total_bytes;		  /* the phase ends by these bytes at the latest */
	const struct sb_cliff_find *find; /* the fill's last analysis (found or not) */
};

/*
 * storbench cliff as one call: before the fill a purge (a device purged
 * whole by lib/target/purge.c, a file's region discarded) and an idle time,
 * then the fill and the recoveries. The caller prepares the target for the
 * write job (its safety and consent, lib/target/jobtarget.h) and picks the
 * engine; sb_cliff_run writes through what the target holds.
 *
 *   struct sb_cliff_result *r = calloc(1, sizeof(*r));
 *   e = sb_cliff_run(&o, &hooks, NULL, r, &err);   ... r->find, r->jr
 *   sb_cliff_result_free(r); free(r);
 */
struct sb_jobtarget;
struct sb_coord;

/* --recovery: durations above 0, comma-separated, at most
 * SB_CLIFF_MAX_RECOVERY, into ns[] and *n: 0 or -EINVAL. */
int sb_cliff_parse_recovery(const char *v, uint64_t *ns, unsigned *n);

struct sb_cliff_opts {
	const struct sb_jobtarget *t; /* prepared for job: paths, held fds, region */
	const char *path;	      /* TARGET as named, for messages */
	struct sb_job_opts job;	      /* the write job (rw write or randwrite) */
	const struct sb_engine_ops *ops;
	uint64_t max_bytes;   /* 0: the region */
	uint64_t max_time_ns; /* 0: none */
	unsigned nrecovery;
	uint64_t recovery_ns[SB_CLIFF_MAX_RECOVERY];
	/* before the fill: the purge asked for (SB_PURGE_NONE: none; a file
	 * takes auto or discard: a hole punched in its region), then idle */
	enum sb_purge_method purge;
	uint64_t idle_before_ns;
};

enum sb_cliff_step_kind { SB_CLIFF_IDLE_BEFORE, SB_CLIFF_FILL };

/* What the program hears of as it runs; each may be NULL. */
struct sb_cliff_hooks {
	void *ctx;
	/* polled every sample and every 100 ms of an idle time: non-zero
	 * stops the run (the result interrupted) */
	int (*stop)(void *ctx);
	/* after each sample, and every 100 ms of a recovery's idle time */
	void (*progress)(void *ctx, const struct sb_cliff_progress *p);
	/* a step begins: the idle time before the fill (ns: its length,
	 * o->idle_before_ns), the fill (ns 0) */
	void (*step)(void *ctx, enum sb_cliff_step_kind k, uint64_t ns);
};

struct sb_cliff_result {
	/* what ran: the write job, its region, and before it the purge done
	 * (sb_purge_name of the method; NULL none), how ("BLKDISCARD",
	 * "FALLOC_FL_PUNCH_HOLE", ...; "" none), over how many bytes, and
	 * the idle time */
	struct sb_job_opts job;
	uint64_t region_offset, region_size;
	const char *purge;
	char purge_method[SB_PURGE_HOW_SIZE];
	uint64_t purge_bytes, idle_before_ns;
	int measured;		   /* the fill began: there is something to write */
	struct sb_cliff_bins bins; /* the fill's */
	struct sb_cliff_find find;
	double bw[SB_CLIFF_MAX_BINS + 1]; /* the analysed bins' rates */
	const char *stop_reason; /* "stable", "region end", "size", "max time", "interrupted" */
	unsigned nrecovery;
	struct sb_cliff_recovery recovery[SB_CLIFF_MAX_RECOVERY];
	int interrupted;
	/* the fill's statistics as a job (sb_results_cliff takes them) */
	struct sb_job_result *jr;
};

/*
 * Runs storbench cliff o describes, telling h (NULL: nothing) as it goes;
 * coord: NULL or a single process (cliff runs alone). out: zeroed by the
 * caller. 0 when measured; -EINTR when h->stop stopped it (out->interrupted;
 * out->measured says whether the fill began, what it wrote is kept);
 * else -errno with err: a purge refused (SB_ERR_INPUT, nothing written) or
 * failed, the fill or a burst failed (out still holds what was measured:
 * the program writes it), -ENOMEM.
 */
int sb_cliff_run(const struct sb_cliff_opts *o, const struct sb_cliff_hooks *h,
		 struct sb_coord *coord, struct sb_cliff_result *out, struct sb_error *err);
/* What the result holds (the job's statistics unless taken); NULL accepted. */
void sb_cliff_result_free(struct sb_cliff_result *r);

/* The purge before the fill (cliff_before.c): the device whole, or a hole
 * punched in a file's region; out's purge fields. 0 or -errno with err. */
int sb_cliff_purge(const struct sb_cliff_opts *o, struct sb_cliff_result *out,
		   struct sb_error *err);

/* The results' "cliff" section (cliff_json.c): the fill as a job (res
 * takes r->jr, as sb_results_add_job does) and the section
 * (docs/cliff.md). r must outlive res. 0 or -ENOMEM. */
struct sb_results;
int sb_results_cliff(struct sb_results *res, struct sb_cliff_result *r);

/* The "cliff" section read back (cliff_read.c): what the section holds of
 * a run's result, r (not its bins: the analysed series is r.bw and
 * r.find's nbins, bin_bytes, last_bytes; r.job's rw, bs, iodepth and
 * direct; r.jr NULL), its strings held here. */
struct sb_jv;
struct sb_cliff_doc {
	struct sb_cliff_result r;
	char stop_reason[32], purge[32];
	double min_step;
	uint64_t sample_interval_ns;
};
/* Reads section (storbench.cliff) into out, each value's type and range
 * checked: 0, or -EINVAL with err->msg naming the key path of what is
 * wrong ("steps[1].at_bytes: expected ..."). sb_cliff_doc_free after. */
int sb_cliff_read(const struct sb_jv *section, struct sb_cliff_doc *out, struct sb_error *err);
void sb_cliff_doc_free(struct sb_cliff_doc *d);

#endif
