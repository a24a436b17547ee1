/* Internal to lib/run: the state of one worker thread. */
#ifndef SB_WORKER_H
#define SB_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "lib/sb.h"
#include "lib/engine/engine.h"
#include "lib/job/buffer.h"
#include "lib/run/flow.h"
#include "lib/job/job.h"
#include "lib/job/iolog.h"
#include "lib/job/offsets.h"
#include "lib/job/rate.h"
#include "lib/base/rng.h"
#include "lib/run/fiolog.h"
#include "lib/run/iolog_write.h"
#include "lib/run/pieces.h"
#include "lib/run/zbd.h"
#include "lib/results/results.h"
#include "lib/stats/hist.h"
#include "lib/stats/lat_target.h"
#include "lib/target/target.h"
#include "lib/verify/block.h"

/* One of a job's files (fio's nrfiles): where it stands while another
 * serves requests. */
struct sb_wfile {
	int fd;
	const char *path; /* its name (a file-operation engine's) */
	int touched;	  /* its operation done in this round (SB_ENGINE_FILEOP) */
	uint64_t size;	  /* its region: all of it */
	uint64_t cursor;  /* sequential: next offset */
	uint64_t left;	  /* bytes it has left in this round */
	uint64_t nchunks; /* random: its generator's chunks */
	struct sb_offgen gen;
};

struct sb_worker {
	unsigned id;
	const struct sb_job_opts *job;
	atomic_int *stop;
	pthread_t thread;
	int started;

	int fd;
	struct sb_engine eng;
	int donor_fd1; /* SB_ENGINE_DONOR: the donor's descriptor + 1, 0 none */
	int engine_sync;
	struct sb_io *ios;
	struct sb_io **free_slots;
	struct sb_io **batch;		    /* queued since the last commit */
	const struct sb_verify_fmt *verify; /* write verify blocks, not random data */
	/* the maps of where its writes began (NULL: none): of its file, from
	 * written_base, or with nrfiles of each of its files (written[cur]) */
	uint64_t *const *written;
	uint64_t written_base;
	struct sb_flow *flow; /* fio's flow, NULL: none */
	struct sb_zbd_job *zbd; /* fio's zonemode=zbd: its zones (zbd.h), NULL: none */
	uint64_t flow_issued; /* this worker's requests counted in it */
	unsigned nfree, inflight, queued;
	void *bufmem;

	/* where and how much. Random patterns see the region as chunks of
	 * the largest block (aligned), each cut into blocks of one size
	 * (chunk_bs: bssplit's shares); the offset generator visits every
	 * slot of the smallest block once per pass, and a slot is a request
	 * where a block of its chunk starts. So with --bssplit too every
	 * byte is moved once per pass, in an order with no runs. */
	uint64_t region_offset, region_size, chunk;
	/* with segments, region_size is theirs (a virtual region that
	 * sb_segments_map turns into offsets of the real one, span bytes) */
	const struct sb_segments *segs;
	uint64_t span;
	uint64_t slots;	       /* chunk / the smallest block: slots per chunk */
	uint64_t split_weight; /* sum of bssplit's share x size */
	int sequential;
	uint64_t cursor;       /* sequential: next offset in the region */
	/* fio's rw=rw: reads and writes each from the region's start, each its
	 * own position (fio's f->last_pos[ddir]); cursor is cursor_dir's */
	uint64_t dir_cursor[2];
	int cursor_dir;
	uint64_t zone_left;    /* fio's zonemode=strided: bytes left in this zone */
	uint64_t think_n;      /* fio's thinktime: requests issued since the last stall */
	/* fio's trimwrite: the write that follows the trim just issued, at its
	 * offset and length (tw_len 0: none due) */
	uint64_t tw_off;
	uint32_t tw_len;
	/* fio's read_iolog: the next entry of the job's log, and the logged
	 * time (version 3, microseconds) of its first request */
	size_t rpos;
	uint64_t rbase_us, rbase_ns; /* and when it was issued */
	int rbase_set;
	struct sb_offgen *gen; /* &gen0, or the current file's */
	struct sb_offgen gen0;
	uint64_t gen_seed, nchunks;
	/* a bssplit job's random pieces (pieces.h), one a file, or NULL;
	 * piece_dir: a split for each direction, the pieces' direction is
	 * the request's */
	struct sb_pieces *pieces;
	int piece_dir;
	/* fio's nrfiles: the files (NULL: one, fd and the fields above),
	 * those not done in this round in their order (active), the current
	 * one's place there, the requests it serves before the next switch
	 * (fio's file_service_left) and its bytes left (UINT64_MAX: one
	 * file, no round) */
	struct sb_wfile *files;
	unsigned nfiles, cur;
	unsigned *active;
	unsigned nactive, apos, svc_left;
	uint64_t file_left;
	uint32_t min_bs;
	struct sb_rng rng;
	struct sb_rng prio_rng; /* fio's prio_state: which requests cmdprio takes */
	unsigned ioprio;	/* the thread's (fio's prio, prioclass), 0: none */
	/* fio's dedupe: the thread's number in the file (0-based), its unique
	 * buffers so far and the last one's number, the working set's pages,
	 * fio's dedupe_state and dedupe_working_set_index_state */
	unsigned dd_thread;
	uint64_t dd_unique, dd_prev, dd_ws;
	struct sb_rng dd_rng, dd_ws_rng;
	struct sb_rate rate;
	struct sb_rate rate_dir[2];	/* reads', writes' (fio's rate=R,W) */
	struct sb_rate rate_iops[2];	/* reads', writes' requests (fio's rate_iops) */
	/* fio's rate_min, rate_iops_min: each direction's bytes and requests
	 * at its last check and when (0: not yet armed) */
	uint64_t rmin_bytes[2], rmin_ios[2], rmin_ns[2];
	int rmin;			/* the job has a floor */
	/* fio's latency_target: the depth search (lt_on), and what it asked
	 * for that the loop has yet to do (enum sb_lat_act, the strongest) */
	struct sb_lat_target lt;
	int lt_on, lt_act;
	uint64_t loop_bytes, loop_left; /* per loop (UINT64_MAX: time-based) */
	unsigned loop;			/* loops done */
	uint64_t total_bytes;		/* what a size-bound job moves; 0: by time */
	uint64_t nios;			/* requests issued */
	int issue_done;			/* the job's bytes or requests are issued */
	unsigned batch_submit;		/* commit once this many are queued */
	unsigned writes_since_sync, writes_since_datasync;
	int measure_cache; /* an engine that reads the target: buffered reads' cache share */

	/* time */
	uint64_t start_ns, ramp_end, end_ns, measure_start;
	uint64_t interval, iv_end, last_commit;
	uint64_t last_reap, gap_ns; /* mean time between completions, recent */
	int measuring;

	/* statistics, private until the thread ends */
	struct sb_job_result res;
	struct sb_hist iv_lat[SB_DDIR_N];
	uint64_t iv_bytes[SB_DDIR_N], iv_ios[SB_DDIR_N];
	uint64_t cpu_usr0, cpu_sys0;
	/* fio's bw [0] and iops [1] samples (bwavgtime, iopsavgtime): the
	 * window (0: one sample per request, fio's per-unit log), the last
	 * sample's time and each direction's bytes (requests) then */
	uint64_t smp_ns[2], smp_last[2], smp_prev[2][SB_DDIR_N];
	int err;
	struct sb_fiolog *log; /* fio's log files (write_bw_log, ...), or NULL */
	struct sb_iolog_w *iolog; /* fio's write_iolog, or NULL */

	/* Progress: every request that completed whole, the ramp's too (the
	 * measured count, res.dir, plus pub_base: what the ramp moved before
	 * reset_stats started it from 0), published as relaxed stores of
	 * counters that only grow every SB_PUBLISH_NS of completion time, so
	 * the display's rate over its last second is never 0 while requests
	 * complete. A store every 25 ms, not one per request, costs the hot
	 * path one comparison and keeps the cache line from bouncing. */
	uint64_t pub_base_bytes[SB_DDIR_N], pub_base_ios[SB_DDIR_N];
	uint64_t pub_next;
	uint64_t next_tick; /* the next of pub_next, ramp_end, iv_end and a sample */
	_Atomic uint64_t prog_bytes[SB_DDIR_N];
	_Atomic uint64_t prog_ios[SB_DDIR_N];
	atomic_int done;

	/* sb_run_peek's copy of the figures while the thread runs, race
	 * free: the peeker asks (snap_req, a number it raises), the thread
	 * copies res into snap at its next tick (at most SB_PUBLISH_NS of
	 * completions later, no cost per request) and answers with the same
	 * number in snap_done, under snap_lock; snap_from is its measuring
	 * phase's start then (0: still in its ramp, start_ns) */
	pthread_mutex_t snap_lock;
	pthread_cond_t snap_cond;
	int snap_init;
	struct sb_job_result *snap;
	atomic_uint snap_req;
	unsigned snap_done, snap_seen;
	unsigned snap_want; /* the peeker's: the number it waits for (0: none) */
	uint64_t snap_from;
};

/* The copy sb_run_peek asked for, when it asked (the worker's own thread) */
void sb_worker_snapshot(struct sb_worker *w, uint64_t now);

/* 40 publications a second: the display's 1-second window then moves in
 * steps of 2.5%. */
#define SB_PUBLISH_NS 25000000ull
/* fio's LOG_MSEC_SLACK: a sample is due this much before its window ends */
#define SB_SAMPLE_SLACK_NS 1000000ull

void *sb_worker_main(void *arg);
/* Set up loop 0 (worker_setup, before the clock starts): the region, its
 * page cache dropped where the job says so. 0 or -errno. */
int sb_worker_first_loop(struct sb_worker *w);
/* The random offset generator of the job (w->nchunks, w->slots set). */
int sb_worker_offgen_init(struct sb_worker *w, uint64_t seed);
/* The pieces of a bssplit job's random offsets where they apply (before
 * sb_worker_offgen_init), and their end. 0 or -ENOMEM. */
int sb_worker_pieces_setup(struct sb_worker *w);
void sb_worker_pieces_free(struct sb_worker *w);

#endif
