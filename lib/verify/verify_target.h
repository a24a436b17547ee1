/*
 * storbench verify over a whole target: from TARGET (a file, a directory or
 * a block device, probed by the caller) to the files (or the device) it
 * covers, and the write and check phases over them. A file or a device is
 * one region; a directory is a row of files of at most SB_VFILE_SPAN bytes
 * (FAT32 holds no file of 4 GiB), whose offsets continue each other as
 * f3's 1.h2w, 2.h2w do. Nothing is created before sb_vtarget_create, and
 * only files storbench created are ever removed.
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

/* A directory's data goes into files of at most this size, named
 * SB_VFILE_FMT, each continuing the previous one. */
#define SB_VFILE_SPAN (1ull << 30)
#define SB_VFILE_FMT "%s/.storbench-verify-%u.tmp"

/* What the options ask of the target. */
struct sb_vtarget_opts {
	int phase;			/* SB_VPHASE_* */
	uint64_t offset;
	uint64_t size;			/* 0: not given (all of it, or a default) */
	uint32_t block_size;
	int block_size_given;
	uint32_t request_size;		/* a directory is filled in whole requests */
	uint64_t seed;
	int seed_given;
	int direct;			/* 0, 1, -1: where supported */
	int destroy;			/* consent to overwrite what is not ours */
};

/* One file of the target (or the device): its region and where it sits in
 * the target's offsets. */
struct sb_vseg {
	char *path;
	uint64_t base;		/* target offset of the file's byte 0 */
	uint64_t offset, size;	/* region in the file */
	int created;		/* created by this run */
	int missing;		/* check: the file is not there */
};

struct sb_vtarget {
	const char *path;
	const struct sb_target_info *info; /* the caller's, kept while t is used */
	struct sb_vseg *seg;
	unsigned nseg;
	uint64_t offset, size;	/* the region in target offsets */
	int is_dir, is_blockdev;
	uint32_t align;		/* direct I/O alignment */
	int direct;
	int learned;		/* seed (and block size) read from the data */
	uint64_t seed;		/* learned: the seed and block size found */
	uint32_t block_size;
};

/* Resolve path (info: what sb_target_probe found there) into t, nothing
 * created. A check without a seed learns it (and, unless given, the block
 * size) from the data: o->seed and o->block_size are updated. -EINVAL for
 * what the options ask wrongly, -EPERM for a refusal (a file or device that
 * is not ours to write), -ENOENT when there is nothing to check, -ENOSPC,
 * -ENOMEM; msg says which. */
int sb_vtarget_resolve(struct sb_vtarget *t, const char *path, const struct sb_target_info *info,
		       struct sb_vtarget_opts *o, char *msg, size_t ml);
/* For a write, after every option was checked: create the files (or take
 * over those an earlier write left) of a directory or a new file; a device
 * or an existing file needs nothing. -EEXIST when a file in the way is not
 * ours, -ENOSPC and the like from the filesystem; msg says which. */
int sb_vtarget_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
		      size_t ml);
/* Open segment i for a phase: O_DIRECT when t->direct. fd or -errno. */
int sb_vtarget_open(const struct sb_vtarget *t, unsigned i, int write);
/* Remove segment i when this run created it (it is no longer created
 * afterwards, the plan stays: sb_vtarget_create makes it again). 0 or
 * -errno (-ENOENT: already gone). */
int sb_vtarget_remove(struct sb_vtarget *t, unsigned i);
/* Free what resolve allocated (removes nothing). */
void sb_vtarget_free(struct sb_vtarget *t);
/* Find the seed and block size of the data into t->seed, t->block_size: 0,
 * or -ENOENT when no block of any run was found. */
int sb_vtarget_learn(struct sb_vtarget *t);

/* What a verify run did: the phases' figures and the blocks found, as the
 * results' "verify" section and the text summary read them. */
struct sb_verify_report {
	const struct sb_vtarget *t;
	const char *engine;
	int phase;			/* SB_VPHASE_* asked for */
	uint32_t request_size;
	unsigned iodepth;
	struct sb_verify_fmt fmt;	/* seed, generation, block size */
	int wrote, checked;
	struct sb_verify_pass_result wr, rd;
	struct sb_verify_acc acc;
	uint64_t missing_blocks;	/* check: blocks of files not found */
};

/* One phase over every file of a target. */
struct sb_vphase {
	const struct sb_vtarget *t;
	const struct sb_engine_ops *ops;
	int write;			/* 1: write and fsync; 0: read and check into r->acc */
	/* after every request, with the phase's bytes so far; non-zero stops
	 * the phase. May be NULL. */
	int (*progress)(void *ctx, uint64_t bytes);
	/* polled before every file: non-zero stops the phase (interrupted).
	 * May be NULL. */
	int (*stop)(void *ctx);
	void *ctx;
};

/* Runs the phase with r's format, request size and depth; its figures go
 * to r->wr or r->rd, and r->wrote or r->checked is set. Returns 0 (I/O
 * errors are results), or -errno when a file could not be opened for
 * writing or a pass could not run; msg says which. */
int sb_verify_phase(struct sb_verify_report *r, const struct sb_vphase *p, char *msg, size_t ml);

#endif
