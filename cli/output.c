/* Results: describing the setting, sanity warnings, writing JSON. */
#include "cli/cli.h"

#include <unistd.h>

void cli_results_describe(struct sb_results *r, const struct cli_target *t, const char *path)
{
	snprintf(r->target_path, sizeof(r->target_path), "%s", path);
	r->target = t->info;
	for (unsigned i = 0; i < t->npaths; i++)
		if (t->created[i])
			r->target_created = 1;
	sb_host_info(&r->host);
	/* the same device section as storbench info, in every result */
	r->have_device = sb_devinfo_probe(&t->info, &r->device) == 0;
	if (t->direct_fallback)
		sb_results_warn(r, "the filesystem (%s) does not support direct I/O: measured "
				   "buffered, through the page cache",
				t->info.fstype[0] ? t->info.fstype : "unknown");
	if (!t->info.devname[0] && t->info.kind != SB_TARGET_NONE)
		sb_results_warn(r, "no block device beneath the target (%s): no device counters "
				   "or device information", t->info.fstype[0] ? t->info.fstype : "?");
}

void cli_sanity_warnings(struct sb_results *r, const struct sb_job_result *j)
{
	if (r->target.devname[0] && !j->have_diskstat)
		sb_results_warn(r, "no I/O statistics for %s (/sys/class/block/%s/stat): the "
				   "device's own counters are not in the results",
				r->target.devname, r->target.devname);
	const struct sb_job_opts *o = &j->opts;
	char a[32], b[32];
	if (j->runtime_ns && j->runtime_ns < 2000000000ull && !j->interrupted)
		sb_results_warn(r, "%s measured for only %s: runs under 2 s are noisy "
				   "(use --runtime with --time-based)", j->name,
				sb_fmt_ns((double)j->runtime_ns, a, sizeof(a)));
	uint64_t ws = (uint64_t)o->numjobs * (o->size ? o->size : 0);
	if (!o->direct && sb_rw_reads(o->rw) && r->host.mem_available &&
	    ws < r->host.mem_available && o->engine[0] != 'n')
		sb_results_warn(r, "buffered reads of a working set (%s) smaller than free memory "
				   "(%s) may measure the page cache, not the device",
				sb_fmt_size(ws, a, sizeof(a)),
				sb_fmt_size(r->host.mem_available, b, sizeof(b)));
	if (j->busiest_worker > 0.9)
		sb_results_warn(r, "a worker of %s used %.0f%% of a CPU core: the figures may be "
				   "limited by the CPU, not the device", j->name,
				j->busiest_worker * 100);
	if (j->iou_workers > 0)
		sb_results_warn(r, "io_uring handed requests to %d kernel worker thread%s (iou-wrk): "
				   "this device does not complete I/O asynchronously; "
				   "--engine=psync with --numjobs may be faster", j->iou_workers,
				j->iou_workers > 1 ? "s" : "");
	if (j->settle_ns && j->batched)
		sb_results_warn(r, "%s: completions were reaped in batches (%.1f per wait, waits "
				   "capped at %s) to spare the kernel worker a wake-up for each; "
				   "--iodepth-batch-complete=1 reaps them one by one", j->name,
				(double)j->waited / (double)j->waits,
				sb_fmt_ns((double)j->settle_ns, a, sizeof(a)));
}

/* Written to PATH.tmp-PID, flushed to disk, then renamed over PATH: a
 * reader (or a second Ctrl-C) never sees half a document. */
int cli_write_json(const struct sb_results *r, const char *path)
{
	if (!strcmp(path, "-"))
		return sb_results_write_json(r, stdout) < 0 ? -1 : 0;
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wx");
	if (!f) {
		sb_err("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	int e = sb_results_write_json(r, f);
	if (!e && fsync(fileno(f)) < 0 && errno != EINVAL)
		e = -errno;
	if (fclose(f) != 0 && !e)
		e = -errno;
	if (!e && rename(tmp, path) < 0)
		e = -errno;
	if (e < 0) {
		unlink(tmp);
		sb_err("cannot write '%s': %s", path, strerror(-e));
		return -1;
	}
	return 0;
}
