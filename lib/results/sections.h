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
#include "lib/latency/lat_run.h"
#include "lib/meta/meta.h"
#include "lib/pts/pts.h"
#include "lib/results/results.h"
#include "lib/spo/spo.h"
#include "lib/sweep/sweep.h"
#include "lib/device/devinfo.h"
#include "lib/target/mountinfo.h"

/* latency (latency_json.c): the probe as one job in fio's shape (psync,
 * queue depth 1) and the "latency" section (statistics, the preset's own
 * figures, the log of requests). 0 or -ENOMEM. */
int sb_results_latency(struct sb_results *res, struct sb_lat_run *lr);

/* meta (meta_json.c): the "meta" section, and a warning when the block test
 * file is smaller than twice the RAM (res->host must be filled). 0 or
 * -ENOMEM. */
int sb_results_meta(struct sb_results *res, const struct sb_meta_run *m);

/* sweep (sweep_json.c): the matrices of a run, one per test (file sizes
 * down, record sizes across, null where a cell was not measured), and a
 * warning when the page cache could not be dropped. 0 or -ENOMEM. */
int sb_results_sweep(struct sb_results *res, const struct sb_sweep_result *r);

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

/* spo (spo_json.c): the "spo" section of a check (its fields written at
 * the current level of j: the cycles log embeds them too). */
struct sb_json;
void sb_spo_check_json(struct sb_json *j, const struct sb_spo_check *c);
void sb_results_spo(struct sb_results *res, const struct sb_spo_check *c);

#endif
