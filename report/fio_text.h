/* storbench fio: results in fio's normal output layout (report/fio_text.c). */
#ifndef SB_REPORT_FIO_TEXT_H
#define SB_REPORT_FIO_TEXT_H

#include "lib/storbench.h"

struct rep_fio_in {
	const struct sb_results *res;
	const unsigned *group; /* res->jobs[i] ran in group group[i] (stonewall) */
};

/* fio's normal layout in its two parts: the jobs' list, the version and
 * "Starting N threads" (fio prints them before it runs anything, so before
 * its terse and JSON outputs), then the jobs' figures, the groups' and the
 * disk's (after them). */
void rep_fio_text_preamble(FILE *f, const struct rep_fio_in *in);
int rep_fio_text_body(FILE *f, const struct rep_fio_in *in);

/* fio's report entries (sb_fio_report_make) of in, as an input of their
 * own (v->in): what the jobs' figures, the terse lines and the JSON are
 * printed from. 0 or -ENOMEM; free with rep_fio_view_free. */
struct rep_fio_view {
	struct sb_results res; /* in's, its jobs the entries */
	struct sb_fio_report rep;
	struct rep_fio_in in;
};
int rep_fio_view_make(const struct rep_fio_in *in, struct rep_fio_view *v);
void rep_fio_view_free(struct rep_fio_view *v);

/* fio's JSON: the results' document with fio's report entries as its jobs
 * and the keys fio writes (the results' fio_layout). */
int rep_fio_json_write(FILE *f, const struct rep_fio_in *in);

/* fio's group_run_stats agg: group g's bytes/s in direction d (its bytes
 * over its longest runtime, in ms as fio counts it), 0 when none. */
uint64_t rep_fio_group_agg(const struct rep_fio_in *in, unsigned g, int d);

/* The jobs' disk counters added up into *s and the utilisation (percent,
 * at most 100) into *util; 0 when there are none to show (fio prints no
 * disk line then). */
int rep_fio_disk_sum(const struct sb_results *r, struct sb_diskstat *s, double *util);

/* fio's terse (--minimal) lines, version 2 to 5 (report/fio_terse.c). */
int rep_fio_terse_write(FILE *f, const struct rep_fio_in *in, int version);

#endif
