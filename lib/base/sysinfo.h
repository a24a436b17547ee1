/*
 * The host a result was measured on, and the CPU time and scheduling the
 * process used while measuring (lib/base/sysinfo.c).
 */
#ifndef SB_SYSINFO_H
#define SB_SYSINFO_H

#include "lib/sb.h"

/* Host description. */
struct sb_host {
	char hostname[256];
	char kernel[256]; /* uname release */
	char machine[64]; /* uname machine */
	char cpu_model[128];
	unsigned ncpus;
	uint64_t mem_total, mem_available; /* bytes */
};
int sb_host_info(struct sb_host *out);

/* CPU time of the whole process (every thread, kernel I/O workers too) and
 * of the calling thread, in ns. */
int sb_cpu_process(uint64_t *usr_ns, uint64_t *sys_ns);
int sb_cpu_thread(uint64_t *usr_ns, uint64_t *sys_ns);
/* The process's context switches (voluntary and not) and major and minor
 * page faults so far, fio's ctx, majf and minf. */
int sb_rusage_counts(uint64_t *ctx, uint64_t *majf, uint64_t *minf);
/* Number of io_uring kernel workers (threads named iou-wrk-*) in this
 * process now. */
int sb_count_iou_workers(void);

#endif
