/* The runner: sets workers up, starts them together, merges their results. */
#include "lib/run/run.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/run/worker.h"
#include "lib/run/exec_out.h"
#include "lib/base/sysinfo.h"
#include "lib/job/numa.h"
#include "lib/target/gate.h"
#include "lib/target/scratch.h"

struct sb_run {
	struct sb_run_params p;
	struct sb_worker *w;
	unsigned n;
	atomic_int stop;
	uint64_t start_ns;
	uint64_t cpu_usr0, cpu_sys0;
	uint64_t ctx0, majf0, minf0;
	int iou_workers;
};

static int open_flags(const struct sb_job_opts *o, const struct sb_engine_ops *ops)
{
	/* an engine that changes its own files (falloc's read allocates)
	 * writes whatever the pattern */
	int fl = sb_rw_writes(o->rw) || (ops->flags & SB_ENGINE_OWNFILES) ? O_RDWR : O_RDONLY;
	if (o->direct)
		fl |= O_DIRECT;
	if (o->sync == SB_SYNC_DSYNC)
		fl |= O_DSYNC;
	else if (o->sync == SB_SYNC_SYNC)
		fl |= O_SYNC;
	return fl | O_CLOEXEC;
}

/* A new descriptor of paths[k]: a reopen of what the caller holds, else
 * an open of the name to read. A write goes only through a descriptor the
 * caller holds (the write gate's, lib/target/gate.h). */
static int open_one(const struct sb_run_params *p, unsigned k, int flags)
{
	if (p->held && p->held[k])
		return sb_scratch_reopen(p->held[k] - 1, flags);
	if ((flags & O_ACCMODE) != O_RDONLY)
		return -EPERM;
	const int fd = open(p->paths[k], flags);
	return fd < 0 ? -errno : fd;
}

/* Chunks of a random generator over size bytes: blockalign's offsets at
 * which the smallest block fits, else the region cut in chunks, the tail
 * shorter than a chunk one of its own. */
static uint64_t gen_chunks(const struct sb_worker *w, uint64_t size)
{
	if (w->job->blockalign)
		return (size - w->min_bs) / w->job->blockalign + 1;
	return (size + w->chunk - 1) / w->chunk;
}

/* fio's nrfiles: the job's files, not yet open. */
static int files_setup(const struct sb_run_params *p, struct sb_worker *w, unsigned id,
		       const char **errmsg)
{
	if (p->nrfiles < 2)
		return 0;
	w->files = calloc(p->nrfiles, sizeof(*w->files));
	w->active = calloc(p->nrfiles, sizeof(*w->active));
	if (!w->files || !w->active) {
		*errmsg = "memory for files";
		return -ENOMEM;
	}
	w->nfiles = p->nrfiles;
	w->region_offset = 0;
	for (unsigned i = 0; i < w->nfiles; i++) {
		w->files[i].fd = -1;
		w->files[i].path = p->paths ? p->paths[id * w->nfiles + i] : NULL;
		w->files[i].size = p->file_sizes[id * w->nfiles + i];
		if (w->files[i].size < w->min_bs) {
			*errmsg = "file sizes";
			return -EINVAL;
		}
	}
	return 0;
}

/* fio's window of a thread's bw (iops) samples in ns, as its init.c
 * settles it: bwavgtime when given, else log_avg_msec with the job's bw
 * log, else 500 ms; 0 (a sample per request) with a log that logs every
 * request (log_avg_msec=0). */
static uint64_t sample_window(const struct sb_job_opts *o, enum sb_fiolog_kind kind,
			      unsigned given_ms)
{
	const int logged = (o->fiolog.on >> kind) & 1u;
	unsigned ms = given_ms ? given_ms : 500;
	if (logged && !o->fiolog.avg_ms)
		return 0;
	if (logged && !given_ms)
		ms = o->fiolog.avg_ms;
	return (uint64_t)ms * 1000000u;
}

/* fio's write_iolog: the log, an "add" and an "open" line for each of the
 * worker's files, named as the run opens them (the null engine's by the
 * job's name, as fio's) */
static int iolog_open(const struct sb_run_params *p, struct sb_worker *w, unsigned id)
{
	const char *one[1] = { w->job->name };
	const char *const *names = one;
	unsigned n = 1;
	if (!(p->engine->flags & SB_ENGINE_NOIO) && w->files) {
		names = p->paths + (size_t)id * w->nfiles;
		n = w->nfiles;
	} else if (!(p->engine->flags & SB_ENGINE_NOIO)) {
		names = p->paths + (p->npaths > 1 ? id : 0);
	}
	const uint64_t now = sb_now_ns();
	int e = sb_iolog_w_open(&w->iolog, w->job->write_iolog, p->destroy_data, names, n, now);
	for (unsigned i = 0; !e && i < n; i++)
		sb_iolog_w_file(w->iolog, i, "open", now);
	return e;
}

static int worker_setup(struct sb_run *r, struct sb_worker *w, unsigned id, const char **errmsg)
{
	const struct sb_run_params *p = &r->p;
	const struct sb_job_opts *o = &p->job;
	unsigned depth = o->iodepth;
	uint32_t maxbs = sb_job_max_bs(o);

	w->id = id;
	w->job = o;
	w->stop = &r->stop;
	w->fd = -1;
	w->verify = p->verify;
	if (p->verify && p->written) /* its file's map: one file, one per clone, or nrfiles */
		w->written = p->written + (p->nrfiles > 1  ? id * p->nrfiles
					   : p->npaths > 1 ? id
							   : 0);
	w->written_base = p->nrfiles > 1 ? 0 : p->region_offset;
	w->flow = o->flow ? p->flow : NULL;
	if (w->flow && !o->startdelay_ns) /* before any worker of the group starts */
		sb_flow_join(w->flow, o->flow);
	w->region_offset = p->region_offset;
	w->region_size = p->region_size;
	if (o->offset_increment && o->numjobs > 1) {
		/* fio's offset_increment: clone id's part of the clones' span */
		const uint64_t more = o->offset_increment * (o->numjobs - 1);
		const uint32_t vb = p->verify ? p->verify->block_size : 1;
		if (more >= p->region_size || p->region_size - more < maxbs ||
		    o->offset_increment % (p->align ? p->align : 1) || o->offset_increment % vb) {
			*errmsg = "offset_increment";
			return -EINVAL;
		}
		w->region_offset += o->offset_increment * id;
		w->region_size -= more;
	}
	if (o->zbd.on && p->zbd) {
		const uint32_t mb = sb_job_min_bs(o);
		const uint32_t bs3[3] = { mb, mb, mb };
		char why[160];
		if (!(w->zbd = malloc(sizeof(*w->zbd)))) {
			*errmsg = "memory for zones";
			return -ENOMEM;
		}
		int e = sb_zbd_job_init(w->zbd, p->zbd, &o->zbd, w->region_offset, w->region_size,
					bs3, sb_rw_is_random(o->rw),
					sb_rw_reads(o->rw) && sb_rw_writes(o->rw), why, sizeof(why));
		if (e < 0) {
			*errmsg = "zonemode=zbd: the region holds no whole zone";
			return e;
		}
	}
	const uint32_t align = p->align ? p->align : 1;
	const uint64_t unit = (SB_MAX(sb_job_min_bs(o), align) + align - 1) / align * align;
	w->chunk = (SB_MAX(maxbs, align) + align - 1) / align * align;
	w->slots = w->chunk / unit;
	for (unsigned i = 0; i < o->nbssplit; i++)
		w->split_weight += (uint64_t)o->bssplit[i].pct * o->bssplit[i].bs;
	w->min_bs = sb_job_min_bs(o);
	w->file_left = UINT64_MAX;
	if (o->blockalign && sb_rw_is_random(o->rw)) {
		/* fio's blockalign: offsets on its multiples (chunks of it) */
		w->chunk = o->blockalign;
		w->slots = 1;
	}
	w->sequential = !sb_rw_is_random(o->rw);
	w->gen = &w->gen0;
	int e = files_setup(p, w, id, errmsg);
	if (e < 0)
		return e;
	w->span = p->region_size;
	if (o->segments) {
		if (w->sequential || w->files ||
		    sb_segments_check(o->segments, w->chunk, p->region_size)) {
			*errmsg = "active-range segments";
			return -EINVAL;
		}
		w->segs = o->segments;
		w->region_size = sb_segments_bytes(o->segments);
	}
	w->loop_bytes = o->time_based ? UINT64_MAX : o->io_size ? o->io_size : w->region_size;
	if (w->files) {
		/* size= caps what the files hold together, as fio's */
		uint64_t sum = 0;
		for (unsigned i = 0; i < w->nfiles; i++)
			sum += w->files[i].size;
		if (!o->time_based && !o->io_size)
			w->loop_bytes = o->size && o->size < sum ? o->size : sum;
	}
	w->total_bytes = o->time_based || w->loop_bytes > UINT64_MAX / o->loops
				 ? 0
				 : w->loop_bytes * o->loops;
	if (o->replay) { /* fio's read_iolog: the log's requests, once */
		w->loop_bytes = UINT64_MAX;
		w->total_bytes = o->replay->bytes;
	}
	w->batch_submit = o->batch_submit ? SB_MIN(o->batch_submit, depth) : depth;
	w->interval = o->log_interval_ns;
	w->smp_ns[0] = sample_window(o, SB_FIOLOG_BW, o->fiolog.bw_avg_ms);
	w->smp_ns[1] = sample_window(o, SB_FIOLOG_IOPS, o->fiolog.iops_avg_ms);
	w->res.have_samples = 1;
	e = sb_fiolog_open(&w->log, o, id, p->destroy_data, errmsg);
	if (e < 0)
		return e;
	if (o->write_iolog[0] && (e = iolog_open(p, w, id)) < 0) {
		*errmsg = "write_iolog";
		return e;
	}
	sb_series_init(&w->res.series, o->log_interval_ns);
	/* fio's clat_prio: the latencies by priority of a job that sets them */
	if (sb_job_has_prio(o) && !(w->res.prios = calloc(1, sizeof(*w->res.prios)))) {
		*errmsg = "memory for statistics";
		return -ENOMEM;
	}
	for (int d = 0; d < 2 && w->res.prios; d++) { /* fio's order: the job's, cmdprio's */
		sb_prio_slot(w->res.prios, d, sb_job_ioprio(o));
		if (o->cmdprio_pct[d])
			sb_prio_slot(w->res.prios, d, sb_job_cmdprio(o, d));
		for (unsigned i = 0; i < o->ncmdprio_split[d]; i++)
			sb_prio_slot(w->res.prios, d,
				     sb_job_split_prio(o, d, &o->cmdprio_split[d][i]));
	}
	sb_rng_seed(&w->prio_rng, o->seed ^ 0x5052494f00000000ull ^ id);
	if (o->dedupe_pct) { /* fio's dedupe: its working set, a share of size */
		w->dd_thread = (o->fiolog.jobnum ? o->fiolog.jobnum - 1 : 0) + id;
		w->dd_ws = SB_MAX(o->size * o->dedupe_ws_pct / 100 / sb_job_min_bs(o), 1);
		sb_rng_seed(&w->dd_rng, o->seed ^ 0x4445445550000000ull ^ id);
		sb_rng_seed(&w->dd_ws_rng, o->seed ^ 0x4445445557530000ull ^ id);
	}

	uint64_t seed = o->seed + 0x9e3779b97f4a7c15ull * (id + 1);
	sb_rng_seed(&w->rng, seed);
	if (!w->sequential) {
		/* the region's tail shorter than a chunk is a chunk of its own */
		w->nchunks = gen_chunks(w, w->region_size);
		for (unsigned i = 0; i < w->nfiles; i++)
			w->files[i].nchunks = gen_chunks(w, w->files[i].size);
		w->gen_seed = seed ^ 0x5bd1e995;
		e = sb_worker_pieces_setup(w);
		if (e >= 0)
			e = sb_worker_offgen_init(w, w->gen_seed);
		if (e < 0) {
			*errmsg = "random offsets";
			return e;
		}
	}
	/* an engine that works on its files by name opens none */
	const int opens = !(p->engine->flags & (SB_ENGINE_NOIO | SB_ENGINE_MKFILES));
	if (opens && w->files) {
		for (unsigned i = 0; i < w->nfiles; i++) {
			const int fd = open_one(p, id * w->nfiles + i, open_flags(o, p->engine));
			if (fd < 0) {
				*errmsg = "open";
				return fd;
			}
			w->files[i].fd = fd;
		}
		w->fd = w->files[0].fd;
	} else if (opens) {
		const int fd = open_one(p, p->npaths > 1 ? id : 0, open_flags(o, p->engine));
		if (fd < 0) {
			*errmsg = "open";
			return fd;
		}
		w->fd = fd;
	}
	w->ios = calloc(depth, sizeof(*w->ios));
	w->free_slots = calloc(depth, sizeof(*w->free_slots));
	w->batch = calloc(depth, sizeof(*w->batch));
	w->bufmem = sb_buf_alloc((size_t)depth * maxbs, 4096);
	if (!w->ios || !w->free_slots || !w->batch || !w->bufmem) {
		*errmsg = "memory for buffers";
		return -ENOMEM;
	}
	/* numa_mem_policy: the buffers' pages where fio's would be, before
	 * they are first touched */
	e = sb_numa_bind(w->bufmem, (size_t)depth * maxbs, o->numa_mem_mode, o->numa_mem_nodes);
	if (e < 0) {
		*errmsg = "numa_mem_policy";
		return e;
	}
	sb_buf_fill(w->bufmem, (size_t)depth * maxbs, &w->rng, o->buffer_compress);
	for (unsigned i = 0; i < depth; i++) {
		w->ios[i].buf = (char *)w->bufmem + (size_t)i * maxbs;
		if (o->buffer_pattern_len) /* each buffer starts with it, as fio's */
			sb_buf_fill_pattern(w->ios[i].buf, maxbs, o->buffer_pattern,
					    o->buffer_pattern_len);
		w->ios[i].index = i;
		w->free_slots[i] = &w->ios[depth - 1 - i];
	}
	w->nfree = depth;
	e = sb_engine_init(&w->eng, p->engine, w->fd, depth, p->is_blockdev);
	if (e < 0) {
		*errmsg = "engine setup";
		return e;
	}
	if (p->engine->flags & SB_ENGINE_DONOR) { /* e4defrag's donor beside the file */
		const char *file = p->paths[p->npaths > 1 ? id * (w->files ? w->nfiles : 1) : 0];
		struct sb_error er; /* said at the job's preparation (sb_run_prepare) */
		e = sb_gate_beside(file, o->donorname, p->destroy_data, 0, &er);
		if (e < 0) {
			*errmsg = "the donor file";
			return e;
		}
		w->donor_fd1 = e + 1;
	}
	w->eng.aux_fd = w->donor_fd1 - 1;
	w->eng.inplace = o->inplace;
	sb_engine_register_bufs(&w->eng, w->bufmem, (size_t)depth * maxbs);
	sb_engine_set_write_bounds(&w->eng, p->region_offset, p->region_offset + p->region_size);
	w->engine_sync = w->eng.sync;
	w->measure_cache = !(p->engine->flags & (SB_ENGINE_NOIO | SB_ENGINE_FILEOP |
						 SB_ENGINE_OWNFILES | SB_ENGINE_DONOR));
	/* a file-operation engine's one file (nrfiles: each file's, as it loads) */
	w->eng.path = p->paths ? p->paths[p->npaths > 1 ? id : 0] : NULL;
	w->eng.stat_type = o->stat_type;
	w->eng.mk_job = o->name;
	w->eng.mk_clone = id;
	w->eng.mk_nfiles = p->mk_nfiles;
	w->eng.mk_span = p->mk_span;
	w->eng.cpuio = &o->cpuio;
	w->eng.exec = &o->exec;
	w->eng.runtime_ns = o->runtime_ns;
	e = sb_exec_out_open(o, p->destroy_data, w->eng.out_fd);
	if (e < 0) {
		*errmsg = "std_redirect's files";
		return e;
	}
	w->eng.mk_end = p->mk_end;
	w->eng.mk_ino = p->mk_ino ? p->mk_ino + (size_t)id * p->mk_nfiles : NULL;
	if (w->job->batch_complete) /* asked for: wait for that many, as fio */
		w->eng.settle_ns = 0;
	e = sb_worker_first_loop(w);
	if (e < 0)
		*errmsg = "dropping the page cache";
	return e;
}

static void worker_free(struct sb_worker *w)
{
	if (w->snap_init) {
		pthread_mutex_destroy(&w->snap_lock);
		pthread_cond_destroy(&w->snap_cond);
	}
	free(w->snap);
	if (w->eng.ops)
		sb_engine_cleanup(&w->eng);
	for (int i = 0; i < 2 && w->eng.ops; i++)
		if (w->eng.out_fd[i] >= 0)
			close(w->eng.out_fd[i]);
	if (w->donor_fd1)
		close(w->donor_fd1 - 1);
	for (unsigned i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0)
			close(w->files[i].fd);
	if (!w->files && w->fd >= 0)
		close(w->fd);
	free(w->files);
	free(w->active);
	free(w->ios);
	free(w->free_slots);
	free(w->batch);
	free(w->bufmem);
	sb_series_free(&w->res.series);
	free(w->res.prios);
	sb_fiolog_free(w->log);
	sb_iolog_w_close(w->iolog);
	sb_worker_pieces_free(w);
	free(w->zbd);
}

int sb_run_create(struct sb_run **out, const struct sb_run_params *p, const char **errmsg)
{
	static const char *dummy;
	if (!errmsg)
		errmsg = &dummy;
	*errmsg = NULL;
	*out = NULL;
	if (!p->engine || !p->region_size || !p->job.iodepth || !p->job.numjobs ||
	    (!(p->engine->flags & SB_ENGINE_NOIO) &&
	     (!p->paths ||
	      (p->nrfiles > 1 ? !p->file_sizes || p->npaths != p->nrfiles * p->job.numjobs
			      : p->npaths != 1 && p->npaths != p->job.numjobs))) ||
	    sb_job_max_bs(&p->job) > p->region_size ||
	    (p->verify && (sb_job_min_bs(&p->job) % p->verify->block_size ||
			   p->region_offset % p->verify->block_size))) {
		*errmsg = "parameters";
		return -EINVAL;
	}
	struct sb_run *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->p = *p;
	if (!r->p.align)
		r->p.align = 1;
	r->n = p->job.numjobs;
	r->w = calloc(r->n, sizeof(*r->w));
	if (!r->w) {
		free(r);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		pthread_mutex_init(&w->snap_lock, NULL);
		pthread_cond_init(&w->snap_cond, NULL);
		w->snap_init = 1;
		int e = worker_setup(r, w, i, errmsg);
		if (e < 0) {
			r->n = i + 1;
			sb_run_free(r);
			return e;
		}
	}
	*out = r;
	return 0;
}

int sb_run_start(struct sb_run *r)
{
	sb_cpu_process(&r->cpu_usr0, &r->cpu_sys0);
	sb_rusage_counts(&r->ctx0, &r->majf0, &r->minf0);
	/* a common start a little ahead, so threads begin together */
	r->start_ns = sb_now_ns();
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		w->start_ns = r->start_ns;
		int e = pthread_create(&w->thread, NULL, sb_worker_main, w);
		if (e) {
			atomic_store(&r->stop, 1);
			return -e;
		}
		w->started = 1;
	}
	return 0;
}

int sb_run_any_done(const struct sb_run *r)
{
	for (unsigned i = 0; i < r->n; i++)
		if (r->w[i].started && atomic_load_explicit(&r->w[i].done, memory_order_acquire))
			return 1;
	return 0;
}

int sb_run_progress(struct sb_run *r, struct sb_progress *p)
{
	const struct sb_job_opts *o = &r->p.job;
	int done = 1;
	memset(p, 0, sizeof(*p));
	p->elapsed_ns = sb_now_ns() - r->start_ns;
	p->ramping = p->elapsed_ns < o->startdelay_ns + o->ramp_ns;
	uint64_t total = 0;
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		for (int d = 0; d < SB_DDIR_N; d++) {
			p->bytes[d] += atomic_load_explicit(&w->prog_bytes[d],
							    memory_order_relaxed);
			p->ios[d] += atomic_load_explicit(&w->prog_ios[d], memory_order_relaxed);
		}
		if (w->started && !atomic_load_explicit(&w->done, memory_order_acquire))
			done = 0;
	}
	for (int d = 0; d < SB_DDIR_N; d++)
		total += p->bytes[d];
	if (o->runtime_ns) {
		p->total_ns = o->startdelay_ns + o->ramp_ns + o->runtime_ns;
		p->fraction = (double)p->elapsed_ns / (double)p->total_ns;
	}
	if (!o->time_based) {
		/* each worker issues its loops' bytes, the ramp's included */
		for (unsigned i = 0; i < r->n; i++)
			p->total_bytes += r->w[i].total_bytes;
		double f = p->total_bytes ? (double)total / (double)p->total_bytes : 0;
		if (f > p->fraction)
			p->fraction = f;
	}
	if (p->fraction > 1)
		p->fraction = 1;
	int iou = sb_count_iou_workers();
	if (iou > r->iou_workers)
		r->iou_workers = iou;
	p->done = done;
	return done;
}

void sb_run_stop(struct sb_run *r)
{
	atomic_store_explicit(&r->stop, 1, memory_order_relaxed);
}

/* The copy of a worker's fio samples into a result. */
static void copy_samples(struct sb_job_result *dst, const struct sb_job_result *src)
{
	dst->have_samples = src->have_samples;
	memcpy(dst->bw_sample, src->bw_sample, sizeof(dst->bw_sample));
	memcpy(dst->iops_sample, src->iops_sample, sizeof(dst->iops_sample));
}

/* A copy of one thread's figures appended to res->threads (series: its
 * time series too). 0 or -ENOMEM. */
static int keep_thread(struct sb_job_result *res, const struct sb_job_result *w, int series)
{
	struct sb_job_result *t = sb_job_result_create();
	if (!t)
		return -ENOMEM;
	res->threads[res->nthreads++] = t;
	t->series.interval_ns = w->series.interval_ns;
	copy_samples(t, w);
	if (series)
		return sb_job_result_add(t, w);
	sb_job_result_add_counts(t, w);
	return 0;
}

/* Worker w's figures for merge: its own once it ended, while it runs
 * (!series: sb_run_peek) the copy it made when asked (snap_lock held
 * until merge_done), NULL when it made none. */
static const struct sb_job_result *merge_src(struct sb_worker *w, int series)
{
	if (series || !w->started || atomic_load_explicit(&w->done, memory_order_acquire))
		return &w->res;
	pthread_mutex_lock(&w->snap_lock);
	if (w->snap && w->snap_done)
		return w->snap;
	pthread_mutex_unlock(&w->snap_lock);
	return NULL;
}

static void merge_done(struct sb_worker *w, const struct sb_job_result *src)
{
	if (src && src == w->snap)
		pthread_mutex_unlock(&w->snap_lock);
}

/* The workers' figures into res; series: their time series too (only
 * once they ended: a running worker grows its own; without, sb_run_peek's
 * copies of the running ones). */
static int merge(struct sb_run *r, struct sb_job_result *res, int series)
{
	int err = 0;
	snprintf(res->engine, sizeof(res->engine), "%s", r->p.engine->name);
	res->opts = r->p.job;
	for (int d = 0; d < SB_DDIR_N; d++) {
		sb_hist_init(&res->dir[d].clat);
		sb_hist_init(&res->dir[d].lat);
		sb_hist_init(&res->dir[d].slat);
	}
	sb_hist_init(&res->sync_lat);
	free(res->prios); /* fio's clat_prio: the workers' own, added again */
	res->prios = NULL;
	/* fio reports each thread of a job on its own without group_reporting:
	 * a fio job's threads' figures are kept beside the sum
	 * (sb_fio_report_make); other jobs' (pts's and quick's many rounds)
	 * are not, which would cost each round's results a copy per thread */
	for (unsigned i = 0; i < res->nthreads; i++)
		sb_job_result_free(res->threads[i]);
	free(res->threads);
	res->threads = NULL;
	res->nthreads = 0;
	if (r->n > 1 && r->p.job.fio_new_file &&
	    (res->threads = calloc(r->n, sizeof(*res->threads))) == NULL)
		err = -ENOMEM;
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		const struct sb_job_result *src = merge_src(w, series);
		if (!src) {
			if (res->threads && !err &&
			    !(res->threads[res->nthreads++] = sb_job_result_create()))
				err = -ENOMEM;
			continue;
		}
		if (!series)
			sb_job_result_add_counts(res, src);
		else if (sb_job_result_add(res, src) < 0 && !err)
			err = -ENOMEM;
		res->settle_ns = SB_MAX(res->settle_ns,
					src == w->snap ? src->settle_ns : w->eng.settle_ns);
		if (r->n == 1) /* one thread: fio's samples are the job's */
			copy_samples(res, src);
		if (res->threads && !err && keep_thread(res, src, series) < 0)
			err = -ENOMEM;
		if (series && w->err && !err)
			err = w->err;
		merge_done(w, src);
	}
	return err;
}

/* The process's CPU time and counters from the start to end. */
static void cpu_of(struct sb_run *r, struct sb_job_result *res, uint64_t end)
{
	uint64_t usr = 0, sys = 0;
	sb_cpu_process(&usr, &sys);
	double wall = (double)(end - r->start_ns);
	res->cpu_ns = (usr - r->cpu_usr0) + (sys - r->cpu_sys0);
	uint64_t ctx, majf, minf;
	if (sb_rusage_counts(&ctx, &majf, &minf) == 0) {
		res->ctx = ctx - r->ctx0;
		res->majf = majf - r->majf0;
		res->minf = minf - r->minf0;
	}
	res->usr_cpu = wall > 0 ? 100.0 * (double)(usr - r->cpu_usr0) / wall : 0;
	res->sys_cpu = wall > 0 ? 100.0 * (double)(sys - r->cpu_sys0) / wall : 0;
	res->iou_workers = r->iou_workers;
}

int sb_run_wait(struct sb_run *r, struct sb_job_result *res)
{
	for (unsigned i = 0; i < r->n; i++)
		if (r->w[i].started) {
			pthread_join(r->w[i].thread, NULL);
			r->w[i].started = 0;
		}
	const uint64_t end = sb_now_ns();
	int iou = sb_count_iou_workers();
	if (iou > r->iou_workers)
		r->iou_workers = iou;
	const int err = merge(r, res, 1);
	cpu_of(r, res, end);
	res->interrupted = atomic_load(&r->stop) && !err;
	return err;
}

/* How long sb_run_peek waits for the running workers' copies: one comes
 * at a worker's next tick, SB_PUBLISH_NS of completions at most, unless
 * it waits in a long request or a pause (the copy before then serves) */
#define PEEK_WAIT_NS 100000000ull

/* Each running worker asked for a copy of its figures, then waited for */
static void peek_ask(struct sb_run *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		w->snap_want = 0;
		if (!w->started || atomic_load_explicit(&w->done, memory_order_acquire))
			continue;
		pthread_mutex_lock(&w->snap_lock);
		if (!w->snap)
			w->snap = calloc(1, sizeof(*w->snap));
		pthread_mutex_unlock(&w->snap_lock);
		if (w->snap)
			w->snap_want = atomic_fetch_add_explicit(&w->snap_req, 1,
								 memory_order_release) +
				       1;
	}
	const uint64_t deadline = sb_now_ns() + PEEK_WAIT_NS;
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		if (!w->snap_want)
			continue;
		pthread_mutex_lock(&w->snap_lock);
		for (uint64_t now = sb_now_ns();
		     w->snap_done != w->snap_want && now < deadline &&
		     !atomic_load_explicit(&w->done, memory_order_acquire);
		     now = sb_now_ns()) {
			/* a short wait: the worker's end does not signal */
			const uint64_t until = SB_MIN(deadline, now + 5000000u);
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			const uint64_t ns = (uint64_t)ts.tv_nsec + (until - now);
			ts.tv_sec += (time_t)(ns / 1000000000u);
			ts.tv_nsec = (long)(ns % 1000000000u);
			pthread_cond_timedwait(&w->snap_cond, &w->snap_lock, &ts);
		}
		pthread_mutex_unlock(&w->snap_lock);
	}
}

void sb_run_peek(struct sb_run *r, struct sb_job_result *res)
{
	peek_ask(r);
	const uint64_t now = sb_now_ns();
	merge(r, res, 0);
	for (unsigned i = 0; i < r->n; i++) {
		struct sb_worker *w = &r->w[i];
		if (!w->started || atomic_load_explicit(&w->done, memory_order_acquire))
			continue;
		/* a running worker's runtime is its time so far; in its ramp,
		 * the ramp's (its figures are the ramp's until it ends, as fio's) */
		pthread_mutex_lock(&w->snap_lock);
		const uint64_t from = w->snap_done ? w->snap_from : 0;
		uint64_t bytes[SB_DDIR_N] = { 0 };
		for (int d = 0; w->snap && w->snap_done && d < SB_DDIR_N; d++)
			bytes[d] = w->snap->dir[d].bytes;
		pthread_mutex_unlock(&w->snap_lock);
		if (from && from < now) {
			res->runtime_ns = SB_MAX(res->runtime_ns, now - from);
			for (int d = 0; d < SB_DDIR_N; d++)
				if (bytes[d])
					res->dir_runtime_ns[d] = SB_MAX(res->dir_runtime_ns[d],
									now - from);
		}
	}
	cpu_of(r, res, now);
}

void sb_run_free(struct sb_run *r)
{
	if (!r)
		return;
	sb_run_stop(r);
	for (unsigned i = 0; i < r->n; i++) {
		if (r->w[i].started)
			pthread_join(r->w[i].thread, NULL);
		worker_free(&r->w[i]);
	}
	free(r->w);
	free(r);
}
