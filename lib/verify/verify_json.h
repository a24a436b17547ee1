/* The results' "verify" sections: storbench verify (its write and check
 * phases, and --probe) and run --verify. docs/verify.md describes them. */
#ifndef SB_VERIFY_JSON_H
#define SB_VERIFY_JSON_H

#include "lib/json/json_write.h"
#include "lib/results/results.h"
#include "lib/verify/capacity.h"
#include "lib/verify/job_verify.h"
#include "lib/verify/verify_target.h"

/* extra_json hooks (struct sb_results): ctx is a struct sb_verify_report,
 * a struct sb_capacity_report, a struct sb_job_verify. */
void sb_verify_json(struct sb_json *j, const void *ctx);
void sb_capacity_json(struct sb_json *j, const void *ctx);
void sb_job_verify_json(struct sb_json *j, const void *ctx);

/* verify's phases as fio-shaped jobs, so that readers of fio's layout see
 * their bandwidth. */
void sb_verify_add_jobs(struct sb_results *res, const struct sb_verify_report *r);

#endif
