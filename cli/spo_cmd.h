/* storbench spo: what its files (cmd_spo.c, spo_writer.c, spo_checker.c,
 * spo_remote.c) share. */
#ifndef SB_CLI_SPO_CMD_H
#define SB_CLI_SPO_CMD_H

#include "cli/cli.h"
#include "lib/storbench.h"

struct spo_opts {
	int check;
	const char *journal; /* NULL: not given */
	uint32_t bs;
	unsigned iodepth;
	int rw, sync;
	uint64_t flush_writes, flush_ns;
	int flush_writes_given, flush_ns_given;
	uint64_t duration_ns;
	uint64_t cut_min_ns, cut_max_ns; /* --cut-after; 0 0: not given */
	const char *cut_cmd, *reconnect_cmd, *remote, *log;
	uint64_t reconnect_timeout_ns;
	uint64_t canary;
	uint64_t size, offset;
	int size_given;
	uint32_t allow_torn;
	unsigned max_ranges;
	uint64_t cycles;
	/* shared flags */
	const char *output;
	int json_stdout, quiet, destroy;
	uint64_t seed;
	int seed_given;
	/* the options as given, for --cycles to pass on to the writer */
	int argc;
	char **argv;
};

/* TARGET opened for the writer (write: after the safety checks and
 * --destroy-data; dsync: O_DSYNC) or the check: *fd, the region resolved
 * into o->size. jt holds a device with O_EXCL until cli_target_cleanup.
 * Returns an exit code after printing why. */
int spo_open_target(struct spo_opts *o, const char *path, int write, struct sb_jobtarget *jt,
		    int *fd);
/* spo_writer.c: the writer on the board. Returns an exit code. */
int spo_write(struct spo_opts *o, const char *target);
/* spo_checker.c: the check after the cut. Returns an exit code. */
int spo_check(struct spo_opts *o, const char *target);
/* spo_remote.c: the controlling host's loop. Returns an exit code. */
int spo_cycles(struct spo_opts *o, const char *target);

#endif
