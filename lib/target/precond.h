/*
 * The state a target is brought to before a measurement (docs/states.md):
 * purged (lib/device/purge.h), full (one sequential pass of 128 KiB writes
 * over the region: the workload-independent preconditioning of SNIA PTS,
 * METHODS.md 3.1, which `storbench pts` runs through the same job), or
 * filled at random (4 KiB random writes over the region for a stated
 * amount); and a discard of the region just before the run. Every one
 * destroys what the region holds: callers hold consent (--destroy-data)
 * and the safety checks (sb_jobtarget_consent) first.
 */
#ifndef SB_PRECOND_H
#define SB_PRECOND_H

#include "lib/sb.h"
#include "lib/job/job.h"
#include "lib/device/purge.h"

enum sb_precond { SB_PRECOND_NONE, SB_PRECOND_PURGE, SB_PRECOND_FILL, SB_PRECOND_FILL_RANDOM };

#define SB_PRECOND_FILL_BS (128u << 10)
#define SB_PRECOND_RANDOM_BS 4096u

/* What was asked for. */
struct sb_state_opts {
	enum sb_precond precond;
	enum sb_purge_method purge; /* for SB_PRECOND_PURGE: auto */
	/* fill-random: amount_bytes when given as a size, else amount_x100
	 * hundredths of the region (100: once its size) */
	uint64_t amount_bytes;
	unsigned amount_x100;
	int discard_before;
};

/* What was done, for the results ("state" in docs/results-schema.md). */
struct sb_state {
	char name[48];			   /* "full", "purged", "as found", "full, discarded" */
	enum sb_precond precond;	   /* as asked */
	enum sb_purge_method purge;	   /* the method the device took */
	enum sb_purge_method purge_asked;  /* --purge (auto unless given) */
	char purge_how[SB_PURGE_HOW_SIZE]; /* and the command (sb_purge_how) */
	uint64_t region_offset, region_bytes;
	uint64_t written;	 /* bytes the preconditioning wrote */
	uint64_t amount;	 /* fill-random: bytes asked for */
	uint64_t took_ns;	 /* the preconditioning, wall clock */
	int discarded;		 /* --discard-before carried out */
	char discard_method[24]; /* "BLKDISCARD", "FALLOC_FL_PUNCH_HOLE" */
	uint64_t discard_bytes;
};

/* "none", "purge", "fill", "fill-random". */
const char *sb_precond_name(enum sb_precond p);
/* --precondition's value: purge, fill, fill-random or fill-random:AMOUNT
 * (Nx, N.Nx, or a size: 2x, 0.5x, 8G). -EINVAL with msg naming what is
 * expected. */
int sb_precond_parse(const char *v, struct sb_state_opts *o, char *msg, size_t msglen);
/* The bytes fill-random writes over a region of region_bytes: rounded down
 * to whole 4 KiB requests, at least one. */
uint64_t sb_precond_amount(const struct sb_state_opts *o, uint64_t region_bytes);
/* The job of a sequential pass of 128 KiB writes over [offset, offset +
 * size) at queue depth iodepth, direct I/O (the PTS workload-independent
 * preconditioning), and of fill-random's 4 KiB random writes of amount
 * bytes over the same region (wrapping, as fio's io_size). */
void sb_precond_fill_job(struct sb_job_opts *j, uint64_t offset, uint64_t size, unsigned iodepth,
			 uint64_t seed);
void sb_precond_random_job(struct sb_job_opts *j, uint64_t offset, uint64_t size, uint64_t amount,
			   unsigned iodepth, uint64_t seed);
/* Discard [offset, offset + len) of fd: BLKDISCARD on a block device,
 * FALLOC_FL_PUNCH_HOLE on a file (its size kept). st->discard_method and
 * discard_bytes say what was done; a target that refuses is an error
 * (-errno, er saying which). */
int sb_discard_region(int fd, int is_blockdev, const char *path, uint64_t offset, uint64_t len,
		      struct sb_state *st, struct sb_error *er);
/* The state's name from what was done (st->precond, purge, discarded). */
void sb_state_name(struct sb_state *st);

#endif
