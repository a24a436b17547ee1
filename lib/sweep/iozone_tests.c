/*
 * iozone's tests, each one pass over the current cell's file with iozone's
 * access pattern and system calls (iozone.c: write_perf_test,
 * read_perf_test, random_perf_test, reverse_perf_test,
 * rewriterec_perf_test, read_stride_perf_test, fwrite_perf_test,
 * fread_perf_test). Offsets are multiples of the record size; the file
 * holds numrecs = file size / record size records.
 */
#include "lib/sweep/sweep_int.h"
#include "lib/base/rng.h"

#include <fcntl.h>
#include <unistd.h>

/* Finish a pass (or abort it after a failed record); one ended early
 * (e 1) is finished as one that ran to its end. */
static int finish(struct sweep_pass *p, int e, uint64_t *elapsed_ns)
{
	if (e < 0) {
		sb_sweep_pass_abort(p);
		return e;
	}
	return sb_sweep_pass_end(p, elapsed_ns);
}

/* iozone opens read tests and fsyncs before the clock starts. */
static int presync(struct sweep_pass *p)
{
	sb_sweep_event(p->s, p->test, SB_SWEEP_OP_FSYNC, 0, 0, NULL);
	fsync(p->fd); /* nothing dirty is the usual case; an error shows later */
	return 0;
}

/* write (trunc: a new, empty file) and rewrite (the existing one). */
static int seq_write(struct sweep_run *s, int test, int trunc, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_open(&p, s, test, O_RDWR | (trunc ? O_TRUNC : 0));
	if (e)
		return e;
	if (test != SB_SWEEP_LAYOUT)
		sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, 1, i * s->rec, 0);
	e = finish(&p, e, ns);
	/* a new file cut short holds fewer records: the next test that reads
	 * lays it out anew (a rewrite cut short leaves them all) */
	if (!e)
		s->have_data = !(p.early && trunc);
	return e;
}

/* read and reread. */
static int seq_read(struct sweep_run *s, int test, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_open(&p, s, test, O_RDONLY);
	if (e || (e = presync(&p)))
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, 0, i * s->rec, 0);
	return finish(&p, e, ns);
}

/* iozone's record order: 0..n-1, then each i swapped with a random one
 * (random_perf_test); a permutation, so every record exactly once. The
 * same fixed seed for both passes and every cell, as iozone re-seeds. */
static int permutation(struct sweep_run *s)
{
	if (s->numrecs > s->permcap) {
		uint64_t *v = realloc(s->perm, s->numrecs * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->perm = v;
		s->permcap = s->numrecs;
	}
	struct sb_rng rng;
	sb_rng_seed(&rng, s->o->seed);
	for (uint64_t i = 0; i < s->numrecs; i++)
		s->perm[i] = i;
	for (uint64_t i = 0; i < s->numrecs; i++) {
		const uint64_t j = sb_rng_below(&rng, s->numrecs), t = s->perm[i];
		s->perm[i] = s->perm[j];
		s->perm[j] = t;
	}
	return 0;
}

/* random read and random write: lseek + read/write per record. */
static int random_rw(struct sweep_run *s, int test, uint64_t *ns)
{
	struct sweep_pass p;
	int e = permutation(s);
	if (e || (e = sb_sweep_pass_open(&p, s, test, O_RDWR)))
		return e;
	const int wr = test == SB_SWEEP_RANDWRITE;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, wr, s->perm[i] * s->rec, 1);
	return finish(&p, e, ns);
}

/* backward read: the last record first, down to offset 0. */
static int backward(struct sweep_run *s, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_open(&p, s, SB_SWEEP_BKWDREAD, O_RDONLY);
	if (e || (e = presync(&p)))
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = s->numrecs; i-- > 0 && !e;)
		e = sb_sweep_pass_io(&p, 0, i * s->rec, 1);
	return finish(&p, e, ns);
}

/* record rewrite: the record at offset 0, numrecs times. */
static int record_rewrite(struct sweep_run *s, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_open(&p, s, SB_SWEEP_RECREWRITE, O_RDWR);
	if (e || (e = presync(&p)))
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, 1, 0, i > 0);
	return finish(&p, e, ns);
}

/* stride read (read_stride_perf_test): after the record at p, the next is
 * p + stride, unless p + stride + 1 reaches the last record: then the next
 * pass starts one record further in (++wrap mod numrecs), or at 0 when the
 * file holds no more records than the stride. */
static int stride_read(struct sweep_run *s, uint64_t *ns)
{
	struct sweep_pass p;
	const uint64_t n = s->numrecs, stride = s->o->stride;
	uint64_t pos = 0, wrap = 0;
	int e = sb_sweep_pass_open(&p, s, SB_SWEEP_STRIDEREAD, O_RDONLY);
	if (e || (e = presync(&p)))
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < n && !e; i++) {
		e = sb_sweep_pass_io(&p, 0, pos * s->rec, i > 0);
		if (pos + stride + 2 >= n) {
			wrap++;
			pos = n <= stride ? 0 : wrap % n;
		} else {
			pos += stride;
		}
	}
	return finish(&p, e, ns);
}

/* fwrite (a new file, as iozone's documentation defines it) and frewrite. */
static int stdio_write(struct sweep_run *s, int test, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_fopen(&p, s, test, test == SB_SWEEP_FWRITE ? "w" : "r+");
	if (e)
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, 1, i * s->rec, 0);
	e = finish(&p, e, ns);
	if (!e) /* fwrite's new file cut short: as a write's */
		s->have_data = !(p.early && test == SB_SWEEP_FWRITE);
	return e;
}

/* fread and freread. */
static int stdio_read(struct sweep_run *s, int test, uint64_t *ns)
{
	struct sweep_pass p;
	int e = sb_sweep_pass_fopen(&p, s, test, "r");
	if (e || (e = presync(&p)))
		return e;
	sb_sweep_pass_begin(&p);
	for (uint64_t i = 0; i < s->numrecs && !e; i++)
		e = sb_sweep_pass_io(&p, 0, i * s->rec, 0);
	return finish(&p, e, ns);
}

int sb_sweep_layout(struct sweep_run *s)
{
	uint64_t ns = 0;
	return seq_write(s, SB_SWEEP_LAYOUT, 1, &ns);
}

int sb_sweep_test_run(struct sweep_run *s, int test, uint64_t *ns)
{
	switch (test) {
	case SB_SWEEP_WRITE: return seq_write(s, test, 1, ns);
	case SB_SWEEP_REWRITE: return seq_write(s, test, 0, ns);
	case SB_SWEEP_READ:
	case SB_SWEEP_REREAD: return seq_read(s, test, ns);
	case SB_SWEEP_RANDREAD:
	case SB_SWEEP_RANDWRITE: return random_rw(s, test, ns);
	case SB_SWEEP_BKWDREAD: return backward(s, ns);
	case SB_SWEEP_RECREWRITE: return record_rewrite(s, ns);
	case SB_SWEEP_STRIDEREAD: return stride_read(s, ns);
	case SB_SWEEP_FWRITE:
	case SB_SWEEP_FREWRITE: return stdio_write(s, test, ns);
	case SB_SWEEP_FREAD:
	case SB_SWEEP_FREREAD: return stdio_read(s, test, ns);
	default: return -EINVAL;
	}
}
