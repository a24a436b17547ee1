/*
 * bonnie++'s random seek test (bon_io.cpp seek_test, doseek, action):
 * `seeks` tickets, each a random number; a seeker takes the next ticket,
 * reads the chunk (number % chunks) after an lseek, and when the number is
 * a multiple of 10 changes a byte and writes the chunk back (with fsync
 * when asked). bonnie++ hands the tickets to child processes through a
 * pipe; here threads take them from one shared counter, so a seek is always
 * queued just the same. The result is seeks / (last end - first start).
 */
#include "lib/meta/meta_int.h"
#include "lib/target/cache.h"

#include <fcntl.h>
#include <unistd.h>

#define UPDATE_SEEK 10 /* bonnie++'s UpdateSeek */

struct seek_run {
	const struct sb_meta_io *p;
	const struct sb_meta_ctl *ctl;
	uint32_t *tickets;
	uint64_t nchunks;
	uint64_t next; /* shared ticket counter (atomic) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;
	unsigned finished; /* seekers that ended (atomic) */
};

struct seeker {
	struct seek_run *sr;
	pthread_t th;
	int started, fd, err;
	int walled; /* a stonewall ended it (another rank ended the test) */
	char *buf;
	uint64_t ops, start_ns, end_ns, cpu_ns;
	struct sb_hist lat;
};

static int doseek(struct seeker *s, uint32_t ticket)
{
	const struct sb_meta_io *p = s->sr->p;
	const uint64_t chunk = ticket % s->sr->nchunks;
	const off_t off = (off_t)(chunk * p->chunk);
	ssize_t n;
	if (lseek(s->fd, off, SEEK_SET) < 0 || (n = read(s->fd, s->buf, p->chunk)) < 0)
		return errno;
	if ((uint32_t)n != p->chunk)
		return EIO;
	if (ticket % UPDATE_SEEK)
		return 0;
	s->buf[chunk % p->chunk]--;
	if (lseek(s->fd, off, SEEK_SET) < 0 || (n = write(s->fd, s->buf, p->chunk)) < 0)
		return errno;
	if ((uint32_t)n != p->chunk)
		return EIO;
	return p->fsync && fsync(s->fd) < 0 ? errno : 0;
}

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct seek_run *sr = s->sr;
	pthread_mutex_lock(&sr->mu);
	while (!sr->go)
		pthread_cond_wait(&sr->cv, &sr->mu);
	const int go = sr->go;
	pthread_mutex_unlock(&sr->mu);
	s->start_ns = sb_now_ns();
	const uint64_t cpu0 = sb_meta_thread_cpu_ns();
	while (go > 0 && !s->err) {
		const uint64_t k = __atomic_fetch_add(&sr->next, 1, __ATOMIC_RELAXED);
		if (k >= sr->p->seeks)
			break;
		const int st = sr->ctl && sr->ctl->stop ? sr->ctl->stop(sr->ctl->ctx) : 0;
		if (st) { /* stopped, or a stonewall: the seeks change nothing later tests need */
			s->walled = st == SB_META_STONEWALL;
			break;
		}
		const uint64_t t0 = sb_now_ns();
		s->err = doseek(s, sr->tickets[k]);
		if (!s->err) {
			sb_hist_add(&s->lat, sb_now_ns() - t0);
			s->ops++;
		}
	}
	s->cpu_ns = sb_meta_thread_cpu_ns() - cpu0;
	s->end_ns = sb_now_ns();
	__atomic_add_fetch(&sr->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void make_tickets(struct seek_run *sr)
{
	struct sb_rng rng;
	sb_rng_seed(&rng, sr->p->seed ^ 0x5ee65ull);
	for (unsigned i = 0; i < sr->p->seeks; i++)
		sr->tickets[i] = (uint32_t)(sb_rng_next(&rng) >> 33); /* like a 31-bit random() */
}

/* Open every seeker's file and buffer before the start. */
static int prepare(struct seek_run *sr, struct seeker *s, unsigned n, int *cache_method)
{
	const struct sb_meta_io *p = sr->p;
	for (unsigned i = 0; i < n; i++) {
		s[i].sr = sr;
		sb_hist_init(&s[i].lat);
		s[i].buf = sb_buf_alloc(p->chunk, 4096);
		if (!s[i].buf)
			return ENOMEM;
		s[i].fd = openat(p->dirfd, SB_META_IO_FILE,
				 O_RDWR | O_NOFOLLOW | O_CLOEXEC | (p->direct ? O_DIRECT : 0));
		if (s[i].fd < 0)
			return errno;
	}
	if (p->drop_cache && n) {
		int m = sb_cache_drop(s[0].fd);
		*cache_method = m > 0 ? m : 0;
	}
	return 0;
}

static void start_and_join(struct seek_run *sr, struct seeker *s, unsigned n)
{
	int ok = 1;
	unsigned started = 0;
	for (unsigned i = 0; i < n; i++) {
		s[i].started = pthread_create(&s[i].th, NULL, seeker_main, &s[i]) == 0;
		ok = ok && s[i].started;
		started += (unsigned)s[i].started;
	}
	pthread_mutex_lock(&sr->mu);
	sr->go = ok ? 1 : -1;
	pthread_cond_broadcast(&sr->cv);
	pthread_mutex_unlock(&sr->mu);
	sb_meta_wait_threads(sr->ctl, &sr->finished, started);
	for (unsigned i = 0; i < n; i++)
		if (s[i].started)
			pthread_join(s[i].th, NULL);
	if (!ok)
		s[0].err = s[0].err ? s[0].err : EAGAIN;
}

/* Elapsed from the first start to the last end; the first error. */
static int collect(struct seek_run *sr, struct seeker *s, unsigned n, struct sb_meta_result *r)
{
	uint64_t first = UINT64_MAX, last = 0;
	int err = 0;
	sb_hist_init(&r->lat);
	r->cpu_ns = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!s[i].started)
			continue;
		first = SB_MIN(first, s[i].start_ns);
		last = SB_MAX(last, s[i].end_ns);
		sb_hist_merge(&r->lat, &s[i].lat);
		r->ops += s[i].ops;
		r->cpu_ns += s[i].cpu_ns;
		r->stonewalled |= s[i].walled;
		if (s[i].err && !err)
			err = s[i].err;
	}
	r->ran = 1;
	r->bytes = r->ops * sr->p->chunk;
	r->elapsed_ns = last > first ? last - first : 0;
	r->start_ns = first == UINT64_MAX ? 0 : first;
	r->interrupted = !err && !r->stonewalled && r->ops < sr->p->seeks;
	return err;
}

int sb_meta_seeks_run(const struct sb_meta_io *p, const struct sb_meta_ctl *ctl,
		      struct sb_meta_result *res, struct sb_meta_error *err)
{
	struct seek_run sr = { .p = p, .ctl = ctl, .nchunks = p->size / p->chunk };
	const unsigned n = p->seekers;
	int cache_method = 0, e;
	if (!p->seeks || !n || !sr.nchunks)
		return 0;
	if (ctl && ctl->phase)
		ctl->phase(ctl->ctx, SB_META_SEEKS);
	sr.tickets = malloc(p->seeks * sizeof(*sr.tickets));
	struct seeker *s = calloc(n, sizeof(*s));
	for (unsigned i = 0; s && i < n; i++)
		s[i].fd = -1;
	e = sr.tickets && s ? prepare(&sr, s, n, &cache_method) : ENOMEM;
	if (!e) {
		make_tickets(&sr);
		pthread_mutex_init(&sr.mu, NULL);
		pthread_cond_init(&sr.cv, NULL);
		start_and_join(&sr, s, n);
		e = collect(&sr, s, n, res);
		pthread_cond_destroy(&sr.cv);
		pthread_mutex_destroy(&sr.mu);
	}
	for (unsigned i = 0; s && i < n; i++) {
		if (s[i].fd >= 0)
			close(s[i].fd);
		free(s[i].buf);
	}
	free(s);
	free(sr.tickets);
	if (e) {
		err->test = SB_META_SEEKS;
		err->err = e;
		snprintf(err->path, sizeof(err->path), "%s", p->path);
		return -e;
	}
	return res->interrupted ? -EINTR : 0;
}
