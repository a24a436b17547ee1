/*
 * cpuio: fio's CPU burner. Moves no data and opens nothing: each request
 * is a burst of work, and the pause after it (e->think_ns, which the
 * worker sleeps as fio's thinktime) leaves the processor idle long enough
 * that the job uses cpuload percent of one CPU. cpumode=noop spins for
 * cpuchunks microseconds; cpumode=qsort sorts 256 Ki numbers four ways
 * (ascending, descending, by byte, descending) and sizes the pause from
 * how long that took, so the load holds as the clock or the competition
 * changes. Each request completes with 0 bytes: fio 3.33 counts them as
 * reads of nothing (total_ios, clat), io_bytes 0.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#define QSORT_N (256u * 1024u) /* numbers sorted by a qsort burst, as fio */

struct cpuio {
	int32_t *data; /* cpumode=qsort's numbers, NULL until the first burst */
};

static int cpuio_available(void)
{
	return 0;
}

static int cpuio_init(struct sb_engine *e)
{
	struct cpuio *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	e->priv = c;
	return 0;
}

/* the pause that makes a burst of busy_ns load percent of the time */
static uint64_t pause_for(uint64_t busy_ns, unsigned load)
{
	return load >= 100 ? 0 : busy_ns * (100 - load) / load;
}

static void spin(uint64_t ns)
{
	const uint64_t end = sb_now_ns() + ns;
	while (sb_now_ns() < end)
		;
}

static int up(const void *a, const void *b)
{
	const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int down(const void *a, const void *b)
{
	return up(b, a);
}

static int by_byte(const void *a, const void *b)
{
	return (int)*(const int8_t *)a - (int)*(const int8_t *)b;
}

/* Marsaglia's multiply-with-carry generator, from fixed seeds: every run
 * sorts the same numbers */
static int qsort_data(struct cpuio *c)
{
	uint32_t z = 362436069u, w = 521288629u;
	c->data = malloc(QSORT_N * sizeof(*c->data));
	if (!c->data)
		return -ENOMEM;
	for (uint32_t i = 0; i < QSORT_N; i++) {
		z = 36969u * (z & 0xffffu) + (z >> 16);
		w = 18000u * (w & 0xffffu) + (w >> 16);
		c->data[i] = (int32_t)((z << 16) + w);
	}
	return 0;
}

static uint64_t qsort_burst(struct cpuio *c)
{
	const uint64_t t0 = sb_now_ns();
	qsort(c->data, QSORT_N, sizeof(*c->data), up);
	qsort(c->data, QSORT_N, sizeof(*c->data), down);
	qsort(c->data, QSORT_N * sizeof(*c->data), 1, by_byte);
	qsort(c->data, QSORT_N, sizeof(*c->data), down);
	return sb_now_ns() - t0;
}

static int cpuio_queue(struct sb_engine *e, struct sb_io *io)
{
	struct cpuio *c = e->priv;
	const struct sb_cpuio_opts *o = e->cpuio;
	io->len = 0; /* nothing moved: a request of 0 bytes */
	io->res = 0;
	if (!o || !o->load || o->load > 100) {
		io->res = -EINVAL;
		return SB_Q_DONE;
	}
	if (io->ddir >= SB_DDIR_SYNC)
		return SB_Q_DONE;
	if (o->mode == SB_CPU_QSORT) {
		if (!c->data && qsort_data(c) < 0) {
			io->res = -ENOMEM;
			return SB_Q_DONE;
		}
		e->think_ns = pause_for(qsort_burst(c), o->load);
	} else {
		const uint64_t busy = (uint64_t)o->chunk_us * 1000u;
		e->think_ns = pause_for(busy, o->load);
		spin(busy);
	}
	return SB_Q_DONE;
}

static void cpuio_cleanup(struct sb_engine *e)
{
	struct cpuio *c = e->priv;
	if (c)
		free(c->data);
	free(c);
}

const struct sb_engine_ops sb_engine_cpuio = {
	.name = "cpuio",
	.desc = "no I/O: burns cpuload percent of a CPU (job files)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_TIMED,
	.available = cpuio_available,
	.init = cpuio_init,
	.queue = cpuio_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = cpuio_cleanup,
};
