/* The program: shared declarations of cli/. */
#ifndef SB_CLI_H
#define SB_CLI_H

#include "lib/storbench.h"

/* Exit codes: one enum for the whole program, one table of what they mean
 * for every command (cli/exit_status.c, in each --help; docs/promises.md). */
enum sb_exit {
	SB_EXIT_OK = 0,	      /* pass */
	SB_EXIT_FAIL = 1,     /* the verdict: the test ran and found a failure */
	SB_EXIT_USAGE = 2,    /* the command line is wrong: nothing was run */
	SB_EXIT_ENV = 3,      /* the target or the system cannot be used */
	SB_EXIT_SIGNAL = 128, /* + N: interrupted by signal N (cli_interrupt_status) */
	SB_EXIT_SIGINT = 130, /* interrupted by Ctrl-C, or by a signal not known */
};

/* "storbench: <message>" on stderr. */
void sb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "storbench: note: ...": what was left out or read as far as it could be */
void sb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What every message starts with after "storbench: ": "rank 2 on HOST: "
 * in a run of many ranks (cli/ranks.c), else "". */
void cli_msg_set_prefix(const char *p);
/* A peer's command line (iozone, fio, bonnie): every message from here on
 * names storbench's option ours ("--record-sizes") as the user typed it
 * ("-r"). The last way an option was typed counts (its value holds); up
 * to 64 options. */
void cli_msg_alias(const char *ours, const char *typed);
/* A library call's error (lib/sb.h): its message printed (when it has
 * one) and its exit code, the one place where the library's classes of
 * error become exit codes. */
int cli_error(const struct sb_error *er);
/* The exit code of a library call's error whose message was told as it
 * happened (through the call's hooks): cli_error without printing. */
int cli_error_told(const struct sb_error *er);
/* The exit code of an -errno a target or the system answered with
 * (sb_errno_class): SB_EXIT_ENV, SB_EXIT_FAIL (EIO) or SB_EXIT_USAGE. */
int cli_exit_of_errno(int err);
/* A target a command needs to exist (kind SB_TARGET_NONE): "cannot use
 * 'PATH': No such file or directory", SB_EXIT_ENV; else 0. */
int cli_target_missing(int kind, const char *path);

/* ---- option parsing (cli/opt.c) ---- */
enum { OPT_NOARG, OPT_ARG };
struct cli_opt {
	const char *name; /* long name without "--" */
	int has_arg;
	int id;		 /* handed to the command's handler */
	const char *arg; /* for --help, e.g. "FILE" */
	const char *help;
};

/* The flags commands share, declared once (cli/opt.c); a command's row in
 * the command table (cli/main.c) says which it takes, and its words (struct
 * cli_words) the values --format takes and its own help of one where the
 * common words would not say it right. */
enum cli_shared_id {
	CLI_S_OUTPUT,
	CLI_S_FORMAT,
	CLI_S_QUIET,
	CLI_S_KEEP,
	CLI_S_DESTROY,
	CLI_S_SEED,
	CLI_S_STONEWALL,
	CLI_S_RANKDIR,
	CLI_S_PRECOND,
	CLI_S_DISCARD,
	CLI_S_PURGE,
	CLI_S_UNITS,
	CLI_S_DB,
	CLI_S_LABEL,
	CLI_S_N
};
#define CLI_OUTPUT (1u << CLI_S_OUTPUT)	  /* --output=FILE */
#define CLI_FORMAT (1u << CLI_S_FORMAT)	  /* --format=FORMATS */
#define CLI_QUIET (1u << CLI_S_QUIET)	  /* --quiet */
#define CLI_KEEP (1u << CLI_S_KEEP)	  /* --keep */
#define CLI_DESTROY (1u << CLI_S_DESTROY) /* --destroy-data */
#define CLI_SEED (1u << CLI_S_SEED)	  /* --seed=N */
/* under mpirun: --stonewall, --per-rank-dir=0|1 (cli/ranks.c) */
#define CLI_RANKS ((1u << CLI_S_STONEWALL) | (1u << CLI_S_RANKDIR))
/* under mpirun with --per-rank-dir alone (a command without --stonewall) */
#define CLI_RANKDIR (1u << CLI_S_RANKDIR)
/* --precondition=STATE and its --purge=METHOD (cli/state_prep.c) */
#define CLI_PRECOND ((1u << CLI_S_PRECOND) | (1u << CLI_S_PURGE))
#define CLI_DISCARD (1u << CLI_S_DISCARD) /* --discard-before */
#define CLI_UNITS (1u << CLI_S_UNITS)	  /* --units=iec|si: rates in MiB/s or MB/s */
/* --db=PATH and --label=KEY=VALUE: the result recorded in the history */
#define CLI_DB ((1u << CLI_S_DB) | (1u << CLI_S_LABEL))

/* What a command says of itself (cli/main.c). */
struct cli_words {
	const char *summary;	   /* its line in storbench --help */
	const char *formats;	   /* --format's values, the default first: "text|json" */
	const char *help[CLI_S_N]; /* its own help of a shared flag; NULL: the common one */
	const char *pass;	   /* exit 0, in its words ("every block intact") */
	const char *fail;	   /* exit 1, in its words; NULL: it never fails a device */
};

/* A row of the command table (cli/main.c). */
struct cli_command {
	const char *name;
	int (*fn)(const struct cli_command *cmd, int argc, char **argv);
	unsigned shared; /* the CLI_* flags it takes */
	const struct cli_words *words;
};
/* The exit status table (cli/exit_status.c) at the end of a --help: the
 * codes of every command, cmd's words for 0 and 1 (NULL: storbench's). */
void cli_print_exit_status(FILE *f, const struct cli_command *cmd);

/* What the shared flags were given as (cli_parse fills it). */
struct cli_shared {
	const char *output; /* NULL: not given */
	const char *format; /* one of the command's formats; NULL: not given */
	int quiet, keep, destroy_data;
	uint64_t seed;
	int seed_given;
	struct sb_state_opts state; /* --precondition, --discard-before, --purge */
	const char *purge_given;    /* --purge's value; NULL: not given */
};

struct cli_cmd_opts {
	const struct cli_opt *opts; /* NULL-name terminated */
	/* called for each option; return 0 or set *hint and return -EINVAL */
	int (*set)(void *ctx, int id, const char *value, char *hint, size_t hintlen);
	int job_options;	 /* also accept every job option (sb_job_set) */
	struct sb_job_opts *job; /* where job options go */
	void *ctx;
	const struct cli_command *cmd; /* its row: the shared flags it takes */
	struct cli_shared *shared;     /* where they go */
};
/* --format as given is NAME (the default, first of the formats, when not
 * given). */
/* The format the extension of an --output file names: "html" (.html,
 * .htm), "json", "csv", "xlsx", "text" (.txt); NULL for none of them. */
const char *cli_format_of_path(const char *path);
int cli_format_is(const struct cli_command *cmd, const struct cli_shared *s, const char *name);
/* Parses argv (after the command name). Positional arguments are collected
 * in pos[] (at most maxpos). Returns 0, 1 when --help was given, or -1 after
 * printing an error. Accepts --opt=value, --opt value and "--" to end
 * options. */
int cli_parse(int argc, char **argv, const struct cli_cmd_opts *c, char **pos, int maxpos,
	      int *npos);
/* Set in a child of storbench plan checking a step's command line: the
 * first cli_parse that accepts its options ends the process with 0 (the
 * command runs nothing); a refusal is said and exits as it always does. */
extern int cli_parse_check_only;
void cli_print_opts(FILE *f, const struct cli_cmd_opts *c);
/* Set the workload options of argv (already accepted by cli_parse) into
 * job, and nothing else: command-line options over a job file's. */
int cli_apply_job_opts(int argc, char **argv, const struct cli_cmd_opts *c,
		       struct sb_job_opts *job);
/* An option's whole number (plain decimal) from lo to hi into *out: 0,
 * or -EINVAL with hint "a number from LO to HI", as a cli_cmd_opts set
 * handler answers. */
int cli_opt_number(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, char *hint, size_t hl);
/* An option's size (sb_parse_size: 4096, 4k, 1M) from lo to hi and a
 * multiple of mult (0: of anything) into *out: 0, or -EINVAL with hint
 * what (the option's accepted range as its command says it; NULL: hint
 * untouched, for a caller that says it of a whole list). */
int cli_opt_size(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, uint64_t mult,
		 const char *what, char *hint, size_t hl);
/* A value the command found wrong after parsing: "--NAME: 'V' is not valid
 * (expected WHAT)". Returns SB_EXIT_USAGE. */
int cli_bad_value(const char *name, const char *v, const char *what);
/* Parse a command that takes one TARGET. Returns 0 with *target set; -1
 * after printing --help (the caller exits 0); an exit code after printing
 * the error ("CMD needs one TARGET: WHAT"). */
int cli_parse_target(int argc, char **argv, const struct cli_cmd_opts *c,
		     void (*help)(const struct cli_cmd_opts *), const char *what, char **target);

/* ---- target states (cli/state_prep.c, docs/states.md) ---- */
/* The purge methods of lib/device/purge.h's names table, none last, as an
 * option's argument: "auto|discard|secure-discard|sanitize|format|none".
 * Filled as the options are parsed; an option table may point at it. */
extern char cli_purge_methods[160];
/* --purge=v (any command's): 0 with *m, or -EINVAL with hint listing the
 * methods ("auto, discard, ... or none"). */
int cli_purge_parse(const char *v, enum sb_purge_method *m, char *hint, size_t hl);
/* --precondition and --discard-before of a command that does not yet
 * bring every rank's target to a state: refused under mpirun (said; the
 * exit code), else 0. */
int cli_state_alone(const struct cli_shared *sh);
/* Before anything is created, with t probed: may --precondition and
 * --discard-before be carried out on the target at path? A block device
 * or a file storbench did not create needs --destroy-data; purge needs a
 * block device. The target is then marked written (t->writes): however
 * the measurement uses it, cli_target_prepare passes it through the write
 * gate. 0 or an exit code, said. */
int cli_state_check(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path);
/* With t prepared: bring it to the state asked for (purge or fill, then
 * discard) and record it in res. 0 or an exit code, said. */
int cli_state_apply(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
		    struct sb_results *res, int quiet);

/* ---- commands ---- */
int cmd_run(const struct cli_command *cmd, int argc, char **argv);
int cmd_quick(const struct cli_command *cmd, int argc, char **argv);
int cmd_report(const struct cli_command *cmd, int argc, char **argv);
int cmd_compare(const struct cli_command *cmd, int argc, char **argv);
int cmd_latency(const struct cli_command *cmd, int argc, char **argv);
int cmd_meta(const struct cli_command *cmd, int argc, char **argv);
int cmd_bonnie(const struct cli_command *cmd, int argc, char **argv);
int cmd_sweep(const struct cli_command *cmd, int argc, char **argv);
int cmd_iozone(const struct cli_command *cmd, int argc, char **argv);
int cmd_info(const struct cli_command *cmd, int argc, char **argv);
int cmd_verify(const struct cli_command *cmd, int argc, char **argv);
int cmd_soak(const struct cli_command *cmd, int argc, char **argv);
int cmd_pts(const struct cli_command *cmd, int argc, char **argv);
int cmd_cliff(const struct cli_command *cmd, int argc, char **argv);
int cmd_flash(const struct cli_command *cmd, int argc, char **argv);
int cmd_spo(const struct cli_command *cmd, int argc, char **argv);
int cmd_fio(const struct cli_command *cmd, int argc, char **argv);
int cmd_plan(const struct cli_command *cmd, int argc, char **argv);
int cmd_history(const struct cli_command *cmd, int argc, char **argv);

/* ---- the results history (cli/history_record.c, docs/history.md) ---- */
/* --db=PATH and --label=KEY=VALUE as parsed: 0, or -EINVAL with hint (a
 * build without the database's back end, a label that is not one). */
int cli_history_db(const char *v, char *hint, size_t hl);
int cli_history_label(const char *v, char *hint, size_t hl);
/* A result just written whole to path ("-": stdout) recorded in the
 * history that --db or STORBENCH_DB names (none: nothing), once per
 * result: 0, or SB_EXIT_ENV after saying why (the result is safe). */
int cli_history_record(const struct sb_results *r, const char *path);
/* The file a result recorded without --output is written to (in the
 * current directory, one name per process). */
const char *cli_history_output(const char *cmd);
/* The history named: --db, else STORBENCH_DB, else NULL. */
const char *cli_history_where(void);
/* --label's labels added to rec: 0 or -errno with err. */
int cli_history_labels(struct sb_history_rec *rec, struct sb_error *err);
/* --label's labels as KEY=VALUE into kv (up to max): their number. */
size_t cli_history_label_list(char (*kv)[400], size_t max);
/* The command table (cli/main.c) made known to the commands that run
 * others (plan), and its row of name, or NULL (cli/opt.c). */
void cli_commands_set(const struct cli_command *table, size_t n);
const struct cli_command *cli_command_find(const char *name);

/* ---- many ranks under mpirun (cli/ranks.c) ---- */
/* Join the MPI job when launched by mpirun (before a command runs; 0 or
 * an exit code), and leave it (after). */
int cli_ranks_init(int *argc, char ***argv);
void cli_ranks_finish(void);
/* The one path for a lost or failed rank: er's message printed (NULL or
 * "": said already) and every rank of the job ended with code (alone, this
 * process). Never returns. */
void cli_ranks_lost(int code, const struct sb_error *er) __attribute__((noreturn));
/* A step that lost a rank during what (e: no answer in time, no memory):
 * cli_ranks_lost with lib/coord's message (sb_coord_lost). */
void cli_ranks_give_up(const char *what, int e) __attribute__((noreturn));
/* After a library call that coordinated the ranks and said why: when it
 * lost a rank (lost), or a rank did not answer in time (end_if_failed:
 * sb_coord_failed), the job ends here with code (SB_EXIT_ENV). Alone:
 * nothing. */
void cli_ranks_end_if_lost(int lost, int code);
void cli_ranks_end_if_failed(void);
int cli_ranks(void); /* how many ranks (1: a plain run) */
int cli_rank(void);
/* The coordination handle a method's run takes (lib/coord). */
struct sb_coord *cli_ranks_coord(void);
void cli_ranks_set_stonewall(void);
void cli_ranks_set_per_rank_dir(int on);
int cli_ranks_stonewall(void);
/* Every rank gives its verdict (an exit code, 0 to go on, and the message
 * that says why); rank 0 prints the failing ranks' messages; every rank
 * gets the first failing rank's code, so that all stop together. Alone:
 * code. */
int cli_ranks_agree(int code, const char *msg);
/* Rank 0's word that rank refused or failed and no rank goes on (what
 * cli_ranks_agree says, for an agreement a method's run made). */
void cli_ranks_said_refused(int rank);
/* Rank 0's len bytes to every rank. */
void cli_ranks_bcast(void *buf, size_t len);
/* The one rule of every command for a rank's directory: where this rank
 * works (*where: TARGET/storbench-rank-N under a directory TARGET, else
 * path). To write (write), the directory is this run's: made with its
 * marker, or one a killed storbench run left taken over
 * (made, then claimed once every rank agreed: lib/coord/coord_ranks.h);
 * anything else under that name (a user's directory, empty or not, a
 * file, a symlink) is a refusal on every rank that touches nothing, and
 * only a directory made here is removed (cli_ranks_remove_dir). A reader
 * (verify --phase=check) uses the name as it is and takes nothing.
 * 0, or the exit code every rank agreed on. */
int cli_ranks_dir(const char *path, int is_dir, int write, const char **where);
/* A refusal or failure e (0: none) with its message in er, agreed by
 * every rank: rank 0 prints each message with its rank's name. */
int cli_ranks_agree_error(int e, const struct sb_error *er);
/* TARGET probed on every rank, creating nothing (each prints its own
 * refusal), and agreed: 0 or the exit code every rank agreed on. Alone:
 * as cli_target_probe. */
int cli_ranks_probe(struct sb_jobtarget *t, const char *path);
/* cli_ranks_probe, then the rank's own directory as cli_ranks_dir: *path
 * becomes it, t zeroed to be probed anew there. */
int cli_ranks_probe_dir(struct sb_jobtarget *t, const char **path, int write);
/* A job's target prepared on every rank, agreed (sb_ranks_jobtarget_prepare):
 * 0 or the exit code every rank agreed on; *own_dir set when the job works
 * in the rank's own directory. */
int cli_ranks_jobtarget_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
				int needs_data, int noio, int *own_dir);
void cli_ranks_note_file(const char *path);
void cli_ranks_remove_dir(int keep);
/* Before any rank writes: each rank's filesystem (its host and the st_dev
 * of path, or of its parent), the bytes it will need there and those free
 * (fs: its name in the message, e.g. the mount point); rank 0 sums the
 * needs of the ranks on each filesystem and refuses for all (an exit code
 * on every rank, as cli_ranks_agree) when they do not fit together, naming
 * the filesystem and the ranks. need 0: nothing to make. Alone: 0. */
int cli_ranks_space_agree(const char *path, uint64_t need, uint64_t avail, const char *fs);
/* After the measurements: every rank's jobs to rank 0, which replaces
 * each job with the "All clients" aggregate (its ranks in clients) and
 * returns 0 to write it; the other ranks return 1 and write nothing. *rc
 * becomes the worst exit code of all ranks. Alone: 0, nothing done. */
int cli_ranks_collect(struct sb_results *res, int *rc);

/* ---- targets (cli/target_prepare.c) ---- */
/* The library's struct sb_jobtarget (lib/target/jobtarget.h) with the
 * program's hooks: a first Ctrl-C stops a file's layout, a second removes
 * the files created (cli/signals.c), a file cleanup leaves gets a warning.
 * Each prints the library's error and returns its exit code (0: none). */
/* Validate TARGET without creating anything (for the option check). */
int cli_target_probe(struct sb_jobtarget *t, const char *path);
/* May the block device at path be written (sb_jobtarget_consent)? */
int cli_device_consent(struct sb_jobtarget *t, const char *path);
/* The refusal of a command that writes the block device at path without
 * --destroy-data: the write gate's one message (in use, or the signature
 * it holds), and its exit code. */
int cli_refuse_device(const char *path);
/* Resolve TARGET for a job (sb_jobtarget_prepare), only after every option
 * was checked; a signal during the layout of a file returns
 * cli_interrupt_status() without a message. */
int cli_target_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		       int needs_data, int noio);
/* Remove the files we created (unless keep), close what is held. */
void cli_target_cleanup(struct sb_jobtarget *t, int keep);
/* Many ranks, a job file: the rank's own directory (under a directory
 * TARGET) made for the first jobs stays for the next ones until released
 * (then removed, unless keep). */
void cli_target_hold_rank_dir(int on, int keep);

/* ---- engine choice (cli/engine_choice.c) ---- */
/* Resolve --engine (or the default) to ops (sb_engine_choose); prints an
 * error and returns NULL when it is unknown, not built in or not usable on
 * this kernel. A default that falls back (io_uring unusable here, or no
 * asynchronous engine for a queue depth over 1) sets *fell_back and warns,
 * once per process (cli_engine_fell_back). */
const struct sb_engine_ops *cli_engine_choose(const struct sb_job_opts *job, int *fell_back);
void cli_engine_fell_back(const struct sb_engine_pick *pk);

/* ---- the live progress line (cli/progress.c) ---- */
/* "42s", "3m05s", "2h03m", "4d07h": short, for the line. */
char *cli_fmt_dur(double ns, char *buf, size_t len);

/* What one line shows; a field left out is not drawn:
 *   LABEL[ WORD i of N][, WHAT]: [STATE ]PCT% [DONE of TOTAL ]RATE OPS UNIT
 *     elapsed E  ETA T[ (ETA_OF)] | PART | PART
 * The percent is of the step the head names; the ETA is of the whole
 * command where it can be told (eta_of says otherwise). Too wide for the
 * terminal, elapsed goes first, then the parts' extra figures, then the
 * parts (the last first, "+N more" said), then WHAT is cut short, then
 * OPS and DONE of TOTAL go. */
#define CLI_LINE_PARTS 16
struct cli_line {
	const char *label;
	const char *step_word;		 /* "test", "iteration", "cell"; NULL: none */
	unsigned long long step, nsteps; /* step 0: no step; nsteps 0: "i" alone */
	const char *what;		 /* the current step's name; NULL: none */
	const char *state;		 /* "ramp"; NULL: none */
	double pct;			 /* < 0: none */
	uint64_t done, total;		 /* total 0: none */
	double bps;			 /* bytes/s; < 0: none */
	double ops;			 /* < 0: none */
	const char *ops_unit;		 /* NULL: "IOPS" */
	uint64_t elapsed_ns;
	double eta_ns;		      /* < 0: unknown */
	const char *eta_of;	      /* NULL: the whole command */
	const char *const *parts;     /* short figures of each job */
	const char *const *part_more; /* NULL, or per part a figure it may lose */
	unsigned nparts;
};
/* Where the line goes: stderr, redrawn in place at most 4 times a second
 * when it is a terminal, else a plain line every 10 s; nothing when quiet. */
struct cli_progress {
	int quiet, tty, shown;
	uint64_t start_ns, last_ns;
};
void cli_progress_init(struct cli_progress *p, int quiet);
/* Whether a line is due at now (it is never when quiet). */
int cli_progress_due(const struct cli_progress *p, uint64_t now);
void cli_progress_draw(struct cli_progress *p, const struct cli_line *l, uint64_t now);
/* A message of its own line (printf-like; the newline is added), above the
 * line being redrawn. */
void cli_progress_note(struct cli_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The end: the line redrawn in place is cleared. */
void cli_progress_clear(struct cli_progress *p);

/* ---- running one measurement with progress (cli/measure.c) ---- */
/* The words of the progress line of a measurement. */
struct sb_verify_fmt;
struct cli_measure {
	const char *label; /* shown in the progress line */
	int quiet;
	const struct sb_verify_fmt *verify; /* run --verify: writes carry verify blocks */
	/* Where this measurement stands in the command, for the line and its
	 * ETA: command, step_word and step of nsteps ("quick test 3 of 16";
	 * step 0: none) with the label after them, and after it `later`
	 * measurements as long as this one, with later_ns (pauses) between
	 * them. */
	const char *command, *step_word;
	unsigned step, nsteps, later;
	uint64_t later_ns;
	uint64_t start_ns; /* when the command began (sb_now_ns); 0: this measurement */
	int whole;	   /* the percent is of the command (its ETA is), not of this */
	/* many ranks: this rank's own, with no agreement nor rounds (a
	 * preconditioning pass, whose size and steps are each rank's) */
	int alone;
};
/* The program's hooks of a library method that measures (lib/run/jobs.h):
 * a signal asks it to stop, the progress line (the words of each
 * measurement from what the library says it is, unless fixed: m as
 * given; start_ns: when the command began), the messages printed, a rank
 * lost ending the job, the engine's fallback said once, targets prepared
 * and cleaned up the program's way (cli/target_prepare.c). */
struct cli_run_ui {
	struct cli_measure m;
	int fixed;
	uint64_t start_ns;
	struct cli_progress pg;
	double pct_most; /* the command's percent so far (m.whole) */
};
void cli_run_hooks(struct sb_run_hooks *h, struct cli_run_ui *ui, int quiet, uint64_t start_ns);
/* The exit code of a run's status (a stop: the signal's). */
int cli_run_status(enum sb_run_status st);
/* Runs job on the prepared target, fills res (caller creates it). Returns
 * 0, or the negative errno of the failure (already printed). */
int cli_measure(const struct cli_measure *m, const struct sb_job_opts *job,
		const struct sb_engine_ops *ops, struct sb_jobtarget *t, struct sb_job_result *res);
/* One job of a command's own (a preconditioning pass, a point of a PTS
 * round): the engine cli_engine_choose takes for it, a result made, the
 * job run through cli_measure (m's label: the job's name), take(jr, ctx)
 * given the result before it is freed (a failed run's too). 0 with
 * *errors the I/O errors it counted (the caller says what they mean);
 * SB_EXIT_USAGE no engine, SB_EXIT_ENV out of memory, SB_EXIT_FAIL the
 * run failed (said). */
int cli_measure_one(const struct cli_measure *m, const struct sb_job_opts *job,
		    struct sb_jobtarget *t, void (*take)(const struct sb_job_result *jr, void *ctx),
		    void *ctx, uint64_t *errors);

/* ---- signals (cli/signals.c) ---- */
void cli_signals_install(void);
/* For commands with nothing to stop (report, compare): the first Ctrl-C or
 * SIGTERM removes the tracked files (a half-written output) and exits. */
void cli_signals_install_exit(void);
int cli_interrupted(void); /* 0, SIGINT, SIGTERM or SIGPIPE */
/* the exit status of a run a signal stopped: 128 + the signal, as a shell
 * reports a process the signal killed (130 Ctrl-C, 143 SIGTERM, 141 SIGPIPE) */
int cli_interrupt_status(void);
/* A test file we created (on 1) or removed (on 0): a second Ctrl-C removes
 * every tracked file before exiting. path must stay valid while tracked. */
void cli_signals_track_file(const char *path, int on);
/* The same for a file open as fd: removed only while path still names it
 * (sb_scratch_remove). */
void cli_signals_track_fd(const char *path, int fd, int on);
/* What a second Ctrl-C runs after removing the tracked files, before it
 * exits: fn(ctx), which must be async-signal-safe (a run directory's
 * removal). NULL: nothing. */
void cli_signals_on_exit(void (*fn)(void *ctx), void *ctx);
/* on 1: Ctrl-C, SIGTERM and SIGPIPE wait while a step completes that the
 * second signal's fn would otherwise cut into or repeat (a device command
 * and the setting of its undo); on 0: they are let through, and one that
 * came meanwhile is handled then. Only while no other thread of ours runs. */
void cli_signals_hold(int on);

/* ---- output (cli/output.c; a result's text is report/'s) ---- */
/* Writes JSON to path ("-" = stdout). Prints errors; returns 0 or -1. */
int cli_write_json(const struct sb_results *r, const char *path);
/* Writes through write() (0 or -errno) to path ("-" or NULL: stdout),
 * whole or not at all; prints errors, returns an exit code. A write()
 * that printed why it failed itself returns CLI_WRITE_SAID. */
#define CLI_WRITE_SAID (-ECANCELED)
int cli_write_file(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx);
/* The same for a writer that opens the file itself (a workbook): write()
 * gets the temporary name and returns 0 or an exit code, its error printed. */
int cli_write_named(const char *path, int (*write)(const char *tmp, const void *ctx),
		    const void *ctx);
/* A job file read whole (1 MiB at most) into *text: 0 or an exit code, said. */
int cli_read_jobfile(const char *path, char **text, size_t *len);
/* Fill host and target sections (sb_results_describe) for a prepared target. */
void cli_results_describe(struct sb_results *r, const struct sb_jobtarget *t, const char *path);

#endif
