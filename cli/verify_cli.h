/* storbench verify: what its files (cmd_verify.c, verify_prep.c,
 * verify_out.c, verify_probe.c) and soak share. The run is the library's
 * (lib/verify/verify.h); here are the options, the target made ready, the
 * messages, the progress line and the text. */
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

/* cmd_verify.c: the options, shared with soak. */
void verify_defaults(struct verify_opts *o);
int verify_set_opt(struct verify_opts *o, int id, const char *v, char *hint, size_t hl);
/* Checks across options; prints and returns an exit code. */
int verify_check_opts(struct verify_opts *o);
/* The shared flags (--output, --format, --quiet, --destroy-data, --keep,
 * --seed) into o, after cli_parse. */
void verify_take_shared(struct verify_opts *o, const struct cli_command *cmd,
			const struct cli_shared *sh);

/* verify_prep.c: resolve TARGET (nothing is created); then, for a write,
 * create or take over its files (after every option was checked). Both
 * print their error and return an exit code. */
int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o);
int verify_target_create(struct vtarget *t, const struct verify_opts *o);
void verify_target_cleanup(struct vtarget *t, int remove_created);
/* The library's options of the target (sb_vtarget_resolve, _create). */
struct sb_vtarget_opts verify_lib_opts(const struct verify_opts *o);
/* A file made for the write, open as fd: noted in a rank's directory and,
 * where the run removes it, removed by a second Ctrl-C. */
void verify_track_created(const char *path, int fd, const struct verify_opts *o);
/* The engine the options ask for (never null); prints and returns NULL
 * when unusable. */
const struct sb_engine_ops *verify_engine(const struct verify_opts *o);
/* Everything before storbench verify's run, agreed by every rank: the
 * target probed (a rank's own directory under mpirun: *path becomes it),
 * resolved, its space checked, the engine chosen (*ops), signals handled,
 * a device consented to. Prints and returns an exit code. */
int verify_prepare(struct vtarget *t, struct verify_opts *o, const char **path,
		   const struct sb_engine_ops **ops);

/* verify_out.c: the progress line of a run's phases (hooks of the
 * library's run, h->ctx a struct verify_line). */
struct verify_line {
	struct cli_progress pg;
	const struct verify_opts *o;
	char what[64];
};
void verify_hooks(struct sb_verify_hooks *h, struct verify_line *l, const struct verify_opts *o);
/* The results of a run (text or JSON, and the files asked for); returns 0,
 * an exit code of its own, or (many ranks, not rank 0) 1 with *code the
 * worst of every rank's, nothing written. */
int verify_output(const struct verify_opts *o, struct sb_verify_result *v, int *code);

/* verify_probe.c: --probe on a block device. Returns the exit code. */
int verify_probe(const struct verify_opts *o, const char *path);

#endif
