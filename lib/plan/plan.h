/*
 * A qualification plan (storbench plan, docs/plans.md): an INI file whose
 * [global] section names the plan and its target, and whose other
 * sections are steps, each a storbench command line (run=) with criteria
 * on the figures of its result (expect=FIGURE OP VALUE, plan_figures.h).
 * Parsed and checked whole before anything runs (plan_parse.c); each
 * finished step recorded in a journal beside the report, written whole
 * (plan_journal.c), so that the same plan run again resumes at the first
 * unfinished step; each criterion judged on the step's figures
 * (plan_criteria.c).
 */
#ifndef SB_PLAN_PLAN_H
#define SB_PLAN_PLAN_H

#include "lib/plan/plan_figures.h"

enum sb_plan_op { SB_PLAN_GE, SB_PLAN_LE, SB_PLAN_GT, SB_PLAN_LT, SB_PLAN_EQ, SB_PLAN_NE };
/* ">=", "<=", ... */
const char *sb_plan_op_name(enum sb_plan_op op);

struct sb_plan_expect {
	unsigned line; /* of the plan file; 0: implied (status == pass) */
	char figure[SB_FIGURE_NAME];
	enum sb_plan_op op;
	const char *unit; /* the figure's */
	double value;	  /* a number's limit, in the figure's unit */
	char word[24];	  /* a word's limit ("" a number) */
	char text[64];	  /* the limit as written */
};

struct sb_plan_step {
	char name[64]; /* its section's */
	unsigned line; /* of its section's header */
	char *run;     /* the command line as written */
	unsigned run_line;
	char **argv; /* run= split into words: argv[0] the command */
	int argc;
	char *target;	  /* its own target=; NULL: the plan's */
	uint64_t wait_ns; /* wait=: the target left idle this long before the step */
	int optional;	  /* optional=true: a step that cannot run is skipped */
	struct sb_plan_expect *ex;
	size_t nex;
};

struct sb_plan {
	char *name;	   /* name=; NULL: none */
	char *description; /* description=: one line; NULL: none */
	char *target;	   /* target=; NULL: none */
	char *db;	   /* db=: the history each step records in (docs/history.md); NULL: none */
	char *html; /* html=NAME.html: the plan's HTML report, a file of its directory; NULL: none */
	char **labels;	   /* label=KEY=VALUE, as written */
	size_t nlabels;
	struct sb_plan_step *steps;
	size_t nsteps;
};

/*
 * Parses the plan text[0..len) (file: its name in messages) into out:
 * sections and keys known ([global]: name, description, target, db, html
 * (a file name ending in .html), label; a step: run,
 * target, expect), every step with one run=, every criterion's figure one
 * of its command's (plan_figures.h; an unknown one refused with the nearest
 * names), its operator one of >= <= > < == != (a word's: == or !=) and
 * its value a number in the figure's unit as storbench reads them
 * (40MiB/s, 2k, 5ms, 10%) or a word. A step with no criterion on status
 * gets "status == pass" (its command's own verdict). 0; -EINVAL with
 * err->msg "FILE:LINE: what is wrong"; -ENOMEM. Free out with
 * sb_plan_free whatever it returned.
 */
int sb_plan_parse(const char *text, size_t len, const char *file, struct sb_plan *out,
		  struct sb_error *err);
void sb_plan_free(struct sb_plan *p);

/*
 * An override of a parsed plan, spec "STEP.KEY=VALUE" (STEP a step's
 * name, else a command's: every step that runs it; or '*': every step
 * whose command line has --KEY, or whose wait= is set): KEY run replaces the step's command line, wait its wait= (a
 * time), optional its optional= (true or false), any other KEY is a long
 * option of the step's command: --KEY=VALUE replaces the step's --KEY or
 * --KEY=... word, or is added (a named step); VALUE empty with a named
 * step's option: --KEY alone. The step's run (its journal key) is its
 * words joined again. 0; -EINVAL with err->msg naming what is wrong (no
 * such step, a '*' that matched none); -ENOMEM.
 */
int sb_plan_set(struct sb_plan *p, const char *spec, struct sb_error *err);

/* ---- what a step asks of its target (plan_check.c) ---- */
struct sb_plan_need {
	int writes;	   /* 1: the step writes its target, with these options */
	uint64_t size;	   /* --size as a size (0: not given, or a percentage) */
	uint64_t offset;   /* --offset */
	int region;	   /* size and offset must lie within an existing target */
	uint64_t new_size; /* bytes a new file of its takes in a directory (0: none known) */
};
/* Reads the step's words (its command's options as written) into out;
 * what it cannot tell (a job file's jobs) is left 0. 0. */
int sb_plan_step_need(const struct sb_plan_step *st, struct sb_plan_need *out);

/* ---- criteria (plan_criteria.c) ---- */
struct sb_plan_judged {
	const struct sb_plan_expect *ex;
	int found;     /* the result has the figure */
	double value;  /* measured (a number's) */
	char word[24]; /* measured (a word's) */
	int pass;
};
/* Judges ex on the figures f: the figure missing fails. */
void sb_plan_judge(const struct sb_plan_expect *ex, const struct sb_figures *f,
		   struct sb_plan_judged *out);
/* A figure's value for people in its unit ("412 MiB/s", "1.20 ms",
 * "25.2k", "0.0312", "pass"). */
char *sb_plan_fmt(const char *unit, double value, const char *word, char *buf, size_t len);

/* ---- the journal (plan_journal.c) ---- */
struct sb_plan_done {
	char *target, *step, *run, *result; /* the step's result file */
	int status;			    /* its command's exit code (0 or 1) */
};
struct sb_plan_journal {
	struct sb_plan_done *d;
	size_t n;
};
/* Reads the journal at path into j (none there: empty). 0; -EINVAL with
 * err naming what is wrong (not a plan's journal); -errno. */
int sb_plan_journal_read(const char *path, struct sb_plan_journal *j, struct sb_error *err);
/* Adds a finished step to the journal at path and writes it whole (a
 * temporary file flushed and renamed over it, the directory flushed),
 * under a lock of its directory (flock) and read again under it, so that
 * several writers at once (plan --parallel) lose none of the others'
 * steps; j is then the journal as written. 0 or -errno with err. */
int sb_plan_journal_add(const char *path, struct sb_plan_journal *j, const struct sb_plan_done *d,
			struct sb_error *err);
/* The latest entry of step on target run as run, or NULL. */
const struct sb_plan_done *sb_plan_journal_find(const struct sb_plan_journal *j, const char *target,
						const char *step, const char *run);
void sb_plan_journal_free(struct sb_plan_journal *j);

/* ---- the plan's result read back (plan_read.c) ---- */
/*
 * What storbench plan writes as its JSON (-o, --format=json, and
 * plan.json in its directory; docs/plans.md "The result"): the verdict,
 * the counts, and per step and target its state, result file and
 * criteria. The strings point into the document read (keep it while the
 * doc is used); NULL where the JSON has null.
 */
struct sb_plan_doc_crit {
	const char *figure, *unit, *op;
	double limit;		   /* a number's (unit not "word") */
	const char *limit_word;	   /* a word's (unit "word"), else NULL */
	unsigned line;		   /* of the plan file; 0: implied (status == pass) */
	int measured_found;	   /* 0: null (missing, not run, not finite) */
	double measured;	   /* a number's */
	const char *measured_word; /* a word's */
	const char *result;	   /* "pass", "fail", "skipped", "not run" */
};
struct sb_plan_doc_step {
	const char *step, *run, *target;
	const char *state;  /* "done", "done before", "interrupted", "could not run",
			       "skipped", "never ran" */
	const char *result; /* its result file (NULL: it did not run) */
	const char *why;    /* could not run or skipped: why (else NULL) */
	struct sb_plan_doc_crit *crit;
	size_t ncrit;
};
struct sb_plan_doc_target { /* each target's verdict and counts */
	const char *target, *verdict;
	uint64_t passed, failed, not_run, skipped;
};
struct sb_json;
struct sb_plan_doc {
	const char *version; /* storbench.version */
	const char *file, *name;
	const char *verdict; /* "PASS", "FAIL", "INCOMPLETE", "INTERRUPTED" */
	uint64_t passed, failed, not_run, skipped;
	const char *stopped;	 /* why a step could not run (NULL: none) */
	const char *interrupted; /* the signal's name (NULL: none) */
	const char *directory;
	const char **labels;
	size_t nlabels;
	struct sb_plan_doc_target *targets; /* none in a result written before them */
	size_t ntargets;
	struct sb_plan_doc_step *steps;
	size_t nsteps;
};
/* Writes d as the plan's JSON document (plan_json.c): the one writer of
 * its schema (cli/plan_out.c fills d from its run). */
void sb_plan_doc_write(struct sb_json *j, const struct sb_plan_doc *d);
/* Its "plan" section alone, as member key of the object open in j; step
 * (NULL: none) adds members to step i's object after its criteria (the
 * report's analysis of the step's result). */
void sb_plan_doc_section(struct sb_json *j, const char *key, const struct sb_plan_doc *d,
			 void (*step)(void *ctx, struct sb_json *j, size_t i), void *ctx);
/* A plan's result document (its root, storbench.command "plan") into out:
 * every key's type and range, the words known; 0, -EINVAL with err->msg
 * naming the key path of what is wrong ("plan.steps[1].criteria[0].op:
 * expected one of >= <= > < == !=, found '=>'"), -ENOMEM. Free out with
 * sb_plan_doc_free whatever it returned. */
int sb_plan_result_read(const struct sb_jv *root, struct sb_plan_doc *out, struct sb_error *err);
/* Whether root is a plan's result (storbench.command "plan"). */
int sb_plan_result_is(const struct sb_jv *root);
void sb_plan_doc_free(struct sb_plan_doc *d);
/* Whether root is a plan's journal (storbench_plan_journal). */
int sb_plan_journal_is(const struct sb_jv *root);

#endif
