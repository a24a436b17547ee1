/*
 * flashbench's methods (METHODS.md section 1), done better: read timing
 * across power-of-two boundaries (--align) with a decision on the erase
 * block (allocation unit) and page sizes, and how many allocation units a
 * device keeps open for writing (--open-au). The caller opens the target
 * (O_DIRECT) and prints; these calls only issue, time (CLOCK_MONOTONIC) and
 * decide.
 */
#ifndef SB_FLASH_H
#define SB_FLASH_H

#include "lib/sb.h"

/* What the methods hear of as they go; each may be NULL. */
struct sb_flash_hooks {
	int (*stop)(void *ctx); /* polled between requests: non-zero stops (-EINTR) */
	/* done of total units of work (requests) */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
	/* sb_flash_run: a probe begins ("align, bs 4.00 KiB", "open-au",
	 * "find-fat", "scatter") */
	void (*step)(void *ctx, const char *what);
};

/* The device as the methods use it: an fd open with O_DIRECT, its size and
 * its logical block size (every offset and length a multiple of it). */
struct sb_flash_dev {
	int fd;
	uint64_t size;
	uint32_t lbs;
};

/* Raise the scheduling priority of the calling thread: SCHED_FIFO 10 as
 * flashbench when realtime, else nice -10. Returns 0, or -errno when not
 * permitted (the caller records it; measuring goes on). what gets
 * "SCHED_FIFO 10" or "nice -10". */
int sb_flash_raise_priority(int realtime, char *what, size_t len);

/* ---- --align ---- */
#define SB_FLASH_POSITIONS 7
#define SB_FLASH_MAX_ROWS 48

struct sb_flash_align_row {
	uint64_t align;		       /* the boundary, bytes */
	double pre_ns, on_ns, post_ns; /* averages over the positions of the minima */
	double diff_ns;		       /* on - (pre + post) / 2 */
	double pre_post_spread_ns;     /* max over positions of |pre - post| minima */
	unsigned positions;	       /* positions read (7) */
};

struct sb_flash_profile {
	uint32_t bs;
	unsigned count;	   /* tries per read, the minimum kept */
	uint64_t maxalign; /* the first (largest) boundary */
	unsigned nrows;	   /* largest boundary first */
	struct sb_flash_align_row rows[SB_FLASH_MAX_ROWS];
};

/* The largest boundary read at block size bs on a device of size bytes:
 * the largest power of two with 8 x it within the device (all seven
 * positions without wrapping), at least 4 x bs; 0 when the device is too
 * small for that (smaller than 32 x bs). */
uint64_t sb_flash_maxalign(uint64_t size, uint32_t bs);
/* The --bs checks: a power of two, at least twice lbs (the "on" read sits
 * at align - bs/2), at most 64 MiB. 0 or -EINVAL. */
int sb_flash_bs_ok(uint32_t bs, uint32_t lbs);
/* Number of reads sb_flash_align issues at bs (for the progress line). */
uint64_t sb_flash_align_reads(uint64_t size, uint32_t bs, unsigned count);
/* Time reads at every boundary from maxalign down to 2 x bs: for each,
 * pre (the block before), on (straddling) and post (the block after) at
 * SB_FLASH_POSITIONS positions i x maxalign, the minimum of count tries.
 * 0, -EINVAL (bs, a device too small), -EINTR (stopped: out holds the rows
 * done), or the -errno of a failed read (*fail_offset gets its offset). */
int sb_flash_align(const struct sb_flash_dev *dev, uint32_t bs, unsigned count,
		   const struct sb_flash_hooks *h, struct sb_flash_profile *out,
		   uint64_t *fail_offset);

/* ---- the decision ---- */
enum sb_flash_conf { SB_FLASH_CONF_LOW = 1, SB_FLASH_CONF_MEDIUM, SB_FLASH_CONF_HIGH };
const char *sb_flash_conf_name(int conf); /* "low", "medium", "high" */

/* A step of the diff profile between boundary align and align / 2: every
 * boundary at or above it costs more (at least above_ns) than every one
 * below it (at most below_ns). */
struct sb_flash_step {
	uint64_t align;
	unsigned row;		   /* its row in the profile */
	double above_ns, below_ns; /* min diff at and above, max diff below */
	double margin;		   /* (above - below) / threshold, > 1 */
	int conf;		   /* enum sb_flash_conf */
};

#define SB_FLASH_MAX_STEPS 8
struct sb_flash_decision {
	double base_ns;	     /* median of the plain (pre, post) reads */
	double noise_ns;     /* what the reads vary by without a boundary */
	double threshold_ns; /* a step must be larger than this */
	unsigned nsteps;     /* largest boundary first */
	struct sb_flash_step steps[SB_FLASH_MAX_STEPS];
	/* the findings: index into steps, -1 none */
	int erase, page;
};
/* A step counts when the boundaries above it all cost more than every one
 * below by more than threshold = max(3 x noise, 5% of base) and by at least
 * half as much again (ratio 1.5). noise: the spread of pre against post
 * (robust, over the rows) and the most negative diff. The largest step is
 * the erase block (allocation unit) and the smallest the page; a single
 * step is the erase block when at 128 KiB or above, else the page. No step:
 * no decision (erase and page -1). Fewer than 3 rows: -EINVAL. */
int sb_flash_decide(const struct sb_flash_profile *p, struct sb_flash_decision *d);

/* ---- --open-au ---- */
#define SB_FLASH_MAX_CHUNKS 32
#define SB_FLASH_MAX_AU 64

struct sb_flash_au_row {
	uint64_t chunk;	  /* bytes a write */
	uint64_t writes;  /* writes timed */
	double mean_ns;	  /* per write */
	double bps;	  /* chunk / mean (what flashbench prints) */
	double median_ns; /* per write: what most writes took */
	double noise_ns;  /* the writes' robust spread: interquartile range / 1.349 */
	int collapsed;	  /* sb_flash_au_slow against the one-AU row of this chunk */
};

struct sb_flash_au_run {
	unsigned nau; /* AUs open at once */
	int random;   /* chunks in LFSR order inside each AU */
	unsigned nrows;
	struct sb_flash_au_row rows[SB_FLASH_MAX_CHUNKS];
	int collapsed; /* two rows in a row (or the smallest chunk) slow: stopped there */
};
/* Is row slower than ref (the one-AU row of its chunk size) the way a
 * device past its open AUs is: most writes (the median) at under half the
 * rate, by more than the noise of ref's writes by --align's rule (3 x, and
 * 5% of the plain figure)? A stray slow write (a RAM disk's, a busy
 * machine's) moves the mean, not the median: no collapse. */
int sb_flash_au_slow(const struct sb_flash_au_row *ref, const struct sb_flash_au_row *row);

struct sb_flash_au_params {
	uint64_t erase;	 /* the allocation unit, bytes (a power of two) */
	uint32_t bs;	 /* the smallest chunk */
	uint64_t offset; /* where the first AU is; AUs are 12 x erase apart */
	unsigned max_au; /* the most AUs to try */
	int orders;	 /* bit 0 linear, bit 1 random */
};

struct sb_flash_au_result {
	struct sb_flash_au_params p;
	unsigned nruns;
	struct sb_flash_au_run runs[2 * SB_FLASH_MAX_AU];
	/* per order (0 linear, 1 random): the largest number of AUs that stayed
	 * fast (0: not measured); limited: stopped by max_au or the device size
	 * before a collapse: no effect found, the device may keep more open */
	unsigned best[2];
	int limited[2];
	unsigned fits; /* AUs the device holds from offset at 12 x erase apart */
};
/* The default offset: 16 MiB rounded up to a multiple of erase (past the
 * FAT area). */
uint64_t sb_flash_au_offset(uint64_t erase);
/* Writes (0x5a, as flashbench) for chunk = erase, erase/2, ..., bs into N =
 * 1, 2, ... AUs visited in LFSR order, each AU's chunks in linear or LFSR
 * order; two chunk sizes in a row (or the smallest) slow against one AU
 * (sb_flash_au_slow) end that N, and the first N that collapses ends the order. 0, -EINVAL (bad
 * params, the device too small for one AU), -EINTR (stopped: out holds
 * what ran), or the -errno of a failed write. */
int sb_flash_open_au(const struct sb_flash_dev *dev, const struct sb_flash_au_params *p,
		     const struct sb_flash_hooks *h, struct sb_flash_au_result *out,
		     uint64_t *fail_offset);

/* ---- --scatter ---- */
struct sb_flash_scatter_params {
	uint32_t bs;
	unsigned order;	 /* 2^order positions (flashbench: 9) */
	unsigned span;	 /* blocks a read (1) */
	unsigned count;	 /* tries, the fastest kept */
	uint64_t offset; /* of position 0 */
};
struct sb_flash_scatter {
	struct sb_flash_scatter_params p;
	uint32_t n;    /* positions */
	uint64_t *off; /* offset of each, ascending */
	double *ns;    /* the fastest read there (INFINITY: not read, stopped) */
};
/* Reads span x bs bytes at offset + j x bs for j < 2^order in LFSR order,
 * count times, keeping the minimum per position. 0, -EINVAL (parameters,
 * a device too small for the map), -ENOMEM, -EINTR (stopped: out holds
 * what was read), or a read's -errno (*fail_offset). Free out with
 * sb_flash_scatter_free, whatever the result. */
int sb_flash_scatter(const struct sb_flash_dev *dev, const struct sb_flash_scatter_params *p,
		     const struct sb_flash_hooks *h, struct sb_flash_scatter *out,
		     uint64_t *fail_offset);
void sb_flash_scatter_free(struct sb_flash_scatter *s);
/* The map in brief: fastest, median and slowest read, and the positions of
 * the slowest reads (up to SB_FLASH_SLOWEST, slowest first). */
#define SB_FLASH_SLOWEST 8
struct sb_flash_scatter_sum {
	double min_ns, median_ns, max_ns;
	uint32_t slowest[SB_FLASH_SLOWEST];
	unsigned nslowest;
};
void sb_flash_scatter_sum(const struct sb_flash_scatter *s, struct sb_flash_scatter_sum *out);

/* ---- --find-fat ---- */
#define SB_FLASH_MAX_FAT 16
struct sb_flash_fat_row {
	uint64_t chunk;
	double bps[SB_FLASH_MAX_FAT]; /* per erase block */
};
struct sb_flash_fat {
	uint64_t erase;
	uint32_t bs;
	unsigned nblocks, nrows;
	struct sb_flash_fat_row rows[SB_FLASH_MAX_CHUNKS];
	/* per block: +1 faster, -1 slower than the median of the others at the
	 * two smallest chunk sizes (by 2x), 0 alike */
	int differs[SB_FLASH_MAX_FAT];
};
/* Writes (0x5a) each of the first nblocks erase blocks whole in chunks of
 * erase, erase/2, ... bs, and names the blocks that differ. 0, -EINVAL,
 * -ENOSPC (the device holds fewer blocks), -ENOMEM, -EINTR (stopped: the
 * rows done are kept), or a write's -errno (*fail_offset). */
int sb_flash_find_fat(const struct sb_flash_dev *dev, uint64_t erase, uint32_t bs, unsigned nblocks,
		      const struct sb_flash_hooks *h, struct sb_flash_fat *out,
		      uint64_t *fail_offset);

/* ---- a whole run, as the results and the summary take it ---- */
#define SB_FLASH_MAX_BS 8
struct sb_flash_result {
	int align, open_au, scatter, find_fat; /* the modes that ran */
	char priority[32];		       /* "nice -10", "SCHED_FIFO 10" */
	int priority_err;   /* 0 raised, else the positive errno of the refusal */
	unsigned count;	    /* --align tries */
	unsigned nprofiles; /* one per --bs */
	struct sb_flash_profile profiles[SB_FLASH_MAX_BS];
	struct sb_flash_decision decisions[SB_FLASH_MAX_BS];
	/* across the block sizes: the profile whose step is the clearest (-1
	 * none), and at how many block sizes the same size was found */
	int erase_from, page_from;
	unsigned erase_agree, page_agree;
	int align_partial; /* --align was stopped: the last profile is not decided */
	struct sb_flash_au_result au;
	struct sb_flash_scatter sc;
	struct sb_flash_fat fat;
	int interrupted;
};
/*
 * storbench flash as one call: the block sizes checked against the device
 * (a default one where none is given), the scheduling priority raised,
 * then --align (every block size: a profile and its decision), --open-au
 * and --find-fat (at the erase block --align found, else o->erase or
 * 4 MiB) and --scatter, in that order; a stop ends the sequence where it
 * is (out->interrupted). The caller opens the device (its safety, consent
 * and O_DIRECT: lib/target) and keeps it open.
 */
#define SB_FLASH_DEFAULT_BS (4u << 10)
#define SB_FLASH_DEFAULT_ERASE (4ull << 20)
struct sb_coord;
struct sb_flash_opts {
	const struct sb_flash_dev *dev;
	const char *path; /* TARGET as named, for messages */
	int align, open_au, find_fat, scatter;
	int realtime;		      /* SCHED_FIFO 10, else nice -10 */
	uint32_t bs[SB_FLASH_MAX_BS]; /* nbs 0: 4 KiB (16 KiB without --align), at
				       * least twice the logical block */
	unsigned nbs;
	unsigned count;	 /* --align, --scatter: tries per read */
	uint64_t erase;	 /* --open-au, --find-fat: 0 what --align found, else 4 MiB */
	uint64_t offset; /* --open-au: the first AU (offset_set 0: past the FAT area) */
	int offset_set;
	unsigned max_au; /* --open-au */
	int orders;	 /* --open-au: bit 0 linear, bit 1 random */
	unsigned fat_nr; /* --find-fat: erase blocks */
	unsigned sc_order, sc_span;
};
/* --bs: SIZE, SIZE,SIZE... or A..B (the powers of two from A to B), each
 * a power of two from 512 to 64M, into bs[] and *nbs: 0, -EINVAL, or
 * -E2BIG past SB_FLASH_MAX_BS sizes. */
int sb_flash_parse_bs(const char *v, uint32_t *bs, unsigned *nbs);
/* The options together, before the target is opened: the defaults of
 * what was not given (--align when no probe is named; fat_nr 6, sc_order 9,
 * sc_span 1, count 8, max_au 8, orders 3) and the options given for a
 * probe that does not run (scatter_set: --scatter-order or --scatter-span
 * given; erase_set: --erase-size). 0, or -EINVAL with the message. */
int sb_flash_opts_check(struct sb_flash_opts *o, int scatter_set, int erase_set, char *msg,
			size_t ml);
/* Runs the probes o asks for on o->dev, telling h (NULL: nothing). 0 when
 * they ran (or were stopped: out->interrupted, what ran kept); else -errno
 * with err: -EINVAL (SB_ERR_INPUT) for sizes the device cannot take, a
 * failed request (-EIO: SB_ERR_FAIL, else SB_ERR_ENV) naming its offset.
 * Free out with sb_flash_result_free (also after a failure). */
int sb_flash_run(const struct sb_flash_opts *o, const struct sb_flash_hooks *h,
		 struct sb_coord *coord, struct sb_flash_result *out, struct sb_error *err);
void sb_flash_result_free(struct sb_flash_result *r);

/* The results' "flash" section (flash_json.c): every row and the
 * findings, and a warning when the priority could not be raised. r must
 * outlive res. 0 or -ENOMEM. */
struct sb_results;
int sb_results_flash(struct sb_results *res, const struct sb_flash_result *r);

/* The "flash" section read back (flash_read.c): r as the run filled it,
 * as far as the section holds it: the probes that ran, each profile with
 * its rows and decision (its steps; erase and page from each step's
 * kind), align_partial (not "decided"), the open-AU runs and answers
 * (p.orders: the orders answered), find-fat's rows and the blocks that
 * differ, scatter's parameters and map (sc.ns NAN where not read), the
 * priority asked, interrupted; not r.count, erase_from, page_from and the
 * agreements, which the section gives as findings: */
struct sb_flash_finding {
	int found;
	uint64_t bytes;
	int conf; /* enum sb_flash_conf */
	double margin;
	uint32_t bs;	/* of the profile it was found in */
	unsigned agree; /* seen at this many block sizes */
};
struct sb_jv;
struct sb_flash_doc {
	struct sb_flash_result r;
	int boundary_effect; /* 1, 0; -1: null (stopped before a decision) */
	struct sb_flash_finding erase, page;
	char priority_error[128]; /* why it was not raised ("" raised) */
	/* scatter: the fastest, median and slowest read, and the offsets
	 * of the slowest, as written */
	double sc_min_ns, sc_median_ns, sc_max_ns;
	uint64_t slowest[SB_FLASH_SLOWEST];
	unsigned nslowest;
	char **meaning; /* what the findings mean, a sentence each */
	unsigned nmeaning;
};
/* Reads section (storbench.flash) into out, each value's type and range
 * checked: 0, or -EINVAL with err->msg naming the key path of what is
 * wrong ("align.profiles[0].rows[3].on_ns: expected ..."), -ENOMEM. Free
 * out with sb_flash_doc_free (also after a failure). */
int sb_flash_read(const struct sb_jv *section, struct sb_flash_doc *out, struct sb_error *err);
void sb_flash_doc_free(struct sb_flash_doc *d);

/* Fill erase_from, page_from and the agreement counts from the decisions. */
void sb_flash_overall(struct sb_flash_result *r);
/* The erase block and page the report names: 0 when none. */
uint64_t sb_flash_erase_size(const struct sb_flash_result *r);
uint64_t sb_flash_page_size(const struct sb_flash_result *r);
/* What the findings mean to a person, one sentence each: fn(line, ctx) for
 * the partition alignment, the page and filesystem block, f2fs, streams. */
void sb_flash_meaning(const struct sb_flash_result *r, void (*fn)(const char *line, void *ctx),
		      void *ctx);

/* ---- the maximal-length LFSR order (lfsr.c) ---- */
/* Visits 0..n-1 each exactly once in a pseudo-random order (a Galois LFSR
 * of at least 8 bits, values >= n skipped). n at most 2^24. */
struct sb_lfsr {
	uint32_t state, mask, n;
};
int sb_lfsr_init(struct sb_lfsr *l, uint32_t n);
/* The next index; after n calls the order repeats. */
uint32_t sb_lfsr_next(struct sb_lfsr *l);

#endif
