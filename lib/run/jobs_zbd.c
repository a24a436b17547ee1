/*
 * fio's zonemode=zbd in a job file's run: each file's emulated zones
 * (zbd.h), made when the first job on the file runs and kept to the end
 * of the run, so a later job reads below the write pointers an earlier
 * one left, as in fio. A zoned block device (one that reports zones) is
 * refused: storbench does not manage a real zone's write pointer.
 */
#include "lib/run/jobs_run.h"
#include "lib/run/zbd.h"

#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BLKGETZONESZ
#define BLKGETZONESZ _IOR(0x12, 132, uint32_t)
#endif

/* The size of the file or device at fd, and whether a device reports
 * zones (zoned: its zone size in bytes, else 0). 0 or -errno. */
static int size_of(int fd, uint64_t *size, uint64_t *zoned)
{
	struct stat st;
	*zoned = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	uint32_t sectors = 0;
	if (ioctl(fd, BLKGETZONESZ, &sectors) == 0)
		*zoned = (uint64_t)sectors * 512;
	return ioctl(fd, BLKGETSIZE64, size) < 0 ? -errno : 0;
}

int sb_run_zbd(struct run *r, const struct sb_jobtarget *t, const struct sb_job_opts *job,
	       struct sb_zbd **out)
{
	*out = NULL;
	if (!job->zbd.on)
		return SB_RUN_OK;
	if (t->npaths != 1 || !t->paths[0])
		return sb_run_fail(r, SB_RUN_INPUT,
				   "zonemode=zbd: job '%s' has %u files; one file is supported",
				   job->name, t->npaths);
	const char *path = t->paths[0];
	for (unsigned i = 0; i < r->nzbds; i++)
		if (!strcmp(r->zbds[i].path, path)) {
			struct sb_zbd *z = r->zbds[i].zbd;
			if (z->zone_size != job->zbd.zone_size ||
			    z->cap != (job->zbd.zone_cap ? job->zbd.zone_cap : job->zbd.zone_size) ||
			    z->max_open != job->zbd.max_open)
				return sb_run_fail(r, SB_RUN_INPUT,
						   "zonemode=zbd: job '%s' gives '%s' another "
						   "zonesize, zonecapacity or max_open_zones than "
						   "the job before it",
						   job->name, path);
			*out = z;
			return SB_RUN_OK;
		}
	if (r->nzbds == sizeof(r->zbds) / sizeof(r->zbds[0]))
		return sb_run_fail(r, SB_RUN_INPUT, "zonemode=zbd: more than %u files",
				   r->nzbds);
	const int held = t->fd[0] > 0;
	const int fd = held ? t->fd[0] - 1 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_run_fail(r, SB_RUN_ENV, "cannot open '%s': %s", path, strerror(errno));
	uint64_t size = 0, zoned = 0;
	int e = size_of(fd, &size, &zoned);
	if (!held)
		close(fd);
	if (e < 0)
		return sb_run_fail(r, SB_RUN_ENV, "cannot size '%s': %s", path, strerror(-e));
	if (zoned)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "zonemode=zbd: '%s' is a zoned block device (zones of %" PRIu64
				   " bytes): storbench emulates zones only on files and devices "
				   "without zones",
				   path, zoned);
	if (size < job->zbd.zone_size)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "zonemode=zbd: '%s' is %" PRIu64 " bytes, less than one zone "
				   "(zonesize=%" PRIu64 ")",
				   path, size, job->zbd.zone_size);
	struct sb_zbd *z;
	e = sb_zbd_create(&z, size, job->zbd.zone_size, job->zbd.zone_cap, job->zbd.max_open);
	char *name = e < 0 ? NULL : strdup(path);
	if (e < 0 || !name) {
		sb_zbd_free(e < 0 ? NULL : z);
		return e == -ENOMEM || !name ? sb_run_fail(r, SB_RUN_ENV, "out of memory")
					     : sb_run_fail(r, SB_RUN_INPUT,
							   "zonemode=zbd: job '%s': zones of '%s' "
							   "cannot be made (zonesize, zonecapacity)",
							   job->name, path);
	}
	r->zbds[r->nzbds].path = name;
	r->zbds[r->nzbds++].zbd = z;
	*out = z;
	return SB_RUN_OK;
}

void sb_run_zbd_free(struct run *r)
{
	for (unsigned i = 0; i < r->nzbds; i++) {
		free(r->zbds[i].path);
		sb_zbd_free(r->zbds[i].zbd);
	}
	r->nzbds = 0;
}
