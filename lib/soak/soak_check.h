/*
 * A soak log's lines come from outside (a file that may have been edited,
 * cut, or written by another version): before --resume or the report take
 * a figure from one, it is checked here, the same for both, so a line the
 * one refuses the other refuses too, named the same way ("iteration:
 * expected an iteration number from 1, found -5").
 *
 *   struct sb_soak_check c; sb_soak_check_init(&c);
 *   for each line v: if (sb_soak_check_line(&c, v, msg, sizeof(msg)) < 0) ...
 *
 * Line 1 is the configuration; iterations are numbered 1, 2, 3... with no
 * gap and no repeat; the generation an iteration writes is the one its
 * run's start says (the configuration: iteration 1 writes 1, each next one
 * more; a resumed run's start record: the iteration it goes on with, and a
 * generation above any a write may have used before, the one after the
 * last logged iteration included, which a crash may have written); members
 * that are figures are whole numbers or finite rates from 0; records of
 * types this storbench does not know pass (unread).
 */
#ifndef SB_SOAK_CHECK_H
#define SB_SOAK_CHECK_H

#include "lib/json/json_read.h"
#include "lib/soak/soak_verdict.h"

/* The key names the writer, the reader and the check share. */
extern const char *const sb_soak_lat_keys[3];	  /* "p50_ns", "p99_ns", "max_ns" */
extern const char *const sb_soak_metric_names[2]; /* "write_bw", "read_bw" */

struct sb_soak_check {
	size_t line;		 /* lines checked */
	uint64_t last_iteration; /* the last iteration record's number, 0 none */
	uint64_t first, base;	 /* the run going on: iteration first writes base */
	uint64_t used;		 /* the highest generation of the runs before */
	int lost;		 /* an iteration line was refused: a reader that goes on (the
		   * report) takes the next good one's number as it is */
};

void sb_soak_check_init(struct sb_soak_check *c);
/* The next line of a log: 0 when it may be read, -EINVAL with msg saying
 * which member is wrong and what it should be. */
int sb_soak_check_line(struct sb_soak_check *c, const struct sb_jv *v, char *msg, size_t len);
/* The highest generation a write of the log so far may have used (the
 * iteration after the last logged one's included): a new run starts above
 * it. */
uint64_t sb_soak_check_used(const struct sb_soak_check *c);
/* A summary's members alone (the results' storbench.soak). */
int sb_soak_check_summary(const struct sb_jv *v, char *msg, size_t len);
/* An iteration's members alone (the results' iteration_records): 0 or
 * -EINVAL with msg. */
int sb_soak_check_iteration(const struct sb_jv *v, char *msg, size_t len);
/* A rank's entry of an iteration of many ranks ("ranks"): its rank, host,
 * times and bytes, then its iteration's members. */
int sb_soak_check_rank(const struct sb_jv *v, char *msg, size_t len);
/* Every member named "iteration" below v, at any depth (a summary's
 * change points, of its metrics and of its cells): an iteration number
 * from 1 ("stability.write_bw.change_points[0].iteration: expected an
 * iteration number from 1, found -5"). What other readers judge is not
 * walked (a verify object, jobs, percentiles, options as given). The
 * report asks it of a soak's section and of each line of a log, as its
 * walk of every document did (report/check.c). */
int sb_soak_check_iterations(const struct sb_jv *v, char *msg, size_t len);
/* An iteration record as its readers take it (sb_soak_read_record): an
 * object, its members, the spread of the ranks' times, each rank's entry
 * ("ranks[1].rank: expected a rank number from 0, found a string"). */
int sb_soak_check_record(const struct sb_jv *v, char *msg, size_t len);

#endif
