/*
 * What storbench latency was asked (struct sb_lat_choice) made into the
 * probe's parameters: a preset is a method's definition (dd's, hdparm's,
 * ioping's loop), its defaults and the options it refuses.
 */
#include "lib/latency/lat_run.h"
#include "lib/job/job.h"

#include <stdarg.h>
#include <unistd.h>

#define DEFAULT_FILE_SIZE (1ull << 20)	       /* ioping's ioping.tmp */
#define DEFAULT_HDPARM_FILE_SIZE (64ull << 20) /* a file for the hdparm presets */
#define HDPARM_BS (2u << 20)		       /* TIMING_BUF_MB */

int sb_lat_preset_by_name(const char *name)
{
	for (int i = 0; i < SB_LAT_NPRESETS; i++)
		if (!strcmp(name, sb_lat_preset_name((enum sb_lat_preset)i)))
			return i;
	return -EINVAL;
}

static int hdparm(enum sb_lat_preset p)
{
	return p == SB_LAT_HDPARM || p == SB_LAT_HDPARM_CACHE;
}

static int refuse(char *msg, size_t ml, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, ml, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int sb_lat_choice_check(const struct sb_lat_choice *c, char *msg, size_t ml)
{
	if (c->direct && c->buffered)
		return refuse(msg, ml, "--direct: conflicts with --buffered (choose one)");
	if (c->flood && c->interval_set)
		return refuse(msg, ml,
			      "--flood: conflicts with --interval (--flood is --interval=0)");
	if (c->write && hdparm(c->preset))
		return refuse(msg, ml, "--write: --preset=%s reads only",
			      sb_lat_preset_name(c->preset));
	return 0;
}

void sb_lat_choice_apply(const struct sb_lat_choice *c, struct sb_lat_run *lr)
{
	struct sb_probe_params *p = &lr->p;
	const int hd = hdparm(c->preset);
	p->bs = (uint32_t)(c->bs_set			 ? c->bs
			   : c->preset == SB_LAT_DD_SYNC ? 512
			   : hd				 ? HDPARM_BS
							 : 4096);
	p->write = c->write || c->preset == SB_LAT_DD_SYNC;
	p->pattern = c->preset == SB_LAT_IOPING		? SB_PROBE_RANDOM
		     : c->preset == SB_LAT_HDPARM_CACHE ? SB_PROBE_FIXED
							: SB_PROBE_SEQ;
	p->stop_at_end = p->pattern == SB_PROBE_SEQ;
	p->use_lseek = c->preset == SB_LAT_HDPARM_CACHE;
	p->interval_ns = c->flood		      ? 0
			 : c->interval_set	      ? c->interval_ns
			 : c->preset == SB_LAT_IOPING ? 1000000000ull
						      : 0;
	p->count = c->count_set ? c->count : c->preset == SB_LAT_DD_SYNC ? 1000 : 0;
	p->warmup = (unsigned)(c->warmup_set ? c->warmup : c->preset == SB_LAT_IOPING ? 1 : 0);
	if (hd)
		p->min_time_ns = c->runtime_ns		      ? c->runtime_ns
				 : c->preset == SB_LAT_HDPARM ? 3000000000ull
							      : 2000000000ull;
	else
		p->deadline_ns = c->runtime_ns;
	/* hdparm: sync(); sleep(3) before -t; after -T's flush, sleep(1) */
	p->settle_ns = c->settle_set			  ? c->settle_ns
		       : c->preset == SB_LAT_HDPARM	  ? 3000000000ull
		       : c->preset == SB_LAT_HDPARM_CACHE ? 1000000000ull
							  : 0;
	lr->direct = c->direct || (!c->buffered && !hd);
	lr->dsync = p->write;
	/* ioping drops the request's pages before each buffered request;
	 * hdparm -t wants readahead and -T the cache itself */
	p->drop_cache = !lr->direct && c->preset == SB_LAT_IOPING;
	p->seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	lr->preset = c->preset;
}

int sb_lat_choice_job(const struct sb_lat_choice *c, const struct sb_lat_run *lr, int creates,
		      struct sb_job_opts *job, char *msg, size_t ml)
{
	sb_job_opts_default(job);
	job->bs = lr->p.bs;
	job->direct = lr->direct;
	job->offset = c->offset;
	job->size = c->size_set ? c->size : 0;
	if (creates && !c->size_set)
		job->size = SB_MAX((uint64_t)lr->p.bs, hdparm(lr->preset) ? DEFAULT_HDPARM_FILE_SIZE
									  : DEFAULT_FILE_SIZE);
	job->rw = lr->p.write ? SB_RW_WRITE : SB_RW_READ;
	if (job->size && job->size < lr->p.bs)
		return refuse(msg, ml,
			      "--size: the working set (%llu bytes) is smaller than a request "
			      "(--bs, %u bytes)",
			      (unsigned long long)job->size, lr->p.bs);
	return 0;
}
