/* Internal to lib/run: fio's steadystate judged while a group's jobs run
 * (group.c's watch looks; lib/stats/fio_ss.c judges). */
#ifndef SB_SS_WATCH_H
#define SB_SS_WATCH_H

#include "lib/run/jobs.h"
#include "lib/run/run.h"
#include "lib/stats/fio_ss.h"

/* One judged unit: a job with steadystate, or with group_reporting the
 * jobs of its report group running together (fio's ss data on the
 * group's last thread, the group's figures summed). */
struct sb_ss_unit {
	struct sb_ss ss;
	uint64_t ramp_ns, start_ns;
	uint64_t prev_ns, next_ns; /* the last figure's time, the next one's */
	int ramp_over;
};

struct sb_ss_watch {
	struct sb_ss_unit *u;
	unsigned nu;
	int unit_of[SB_RUN_GROUP_MAX]; /* each job's unit, -1: none */
	uint64_t prev_bytes[SB_RUN_GROUP_MAX], prev_ios[SB_RUN_GROUP_MAX];
};

/* The units of the n jobs of js, started at start_ns. 0 or -ENOMEM
 * (then w judges nothing). */
int sb_ss_watch_init(struct sb_ss_watch *w, const struct sb_run_group_job *js, unsigned n,
		     uint64_t start_ns);
/* A look at now, p[i] job i's progress: a unit whose second is over takes
 * its figures; one whose criterion holds has its jobs stopped (halted[i]
 * set: by design, not by a person). */
void sb_ss_watch_look(struct sb_ss_watch *w, struct sb_run *const *runs,
		      const struct sb_progress *p, unsigned n, uint64_t now, unsigned char *halted);
/* When the next figure is due (UINT64_MAX: none), so the looks can wake
 * for it: a figure taken late counts the late part twice, as fio's. */
uint64_t sb_ss_watch_next(const struct sb_ss_watch *w);
/* Each job's result gets its unit's judgement (res->ss); 0 or -ENOMEM. */
int sb_ss_watch_end(const struct sb_ss_watch *w, const struct sb_run_group_job *js, unsigned n);
void sb_ss_watch_free(struct sb_ss_watch *w);

#endif
