/*
 * Every command's own section of the results, written inside "storbench"
 * under the command's name by the results' extra_json hook, one file per
 * command in lib/results. Each sb_results_* call hooks its section into
 * res; what it is given must outlive res.
 */
#ifndef SB_SECTIONS_H
#define SB_SECTIONS_H

#include "lib/sb.h"
#include "lib/cliff/cliff.h"
#include "lib/flash/flash.h"
#include "lib/pts/pts.h"
#include "lib/results/results.h"
#include "lib/target/devinfo.h"

/* pts (pts_json.c): the "pts" section (conditions, deviations, per test
 * its rounds, steady state and window averages) and a warning for each test
 * that did not reach steady state. r must outlive res. 0 or -ENOMEM. */
int sb_results_pts(struct sb_results *res, const struct sb_pts_run *r);
/* cliff (cliff_json.c): the fill as a job (res takes job, as
 * sb_results_add_job does) and the "cliff" section (docs/results.md).
 * c and what it points to must outlive res. 0 or -ENOMEM. */
struct sb_cliff_report {
	const struct sb_cliff_result *r;
	const struct sb_job_opts *job; /* the write job as run */
	uint64_t region_offset, region_size;
	/* before the fill (--purge, --idle-before): the purge asked for and
	 * the one done ("none" when none), how ("BLKDISCARD", ...), over how
	 * many bytes, and the idle time */
	const char *purge, *purge_method;
	uint64_t purge_bytes, idle_before_ns;
};
int sb_results_cliff(struct sb_results *res, const struct sb_cliff_report *c,
		     struct sb_job_result *job);
/* flash (flash_json.c): the "flash" section, every row and the findings,
 * and a warning when the priority could not be raised. 0 or -ENOMEM. */
int sb_results_flash(struct sb_results *res, const struct sb_flash_report *r);

/* info (info_json.c): what is known about a target, without writing. */
struct sb_info_report {
	struct sb_target_info t;
	int have_dev; /* dev describes the disk beneath */
	struct sb_devinfo dev;
	int have_mount; /* a file or directory: the filesystem holding it */
	struct sb_mount mount;
	struct sb_health health;
	int checked_block; /* in_use and signature were asked (block targets) */
	int in_use;	   /* 1, 0, -errno */
	char where[512];
	int signature; /* 1, 0, -errno */
	char what[128];
	const char *set_cache; /* --set-cache done: "on", "off"; NULL when not asked */
	int cache_before;      /* the state it had, 1 on, 0 off */
	const char *cache_how; /* the command that switched it */
};
/* The target (path, rep->t), the host, and the "info" section. */
void sb_results_info(struct sb_results *res, const char *path, const struct sb_info_report *rep);

#endif
