/*
 * The info command's section of the results, written inside "storbench"
 * by the results' extra_json hook. Every method's own section is written
 * (and read back) beside its method: lib/M/M_json.c and M_read.c.
 */
#ifndef SB_SECTIONS_H
#define SB_SECTIONS_H

#include "lib/sb.h"
#include "lib/results/results.h"
#include "lib/device/devinfo.h"
#include "lib/target/mountinfo.h"

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
