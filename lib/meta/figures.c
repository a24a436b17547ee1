/* The figures of a meta test, as the text and the results show them. */
#include "lib/meta/meta_int.h"

int sb_meta_is_io(enum sb_meta_test t)
{
	return t <= SB_META_READ;
}

double sb_meta_rate(const struct sb_meta_result *r, enum sb_meta_test t)
{
	if (!r->elapsed_ns)
		return 0;
	const double s = (double)r->elapsed_ns / 1e9;
	return sb_meta_is_io(t) ? (double)r->bytes / s : (double)r->ops / s;
}

double sb_meta_cpu_percent(const struct sb_meta_result *r)
{
	return r->elapsed_ns ? 100.0 * (double)r->cpu_ns / (double)r->elapsed_ns : 0;
}

uint64_t sb_meta_test_ops(const struct sb_meta_run *m, enum sb_meta_test t)
{
	const uint64_t chunk = m->io.chunk ? m->io.chunk : 1;
	switch (t) {
	case SB_META_PUTC:
	case SB_META_GETC: return m->io.char_size / chunk;
	case SB_META_WRITE:
	case SB_META_REWRITE:
	case SB_META_READ: return m->io.size / chunk;
	case SB_META_SEEKS: return m->io.seeks;
	default: return m->files.nfiles;
	}
}

unsigned sb_meta_tests(const struct sb_meta_io *io, uint64_t nfiles)
{
	unsigned mask = 0;
	if (io->size) {
		mask |= 1u << SB_META_WRITE | 1u << SB_META_REWRITE | 1u << SB_META_READ;
		if (io->char_size)
			mask |= 1u << SB_META_PUTC | 1u << SB_META_GETC;
		if (io->seeks && io->seekers && io->size >= io->chunk)
			mask |= 1u << SB_META_SEEKS;
	}
	for (int t = SB_META_SEQ_CREATE; nfiles && t <= SB_META_RAND_DELETE; t++)
		mask |= 1u << t;
	return mask;
}
