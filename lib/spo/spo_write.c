/*
 * The SPO writer: iodepth threads write verify blocks (lib/verify/block.h)
 * of bs bytes at random or sequential slots of the region and journal
 * every write: INTENT before it is submitted, ACK once it passed its
 * durability point (METHODS.md section 9). Each thread owns the slots
 * whose index is its own modulo iodepth, so writes to one slot never
 * overlap and their order is the order of their sequence numbers.
 *
 * Every record goes out with one write(2) under the journal's lock and is
 * flushed to its medium (fdatasync, for a journal in a file) before the
 * write it covers is submitted or counted as acknowledged.
 */
#include "lib/spo/spo.h"
#include "lib/base/rng.h"
#include "lib/verify/block.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#define CANARY_CHUNK (1u << 20)

struct thr {
	struct sb_spo_run *r;
	unsigned idx;
	pthread_t th;
	int started;
	int err;
	char msg[256];
};

struct sb_spo_run {
	struct sb_spo_opts o;
	uint64_t nslots; /* bs slots after the canary */
	uint64_t t0;	 /* monotonic ns of the start */
	pthread_mutex_t jlock;
	uint64_t seq; /* the last sequence number given out */
	int jerr;     /* the journal failed: -errno */
	int stop_all;
	uint64_t writes, acked, reads, flushes, bytes; /* atomics */
	struct thr thr[SB_SPO_MAX_DEPTH];
};

int sb_spo_open(const char *path)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
	int fd = open(path, flags | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, flags); /* no O_DIRECT here (tmpfs) */
	return fd < 0 ? -errno : fd;
}

static uint64_t rel_now(const struct sb_spo_run *r)
{
	return sb_now_ns() - r->t0;
}

static int write_all(int fd, const void *buf, size_t n, uint64_t off, int positional)
{
	const char *p = buf;
	while (n) {
		const ssize_t w = positional ? pwrite(fd, p, n, (off_t)off) : write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Caller holds jlock: one record out and on its medium. */
static int jput(struct sb_spo_run *r, const char *line, size_t n)
{
	int e = r->jerr ? r->jerr : write_all(r->o.journal_fd, line, n, 0, 0);
	if (!e && r->o.journal_sync && fdatasync(r->o.journal_fd) < 0)
		e = -errno;
	return r->jerr = e;
}

static int mark(struct sb_spo_run *r, char kind)
{
	char line[64];
	pthread_mutex_lock(&r->jlock);
	const int n = snprintf(line, sizeof(line), "%c %llu\n", kind,
			       (unsigned long long)rel_now(r));
	const int e = jput(r, line, (size_t)n);
	pthread_mutex_unlock(&r->jlock);
	return e;
}

int sb_spo_run_mark_cut(struct sb_spo_run *r)
{
	return mark(r, 'C');
}

static int check_opts(const struct sb_spo_opts *o, char *msg, size_t ml)
{
	if (o->bs < SB_SPO_SECTOR || o->bs > SB_SPO_MAX_BS || o->bs % SB_SPO_SECTOR)
		return snprintf(msg, ml, "--bs: a multiple of 512 from 512 to 1M"), -EINVAL;
	if (o->iodepth < 1 || o->iodepth > SB_SPO_MAX_DEPTH)
		return snprintf(msg, ml, "--iodepth: 1 to %u", SB_SPO_MAX_DEPTH), -EINVAL;
	if (o->canary % o->bs)
		return snprintf(msg, ml, "--canary: a multiple of --bs"), -EINVAL;
	if (o->offset % SB_SPO_SECTOR)
		return snprintf(msg, ml, "--offset: a multiple of 512"), -EINVAL;
	if (o->size < o->canary || (o->size - o->canary) / o->bs < o->iodepth)
		return snprintf(msg, ml,
				"the region is too small: it needs at least --iodepth blocks of "
				"--bs after the canary"),
		       -EINVAL;
	if (o->sync < SB_SPO_FDATASYNC || o->sync > SB_SPO_NONE || o->rw < SB_SPO_RANDWRITE ||
	    o->rw > SB_SPO_MIXED)
		return snprintf(msg, ml, "--sync or --rw out of range"), -EINVAL;
	return 0;
}

static int flush_target(const struct sb_spo_run *r)
{
	const int e = r->o.sync == SB_SPO_FSYNC ? fsync(r->o.fd) : fdatasync(r->o.fd);
	return e < 0 ? -errno : 0;
}

/* The canary: generation 0 of this run, flushed before the journal's
 * header says the run began. */
static int write_canary(struct sb_spo_run *r, char *msg, size_t ml)
{
	struct sb_verify_fmt f;
	void *buf = NULL;
	int e = 0;

	if (!r->o.canary)
		return 0;
	sb_verify_fmt_init(&f, r->o.run_id, 0, SB_SPO_SECTOR);
	if (posix_memalign(&buf, 4096, CANARY_CHUNK))
		return snprintf(msg, ml, "out of memory"), -ENOMEM;
	for (uint64_t done = 0; !e && done < r->o.canary; done += CANARY_CHUNK) {
		const size_t n = (size_t)SB_MIN((uint64_t)CANARY_CHUNK, r->o.canary - done);
		const uint64_t off = r->o.offset + done;
		sb_verify_fill(&f, buf, n, off, (uint64_t)time(NULL) * 1000000000ull);
		e = write_all(r->o.fd, buf, n, off, 1);
	}
	if (!e)
		e = flush_target(r);
	free(buf);
	if (e)
		snprintf(msg, ml, "writing the canary: %s", strerror(-e));
	return e;
}

int sb_spo_run_create(struct sb_spo_run **out, const struct sb_spo_opts *o, char *msg,
		      size_t msglen)
{
	struct sb_spo_run *r;
	char line[512];
	int e = check_opts(o, msg, msglen);

	*out = NULL;
	if (e)
		return e;
	r = calloc(1, sizeof(*r));
	if (!r)
		return snprintf(msg, msglen, "out of memory"), -ENOMEM;
	r->o = *o;
	r->nslots = (o->size - o->canary) / o->bs;
	pthread_mutex_init(&r->jlock, NULL);
	e = write_canary(r, msg, msglen);
	if (e) {
		sb_spo_run_free(r);
		return e;
	}
	r->t0 = sb_now_ns();
	const int n = snprintf(line, sizeof(line),
			       SB_SPO_JOURNAL_MAGIC
			       " 1 run=%016llx bs=%u offset=%llu size=%llu "
			       "canary=%llu sync=%s rw=%s iodepth=%u start=%llu\n",
			       (unsigned long long)o->run_id, o->bs, (unsigned long long)o->offset,
			       (unsigned long long)o->size, (unsigned long long)o->canary,
			       sb_spo_sync_name(o->sync), sb_spo_rw_name(o->rw), o->iodepth,
			       (unsigned long long)o->start_unix_ns);
	pthread_mutex_lock(&r->jlock);
	e = jput(r, line, (size_t)n);
	pthread_mutex_unlock(&r->jlock);
	if (e) {
		snprintf(msg, msglen, "writing the journal: %s", strerror(-e));
		sb_spo_run_free(r);
		return e;
	}
	*out = r;
	return 0;
}

static int intent(struct sb_spo_run *r, uint64_t off, uint64_t *seq)
{
	char line[96];
	pthread_mutex_lock(&r->jlock);
	*seq = ++r->seq;
	const int n = snprintf(line, sizeof(line), "I %llu %llu %llu\n", (unsigned long long)*seq,
			       (unsigned long long)off, (unsigned long long)rel_now(r));
	const int e = jput(r, line, (size_t)n);
	pthread_mutex_unlock(&r->jlock);
	return e;
}

/* ACK records for seqs[0..n), one write(2) of up to 64 at a time. */
static int ack(struct sb_spo_run *r, const uint64_t *seqs, size_t n)
{
	char buf[64 * 48];
	int e = 0;

	pthread_mutex_lock(&r->jlock);
	for (size_t i = 0; !e && i < n;) {
		size_t len = 0;
		const uint64_t t = rel_now(r);
		for (unsigned k = 0; k < 64 && i < n; k++, i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "A %llu %llu\n",
						(unsigned long long)seqs[i], (unsigned long long)t);
		e = jput(r, buf, len);
	}
	pthread_mutex_unlock(&r->jlock);
	if (!e)
		__atomic_add_fetch(&r->acked, n, __ATOMIC_RELAXED);
	return e;
}

static int stopping(struct sb_spo_run *r)
{
	if (__atomic_load_n(&r->stop_all, __ATOMIC_RELAXED))
		return 1;
	if (r->o.duration_ns && rel_now(r) >= r->o.duration_ns)
		return 1;
	return r->o.stop && r->o.stop(r->o.stop_ctx);
}

struct wstate {
	struct sb_rng rng;
	uint64_t next; /* sequential: the next of this thread's slots */
	uint64_t *pending;
	size_t npend, cap;
	uint64_t last_flush;
};

static uint64_t pick_slot(struct sb_spo_run *r, struct thr *t, struct wstate *w)
{
	const uint64_t mine = (r->nslots - t->idx + r->o.iodepth - 1) / r->o.iodepth;
	const uint64_t k = r->o.rw == SB_SPO_SEQWRITE ? w->next++ % mine
						      : sb_rng_below(&w->rng, mine);
	return t->idx + k * r->o.iodepth;
}

static int flush_and_ack(struct sb_spo_run *r, struct wstate *w)
{
	int e = flush_target(r);
	__atomic_add_fetch(&r->flushes, 1, __ATOMIC_RELAXED);
	if (!e)
		e = ack(r, w->pending, w->npend);
	w->npend = 0;
	w->last_flush = sb_now_ns();
	return e;
}

static int remember(struct wstate *w, uint64_t seq)
{
	if (w->npend == w->cap) {
		const size_t n = w->cap ? w->cap * 2 : 64;
		uint64_t *p = realloc(w->pending, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->pending = p;
		w->cap = n;
	}
	w->pending[w->npend++] = seq;
	return 0;
}

/* One write and what follows it: its ACK now (dsync), at the flush it
 * waits for (fsync, fdatasync), or never (none). */
static int one_write(struct sb_spo_run *r, struct thr *t, struct wstate *w, void *buf)
{
	const uint64_t off = r->o.offset + r->o.canary + pick_slot(r, t, w) * r->o.bs;
	struct sb_verify_fmt f;
	uint64_t seq;
	int e;

	if (r->o.rw == SB_SPO_MIXED && sb_rng_below(&w->rng, 10) < 3) {
		const ssize_t n = pread(r->o.fd, buf, r->o.bs, (off_t)off);
		__atomic_add_fetch(&r->reads, 1, __ATOMIC_RELAXED);
		return n < 0 ? (snprintf(t->msg, sizeof(t->msg), "read: %s", strerror(errno)),
				-errno)
			     : 0;
	}
	if ((e = intent(r, off, &seq)))
		return snprintf(t->msg, sizeof(t->msg), "journal: %s", strerror(-e)), e;
	sb_verify_fmt_init(&f, r->o.run_id, seq, SB_SPO_SECTOR);
	sb_verify_fill(&f, buf, r->o.bs, off, (uint64_t)time(NULL) * 1000000000ull);
	if ((e = write_all(r->o.fd, buf, r->o.bs, off, 1)))
		return snprintf(t->msg, sizeof(t->msg), "write at %llu: %s",
				(unsigned long long)off, strerror(-e)),
		       e;
	__atomic_add_fetch(&r->writes, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&r->bytes, r->o.bs, __ATOMIC_RELAXED);
	if (r->o.sync == SB_SPO_NONE)
		return 0;
	if (r->o.sync == SB_SPO_DSYNC)
		e = ack(r, &seq, 1);
	else if (!(e = remember(w, seq)) &&
		 ((r->o.flush_writes && w->npend >= r->o.flush_writes) ||
		  (r->o.flush_ns && sb_now_ns() - w->last_flush >= r->o.flush_ns)))
		e = flush_and_ack(r, w);
	if (e)
		snprintf(t->msg, sizeof(t->msg), "flush or journal: %s", strerror(-e));
	return e;
}

static void *writer_main(void *arg)
{
	struct thr *t = arg;
	struct sb_spo_run *r = t->r;
	struct wstate w = { .last_flush = sb_now_ns() };
	void *buf = NULL;

	sb_rng_seed(&w.rng, r->o.run_id ^ ((uint64_t)t->idx * 0x9e3779b97f4a7c15ull));
	if (posix_memalign(&buf, 4096, r->o.bs)) {
		t->err = -ENOMEM;
		snprintf(t->msg, sizeof(t->msg), "out of memory");
	}
	while (!t->err && !stopping(r))
		t->err = one_write(r, t, &w, buf);
	/* the duration ran out: what is pending is flushed and acknowledged */
	if (!t->err && w.npend && r->o.duration_ns && !__atomic_load_n(&r->stop_all, 0) &&
	    !(r->o.stop && r->o.stop(r->o.stop_ctx)) && (t->err = flush_and_ack(r, &w)))
		snprintf(t->msg, sizeof(t->msg), "flush or journal: %s", strerror(-t->err));
	if (t->err)
		__atomic_store_n(&r->stop_all, 1, __ATOMIC_RELAXED);
	free(w.pending);
	free(buf);
	return NULL;
}

int sb_spo_run_go(struct sb_spo_run *r, char *msg, size_t msglen)
{
	int e = 0;

	for (unsigned i = 0; i < r->o.iodepth; i++) {
		struct thr *t = &r->thr[i];
		*t = (struct thr){ .r = r, .idx = i };
		t->started = pthread_create(&t->th, NULL, writer_main, t) == 0;
		if (!t->started) {
			__atomic_store_n(&r->stop_all, 1, __ATOMIC_RELAXED);
			e = -EAGAIN;
			snprintf(msg, msglen, "cannot start a writer thread");
			break;
		}
	}
	for (unsigned i = 0; i < r->o.iodepth; i++) {
		struct thr *t = &r->thr[i];
		if (t->started)
			pthread_join(t->th, NULL);
		if (t->err && !e) {
			e = t->err;
			snprintf(msg, msglen, "%s", t->msg);
		}
	}
	if (!e && r->o.duration_ns && rel_now(r) >= r->o.duration_ns && (e = mark(r, 'E')))
		snprintf(msg, msglen, "journal: %s", strerror(-e));
	return e;
}

void sb_spo_run_counts(const struct sb_spo_run *r, struct sb_spo_counts *c)
{
	c->writes = __atomic_load_n(&r->writes, __ATOMIC_RELAXED);
	c->acked = __atomic_load_n(&r->acked, __ATOMIC_RELAXED);
	c->reads = __atomic_load_n(&r->reads, __ATOMIC_RELAXED);
	c->flushes = __atomic_load_n(&r->flushes, __ATOMIC_RELAXED);
	c->bytes = __atomic_load_n(&r->bytes, __ATOMIC_RELAXED);
	c->elapsed_ns = r->t0 ? rel_now(r) : 0;
}

void sb_spo_run_free(struct sb_spo_run *r)
{
	if (!r)
		return;
	pthread_mutex_destroy(&r->jlock);
	free(r);
}
