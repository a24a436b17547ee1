/*
 * fio's zonemode=zbd on a target that reports no zones (a regular file,
 * a block device that is not zoned), as fio 3.33 emulates it: the target
 * is cut into zones of zone_size bytes (the last one may pass its end),
 * each with a write pointer that starts at the zone's start when the run
 * starts (every zone empty, whatever the file holds). A write goes at the
 * write pointer of the zone its offset falls in (or of another open zone,
 * with max_open_zones) and moves it; a full zone is reset before it is
 * written again; a read with read_beyond_wp=0 reads only below the write
 * pointers (none: the job ends); a trim resets its zone.
 *
 * A pure state machine: no I/O. One struct sb_zbd per file, shared by
 * every job of a job file that names it (from the first job to the last,
 * as fio's zone information), its calls serialized by its lock; one
 * struct sb_zbd_job per worker: its region's zones and limits.
 */
#ifndef SB_RUN_ZBD_H
#define SB_RUN_ZBD_H

#include <pthread.h>

#include "lib/sb.h"
#include "lib/job/job.h"

struct sb_zbd_zone {
	uint64_t start, wp;
	int open;
};

struct sb_zbd {
	pthread_mutex_t lock;
	uint64_t zone_size, cap; /* cap: each zone's writable bytes */
	uint32_t nzones;
	unsigned max_open; /* 0: no limit (open zones not tracked) */
	unsigned nopen;
	uint32_t *open; /* the open zones' indexes, nopen of them */
	uint64_t with_data; /* bytes below the write pointers of all zones */
	uint32_t write_cnt; /* writes until the next reset (reset_frequency) */
	struct sb_zbd_zone *z; /* nzones + 1: the last only a start */
};

/* A worker's view: its region [off, off + size) of the file, in zones
 * [zmin, zmax), its smallest blocks and the job's options. */
struct sb_zbd_job {
	struct sb_zbd *zbd;
	uint64_t off, size;
	uint32_t zmin, zmax;
	uint32_t min_bs[3]; /* read, write, trim */
	int random;
	int mixed; /* reads and writes: the first read of an empty target writes */
	struct sb_zbd_opts o;
	unsigned nopen; /* zones this job opened (job_max_open_zones) */
	uint64_t resets;
};

/* What sb_zbd_adjust says of a request */
enum { SB_ZBD_ACCEPT = 0, SB_ZBD_EOF = 1 };

/* The zones of a file of file_size bytes. -EINVAL: zone_size below 512,
 * cap above it, the file shorter than a zone, or max_open above
 * SB_ZBD_MAX_OPEN; -ENOMEM. */
#define SB_ZBD_MAX_OPEN 4096
int sb_zbd_create(struct sb_zbd **out, uint64_t file_size, uint64_t zone_size, uint64_t cap,
		  unsigned max_open);
void sb_zbd_free(struct sb_zbd *z);

/* A job's view of z for its region, set up as fio's zbd_file_reset at the
 * job's start (the data below the write pointers counted, the reset
 * frequency's count begun). -EINVAL (msg says why): a region that holds
 * no whole zone of a job that writes, job_max_open_zones without
 * max_open_zones. */
int sb_zbd_job_init(struct sb_zbd_job *j, struct sb_zbd *z, const struct sb_zbd_opts *o,
		    uint64_t off, uint64_t size, const uint32_t min_bs[3], int random, int mixed,
		    char *msg, size_t msglen);

/* The request the job would issue (*ddir, *off, *len) made what the
 * zones allow: a read of a mixed job that finds nothing written becomes
 * a write; a write moved to its zone's write pointer (the zone reset
 * first when full, or when the reset threshold and frequency say so) and
 * cut at the zone's capacity, the write pointer moved past it; a read
 * moved and cut to what is written; a trim moved to a zone with data,
 * which it resets. SB_ZBD_ACCEPT, or SB_ZBD_EOF: nothing more can be
 * done (the job ends). */
int sb_zbd_adjust(struct sb_zbd_job *j, int *ddir, uint64_t *off, uint32_t *len);

/* The zone index of an offset (the sentinel for one past the end) */
uint32_t sb_zbd_zone_of(const struct sb_zbd *z, uint64_t off);

#endif
