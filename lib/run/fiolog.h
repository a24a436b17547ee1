/*
 * Internal to lib/run: fio's log files (write_bw_log, write_iops_log,
 * write_lat_log, write_hist_log), written as fio 3.33 writes them:
 *
 *   time (ms), value, data direction, block size[, offset], priority
 *
 * bw in KiB/s (fio's bytes * 1000000 / clat ns per I/O), iops, lat, clat
 * and slat in ns; with log_avg_msec the mean (or max) of a window, block
 * size and offset 0; histogram lines "time, direction, block size, bin..."
 * with fio's 1856 latency bins, the counts of the window.
 *
 * Each worker has its own handle: lines go into a buffer per file that is
 * written out whole (O_APPEND where the file is shared) when it fills, so
 * a long run keeps a fixed amount of memory. The hot path is a branch per
 * completion when no log is asked for.
 */
#ifndef SB_FIOLOG_H
#define SB_FIOLOG_H

#include "lib/sb.h"
#include "lib/job/job.h"
#include "lib/results/results.h"

struct sb_fiolog;

/* Opens (creates, truncates unless shared) the files job asks for, named
 * for worker id. 0 with *out NULL when the job asks for none; -errno, with
 * *what naming the option whose file could not be made. */
int sb_fiolog_open(struct sb_fiolog **out, const struct sb_job_opts *job, unsigned id,
		   const char **what);
/* The measured period starts: time 0 of the logs. */
void sb_fiolog_start(struct sb_fiolog *l, uint64_t now);
/* A request completed, measured: its lat and clat; dir is the worker's
 * counters (for windowed bw and iops), clat its histogram (for hist logs). */
void sb_fiolog_io(struct sb_fiolog *l, int ddir, uint32_t len, uint64_t offset, uint64_t lat,
		  uint64_t clat, uint64_t now, const struct sb_dir_result *dir, unsigned prio);
/* A request was submitted (async engines): its slat. */
void sb_fiolog_slat(struct sb_fiolog *l, int ddir, uint32_t len, uint64_t offset, uint64_t slat,
		    uint64_t now, unsigned prio);
/* The run ended: the windows' last entries, everything written out.
 * 0, or the first write error (-errno). */
int sb_fiolog_finish(struct sb_fiolog *l, uint64_t now);
void sb_fiolog_free(struct sb_fiolog *l);

#endif
