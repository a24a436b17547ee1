/*
 * storbench meta's progress: bonnie++'s message as each test starts, and
 * the live line "meta test 3 of 12, rewrite: 42% 120 MiB/s  elapsed 3s
 * ETA 2s (test)". The library polls stop() once per operation (a chunk, a
 * seek, a file), from every thread of a test: that poll counts the
 * operation (one relaxed atomic add) and, every 16th, reads the clock; the
 * thread that finds a line due draws it, the others go on.
 */
#include "cli/cmd_meta.h"

/* The operations of test t: chunks, seeks or files. */
static uint64_t test_ops(const struct sb_meta_run *m, enum sb_meta_test t)
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

/* The tests that will run, as the library runs them. */
static unsigned tests_to_run(const struct sb_meta_run *m)
{
	unsigned n = 0;
	if (m->io.size) {
		n += m->io.char_size ? 5 : 3;
		n += m->io.seeks && m->io.seekers && m->io.size / SB_MAX(m->io.chunk, 1u);
	}
	return n + (m->files.nfiles ? 6 : 0);
}

void meta_progress_init(struct meta_progress *p, const struct sb_meta_run *m, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->m = m;
	p->test = -1;
	p->nsteps = tests_to_run(m);
	p->many = cli_ranks() > 1;
	cli_progress_init(&p->pg, quiet);
}

static void draw(struct meta_progress *p, uint64_t now)
{
	const enum sb_meta_test t = (enum sb_meta_test)p->test;
	const uint64_t ops = atomic_load_explicit(&p->ops, memory_order_relaxed) - p->ops0;
	const uint64_t total = test_ops(p->m, t);
	const int io = sb_meta_is_io(t) || t == SB_META_SEEKS;
	struct cli_line l = {
		.label = "meta",
		.step_word = "test",
		.step = p->step,
		.nsteps = SB_MAX(p->nsteps, p->step),
		.what = sb_meta_test_name(t),
		.pct = total ? 100.0 * (double)SB_MIN(ops, total) / (double)total : -1,
		.bps = -1,
		.ops = -1,
		.ops_unit = t == SB_META_SEEKS ? "seeks/s"
			    : io	       ? "chunks/s"
					       : "files/s",
		.elapsed_ns = now - p->pg.start_ns,
		.eta_ns = -1,
		.eta_of = "test",
	};
	double ops_s;
	int got = sb_rate_get(&p->rate, now, ops, ops, &ops_s, NULL) == 0;
	uint64_t left = total > ops ? total - ops : 0;
	if (p->many) { /* every rank's together, at most a round behind */
		const unsigned h = (p->all.head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
		got = p->have_all && sb_rate_get(&p->all, p->all.t[h], p->all.bytes[h],
						 p->all.ops[h], &ops_s, NULL) == 0;
		l.pct = p->all_total ? 100.0 * (double)SB_MIN(p->all_ops, p->all_total) /
					       (double)p->all_total
				     : -1;
		left = p->all_total > p->all_ops ? p->all_total - p->all_ops : 0;
		snprintf(p->what, sizeof(p->what), "%s, %d ranks", sb_meta_test_name(t),
			 cli_ranks());
		l.what = p->what;
	}
	if (got) {
		if (io && t != SB_META_SEEKS)
			l.bps = ops_s * (double)p->m->io.chunk;
		else
			l.ops = ops_s;
		if (ops_s > 0 && total)
			l.eta_ns = (double)left / ops_s * 1e9;
	}
	cli_progress_draw(&p->pg, &l, now);
}

int meta_progress_poll(struct meta_progress *p)
{
	if (p->pg.quiet && !p->many)
		return 0;
	const uint64_t n = atomic_fetch_add_explicit(&p->ops, 1, memory_order_relaxed);
	if (p->many || p->test < 0 || n % 16)
		return 0; /* many ranks: tick() draws */
	const uint64_t now = sb_now_ns();
	if (now < atomic_load_explicit(&p->next_ns, memory_order_relaxed))
		return 0;
	if (atomic_exchange_explicit(&p->busy, 1, memory_order_acquire))
		return 0; /* another thread is at it */
	const uint64_t ops = n + 1 - p->ops0;
	sb_rate_add(&p->rate, now, ops, ops);
	if (cli_progress_due(&p->pg, now))
		draw(p, now);
	atomic_store_explicit(&p->next_ns, now + 50000000ull, memory_order_relaxed);
	atomic_store_explicit(&p->busy, 0, memory_order_release);
	return 0;
}

/* Many ranks: the rounds, from the thread running the tests (MPI is
 * called from that thread alone), and rank 0's line of their sums. */
void meta_progress_tick(struct meta_progress *p)
{
	uint64_t t_ns, ops, total;
	if (!p->many || p->test < 0)
		return;
	const uint64_t now = sb_now_ns();
	if (now < p->next_tick_ns)
		return;
	p->next_tick_ns = now + 5000000ull;
	const uint64_t mine = atomic_load_explicit(&p->ops, memory_order_relaxed) - p->ops0;
	meta_ranks_tick(mine, test_ops(p->m, (enum sb_meta_test)p->test), now);
	if (!meta_ranks_sums(&t_ns, &ops, &total))
		return;
	sb_rate_add(&p->all, t_ns, ops, ops);
	p->all_ops = ops;
	p->all_total = total;
	p->have_all = 1;
	if (cli_progress_due(&p->pg, now))
		draw(p, now);
}

/* bonnie++'s progress messages, above the line. */
void meta_progress_phase(struct meta_progress *p, enum sb_meta_test t)
{
	static const char *const what[] = {
		"writing a byte at a time",
		"writing intelligently",
		"rewriting",
		"reading a byte at a time",
		"reading intelligently",
		"seeking",
		"creating files in sequential order",
		"stat'ing files in sequential order",
		"deleting files in sequential order",
		"creating files in random order",
		"stat'ing files in random order",
		"deleting files in random order",
	};
	/* no thread of the test has started: nothing else touches p now */
	p->test = (int)t;
	p->step++;
	p->ops0 = atomic_load_explicit(&p->ops, memory_order_relaxed);
	/* the rate from the first operations on (not from before a cache
	 * drop the test begins with) */
	sb_rate_reset(&p->rate);
	sb_rate_reset(&p->all);
	p->have_all = 0;
	p->all_ops = p->all_total = 0;
	p->next_tick_ns = 0;
	cli_progress_note(&p->pg, "meta: %s (%s)", what[t], sb_meta_test_name(t));
}

void meta_progress_end(struct meta_progress *p)
{
	cli_progress_clear(&p->pg);
}
