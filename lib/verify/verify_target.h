/*
 * storbench verify over a whole target: from TARGET (a file, a directory or
 * a block device, probed by the caller) to the files (or the device) it
 * covers, and the write and check phases over them. A file or a device is
 * one region; a directory is a row of files of at most SB_VFILE_SPAN bytes
 * (FAT32 holds no file of 4 GiB), whose offsets continue each other as
 * f3's 1.h2w, 2.h2w do. Nothing is created before sb_vtarget_create, and
 * only files storbench created are ever removed.
 *
 * Directories are shared places (/tmp, a card others write to): a run's
 * files are named .storbench-verify-<run>-<k>.tmp, where <run> is the
 * process id and 64 random bits, created with O_EXCL|O_NOFOLLOW and used
 * through their descriptors from then on, never re-opened by name. A check
 * finds them by their names but trusts only what it reads: regular files,
 * opened without following a symlink, whose blocks say which run wrote
 * them and where the written region ends. A file storbench did not create
 * in this run is its own only when its first block is a verify block (and
 * it carries storbench's xattr, where the filesystem keeps xattrs).
 *
 * Every call that can fail returns -errno and, where a person must be told
 * why, fills msg (without the program's name) with what the program prints.
 */
#ifndef SB_VERIFY_TARGET_H
#define SB_VERIFY_TARGET_H

#include "lib/sb.h"
#include "lib/engine/engine.h"
#include "lib/target/target.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"
#include "lib/verify/seqpass.h"

enum { SB_VPHASE_WRITE = 1, SB_VPHASE_CHECK = 2, SB_VPHASE_BOTH = 3 };

/* A directory's data goes into files of at most this size, each
 * continuing the previous one. */
#define SB_VFILE_SPAN (1ull << 30)

/* What the options ask of the target. */
struct sb_vtarget_opts {
	int phase; /* SB_VPHASE_* */
	uint64_t offset;
	uint64_t size; /* 0: not given (all of it, or a default) */
	uint32_t block_size;
	int block_size_given;
	uint64_t seed;
	int seed_given;
	int direct;  /* 0, 1, -1: where supported */
	int destroy; /* consent to overwrite what is not ours */
};

/* One file of the target (or the device): its region and where it sits in
 * the target's offsets. */
struct sb_vseg {
	char *path;
	uint64_t base;	       /* target offset of the file's byte 0 */
	uint64_t offset, size; /* region in the file */
	int fd;		       /* the file held open (created, or opened without
				 * following a symlink); -1: none (a device, a
				 * file not there) */
	int created;	       /* created by this run */
	int retired;	       /* created, and its use over: held until the next
				* sb_vtarget_create swaps a new file in */
	int missing;	       /* check: the file is not there */
};

struct sb_vtarget {
	const char *path;
	const struct sb_target_info *info; /* the caller's, kept while t is used */
	struct sb_vseg *seg;
	unsigned nseg;
	uint64_t offset, size; /* the region in target offsets */
	int is_dir, is_blockdev;
	uint32_t align; /* direct I/O alignment */
	int direct;
	int learned;   /* seed (and block size) read from the data */
	uint64_t seed; /* learned: the seed and block size found */
	uint32_t block_size;
	uint64_t region_end;  /* check: where the data says its region ends (0:
				 * it does not say) */
	char run[32];	      /* a directory: the run's part of the file names */
	int dir_fd;	      /* a directory written: fd + 1 of it, locked while
				 * this run writes there; 0 none */
	unsigned other_runs;  /* check of a directory: other runs' files seen */
	uint64_t leftover;    /* a directory filled: bytes of earlier runs' files
				 * the fill removes first */
	int fill;	      /* a directory written without a size: all the room
			      * there is, the plan cut where the filesystem is
			      * full when the files are created */
	uint64_t free_before; /* a directory written: the free space (as df
			       * shows it) and leftover, before the write */
};

/* Resolve path (info: what sb_target_probe found there) into t (zeroed by
 * the caller), nothing created. A check learns from the data where the
 * written region ends (what is missing past the end of a file is found
 * missing) and, without a seed, the seed and, unless given, the block size:
 * o->seed and o->block_size are updated. -EINVAL for what the options ask
 * wrongly, -EPERM for a refusal (a file or device that is not ours to
 * write, a symlink to write through), -ENOENT when there is nothing to
 * check, -EBUSY when another run is writing it, -ENOSPC, -ENOMEM, other
 * -errno of the filesystem; msg says which. */
int sb_vtarget_resolve(struct sb_vtarget *t, const char *path, const struct sb_target_info *info,
		       struct sb_vtarget_opts *o, char *msg, size_t ml);
/* For a write, after every option was checked: create the files of a
 * directory or a new file (a fill of a directory first removes the files
 * earlier runs left there, where no run is using them, then allocates its
 * files until the filesystem is full, as f3write writes until ENOSPC, and
 * cuts t->size there); a device or an existing file needs nothing. -EEXIST when the name is taken (a file, a
 * symlink), -EBUSY when another run is writing in the directory in a way
 * this one cannot share, -ENOSPC and the like from the filesystem; msg says
 * which. */
int sb_vtarget_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml);
/* Open segment i for a phase: O_DIRECT when t->direct. fd or -errno. */
int sb_vtarget_open(const struct sb_vtarget *t, unsigned i, int write);
/* Remove segment i when this run created it, only while its name still
 * names that file (it is no longer created afterwards, the plan stays:
 * sb_vtarget_create makes it again). 0 or -errno (-ENOENT: already gone,
 * -ESTALE: the name now names something else, which stays). */
int sb_vtarget_remove(struct sb_vtarget *t, unsigned i);
/* Done with segment i until the next sb_vtarget_create (soak's
 * iterations): a file at a name of the user's (a new file TARGET) is kept,
 * held, and swapped for a new one then, so that the name never stands
 * free for another run to take; a directory's file (a name of the run's
 * own) is removed. 0 or -errno as sb_vtarget_remove. */
int sb_vtarget_retire(struct sb_vtarget *t, unsigned i);
/* sb_vtarget_retire, msg the warning a person is owed when a file that was
 * to go stays ("" when it went, was never there, or is kept held). */
int sb_vtarget_retire_said(struct sb_vtarget *t, unsigned i, char *msg, size_t ml);
/* sb_vtarget_remove, msg as sb_vtarget_retire_said's. */
int sb_vtarget_remove_said(struct sb_vtarget *t, unsigned i, char *msg, size_t ml);
/* Close and free what resolve and create hold (removes nothing). */
void sb_vtarget_free(struct sb_vtarget *t);
/* Learn from the data, by the agreement of blocks read at several places
 * (not the first one found), which run wrote it: t->seed, t->block_size
 * and t->region_end; only a run of o's seed or block size where given.
 * 0, or -ENOENT when no block of such a run was found. */
int sb_vtarget_learn(struct sb_vtarget *t, const struct sb_vtarget_opts *o);

/* One rank's part of a verify run of many ranks (mpirun): where it
 * worked, its counts and its first bad ranges (offsets in its own target). */
#define SB_VERIFY_RANK_RANGES 8
struct sb_verify_rank {
	int rank;
	char host[64];
	char path[256];
	uint64_t bytes_written, bytes_checked;
	uint64_t blocks, count[SB_VERIFY_NCLASS];
	uint64_t write_errors, missing_blocks;
	int failed, interrupted;
	unsigned nranges;
	uint64_t omitted; /* bad ranges not in ranges[] */
	struct sb_verify_range ranges[SB_VERIFY_RANK_RANGES];
};

/* What a verify run did: the phases' figures and the blocks found, as the
 * results' "verify" section and the text summary read them. Of a run of
 * many ranks, rank 0's report holds the counts of all (summed), no bad
 * range of its own, and each rank's part in ranks[]. */
struct sb_verify_report {
	const struct sb_vtarget *t;
	const char *engine;
	int phase; /* SB_VPHASE_* asked for */
	uint32_t request_size;
	unsigned iodepth;
	struct sb_verify_fmt fmt; /* seed, generation, block size */
	int wrote, checked;
	struct sb_verify_pass_result wr, rd;
	struct sb_verify_acc acc;
	uint64_t missing_blocks;	    /* check: blocks of files not found */
	int failed;			    /* a phase could not run: its -errno, 0 none */
	char failure[256];		    /* failed: what (the message) */
	const struct sb_verify_rank *ranks; /* many ranks: each one's part */
	unsigned nranks;
};

/* One phase over every file of a target. */
struct sb_vphase {
	const struct sb_vtarget *t;
	const struct sb_engine_ops *ops;
	int write; /* 1: write and fsync; 0: read and check into r->acc */
	/* after every request, with the phase's bytes so far; non-zero stops
	 * the phase. May be NULL. */
	int (*progress)(void *ctx, uint64_t bytes);
	/* polled before every file: non-zero stops the phase (interrupted).
	 * May be NULL. */
	int (*stop)(void *ctx);
	void *ctx;
};

/* Runs the phase with r's format, request size and depth; its figures go
 * to r->wr or r->rd, and r->wrote or r->checked is set. A write records
 * the region's end in every block (r->fmt.region_end). Returns 0 (I/O
 * errors are results), or -errno when a file could not be opened for
 * writing or a pass could not run; msg says which, and r->failed and
 * r->failure keep it for the results. */
int sb_verify_phase(struct sb_verify_report *r, const struct sb_vphase *p, char *msg, size_t ml);

#endif
