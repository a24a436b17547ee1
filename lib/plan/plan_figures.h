/*
 * The figures of a command's result by stable, documented names (a plan's
 * criteria name them, docs/plans.md lists them): each read through the
 * method's typed reader (sb_summary_read, sb_job_read, sb_verify_read,
 * sb_soak_read, ...), never by key strings of its own.
 *
 *   struct sb_figures f = { 0 };
 *   if (sb_figures_read(sb_jdoc_root(doc), &f, &err) == 0)
 *       sb_figures_find(&f, "RND4K-Q1T1.read.iops")->value ...
 *   sb_figures_free(&f);
 *
 * Units: "B/s" (bytes per second), "B" (bytes), "ns", "IOPS", "" (a
 * count, or a ratio such as a cv: 0.05 is 5%), "word" (pass, fail,
 * true...). A name may start with a part that is a test's or a job's
 * name: TEST (quick's tests with '-' for ' ': "RND4K-Q1T1"), JOB (run's
 * job names, as they are), PART (pts's tests: "iops", "throughput-1024k")
 * or RECOVERY (cliff's recoveries: 1, 2 ...).
 */
#ifndef SB_PLAN_FIGURES_H
#define SB_PLAN_FIGURES_H

#include "lib/sb.h"
#include "lib/json/json_read.h"

#define SB_FIGURE_NAME 160

struct sb_figure {
	char name[SB_FIGURE_NAME];
	const char *unit; /* a string of the table's */
	double value;	  /* a number's (NaN: a word) */
	char word[24];	  /* a word's ("" a number) */
};
struct sb_figures {
	char command[16];
	struct sb_figure *v;
	size_t n, cap;
};

/* A documented figure: its name (a pattern where it starts with TEST or
 * JOB), unit and what it is. */
struct sb_figure_def {
	const char *name, *unit, *what;
};
/* The figures of command's results (n of them; status, every command's,
 * apart), NULL for a command with none documented; sb_figure_commands: those that have them, NULL last. */
const struct sb_figure_def *sb_figure_defs(const char *command, size_t *n);
extern const char *const sb_figure_commands[];
/* The def name matches (status, or one of command's), or NULL. */
const struct sb_figure_def *sb_figure_def_of(const char *command, const char *name);
/* The names of command's figures nearest to name (by edit distance, the
 * nearest first; a pattern's TEST or JOB part the name's own), up to
 * max, into near; their number. */
size_t sb_figure_nearest(const char *command, const char *name, char (*near)[SB_FIGURE_NAME],
			 size_t max);

/* Every figure of a parsed result document (root: the document) into out
 * (which it empties first): 0, or -EINVAL with err naming what is wrong
 * (a section refused by its reader, a document of no known command),
 * -ENOMEM. */
int sb_figures_read(const struct sb_jv *root, struct sb_figures *out, struct sb_error *err);
/* A soak's figures out of its summary (a log's, sb_soak_log_summary) into
 * out (which it empties first): the names sb_figures_read gives a soak's
 * result. 0 or -ENOMEM. */
struct sb_soak_summary;
int sb_figures_of_soak(const struct sb_soak_summary *s, struct sb_figures *out);
/* status, every command's figure: "pass" for exit_code 0, else "fail".
 * 0 or -ENOMEM. */
int sb_figures_set_status(struct sb_figures *f, int exit_code);
const struct sb_figure *sb_figures_find(const struct sb_figures *f, const char *name);
void sb_figures_free(struct sb_figures *f);

#endif
