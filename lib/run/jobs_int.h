/* Internal to lib/run: the hooks called safely, and the steps every rank
 * agrees on (steps.c). A NULL coord is a run alone. */
#ifndef SB_RUN_JOBS_INT_H
#define SB_RUN_JOBS_INT_H

#include "lib/run/jobs.h"

/* A setup step (a layout of test files) may take long. */
#define SB_RUN_SETUP_TIMEOUT_S 600.0

int sb_run_ranks(const struct sb_coord *c); /* 1 alone */
int sb_run_rank(const struct sb_coord *c);
double sb_run_coord_time(const struct sb_coord *c);

int sb_run_hook_stop(const struct sb_run_hooks *h);
void sb_run_say(const struct sb_run_hooks *h, enum sb_say kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* err said (when it has a message) and emptied */
void sb_run_say_error(const struct sb_run_hooks *h, struct sb_error *err);
/* A rank that cannot go on (e: -ETIMEDOUT, -ENOMEM, -EIO): the lost hook
 * ends the job; without one, e is returned. */
int sb_run_lost(const struct sb_run_hooks *h, const char *what, int e);

/* Every rank says whether its step failed: 1 when one did (rank 0 says
 * which one stopped all), 0 none; -errno lost. Alone: failed. */
int sb_run_agree_quiet(const struct sb_run_hooks *h, struct sb_coord *c, int failed);
/* Every rank's step (e: 0, or -errno with err filled), agreed: rank 0
 * says each failing rank's message (its rank named) and which stopped
 * all; a rank whose step went well while another's failed gets
 * -ECANCELED and that rank's class, with nothing more to say. Alone: e,
 * err as it is. */
int sb_run_agree(const struct sb_run_hooks *h, struct sb_coord *c, int e, struct sb_error *err);
/* The largest of every rank's v, on every rank (-errno lost). Alone: v. */
long sb_run_worst(const struct sb_run_hooks *h, struct sb_coord *c, long v);
/* The same, waiting up to timeout_s for the slowest rank. */
long sb_run_worst_within(const struct sb_run_hooks *h, struct sb_coord *c, long v,
			 double timeout_s);

#endif
