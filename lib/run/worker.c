/*
 * One worker: a thread that keeps its engine's queue full, times every
 * request and keeps its own statistics. Nothing here is shared with other
 * workers but the stop flag and the progress counters it publishes.
 */
#include "lib/run/worker.h"
#include "lib/base/sysinfo.h"
#include "lib/job/numa.h"
#include "lib/target/cache.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <time.h>

/* Close the current interval: its figures go into the worker's series. */
static void interval_close(struct sb_worker *w, uint64_t now)
{
	struct sb_interval iv;
	memset(&iv, 0, sizeof(iv));
	iv.t_ns = w->iv_end - w->measure_start;
	for (int d = 0; d < SB_DDIR_N; d++) {
		iv.bytes[d] = w->res.dir[d].bytes - w->iv_bytes[d];
		iv.ios[d] = w->res.dir[d].ios - w->iv_ios[d];
		iv.lat_mean_ns[d] = sb_hist_mean(&w->iv_lat[d]);
		iv.lat_p99_ns[d] = sb_hist_percentile(&w->iv_lat[d], 99.0);
		w->iv_bytes[d] = w->res.dir[d].bytes;
		w->iv_ios[d] = w->res.dir[d].ios;
		if (w->iv_lat[d].count)
			sb_hist_init(&w->iv_lat[d]);
	}
	if (sb_series_add(&w->res.series, &iv) < 0 && !w->err)
		w->err = -ENOMEM;
	w->iv_end += w->interval;
	/* a stall longer than an interval: emit the empty intervals too */
	while (w->iv_end <= now) {
		memset(&iv, 0, sizeof(iv));
		iv.t_ns = w->iv_end - w->measure_start;
		if (sb_series_add(&w->res.series, &iv) < 0 && !w->err)
			w->err = -ENOMEM;
		w->iv_end += w->interval;
	}
}

static void reset_stats(struct sb_worker *w, uint64_t now)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		w->pub_base_bytes[d] += w->res.dir[d].bytes; /* the ramp's */
		w->pub_base_ios[d] += w->res.dir[d].ios;
		w->res.dir[d].bytes = w->res.dir[d].ios = 0;
		sb_hist_init(&w->res.dir[d].clat);
		sb_hist_init(&w->res.dir[d].lat);
		sb_hist_init(&w->res.dir[d].slat);
		sb_hist_init(&w->iv_lat[d]);
		w->iv_bytes[d] = w->iv_ios[d] = 0;
	}
	sb_hist_init(&w->res.sync_lat);
	for (int d = 0; w->res.prios && d < SB_DDIR_N; d++)
		for (unsigned i = 0; i < w->res.prios->n[d]; i++)
			sb_hist_init(&w->res.prios->clat[d][i]);
	w->res.datasyncs = 0;
	w->res.waits = w->res.waited = w->res.batched = 0;
	memset(w->res.depth_map, 0, sizeof(w->res.depth_map));
	memset(w->res.submit_map, 0, sizeof(w->res.submit_map));
	memset(w->res.complete_map, 0, sizeof(w->res.complete_map));
	w->measure_start = now;
	w->iv_end = now + w->interval;
	w->smp_last[0] = w->smp_last[1] = now;
	memset(w->smp_prev, 0, sizeof(w->smp_prev));
	memset(w->res.bw_sample, 0, sizeof(w->res.bw_sample));
	memset(w->res.iops_sample, 0, sizeof(w->res.iops_sample));
	w->measuring = 1;
	if (w->log)
		sb_fiolog_start(w->log, now);
	sb_cpu_thread(&w->cpu_usr0, &w->cpu_sys0);
}

/* Whether a failed request of ddir with errno err lets the job go on:
 * continue_on_error's direction, or with fio's ignore_error list of the
 * direction, only its errnos. */
static int survives(const struct sb_job_opts *o, int ddir, int err)
{
	const int d = ddir != SB_DDIR_READ;
	for (unsigned i = 0; i < o->nignore[d]; i++)
		if (o->ignore_err[d][i] == err)
			return 1;
	if (o->nignore[d])
		return 0;
	const enum sb_continue c = o->continue_on_error;
	if (c == SB_CONTINUE_ALL)
		return 1;
	if (c == SB_CONTINUE_READ)
		return ddir == SB_DDIR_READ;
	if (c == SB_CONTINUE_WRITE)
		return ddir != SB_DDIR_READ;
	return 0;
}

/* fio's fill_device: a write the full file system refused (ENOSPC,
 * EDQUOT), or cut short, ends the job as done: nothing more is issued,
 * and the bytes a short write moved count. 1 when io was such a write. */
static int filled(struct sb_worker *w, struct sb_io *io)
{
	if (!w->job->fill_device || io->ddir != SB_DDIR_WRITE ||
	    (io->res < 0 && io->res != -ENOSPC && io->res != -EDQUOT))
		return 0;
	w->issue_done = 1;
	if (io->res <= 0) {
		/* issued, moved nothing, not timed: fio's total_ios counts it */
		w->res.dir[SB_DDIR_WRITE].ios++;
		return 1;
	}
	io->len = (uint32_t)io->res; /* accounted as a request of what it wrote */
	return 0;
}

static void account(struct sb_worker *w, struct sb_io *io, uint64_t now)
{
	int d = io->ddir;
	if (SB_UNLIKELY(io->res < 0 || (d < SB_DDIR_SYNC && (uint64_t)io->res != io->len)) &&
	    filled(w, io))
		return;
	if (SB_UNLIKELY(io->res < 0 || (d < SB_DDIR_SYNC && (uint64_t)io->res != io->len))) {
		w->res.errors++;
		if (!w->res.first_error.err) {
			w->res.first_error.offset = io->offset;
			w->res.first_error.len = io->len;
			w->res.first_error.ddir = d;
			w->res.first_error.err = io->res < 0 ? (int)-io->res : EIO;
			if (w->eng.why) /* the engine's words (e4defrag: not ext4) */
				snprintf(w->res.first_error.why, sizeof(w->res.first_error.why),
					 "%s", w->eng.why);
		}
		if (!w->err && !survives(w->job, d, io->res < 0 ? (int)-io->res : EIO))
			w->err = io->res < 0 ? (int)io->res : -EIO;
		return;
	}
	uint64_t lat = now - io->start_ns;
	if (SB_UNLIKELY(w->lt_on) && d < SB_DDIR_SYNC) {
		const int a = (int)sb_lat_target_io(&w->lt, lat, now);
		w->lt_act = SB_MAX(w->lt_act, a);
		if (a == SB_LAT_FATAL && !w->res.first_error.err) {
			/* fio's lat_fatal: the request's error, the job's end */
			w->res.errors++;
			w->res.first_error.offset = io->offset;
			w->res.first_error.len = io->len;
			w->res.first_error.ddir = d;
			w->res.first_error.err = ETIMEDOUT;
		}
	}
	if (d >= SB_DDIR_SYNC) {
		if (w->measuring && !w->job->gtod_reduce) {
			sb_hist_add(&w->res.sync_lat, lat);
			w->res.datasyncs += d == SB_DDIR_DATASYNC;
		}
		return;
	}
	/* counted in the ramp too, for the progress line: reset_stats starts
	 * the measured count from 0 and keeps the ramp's in pub_base */
	struct sb_dir_result *dr = &w->res.dir[d];
	dr->bytes += io->len;
	dr->ios++;
	if (SB_UNLIKELY(!w->measuring) || SB_UNLIKELY(w->job->gtod_reduce) ||
	    SB_UNLIKELY(io->untimed))
		return;
	sb_hist_add(&dr->lat, lat);
	sb_hist_add(&dr->clat, now - io->issue_ns);
	if (!w->engine_sync)
		sb_hist_add(&dr->slat, io->issue_ns - io->start_ns);
	sb_hist_add(&w->iv_lat[d], lat);
	/* fio's clat_prio: the request's own priority, else the thread's */
	const unsigned prio = io->ioprio ? io->ioprio : w->ioprio;
	if (SB_UNLIKELY(w->res.prios != NULL))
		sb_prio_add(w->res.prios, d, prio, now - io->issue_ns);
	if (SB_UNLIKELY(w->log != NULL)) {
		const uint64_t clat = now - io->issue_ns;
		sb_fiolog_io(w->log, d, io->len, io->offset, lat, clat, now, w->res.dir, prio);
		/* fio's per-unit logs: a bw sample of each request, its bytes
		 * per millisecond of clat (fio's "KiB/s"), and an iops one of 1 */
		if (!w->smp_ns[0])
			sb_rate_sample(&w->res.bw_sample[d],
				       clat ? (double)((uint64_t)io->len * 1000000u / clat) * 1024
					    : 0);
		if (!w->smp_ns[1])
			sb_rate_sample(&w->res.iops_sample[d], 1);
	}
}

/* fio's __add_samples: once a window (less fio's 1 ms of slack) passed
 * since the last sample, a sample of each direction that moved anything,
 * bw in whole KiB/s (as bytes/s) and iops over the whole milliseconds
 * spent. Only while the job issues (fio's helper samples a running job). */
static void take_samples(struct sb_worker *w, uint64_t now)
{
	for (int k = 0; k < 2; k++) {
		if (!w->smp_ns[k] || now < w->smp_last[k] + w->smp_ns[k] - SB_SAMPLE_SLACK_NS ||
		    (w->end_ns && now >= w->end_ns))
			continue;
		const uint64_t spent = (now - w->smp_last[k]) / 1000000u;
		for (int d = 0; d < SB_DDIR_N; d++) {
			const uint64_t cur = k ? w->res.dir[d].ios : w->res.dir[d].bytes;
			const uint64_t delta = cur - w->smp_prev[k][d];
			if (!delta)
				continue;
			if (k)
				sb_rate_sample(&w->res.iops_sample[d],
					       spent ? (double)(delta * 1000 / spent) : 0);
			else
				sb_rate_sample(&w->res.bw_sample[d],
					       spent ? (double)(delta * 1000 / spent / 1024) * 1024
						     : 0);
			w->smp_prev[k][d] = cur;
		}
		w->smp_last[k] = now;
	}
}

void sb_worker_snapshot(struct sb_worker *w, uint64_t now)
{
	const unsigned req = atomic_load_explicit(&w->snap_req, memory_order_acquire);
	w->snap_seen = req;
	pthread_mutex_lock(&w->snap_lock);
	if (w->snap) {
		/* the counts, maps and samples; not the series (its own) */
		struct sb_series keep = w->snap->series;
		*w->snap = w->res;
		w->snap->prios = NULL; /* the worker's own, which it still grows */
		w->snap->series = keep;
		w->snap->settle_ns = w->eng.settle_ns;
		w->snap_from = w->measuring ? w->measure_start : w->start_ns;
		/* its time so far (in its ramp, the ramp's: its figures are the
		 * ramp's until it ends, as fio's), of each direction that moved */
		w->snap->runtime_ns = now > w->snap_from ? now - w->snap_from : 0;
		for (int d = 0; d < SB_DDIR_N; d++)
			w->snap->dir_runtime_ns[d] = w->res.dir[d].bytes ? w->snap->runtime_ns : 0;
	}
	w->snap_done = req;
	pthread_cond_broadcast(&w->snap_cond);
	pthread_mutex_unlock(&w->snap_lock);
}

/* When the next sample is due (UINT64_MAX: none by time). */
static uint64_t sample_due(const struct sb_worker *w)
{
	uint64_t due = UINT64_MAX;
	for (int k = 0; k < 2; k++)
		if (w->smp_ns[k])
			due = SB_MIN(due, w->smp_last[k] + w->smp_ns[k] - SB_SAMPLE_SLACK_NS);
	return due;
}

static void publish(struct sb_worker *w, uint64_t now)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		atomic_store_explicit(&w->prog_bytes[d], w->pub_base_bytes[d] + w->res.dir[d].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->prog_ios[d], w->pub_base_ios[d] + w->res.dir[d].ios,
				      memory_order_relaxed);
	}
	w->pub_next = now + SB_PUBLISH_NS;
}

/* Bookkeeping at a completion time: progress, ramp end, interval ends.
 * One comparison per call until the next of them is due. */
static void tick(struct sb_worker *w, uint64_t now)
{
	if (SB_LIKELY(now < w->next_tick))
		return;
	if (now >= w->pub_next)
		publish(w, now);
	if (!w->measuring && now >= w->ramp_end)
		reset_stats(w, w->ramp_end);
	if (w->measuring && now >= w->iv_end)
		interval_close(w, now);
	if (w->measuring)
		take_samples(w, now);
	if (SB_UNLIKELY(atomic_load_explicit(&w->snap_req, memory_order_acquire) != w->snap_seen))
		sb_worker_snapshot(w, now);
	w->next_tick = SB_MIN(w->pub_next,
			      w->measuring ? SB_MIN(w->iv_end, sample_due(w)) : w->ramp_end);
}

/* fio's __io_u_mark_map: a submission (a reap) of n requests is counted
 * in 0, 1-4, 5-8, 9-16, 17-32, 33-64 or more */
static unsigned map_level(unsigned n)
{
	unsigned l = 0;
	for (unsigned top = 4; n && l < SB_DEPTH_LEVELS - 1; top *= 2) {
		l++;
		if (n <= top)
			break;
	}
	return l;
}

static void complete(struct sb_worker *w, struct sb_io *io, uint64_t now)
{
	account(w, io, now);
	w->inflight--;
	w->free_slots[w->nfree++] = io;
}

/* The time between completions, averaged over the last few reaps. */
static void track_gap(struct sb_worker *w, unsigned n, uint64_t now)
{
	if (w->last_reap && n) {
		const int64_t g = (int64_t)((now - w->last_reap) / n);
		w->gap_ns = w->gap_ns
				    ? (uint64_t)((int64_t)w->gap_ns + (g - (int64_t)w->gap_ns) / 8)
				    : (uint64_t)g;
	}
	w->last_reap = now;
}

/*
 * How many completions to wait for with a full queue. --iodepth-batch-complete
 * says; by default (auto) one, unless the engine coalesces (settle_ns): then
 * as many as the recent rate brings in the settle time, at most a quarter of
 * the queue. Completions that come faster than one per settle time then cost
 * one wake-up per settle time, not one each; slower ones are waited for one
 * by one. The engine's timed wait keeps any from waiting longer than that.
 */
static unsigned wait_for(struct sb_worker *w)
{
	if (w->job->batch_complete)
		return SB_MIN(w->job->batch_complete, w->inflight);
	if (!w->eng.settle_ns || !w->gap_ns || w->gap_ns >= w->eng.settle_ns)
		return 1;
	const uint64_t n = SB_MIN(w->eng.settle_ns / w->gap_ns, w->inflight / 4);
	return n > 1 ? (unsigned)n : 1;
}

static int reap(struct sb_worker *w, unsigned min)
{
	const struct sb_engine_ops *ops = w->eng.ops;
	int n = ops->getevents(&w->eng, min, w->eng.depth);
	if (n < 0)
		return n;
	uint64_t now = sb_now_ns();
	track_gap(w, (unsigned)n, now);
	w->res.complete_map[map_level((unsigned)n)]++; /* fio's per getevents call */
	for (int i = 0; i < n; i++)
		complete(w, ops->event(&w->eng, (unsigned)i), now);
	tick(w, now);
	return n;
}

static int drain(struct sb_worker *w)
{
	while (w->inflight) {
		int r = reap(w, 1);
		if (r < 0)
			return r;
	}
	return 0;
}

/* fio's rate=READ,WRITE in a mixed job: a direction that would have to
 * wait for its cap gives its turn to the other when that one may go
 * sooner, as fio's rate_ddir does, so one cap does not hold the other
 * direction back. */
static int rate_turn(struct sb_worker *w, int ddir)
{
	if (!w->rate_dir[0].bps && !w->rate_dir[1].bps)
		return ddir;
	const uint64_t now = sb_now_ns();
	const uint64_t mine = sb_rate_wait(&w->rate_dir[ddir], now);
	return mine && sb_rate_wait(&w->rate_dir[!ddir], now) < mine ? !ddir : ddir;
}

static int pick_ddir(struct sb_worker *w)
{
	switch (w->job->rw) {
	case SB_RW_READ:
	case SB_RW_RANDREAD: return SB_DDIR_READ;
	case SB_RW_WRITE:
	case SB_RW_RANDWRITE: return SB_DDIR_WRITE;
	case SB_RW_TRIM:
	case SB_RW_RANDTRIM:
	case SB_RW_TRIMWRITE:
	case SB_RW_RANDTRIMWRITE: return SB_DDIR_TRIM;
	default:
		if (SB_UNLIKELY(w->piece_dir))
			return SB_DDIR_READ; /* the piece chooses (next_piece) */
		return rate_turn(w, sb_rng_below(&w->rng, 100) < w->job->rwmixread ? SB_DDIR_READ
										   : SB_DDIR_WRITE);
	}
}

/* A request size of direction ddir's split (fio's get_next_buflen). */
static uint32_t pick_bs(struct sb_worker *w, int ddir)
{
	const struct sb_job_opts *o = w->job;
	if (!o->nbssplit)
		return o->bs;
	unsigned n;
	const struct sb_bssplit *s = sb_job_split(o, ddir != SB_DDIR_READ, &n);
	uint64_t x = sb_rng_below(&w->rng, 100);
	for (unsigned i = 0; i < n; i++) {
		if (x < s[i].pct)
			return s[i].bs;
		x -= s[i].pct;
	}
	return s[n - 1].bs;
}

/* What the loop has left to bound a random request: with fio's
 * norandommap nothing but its end (the last request whole, fio's do_io
 * loops while fewer bytes were issued). */
static uint64_t loop_room_any(const struct sb_worker *w)
{
	return w->loop_left ? UINT64_MAX : 0;
}

static uint64_t loop_room(const struct sb_worker *w)
{
	return w->job->norandommap ? loop_room_any(w) : w->loop_left;
}

/* want bytes when they fit in room, else the largest block size of
 * direction ddir's that does (fio's way: requests keep the sizes the job
 * names); 0: none. */
static uint32_t fit(const struct sb_worker *w, uint32_t want, uint64_t room, int ddir)
{
	uint32_t best = 0;
	if (want <= room)
		return want;
	unsigned n;
	const struct sb_bssplit *s = sb_job_split(w->job, ddir != SB_DDIR_READ, &n);
	for (unsigned i = 0; i < n; i++)
		if (s[i].bs <= room && s[i].bs > best)
			best = s[i].bs;
	return best;
}

/* The block size of chunk c in this pass: bssplit's shares are of
 * requests, so a chunk is cut into blocks of size s with a chance
 * proportional to share x s; a keyed hash, so that every piece of the
 * chunk agrees. */
static uint32_t chunk_bs(const struct sb_worker *w, uint64_t c)
{
	return sb_chunk_bs(w->job, w->split_weight, c, w->gen->key[1], w->gen->pass);
}

/* A random request at a multiple of fio's blockalign: the generator
 * walks the aligned offsets at which the smallest block fits. */
static int next_aligned(struct sb_worker *w, int ddir, uint32_t *len, uint64_t *off)
{
	for (;;) {
		const uint64_t o = sb_offgen_next(w->gen) * w->job->blockalign;
		const uint64_t left = loop_room(w);
		const uint64_t room = SB_MIN(SB_MIN(w->region_size - o, left), w->file_left);
		*len = fit(w, pick_bs(w, ddir), room, ddir);
		if (*len) {
			*off = w->region_offset + o;
			return 0;
		}
		if (room == left)
			return 1;
		if (room == w->file_left)
			return 2;
	}
}

/* Whether fio's norandommap draws the job's offsets (next_norandom):
 * one file, no verify, no segments, the uniform distribution. */
static int norandom_path(const struct sb_worker *w)
{
	return w->job->norandommap && !w->files && !w->verify && !w->segs &&
	       w->job->dist == SB_DIST_UNIFORM;
}

/* fio's norandommap: an aligned offset drawn afresh each time and a
 * block size that fits from there (fio's io_u_fits); the loop's bytes
 * bound how many requests are issued, not the last one's size, so a pass
 * moves up to a block more than its size, as fio's do_io (it loops while
 * fewer bytes were issued). */
static int next_norandom(struct sb_worker *w, int ddir, uint32_t *len, uint64_t *off)
{
	const uint64_t align = w->job->blockalign ? w->job->blockalign : w->min_bs;
	if (!w->loop_left || w->region_size < w->min_bs)
		return 1;
	const uint64_t slots = (w->region_size - w->min_bs) / align + 1;
	for (;;) {
		const uint64_t o = sb_rng_below(&w->rng, slots) * align;
		*len = fit(w, pick_bs(w, ddir), w->region_size - o, ddir);
		if (*len) {
			*off = w->region_offset + o;
			return 0;
		}
	}
}

/* fio's zonemode=strided: once a zone's bytes are moved, the next zone
 * begins zoneskip bytes after it (past the region's end, at its start). */
static void zone_step(struct sb_worker *w, uint32_t len)
{
	w->zone_left -= SB_MIN(w->zone_left, len);
	if (w->zone_left)
		return;
	w->zone_left = w->job->zone_size;
	w->cursor += w->job->zone_skip;
	if (w->cursor >= w->region_size)
		w->cursor = 0;
}

/* A sequential pass from the region's start: a zone begins there too. */
static void seq_rewind(struct sb_worker *w)
{
	w->cursor = 0;
	w->zone_left = w->job->zone_size;
}

/* fio's sequential rw=rw: reads and writes each keep their own position
 * from the region's start (fio's f->last_pos[ddir]), so reads read what
 * writes wrote before them; one file. */
static int seq_mixed(const struct sb_worker *w)
{
	return w->sequential && w->job->rw == SB_RW_RW && !w->files;
}

static void seq_dir(struct sb_worker *w, int ddir)
{
	if (!seq_mixed(w) || ddir > SB_DDIR_WRITE || ddir == w->cursor_dir)
		return;
	w->dir_cursor[w->cursor_dir] = w->cursor;
	w->cursor = w->dir_cursor[ddir];
	w->cursor_dir = ddir;
}

/* After a sequential request of len bytes: the next one follows it, or
 * with fio's rw=read:N, N bytes later (holes; past the region's end from
 * its start) or, N negative, back (before its start: from its end), as
 * fio's get_next_seq_offset. */
static void seq_step(struct sb_worker *w, uint32_t len)
{
	const int64_t add = w->job->seq_add;
	w->cursor += len;
	if (w->job->zone_size)
		zone_step(w, len);
	if (!add)
		return;
	if (add > 0) {
		w->cursor += (uint64_t)add;
		if (w->cursor >= w->region_size)
			w->cursor = 0;
		return;
	}
	const uint64_t back = (uint64_t)-add;
	w->cursor = w->cursor >= back	     ? w->cursor - back
		    : w->region_size >= back ? w->region_size - back
					     : 0;
}

/* A random request of a job with several block sizes: the next piece of
 * the pass (pieces.h), one draw each; with a split for each direction,
 * the piece's direction into *ddir. */
static int next_piece(struct sb_worker *w, int *ddir, uint32_t *len, uint64_t *off)
{
	struct sb_pieces *p = &w->pieces[w->files ? w->cur : 0];
	for (;;) {
		struct sb_piece pc;
		sb_pieces_next(p, &pc);
		const uint64_t left = loop_room(w);
		const uint64_t room = SB_MIN(SB_MIN(pc.room, left), w->file_left);
		if (pc.ddir >= 0)
			*ddir = pc.ddir;
		*len = fit(w, pc.bs, room, *ddir);
		if (*len) {
			*off = w->region_offset +
			       (w->segs ? sb_segments_map(w->segs, pc.off) : pc.off);
			return 0;
		}
		if (room == left)
			return 1;
		if (room == w->file_left)
			return 2;
		/* a chunk's tail shorter than any block */
	}
}

/* The next request of this loop in the current file, inside its region:
 * 0, 1 when nothing of the job's block sizes fits in what the loop has
 * left, 2 when it does not fit in what the file has left in this round. */
static int next_in_file(struct sb_worker *w, int *ddir, uint32_t *len, uint64_t *off)
{
	if (w->file_left < w->min_bs)
		return w->loop_left < w->min_bs ? 1 : 2;
	if (w->sequential) {
		const uint32_t want = pick_bs(w, *ddir);
		/* rw=rw: neither position reaches the region's end, the loop's
		 * bytes end it, its last request whole (fio's do_io) */
		const uint64_t left = seq_mixed(w) ? loop_room_any(w) : w->loop_left;
		for (int wrapped = 0; wrapped < 2; wrapped++) {
			const uint64_t lim = SB_MIN(left, w->file_left);
			const uint64_t room = SB_MIN(lim, w->region_size - w->cursor);
			*len = fit(w, want, room, *ddir);
			if (*len) {
				*off = w->region_offset + w->cursor;
				seq_step(w, *len);
				return 0;
			}
			if (room == lim)
				return room == w->loop_left ? 1 : 2;
			/* fio's rw=read:N: a request past the file's end ends
			 * the file (its fill_io_u), unless the job goes on past
			 * it (time_based, io_size) */
			if (w->job->seq_add > 0 && room && !w->job->time_based && !w->job->io_size)
				return w->files ? 2 : 1;
			seq_rewind(w); /* the region's end: wrap (io_size past size) */
		}
		return 1;
	}
	if (norandom_path(w))
		return next_norandom(w, *ddir, len, off);
	if (w->job->blockalign)
		return next_aligned(w, *ddir, len, off);
	if (w->pieces)
		return next_piece(w, ddir, len, off);
	for (;;) {
		const uint64_t u = sb_offgen_next(w->gen);
		const uint64_t c = u / w->slots, coff = c * w->chunk;
		const uint64_t clen = SB_MIN(w->chunk, w->region_size - coff);
		const uint32_t bs = chunk_bs(w, c);
		const uint64_t poff = u % w->slots * bs;
		if (poff >= clen)
			continue; /* a chunk of larger blocks has fewer pieces */
		const uint64_t left = loop_room(w);
		const uint64_t room = SB_MIN(SB_MIN(clen - poff, left), w->file_left);
		*len = fit(w, bs, room, *ddir);
		if (*len) {
			*off = w->region_offset +
			       (w->segs ? sb_segments_map(w->segs, coff + poff) : coff + poff);
			return 0;
		}
		if (room == left)
			return 1;
		if (room == w->file_left)
			return 2;
		/* the region's tail, shorter than any block */
	}
}

/* ---- fio's nrfiles: which file serves the next request ---- */

static void file_save(struct sb_worker *w)
{
	struct sb_wfile *f = &w->files[w->cur];
	f->cursor = w->cursor;
	f->left = w->file_left;
}

/* Make file i the current one: the engine's descriptor and write bounds,
 * the region, the position and the generator are its. */
static void file_load(struct sb_worker *w, unsigned i)
{
	struct sb_wfile *f = &w->files[i];
	w->cur = i;
	w->fd = f->fd;
	w->eng.fd = f->fd;
	sb_engine_set_write_bounds(&w->eng, 0, f->size);
	w->region_size = f->size;
	w->cursor = f->cursor;
	w->file_left = f->left;
	w->nchunks = f->nchunks;
	w->gen = &f->gen;
	/* a file-operation engine's name, its operation once a round */
	w->eng.path = f->path;
	w->eng.path_fresh = !f->touched;
	f->touched = 1;
}

/* fio's get_next_file: roundrobin takes the next file, random any, each
 * after file_service_nr requests; sequential keeps one until it is done. */
static void file_serve(struct sb_worker *w)
{
	const struct sb_job_opts *o = w->job;
	const unsigned nr = o->file_service_nr ? o->file_service_nr : 1;
	file_load(w, w->active[w->apos]);
	w->svc_left = o->file_service == SB_FSERVICE_SEQ ? UINT32_MAX : nr;
}

static void file_switch(struct sb_worker *w)
{
	file_save(w);
	if (w->job->file_service == SB_FSERVICE_RANDOM)
		w->apos = (unsigned)sb_rng_below(&w->rng, w->nactive);
	else
		w->apos = (w->apos + 1) % w->nactive;
	file_serve(w);
}

/* A round: every file from its start (a fresh pass of its generator for
 * random patterns comes by itself), served from the first. */
static void files_round(struct sb_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++) {
		w->files[i].cursor = 0;
		w->files[i].left = w->files[i].size;
		w->files[i].touched = 0;
		w->active[i] = i;
	}
	w->nactive = w->nfiles;
	w->apos = 0;
	file_serve(w);
}

/* The current file is done for this round: the next in order serves.
 * 1 when none is left and the loop ends (a new round only when the loop
 * goes on past the files: time_based, io_size). */
static int file_done(struct sb_worker *w)
{
	file_save(w);
	w->nactive--;
	memmove(&w->active[w->apos], &w->active[w->apos + 1],
		(w->nactive - w->apos) * sizeof(w->active[0]));
	if (!w->nactive) {
		if (!w->job->time_based && !w->job->io_size)
			return 1;
		files_round(w);
		return 0;
	}
	if (w->apos == w->nactive || w->job->file_service == SB_FSERVICE_RANDOM)
		w->apos = w->job->file_service == SB_FSERVICE_RANDOM
				  ? (unsigned)sb_rng_below(&w->rng, w->nactive)
				  : 0;
	file_serve(w);
	return 0;
}

/* The next request of this loop: 0, or 1 when the loop is done. */
static int next_io(struct sb_worker *w, int *ddir, uint32_t *len, uint64_t *off)
{
	if (!w->files)
		return next_in_file(w, ddir, len, off);
	for (unsigned tries = 0;; tries++) {
		if (!w->svc_left)
			file_switch(w);
		const int r = next_in_file(w, ddir, len, off);
		if (!r) {
			w->svc_left--;
			if (w->file_left != UINT64_MAX)
				w->file_left -= *len;
			return 0;
		}
		if (r == 1 || file_done(w) || tries > 2 * w->nfiles + 2)
			return 1;
	}
}

/* fio's invalidate: the region's cached pages go before each loop, so a
 * buffered read reads the device, not memory. A block device's buffer
 * cache is flushed whole (BLKFLSBUF, as fio; it needs CAP_SYS_ADMIN),
 * then the region dropped as for a file; a file's dirty pages (written
 * just before, by another program) are written first, or they would
 * stay. */
static int drop_cache_fd(struct sb_worker *w, int fd, uint64_t off, uint64_t len)
{
	if (fd < 0)
		return 0;
	if (w->eng.is_blockdev && ioctl(fd, BLKFLSBUF, 0) < 0 && errno != EACCES && errno != EPERM)
		return -errno;
	if (!w->eng.is_blockdev && fdatasync(fd) < 0 && errno != EINVAL && errno != EROFS)
		return -errno;
	const int e = posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
	return e ? -e : 0;
}

/* fn over what the job reads and writes: its region, or each of its files
 * whole. The first error. */
static int each_region(struct sb_worker *w,
		       int (*fn)(struct sb_worker *w, int fd, uint64_t off, uint64_t len))
{
	if (!w->files)
		return fn(w, w->fd, w->region_offset, w->span);
	for (unsigned i = 0; i < w->nfiles; i++) {
		int e = fn(w, w->files[i].fd, 0, w->files[i].size);
		if (e < 0)
			return e;
	}
	return 0;
}

/* Buffered reads: how much of what they are about to read is in the page
 * cache (after invalidate's drop; all of it without one), so that a
 * figure of memory is not taken for the device's. */
static int count_cached(struct sb_worker *w, int fd, uint64_t off, uint64_t len)
{
	uint64_t res, checked;
	if (fd < 0 || !len)
		return 0;
	int e = sb_cache_resident(fd, off, len, &res, &checked);
	if (e == -ENODEV || e == -EACCES || e == -EINVAL)
		return 0; /* not mappable (a character device, a FUSE file): not known */
	if (e < 0)
		return e;
	w->res.cache_resident += res;
	w->res.cache_checked += checked;
	return 0;
}

static int cached_now(struct sb_worker *w)
{
	if (w->job->direct || !sb_rw_reads(w->job->rw) || !w->measure_cache)
		return 0;
	return each_region(w, count_cached);
}

int sb_worker_pieces_setup(struct sb_worker *w)
{
	if (w->sequential || !sb_pieces_apply(w->job))
		return 0;
	const unsigned n = w->files ? w->nfiles : 1;
	w->pieces = calloc(n, sizeof(*w->pieces));
	if (!w->pieces)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const uint64_t size = w->files ? w->files[i].size : w->region_size;
		int e = sb_pieces_init(&w->pieces[i], w->job, size, w->chunk, n);
		if (e < 0)
			return e;
	}
	w->piece_dir = w->job->nwbssplit && !norandom_path(w);
	return 0;
}

void sb_worker_pieces_free(struct sb_worker *w)
{
	for (unsigned i = 0; w->pieces && i < (w->files ? w->nfiles : 1); i++)
		sb_pieces_free(&w->pieces[i]);
	free(w->pieces);
	w->pieces = NULL;
}

/* Generator i (a file's, or the one): its pieces too, where they apply. */
static int offgen_init(struct sb_worker *w, struct sb_offgen *g, uint64_t nchunks, uint64_t seed,
		       unsigned i)
{
	const struct sb_job_opts *o = w->job;
	if (w->pieces) {
		int e = sb_pieces_start(&w->pieces[i], seed);
		if (e < 0)
			return e;
	}
	if (o->dist == SB_DIST_ZONED)
		return sb_offgen_init_zoned(g, nchunks * w->slots, &o->zones, w->chunk / w->slots,
					    seed);
	return sb_offgen_init(g, nchunks * w->slots, o->dist, o->dist_param, seed);
}

int sb_worker_offgen_init(struct sb_worker *w, uint64_t seed)
{
	if (!w->files)
		return offgen_init(w, w->gen, w->nchunks, seed, 0);
	for (unsigned i = 0; i < w->nfiles; i++) {
		int e = offgen_init(w, &w->files[i].gen, w->files[i].nchunks,
				    seed + 0x9e3779b97f4a7c15ull * i, i);
		if (e < 0)
			return e;
	}
	return 0;
}

/* A loop starts: the whole of its bytes ahead, from the region's start
 * (sequential) or a fresh pass (random), the cache dropped. */
static int start_loop(struct sb_worker *w)
{
	w->loop_left = w->loop_bytes;
	w->eng.path_fresh = 1; /* one file: its operation once a loop */
	seq_rewind(w);
	w->dir_cursor[0] = w->dir_cursor[1] = 0;
	w->think_n = 0;
	if (w->files)
		files_round(w);
	if (!w->sequential && w->loop) {
		int e = sb_worker_offgen_init(w, w->gen_seed + w->loop);
		if (e < 0)
			return e;
	}
	int e = w->job->invalidate ? each_region(w, drop_cache_fd) : 0;
	return e < 0 ? e : cached_now(w);
}

/* fio's fadvise_hint as its files open: the advice over the region */
static int advise_fd(struct sb_worker *w, int fd, uint64_t off, uint64_t len)
{
	static const int advice[] = { [SB_FADV_RANDOM] = POSIX_FADV_RANDOM,
				      [SB_FADV_SEQUENTIAL] = POSIX_FADV_SEQUENTIAL,
				      [SB_FADV_NOREUSE] = POSIX_FADV_NOREUSE };
	enum sb_fadvise a = w->job->fadvise;
	if (fd < 0 || a == SB_FADV_NONE)
		return 0;
	if (a == SB_FADV_TYPE)
		a = sb_rw_is_random(w->job->rw) ? SB_FADV_RANDOM : SB_FADV_SEQUENTIAL;
	/* fio warns once and goes on when the kernel refuses it: so here */
	(void)posix_fadvise(fd, (off_t)off, (off_t)len, advice[a]);
	return 0;
}

int sb_worker_first_loop(struct sb_worker *w)
{
	w->loop = 0;
	each_region(w, advise_fd);
	return start_loop(w);
}

/* Sleep for the rate cap, reaping meanwhile when requests are in flight.
 * A low cap (--rate=1 with 4 KiB requests: over an hour per request) sleeps
 * in slices: a stop request or the end of --runtime ends it, and then 1
 * says not to issue the request. */
#define THROTTLE_SLICE_NS 50000000ull
static int commit(struct sb_worker *w);

/* Sleep delay in slices: 1 when a stop request or the end of --runtime
 * cut it short, else 0. */
static int nap(struct sb_worker *w, uint64_t delay)
{
	for (const uint64_t due = sb_now_ns() + delay;;) {
		const uint64_t now = sb_now_ns();
		if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		    (w->end_ns && now >= w->end_ns))
			return 1;
		if (now >= due)
			return 0;
		uint64_t d = SB_MIN(due - now, THROTTLE_SLICE_NS);
		if (w->end_ns)
			d = SB_MIN(d, w->end_ns - now);
		struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
}

static int throttle(struct sb_worker *w, int ddir, uint32_t len)
{
	const uint64_t t = sb_now_ns();
	uint64_t delay = sb_rate_delay(&w->rate, t, len);
	if (ddir < 2) {
		/* once: it accounts the bytes (SB_MAX evaluates twice) */
		const uint64_t mine = sb_rate_delay(&w->rate_dir[ddir], t, len);
		/* a request is one unit of an iops cap */
		const uint64_t req = sb_rate_delay(&w->rate_iops[ddir], t, 1);
		delay = SB_MAX(delay, SB_MAX(mine, req));
	}
	if (!delay)
		return 0;
	/* what was queued goes out first: waiting for requests never
	 * submitted would never end */
	if (w->queued) {
		int r = commit(w);
		if (r < 0)
			return r;
	}
	if (w->inflight) {
		int r = drain(w);
		if (r < 0)
			return r;
		uint64_t spent = sb_now_ns() - w->last_commit;
		delay = spent < delay ? delay - spent : 0;
	}
	return nap(w, delay);
}

/* fio's flow: while this worker's share of the requests its flow issued
 * is above its weight's share of the flow's weights, it issues nothing:
 * what is queued goes out, what is in flight is reaped, and it stalls
 * flow_sleep (or yields the processor). Then the request is counted. 0,
 * 1 when a stop or the end of --runtime cut the wait short, or -errno. */
static int flow_gate(struct sb_worker *w)
{
	struct sb_flow *f = w->flow;
	for (;;) {
		const double issued = (double)atomic_load_explicit(&f->issued,
								   memory_order_relaxed);
		const double weight = (double)atomic_load_explicit(&f->weight,
								   memory_order_relaxed);
		if ((double)w->flow_issued / issued <= (double)w->job->flow / weight) {
			atomic_fetch_add_explicit(&f->issued, 1, memory_order_relaxed);
			w->flow_issued++;
			return 0;
		}
		int r;
		if (w->queued && (r = commit(w)) < 0)
			return r;
		if (w->inflight && (r = drain(w)) < 0)
			return r;
		if (w->job->flow_sleep_ns) {
			if ((r = nap(w, w->job->flow_sleep_ns)) != 0)
				return r;
		} else {
			const uint64_t now = sb_now_ns();
			if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
			    (w->end_ns && now >= w->end_ns))
				return 1;
			sched_yield();
		}
	}
}

/* fio's thinktime: after every thinktime_blocks requests, what is queued
 * goes out and every request in flight is reaped, then the job stalls
 * (after the last one too, as fio). 0, 1 when a stop or the end of
 * --runtime cut it short, or -errno. */
static int think(struct sb_worker *w)
{
	unsigned blocks = w->job->thinktime_blocks ? w->job->thinktime_blocks : 1;
	if (w->eng.think_ns) /* an engine that paces itself (cpuio, exec): each request */
		blocks = 1;
	int r;
	if (++w->think_n < blocks)
		return 0;
	w->think_n = 0;
	if (w->queued && (r = commit(w)) < 0)
		return r;
	if (w->inflight && (r = drain(w)) < 0)
		return r;
	return nap(w, w->eng.think_ns ? w->eng.think_ns : w->job->thinktime_ns);
}

/* fio's iodepth_level of n requests in flight: 1, 2-3, 4-7, ..., >=64 */
static unsigned depth_level(unsigned n)
{
	unsigned l = 0;
	while (n > 1 && l < SB_DEPTH_LEVELS - 1)
		n >>= 1, l++;
	return l;
}

/* The seed of the k-th unique write buffer of fio thread t (0-based):
 * with dedupe_global one base for every job of the file (their own
 * seeds may differ), as fio's repeatable seeds are */
static uint64_t dedupe_seed(const struct sb_job_opts *o, uint64_t t, uint64_t k)
{
	const uint64_t base = o->dedupe_global ? 0x6465647570650000ull : o->seed;
	return base ^ (t + 1) * 0xd1b54a32d192ed03ull ^ k * 0x9e3779b97f4a7c15ull;
}

/* fio's get_buf_state and fill_io_buffer with dedupe_percentage: the
 * buffer made whole from a unique seed, or from one used before (the
 * last unique one; with working_set one of the first dd_ws, spread over
 * every thread of the file with dedupe_global, as fio's
 * init_dedupe_working_set_seeds rotates them). */
static void dedupe_fill(struct sb_worker *w, void *buf, uint32_t len)
{
	const struct sb_job_opts *o = w->job;
	uint64_t t = w->dd_thread, k = 0;
	struct sb_rng r;
	if (o->dedupe_pct == 100) {
		k = 0;
	} else if (sb_rng_below(&w->dd_rng, 100) >= o->dedupe_pct) {
		k = w->dd_prev = w->dd_unique++;
	} else if (!o->dedupe_ws) {
		k = w->dd_prev;
	} else {
		const uint64_t i = sb_rng_below(&w->dd_ws_rng, w->dd_ws);
		const uint64_t nt = SB_MAX(o->dedupe_threads, 1u);
		const uint64_t per = o->dedupe_global ? SB_MAX(w->dd_ws / nt, 1) : w->dd_ws;
		t = o->dedupe_global ? (t + i / per) % nt : t;
		k = i % per;
	}
	sb_rng_seed(&r, dedupe_seed(o, t, k));
	sb_buf_fill(buf, len, &r, o->buffer_compress);
}

/* fio's cmdprio: the request's own priority, 0 for the thread's, drawn
 * as fio_cmdprio_set_ioprio draws it (cmdprio_bssplit: among the entries
 * of the request's size, by their shares) */
static uint16_t cmdprio_pick(struct sb_worker *w, int d, uint32_t len)
{
	const struct sb_job_opts *o = w->job;
	const struct sb_cmdprio_split *e = o->cmdprio_split[d];
	const unsigned n = o->ncmdprio_split[d];
	unsigned first = n, tot = 0;
	if (o->cmdprio_pct[d])
		return sb_rng_below(&w->prio_rng, 100) < o->cmdprio_pct[d]
			       ? (uint16_t)sb_job_cmdprio(o, d)
			       : 0;
	for (unsigned i = 0; i < n; i++)
		if (e[i].bs == len) {
			first = SB_MIN(first, i);
			tot += e[i].pct;
		}
	const unsigned r = tot ? (unsigned)sb_rng_below(&w->prio_rng, 100) : 100;
	for (unsigned i = first, sum = 0; r < tot && i < n; i++)
		if ((sum += e[i].pct) > r)
			return (uint16_t)sb_job_split_prio(o, d, &e[i]);
	return 0;
}

static int queue_one(struct sb_worker *w, int ddir, uint64_t off, uint32_t len)
{
	struct sb_io *io = w->free_slots[--w->nfree];
	io->ddir = (uint8_t)ddir;
	io->offset = off;
	io->len = len;
	io->ioprio = 0;
	if (SB_UNLIKELY(ddir < 2 && (w->job->cmdprio_pct[ddir] || w->job->ncmdprio_split[ddir])))
		io->ioprio = cmdprio_pick(w, ddir, len);
	/* lat starts before the data is made, as fio's start_time */
	io->start_ns = sb_now_ns();
	io->issue_ns = io->start_ns;
	if (ddir == SB_DDIR_WRITE) {
		if (w->verify) {
			sb_verify_fill(w->verify, io->buf, len, off, 0);
			uint64_t *map = w->written ? w->written[w->files ? w->cur : 0] : NULL;
			if (map) {
				const uint32_t vb = w->verify->block_size;
				sb_verify_mark_written(map, (off - w->written_base) / vb, 1);
			}
		} else if (SB_UNLIKELY(w->job->buffer_pattern_len)) {
			/* fio's buffer_pattern, unscrambled; a read may have
			 * landed in this buffer since */
			if (sb_rw_reads(w->job->rw))
				sb_buf_fill_pattern(io->buf, len, w->job->buffer_pattern,
						    w->job->buffer_pattern_len);
		} else if (SB_UNLIKELY(w->job->dedupe_pct))
			dedupe_fill(w, io->buf, len);
		else
			sb_buf_scramble(io->buf, len, sb_rng_next(&w->rng));
		io->issue_ns = sb_now_ns(); /* a read has nothing made between */
	}
	if (SB_UNLIKELY(w->job->replay != NULL) && !w->rbase_ns)
		w->rbase_ns = io->start_ns; /* the log's first request: its pace from here */
	if (SB_UNLIKELY(w->iolog != NULL))  /* as fio's td_io_queue logs it */
		sb_iolog_w_io(w->iolog, w->files ? w->cur : 0, ddir, off, len, io->start_ns);
	w->inflight++;
	w->res.depth_map[depth_level(w->inflight)]++;
	/* clat of a request done inside queue (psync, an inline trim) is
	 * that call; commit restamps the ones it submits */
	int r = sb_engine_queue(&w->eng, io);
	if (r == SB_Q_DONE) {
		uint64_t now = sb_now_ns();
		/* fio's engines without a commit: one submitted, one reaped */
		w->res.submit_map[1]++;
		w->res.complete_map[1]++;
		complete(w, io, now);
		tick(w, now);
		return 0;
	}
	if (r < 0) {
		w->inflight--;
		w->free_slots[w->nfree++] = io;
		return r;
	}
	w->batch[w->queued++] = io;
	return 0;
}

/* Submit what was queued; the issue time of each request is when the
 * submission returned. */
static int commit(struct sb_worker *w)
{
	int r = w->eng.ops->commit(&w->eng);
	if (r < 0)
		return r;
	/* fio's io_u_mark_submit: the requests of one submission */
	w->res.submit_map[map_level(w->queued)]++;
	uint64_t now = sb_now_ns();
	for (unsigned i = 0; i < w->queued; i++)
		w->batch[i]->issue_ns = now;
	/* fio logs slat when the request is submitted */
	if (SB_UNLIKELY(w->log != NULL) && w->measuring)
		for (unsigned i = 0; i < w->queued; i++) {
			const struct sb_io *io = w->batch[i];
			sb_fiolog_slat(w->log, io->ddir, io->len, io->offset, now - io->start_ns,
				       now, io->ioprio ? io->ioprio : w->ioprio);
		}
	w->queued = 0;
	w->last_commit = now;
	return 0;
}

static int do_sync_as(struct sb_worker *w, int ddir)
{
	int r = drain(w);
	if (r < 0)
		return r;
	r = queue_one(w, ddir, 0, 0);
	if (r < 0)
		return r;
	if (w->queued && (r = commit(w)) < 0)
		return r;
	return drain(w);
}

static int do_sync(struct sb_worker *w)
{
	return do_sync_as(w, SB_DDIR_SYNC);
}

/* fio's read_iolog: version 3's requests at the logged pace from the
 * first (scaled by replay_time_scale; replay_no_stall: none), version 2's
 * waits until their time since the job began. What is queued goes out
 * first; what is in flight stays, as fio's iolog_delay. 0, 1 when a stop
 * or the end of --runtime cut the wait short, or -errno. */
static int replay_pace(struct sb_worker *w, const struct sb_iolog_entry *e)
{
	const struct sb_iolog *l = w->job->replay;
	double wait_ns;
	uint64_t from = w->start_ns;
	const uint64_t now = sb_now_ns();
	if (l->no_stall || (!e->wait && l->version != 3))
		return 0;
	if (e->wait) {
		wait_ns = (double)e->t_us * 1000.0;
	} else {
		if (!w->rbase_set) { /* the first request: at once (queue_one
				      * stamps rbase_ns), the others after it */
			w->rbase_us = e->t_us;
			w->rbase_set = 1;
			return 0;
		}
		const uint64_t us = e->t_us > w->rbase_us ? e->t_us - w->rbase_us : 0;
		wait_ns = (double)us * 1000.0 * 100.0 / (double)l->time_scale;
		from = w->rbase_ns;
	}
	const uint64_t due = from + (wait_ns > 1e18 ? (uint64_t)1e18 : (uint64_t)wait_ns);
	int r;
	if (now >= due)
		return 0;
	if (w->queued && (r = commit(w)) < 0)
		return r;
	return nap(w, due - now);
}

/* The next request of the job's log into *ddir, *off, *len: 0; 2 when
 * there was none to issue (a sync done, a wait, the log's end: issue_done
 * set); 1 when a stop or the end of --runtime cut a wait short; -errno. */
static int replay_next(struct sb_worker *w, int *ddir, uint64_t *off, uint32_t *len)
{
	const struct sb_iolog *l = w->job->replay;
	if (w->rpos >= l->n) {
		w->issue_done = 1;
		return 2;
	}
	const struct sb_iolog_entry *e = &l->e[w->rpos++];
	int r = replay_pace(w, e);
	if (r)
		return r;
	if (e->wait)
		return 2;
	if (e->ddir >= SB_DDIR_SYNC) {
		r = do_sync_as(w, e->ddir);
		return r < 0 ? r : 2;
	}
	*ddir = e->ddir;
	*off = w->region_offset + e->offset;
	*len = e->len;
	return 0;
}

static int stop_now(struct sb_worker *w, uint64_t now)
{
	if (atomic_load_explicit(w->stop, memory_order_relaxed))
		return 1;
	if (w->end_ns && now >= w->end_ns)
		return 1;
	return w->issue_done && !w->inflight;
}

/* The loop's bytes are issued: the next loop begins once this one's
 * requests are back (its cache drop must not race them), or the job is
 * done issuing. 0, or -errno. */
static int end_loop(struct sb_worker *w)
{
	int r;
	if (++w->loop >= w->job->loops) {
		w->issue_done = 1;
		return 0;
	}
	if ((w->queued && (r = commit(w)) < 0) || (r = drain(w)) < 0)
		return r;
	return start_loop(w);
}

/* fio's check_min_rate: once the job has measured 2 s, every ratecycle
 * the rate of each direction with a floor, over the cycle; a direction
 * that moved nothing yet is not judged (fio's, too). Below it, the job
 * fails with EIO and issues no more (1); else 0. */
static int below_min_rate(struct sb_worker *w)
{
	const struct sb_job_opts *o = w->job;
	const uint64_t now = sb_now_ns();
	const uint64_t cycle = (o->ratecycle_ms ? o->ratecycle_ms : 1000) * 1000000ull;
	if (!w->measuring || now - w->measure_start < 2000000000ull)
		return 0;
	for (int d = 0; d < 2; d++) {
		const uint64_t bytes = w->res.dir[d].bytes, ios = w->res.dir[d].ios;
		if (!o->ratemin_bps[d] && !o->ratemin_iops[d])
			continue;
		if (w->rmin_bytes[d] || w->rmin_ios[d]) {
			const uint64_t spent_ms = (now - w->rmin_ns[d]) / 1000000u;
			if (spent_ms < cycle / 1000000u || !spent_ms)
				continue;
			const uint64_t got = o->ratemin_bps[d]
						     ? (bytes - w->rmin_bytes[d]) * 1000 / spent_ms
						     : (ios - w->rmin_ios[d]) * 1000 / spent_ms;
			const uint64_t want = o->ratemin_bps[d] ? o->ratemin_bps[d]
								: o->ratemin_iops[d];
			if (got < want) {
				struct sb_io_error *fe = &w->res.first_error;
				w->res.errors++;
				if (!fe->err) {
					memset(fe, 0, sizeof(*fe));
					fe->ddir = d;
					fe->err = EIO;
					snprintf(fe->why, sizeof(fe->why),
						 o->ratemin_bps[d]
							 ? "rate_min=%lluB/s not met, got %lluB/s"
							 : "rate_iops_min=%llu not met, got %llu IOPS",
						 (unsigned long long)want, (unsigned long long)got);
				}
				w->issue_done = 1;
				return 1;
			}
		}
		w->rmin_bytes[d] = bytes;
		w->rmin_ios[d] = ios;
		w->rmin_ns[d] = now;
	}
	return 0;
}

/* fio's lat_target_check after each round of completions, and what the
 * search asked for: the requests in flight waited for when the depth went
 * down, the measurement begun anew for the final window, the job ended
 * after it, or ended with ETIMEDOUT when depth 1 is over the target with
 * percentile 100 (fio's "max latency exceeded"). 0 or -errno. */
static int lat_target_step(struct sb_worker *w)
{
	uint64_t now = sb_now_ns();
	const int a = (int)sb_lat_target_check(&w->lt, now);
	int act = SB_MAX(w->lt_act, a), r;
	w->lt_act = SB_LAT_NONE;
	switch (act) {
	case SB_LAT_FATAL:
		snprintf(w->res.first_error.why, sizeof(w->res.first_error.why),
			 "latency of a request exceeds latency_target (%llu nsec) at depth 1",
			 (unsigned long long)w->lt.target_ns);
		return -ETIMEDOUT;
	case SB_LAT_DONE: w->issue_done = 1; return 0;
	case SB_LAT_QUIESCE:
	case SB_LAT_FINAL:
		if ((r = drain(w)) < 0)
			return r;
		if (act == SB_LAT_FINAL)
			reset_stats(w, sb_now_ns());
		return 0;
	default: return 0;
	}
}

static int loop(struct sb_worker *w)
{
	const struct sb_job_opts *o = w->job;
	uint64_t now = sb_now_ns();
	int r = 0, halt = 0;

	while (!halt && !stop_now(w, now)) {
		/* fill the queue */
		while (w->nfree && !w->issue_done && !w->eng.full &&
		       (SB_LIKELY(!w->lt_on) || w->inflight < w->lt.qd)) {
			if (w->flow && (r = flow_gate(w)) != 0) {
				if (r < 0)
					return r;
				halt = 1; /* stopped, or the runtime is over */
				break;
			}
			int ddir;
			uint32_t len;
			uint64_t off;
			const uint32_t paired = w->tw_len;
			if (SB_UNLIKELY(o->replay != NULL)) {
				if ((r = replay_next(w, &ddir, &off, &len)) != 0) {
					if (r < 0)
						return r;
					if (r == 1) {
						halt = 1; /* stopped, or the runtime is over */
						break;
					}
					continue; /* a sync, a wait, the log's end */
				}
			} else if (paired) {
				/* fio's trimwrite: the trim's block written */
				ddir = SB_DDIR_WRITE;
				len = paired;
				off = w->tw_off;
				w->tw_len = 0;
			} else if ((ddir = pick_ddir(w)), seq_dir(w, ddir),
				   next_io(w, &ddir, &len, &off)) {
				if ((r = end_loop(w)) < 0)
					return r;
				continue;
			} else if (SB_UNLIKELY(w->zbd != NULL)) {
				/* fio's zonemode=zbd: at the zone's write pointer */
				if (sb_zbd_adjust(w->zbd, &ddir, &off, &len) != SB_ZBD_ACCEPT) {
					w->issue_done = 1; /* nothing more the zones allow */
					break;
				}
				if (w->sequential && !w->files) /* on from there, as fio */
					w->cursor = off + len - w->region_offset;
			}
			if ((w->rate.bps ||
			     (ddir < 2 && (w->rate_dir[ddir].bps || w->rate_iops[ddir].bps))) &&
			    (r = throttle(w, ddir, len)) != 0) {
				if (r < 0)
					return r;
				halt = 1; /* stopped, or the runtime is over */
				break;
			}
			r = queue_one(w, ddir, off, len);
			if (r < 0)
				return r;
			if (ddir == SB_DDIR_TRIM &&
			    (o->rw == SB_RW_TRIMWRITE || o->rw == SB_RW_RANDTRIMWRITE)) {
				w->tw_off = off;
				w->tw_len = len;
			}
			if (w->loop_left != UINT64_MAX && !paired)
				w->loop_left -= SB_MIN(len, w->loop_left);
			if (++w->nios == w->job->number_ios)
				w->issue_done = 1;
			if (w->queued >= w->batch_submit && (r = commit(w)) < 0)
				return r;
			if (ddir == SB_DDIR_WRITE && o->fsync_every &&
			    ++w->writes_since_sync >= o->fsync_every) {
				w->writes_since_sync = 0;
				if ((r = do_sync(w)) < 0)
					return r;
			}
			if (ddir == SB_DDIR_WRITE && o->fdatasync_every &&
			    ++w->writes_since_datasync >= o->fdatasync_every) {
				w->writes_since_datasync = 0;
				if ((r = do_sync_as(w, SB_DDIR_DATASYNC)) < 0)
					return r;
			}
			if ((o->thinktime_ns || w->eng.think_ns) && (r = think(w)) != 0) {
				if (r < 0)
					return r;
				halt = 1; /* stopped, or the runtime is over */
				break;
			}
			if (w->engine_sync)
				break; /* re-check the clock after each synchronous request */
		}
		if (w->queued && (r = commit(w)) < 0)
			return r;
		if (w->inflight) {
			/* reap at least one (or as many as wait_for says),
			 * and whatever else is ready */
			const unsigned want = wait_for(w);
			r = reap(w, want);
			if (r < 0)
				return r;
			w->res.waits++;
			w->res.waited += (unsigned)r;
			w->res.batched += want > 1;
		}
		if (w->err)
			return w->err;
		if (SB_UNLIKELY(w->lt_on) && (r = lat_target_step(w)) != 0)
			return r;
		if (SB_UNLIKELY(w->rmin) && !w->issue_done)
			below_min_rate(w);
		now = w->engine_sync ? sb_now_ns() : w->last_commit;
		if (w->issue_done && !w->inflight)
			break;
	}
	r = drain(w);
	if (r < 0)
		return r;
	if (!o->end_fsync || !sb_rw_writes(o->rw) || !w->measuring || w->res.first_error.why[0])
		return 0;
	/* fio syncs each of a job's files at the end */
	for (unsigned i = 0; w->files && i < w->nfiles && !r; i++) {
		file_load(w, i);
		r = do_sync(w);
	}
	return w->files ? r : do_sync(w);
}

/* fio's startdelay: the job waits before it starts, unmeasured; a stop
 * request ends the wait. */
static void start_delay(struct sb_worker *w)
{
	const uint64_t due = w->start_ns + w->job->startdelay_ns;
	for (uint64_t now = sb_now_ns(); now < due; now = sb_now_ns()) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed))
			break;
		const uint64_t d = SB_MIN(due - now, THROTTLE_SLICE_NS);
		struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
	w->start_ns = sb_now_ns();
}

/* fio's cpus_allowed: the thread on the job's CPUs, or with
 * cpus_allowed_policy=split on one of them, the (fio thread number - 1)
 * modulo their count-th, as fio's fio_cpus_split; numa_cpu_nodes: on
 * the CPUs of those nodes instead, and numa_mem_policy's policy, as
 * fio's thread_main sets them after it. 0 or -errno. */
static int pin(const struct sb_worker *w)
{
	const struct sb_job_opts *o = w->job;
	uint64_t numa[SB_CPUS_MAX / 64];
	const uint64_t *cpus = o->cpus;
	unsigned n = 0, k = 0;
	if (o->numa_cpu_nodes) {
		const int e = sb_numa_cpus("/sys", o->numa_cpu_nodes, numa);
		if (e < 0)
			return e;
		cpus = numa;
	}
	const int split = o->cpus_split && !o->numa_cpu_nodes;
	for (int i = 0; i < SB_CPUS_MAX; i++)
		n += (unsigned)(cpus[i / 64] >> (i % 64) & 1);
	if (!n)
		return sb_numa_set_policy(o->numa_mem_mode, o->numa_mem_nodes);
	const unsigned pick = ((o->fiolog.jobnum ? o->fiolog.jobnum : 1) - 1 + w->id) % n;
	cpu_set_t *set = CPU_ALLOC(SB_CPUS_MAX);
	const size_t sz = CPU_ALLOC_SIZE(SB_CPUS_MAX);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(sz, set);
	for (int i = 0; i < SB_CPUS_MAX; i++)
		if (cpus[i / 64] >> (i % 64) & 1 && (!split || k++ == pick))
			CPU_SET_S((size_t)i, sz, set);
	const int r = sched_setaffinity(0, sz, set) < 0 ? -errno : 0;
	CPU_FREE(set);
	return r < 0 ? r : sb_numa_set_policy(o->numa_mem_mode, o->numa_mem_nodes);
}

/* fio's prio and prioclass: the thread's I/O priority (ioprio_set of the
 * calling thread), before its first request. 0 or -errno. */
static int set_ioprio(struct sb_worker *w)
{
	w->ioprio = sb_job_ioprio(w->job);
	if (!w->job->prio_given)
		return 0;
	return syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, (int)w->ioprio) < 0 ? -errno
											  : 0;
}

void *sb_worker_main(void *arg)
{
	struct sb_worker *w = arg;
	int pinned = pin(w);
	if (pinned == 0)
		pinned = set_ioprio(w);
	if (pinned < 0)
		w->err = pinned;
	if (w->job->startdelay_ns)
		start_delay(w);
	uint64_t t0 = w->start_ns;
	if (w->flow && w->job->startdelay_ns) /* joins once it starts (else at set-up) */
		sb_flow_join(w->flow, w->job->flow);

	sb_rate_init(&w->rate, w->job->rate_bps, t0);
	for (int d = 0; d < 2; d++) {
		sb_rate_init(&w->rate_dir[d], w->job->rate_dir_bps[d], t0);
		const uint64_t *iops = w->job->rate_iops_dir;
		sb_rate_init(&w->rate_iops[d], iops[0] || iops[1] ? iops[d] : w->job->rate_iops,
			     t0);
	}
	if (w->job->rate_poisson) { /* each schedule its own draws */
		sb_rate_poisson(&w->rate, w->gen_seed ^ 0x706f6973ull);
		for (int d = 0; d < 2; d++) {
			sb_rate_poisson(&w->rate_dir[d], w->gen_seed ^ (0x6469720ull + d));
			sb_rate_poisson(&w->rate_iops[d], w->gen_seed ^ (0x696f7073ull + d));
		}
	}
	w->lt_on = w->job->latency_target_ns != 0;
	if (w->lt_on)
		sb_lat_target_init(&w->lt, w->job->latency_target_ns,
				   w->job->latency_window_us * 1000,
				   w->job->latency_percentile > 0 ? w->job->latency_percentile
								  : 100,
				   w->job->iodepth, w->job->latency_run, t0);
	w->rmin = !!(w->job->ratemin_bps[0] | w->job->ratemin_bps[1] | w->job->ratemin_iops[0] |
		     w->job->ratemin_iops[1]);
	w->ramp_end = t0 + w->job->ramp_ns;
	w->end_ns = w->job->runtime_ns ? w->ramp_end + w->job->runtime_ns : 0;
	if (!w->job->ramp_ns)
		reset_stats(w, t0);
	int r = pinned < 0 ? pinned : loop(w);
	if (w->lt_on)
		w->res.latency_depth = w->lt.qd;
	/* after an error too: the engine's requests are ours to reap, on this
	 * thread (an io_uring ring may accept waits from its issuer only) */
	if (w->inflight)
		drain(w);
	if (w->flow) { /* leaves it: the others go on without this one's share */
		atomic_fetch_sub_explicit(&w->flow->issued, w->flow_issued, memory_order_relaxed);
		atomic_fetch_sub_explicit(&w->flow->weight, w->job->flow, memory_order_relaxed);
	}
	uint64_t end = sb_now_ns();
	if (!w->measuring)
		reset_stats(w, end); /* stopped during ramp: nothing measured */
	if (r < 0 && !w->err)
		w->err = r;
	if (w->log && (r = sb_fiolog_finish(w->log, end)) < 0 && !w->err)
		w->err = r;
	if (w->iolog) {
		for (unsigned i = 0; i < (w->files ? w->nfiles : 1); i++)
			sb_iolog_w_file(w->iolog, i, "close", end);
		if ((r = sb_iolog_w_close(w->iolog)) < 0 && !w->err)
			w->err = r;
		w->iolog = NULL;
	}
	if (w->err) /* one failing worker ends the run */
		atomic_store_explicit(w->stop, 1, memory_order_relaxed);
	w->res.runtime_ns = end - w->measure_start;
	for (int d = 0; d < SB_DDIR_N; d++) /* fio's: each direction that moved */
		w->res.dir_runtime_ns[d] = w->res.dir[d].bytes ? w->res.runtime_ns : 0;
	/* the last, partial interval */
	if (end > w->iv_end - w->interval) {
		w->iv_end = end;
		interval_close(w, end);
	}
	uint64_t usr, sys;
	if (sb_cpu_thread(&usr, &sys) == 0 && w->res.runtime_ns)
		w->res.busiest_worker = (double)(usr - w->cpu_usr0 + sys - w->cpu_sys0) /
					(double)w->res.runtime_ns;
	publish(w, end);
	atomic_store_explicit(&w->done, 1, memory_order_release);
	return NULL;
}
