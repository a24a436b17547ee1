/* storbench verify: what its files (cmd_verify.c, verify_target.c,
 * verify_out.c, verify_probe.c) share. */
#ifndef SB_CLI_VERIFY_H
#define SB_CLI_VERIFY_H

#include "cli/cli.h"
#include "lib/storbench.h"

enum { VPHASE_WRITE = 1, VPHASE_CHECK = 2, VPHASE_BOTH = 3 };

/* Option ids of verify's table; soak's table uses the same ones. */
enum {
	VOPT_PHASE, VOPT_SIZE, VOPT_OFFSET, VOPT_BLOCK, VOPT_BS, VOPT_DEPTH, VOPT_ENGINE,
	VOPT_SEED, VOPT_GEN, VOPT_DIRECT, VOPT_OUTPUT, VOPT_FORMAT, VOPT_QUIET, VOPT_PROBE,
	VOPT_DESTROY, VOPT_KEEP, VOPT_RANGES,
};

/* A directory's data goes into files of at most this size (FAT32 holds
 * files under 4 GiB), named VFILE_FMT, each continuing the previous one. */
#define VFILE_SPAN (1ull << 30)
#define VFILE_FMT "%s/.storbench-verify-%u.tmp"

struct verify_opts {
	int phase;
	uint64_t size, offset;
	uint32_t block_size;
	uint32_t request_size;
	unsigned iodepth;
	char engine[16];
	uint64_t seed, generation;
	int size_given, block_size_given, seed_given, request_given;
	int direct;		/* -1: when supported */
	const char *output;
	int json_stdout, quiet;
	int probe, destroy, keep;
	unsigned max_ranges;
};

/* One file of the target (or the device): its region and where it sits in
 * the target's offsets. */
struct vseg {
	char *path;
	uint64_t base;		/* target offset of the file's byte 0 */
	uint64_t offset, size;	/* region in the file */
	int created;		/* created by this run */
	int missing;		/* check: the file is not there */
};

struct vtarget {
	struct cli_target ct;	/* info, and the device held for writing */
	const char *path;
	struct vseg *seg;
	unsigned nseg;
	uint64_t offset, size;	/* the region in target offsets */
	int is_dir, is_blockdev;
	uint32_t align;		/* direct I/O alignment */
	int direct;
	int learned;		/* seed (and block size) read from the data */
};

/* What a run did, for the renderers. */
struct verify_report {
	const struct verify_opts *o;
	const struct vtarget *t;
	const char *engine;
	struct sb_verify_fmt fmt;
	int wrote, checked;
	struct sb_verify_pass_result wr, rd;
	struct sb_verify_acc acc;
	uint64_t missing_blocks;	/* check: blocks of files not found */
	/* called after every request with the phase's bytes so far (soak's
	 * bursts); non-zero stops the phase. May be NULL. */
	int (*hook)(void *ctx, uint64_t bytes);
	void *hook_ctx;
};

/* cmd_verify.c: the options, shared with soak. */
void verify_defaults(struct verify_opts *o);
int verify_set_opt(struct verify_opts *o, int id, const char *v, char *hint, size_t hl);
/* Checks across options; prints and returns an exit code. */
int verify_check_opts(struct verify_opts *o);

/* verify_target.c: resolve TARGET (nothing is created); then, for a write,
 * create or take over its files (after every option was checked). Both
 * print their error and return an exit code. */
int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o);
int verify_target_create(struct vtarget *t, const struct verify_opts *o);
/* Open segment i for the phase: O_DIRECT when t->direct. -errno. */
int verify_target_open(const struct vtarget *t, unsigned i, int write);
void verify_target_cleanup(struct vtarget *t, int remove_created);
/* Remove the files this run created, keeping the plan: the next
 * verify_target_create makes them again (soak's file mode). */
void verify_target_remove_created(struct vtarget *t);
/* Find the seed (and, unless given, the block size) in the data: 0, or
 * -ENOENT when no block of any run was found. */
int verify_target_learn(struct vtarget *t, struct verify_opts *o);

/* verify_out.c */
void verify_render_text(FILE *f, const struct verify_report *r);
void verify_json(struct sb_json *j, const void *report);
/* One bad range as every result writes it; file >= 0 adds its index. */
void verify_range_json(struct sb_json *j, const struct sb_verify_range *g, int file);
void verify_add_jobs(struct sb_results *res, const struct verify_report *r);

/* verify_run.c: write and/or check; returns the exit code. */
int verify_run(struct verify_opts *o, const char *path);
/* The engine the options ask for (never null); prints and returns NULL
 * when unusable. */
const struct sb_engine_ops *verify_engine(const struct verify_opts *o);
/* One phase over every file of t (write and fsync, or read and check into
 * r->acc), with a progress line labelled label. Returns 0 or an exit code. */
int verify_phase(struct verify_report *r, const struct vtarget *t,
		 const struct sb_engine_ops *ops, int write, const char *label);

/* verify_probe.c: --probe on a block device. Returns the exit code. */
int verify_probe(const struct verify_opts *o, const char *path);

#endif
