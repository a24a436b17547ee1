/* storbench soak: what its files (cmd_soak.c, soak_target.c, soak_out.c)
 * share. The soak itself is the library's (sb_soak_run, lib/soak/soak.h),
 * its verdict's text report/'s (rep_soak_run_text); here are its options,
 * its target, what it prints as it runs. */
#ifndef SB_SOAK_CLI_H
#define SB_SOAK_CLI_H

#include "cli/iozone_cli.h"
#include "cli/verify_cli.h"
#include "lib/storbench.h"

struct soak_opts {
	struct verify_opts v; /* size, block size, request size, engine, direct... */
	uint64_t iterations;  /* 0: until --duration or Ctrl-C */
	uint64_t duration_ns; /* 0: none */
	uint64_t idle_ns;
	uint64_t burst_bytes, burst_idle_ns; /* 0: no bursts */
	int stop_on_error, fail_on_anomaly;
	const char *log;    /* JSON Lines log; NULL: soak-<time>.jsonl here */
	const char *resume; /* continue this log */
	int argc;	    /* the options as given, kept in the log for --resume */
	char **argv;
	/* --workload=iozone: iozone's options after "--", parsed (za.file is
	 * the target); --iozone-output prints its rows each iteration */
	int iozone, iozone_output;
	struct sb_iozone_args za;
	const char *verify_opt; /* a verify workload option given (refused with iozone) */
};

/* soak_target.c: the target made ready for sb_soak_run, and what is left
 * to clean up after it. Every step is agreed under mpirun: one refusal
 * stops all before anything is written. */
struct soak_target {
	struct vtarget t;
	const struct sb_engine_ops *ops;
	int region_mode;
};
int soak_target_prepare(struct soak_opts *o, const char *target, struct soak_target *st);
void soak_target_cleanup(struct soak_target *st);

/* soak_out.c: what the program prints as the soak goes (the hooks), and
 * at its end (the results, the text, the exit code). */
struct soak_out {
	const struct soak_opts *o;
	int text; /* the lines on stdout (rank 0, not --format=json) */
	struct cli_progress pg;
	uint64_t pg_step; /* the iteration and phase the line is of */
	const char *pg_phase;
};
void soak_out_hooks(struct soak_out *so, const struct soak_opts *o, struct sb_soak_hooks *h);
/* A library call's end (e, err) into an exit code, the result printed
 * and written where the options ask (rank 0 alone). */
int soak_out_end(struct soak_out *so, struct soak_target *st, int e, const struct sb_error *err,
		 const struct sb_soak_result *r);

#endif
