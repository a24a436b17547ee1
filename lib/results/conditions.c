/* The conditions of a measurement: host, target and the device beneath it,
 * and the warnings that say when a figure is likely lying. */
#include "lib/results/results.h"
#include "lib/engine/engine.h"
#include "lib/target/target_device.h"

void sb_results_describe(struct sb_results *r, const struct sb_target_info *t, const char *path,
			 int created, int direct_fallback)
{
	snprintf(r->target_path, sizeof(r->target_path), "%s", path);
	r->target = *t;
	if (created)
		r->target_created = 1;
	sb_host_info(&r->host);
	/* the same device section as storbench info, in every result */
	r->have_device = sb_devinfo_probe(t, &r->device) == 0;
	if (direct_fallback)
		sb_results_warn(r,
				"the filesystem (%s) does not support direct I/O: measured "
				"buffered, through the page cache",
				t->fstype[0] ? t->fstype : "unknown");
	char ram[512];
	if (sb_target_ram_warning(t, ram, sizeof(ram)))
		sb_results_warn(r, "%s", ram);
	else if (!t->devname[0] && t->kind != SB_TARGET_NONE)
		sb_results_warn(r,
				"no block device beneath the target (%s): no device counters "
				"or device information",
				t->fstype[0] ? t->fstype : "?");
}

void sb_results_sanity(struct sb_results *r, const struct sb_job_result *j)
{
	if (r->target.devname[0] && !j->have_diskstat)
		sb_results_warn(r,
				"no I/O statistics for %s (/sys/class/block/%s/stat): the "
				"device's own counters are not in the results",
				r->target.devname, r->target.devname);
	const struct sb_job_opts *o = &j->opts;
	char a[32], b[128];
	/* a run bound by time (quick's always are) needs a longer time; one
	 * bound by size ended with its bytes, and needs to be bound by time */
	if (j->runtime_ns && j->runtime_ns < 2000000000ull && !j->interrupted)
		sb_results_warn_run(
			r, j,
			&(struct sb_run_warning){
				"measured for only ", "", (double)j->runtime_ns, SB_WFIG_NS,
				o->time_based
					? "runs under 2 s are noisy (use --runtime=2s or more)"
					: "runs under 2 s are noisy (use --runtime with "
					  "--time-based)" });
	uint64_t ws = (uint64_t)o->numjobs * (o->size ? o->size : 0);
	const struct sb_engine_ops *ops = sb_engine_find(o->engine);
	/* no data read: the null engine, a file-operation one (filestat,
	 * falloc) */
	const int noio = ops && (ops->flags & (SB_ENGINE_NOIO | SB_ENGINE_FILEOP |
					       SB_ENGINE_OWNFILES | SB_ENGINE_DONOR));
	if (!o->direct && sb_rw_reads(o->rw) && r->host.mem_available &&
	    ws < r->host.mem_available && !noio) {
		snprintf(b, sizeof(b),
			 "buffered reads of a working set (%s) smaller than free memory (",
			 sb_fmt_size(ws, a, sizeof(a)));
		sb_results_warn_run(r, j,
				    &(struct sb_run_warning){
					    b, ")", (double)r->host.mem_available, SB_WFIG_SIZE,
					    "they may measure the page cache, not the device" });
	}
	/* measured: the share of what buffered reads were about to read that
	 * the page cache held (after invalidate's drop) */
	const double cached = j->cache_checked
				      ? (double)j->cache_resident / (double)j->cache_checked
				      : 0;
	if (cached >= 0.01)
		sb_results_warn_run(
			r, j,
			&(struct sb_run_warning){
				"buffered reads began with ",
				" of what they read in the page cache", cached, SB_WFIG_PCT,
				o->invalidate
					? "those reads ran from memory, not the device (pages "
					  "being written or mapped stay after invalidate's drop)"
					: "those reads ran from memory, not the device "
					  "(invalidate=0 kept them: 1, the default, drops them)" });
	if (j->busiest_worker > 0.9)
		sb_results_warn_run(
			r, j,
			&(struct sb_run_warning){
				"a worker used ", " of a CPU core", j->busiest_worker, SB_WFIG_PCT,
				"the figures may be limited by the CPU, not the device" });
	if (j->iou_workers > 0)
		sb_results_warn_run(
			r, j,
			&(struct sb_run_warning){
				"io_uring handed requests to kernel worker threads (iou-wrk: ", ")",
				j->iou_workers, SB_WFIG_COUNT,
				"this device does not complete I/O asynchronously; "
				"--engine=psync with --numjobs may be faster" });
	if (j->settle_ns && j->batched) {
		snprintf(b, sizeof(b), " per wait, waits capped at %s)",
			 sb_fmt_ns((double)j->settle_ns, a, sizeof(a)));
		sb_results_warn_run(r, j,
				    &(struct sb_run_warning){
					    "completions were reaped in batches (", b,
					    (double)j->waited / (double)j->waits, SB_WFIG_DEC1,
					    "this spares the kernel worker a wake-up for each; "
					    "--iodepth-batch-complete=1 reaps them one by one" });
	}
}
