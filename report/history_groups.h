/*
 * A figure of the results history across groups (storbench history
 * --figure=NAME --group-by=G): each group's median, spread and count, and
 * whether it differs from the baseline group by compare's rule
 * (lib/analysis/difference.h). Built from the rows a query answered
 * (rep_history_add), drawn as text, JSON, CSV or an HTML page with the
 * trend across the groups (report/history_groups.c); and the listing of
 * the results a query answers (report/history_list.c).
 */
#ifndef SB_REPORT_HISTORY_GROUPS_H
#define SB_REPORT_HISTORY_GROUPS_H

#include "lib/storbench.h"

struct rep_hist_group {
	char *name; /* the group's value; "(none)" for rows without one */
	double *v;  /* its values (numbers) */
	size_t n, cap;
	size_t nwords; /* rows of a word (pass, fail ...) */
	struct {
		char w[24];
		size_t n;
	} word[8]; /* each word and its rows (a ninth and later: "other") */
	double med, p5, p95;
	int have_d; /* d is set: not the baseline, both sides with values */
	struct sb_difference d;
};

struct rep_hist {
	const char *db, *figure, *group_by;
	char unit[16];
	struct rep_hist_group *g; /* in order of their first result */
	size_t ng;
	size_t base; /* the baseline group's index */
};

/* Adds a row (its group, value, word and unit) to h. 0 or -ENOMEM. */
int rep_history_add(struct rep_hist *h, const struct sb_history_row *r);
/* Each group's figures, and each one's difference from the group named
 * baseline (NULL: the first). 0, -ENOENT (no group of that name), -ENOMEM. */
int rep_history_judge(struct rep_hist *h, const char *baseline);
void rep_history_free(struct rep_hist *h);

/* g's words and their rows: "pass 5, fail 1" */
void rep_history_words(const struct rep_hist_group *g, char *buf, size_t len);
/* "no difference", "higher" ("better" where the unit says which way is
 * better: B/s and IOPS higher, ns lower), "inconclusive: ..." */
void rep_history_verdict(const struct rep_hist *h, const struct rep_hist_group *g, char *buf,
			 size_t len);
/* The writers: 0 or -errno of the stream (for cli_write_file). */
int rep_history_text(FILE *f, const void *h);
int rep_history_json(FILE *f, const void *h);
int rep_history_csv(FILE *f, const void *h);
int rep_history_html(FILE *f, const void *h);

/* The listing of the rows a query answers (report/history_list.c): fmt
 * "json" (an array), "csv" (a header line) or else a table; with groups
 * set, each row is added to them (rep_history_add) and nothing printed. */
struct rep_hist_list {
	const struct sb_history_query *q;
	const char *fmt;
	FILE *f;
	struct sb_json j;
	size_t n;		 /* the rows listed */
	struct rep_hist *groups; /* --group-by: the rows gathered */
};
/* Starts the listing on f: the JSON array opened, the CSV's header. */
void rep_history_list_begin(struct rep_hist_list *l, FILE *f);
/* The query's callback (sb_history_query): a row listed. 0 or -ENOMEM. */
int rep_history_list_row(void *ctx, const struct sb_history_row *r);
/* Ends it: 0 or -errno of the stream. */
int rep_history_list_end(struct rep_hist_list *l);

#endif
