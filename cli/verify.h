/* storbench verify: what its files (cmd_verify.c, verify_run.c,
 * verify_out.c, verify_probe.c) and soak share. The target and the phases
 * are the library's (lib/verify/verify_target.h); here are the options,
 * the messages, the progress line and the text. */
#ifndef SB_CLI_VERIFY_H
#define SB_CLI_VERIFY_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* Option ids of verify's table; soak's table uses the same ones. */
enum {
	VOPT_PHASE,
	VOPT_SIZE,
	VOPT_OFFSET,
	VOPT_BLOCK,
	VOPT_BS,
	VOPT_DEPTH,
	VOPT_ENGINE,
	VOPT_GEN,
	VOPT_DIRECT,
	VOPT_PROBE,
	VOPT_RANGES,
};

struct verify_opts {
	int phase; /* SB_VPHASE_* */
	uint64_t size, offset;
	uint32_t block_size;
	uint32_t request_size;
	unsigned iodepth;
	char engine[16];
	uint64_t seed, generation;
	int size_given, block_size_given, seed_given, request_given;
	int direct; /* -1: when supported */
	const char *output;
	int json_stdout, quiet;
	int probe, destroy, keep;
	unsigned max_ranges;
};

/* The target: the library's view of it, and what the program holds (the
 * probe's information, the device held for writing). */
struct vtarget {
	struct sb_jobtarget ct;
	struct sb_vtarget v;
	char why[512]; /* the last failure printed */
};

/* A run in progress: what the library fills, and what the progress line
 * and the text need besides. */
struct verify_report {
	struct sb_verify_report res;
	const struct verify_opts *o;
	const struct vtarget *t;
	/* many ranks, and every one runs this phase (the caller agreed so):
	 * rank 0's line shows the bytes and the rate of all of them, summed
	 * every 50 ms without blocking, and the phase ends on every rank once
	 * all are done */
	int all_ranks;
};

/* cmd_verify.c: the options, shared with soak. */
void verify_defaults(struct verify_opts *o);
int verify_set_opt(struct verify_opts *o, int id, const char *v, char *hint, size_t hl);
/* Checks across options; prints and returns an exit code. */
int verify_check_opts(struct verify_opts *o);
/* The shared flags (--output, --format, --quiet, --destroy-data, --keep,
 * --seed) into o, after cli_parse. */
void verify_take_shared(struct verify_opts *o, const struct cli_command *cmd,
			const struct cli_shared *sh);

/* verify_run.c: what the options ask of the target, as the library takes it */
struct sb_vtarget_opts verify_lib_opts(const struct verify_opts *o);
/* verify_run.c: resolve TARGET (nothing is created); then, for a write,
 * create or take over its files (after every option was checked). Both
 * print their error and return an exit code. */
int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o);
int verify_target_create(struct vtarget *t, const struct verify_opts *o);
void verify_target_cleanup(struct vtarget *t, int remove_created);
/* Remove the files this run created, keeping the plan: the next
 * verify_target_create makes them again (soak's file mode). */
void verify_target_remove_created(struct vtarget *t);

/* verify_out.c */
void verify_render_text(FILE *f, const struct verify_report *r);

/* verify_run.c: write and/or check; returns the exit code. */
int verify_run(struct verify_opts *o, const char *path);
/* The engine the options ask for (never null); prints and returns NULL
 * when unusable. */
const struct sb_engine_ops *verify_engine(const struct verify_opts *o);
/* One phase over every file of t (write and fsync, or read and check into
 * r->res.acc, with r->res.fmt), with a progress line labelled label; the
 * request size and depth are r->o's. Returns 0 or an exit code. */
int verify_phase(struct verify_report *r, const struct vtarget *t, const struct sb_engine_ops *ops,
		 int write, const char *label);

/* verify_probe.c: --probe on a block device. Returns the exit code. */
int verify_probe(const struct verify_opts *o, const char *path);

#endif
