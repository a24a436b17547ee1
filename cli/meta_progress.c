/*
 * storbench meta's progress: bonnie++'s message as each test starts, and
 * the live line "meta test 3 of 12, rewrite: 42% 120 MiB/s  elapsed 3s
 * ETA 2s (test)". The run (lib/meta) counts the operations and tells the
 * progress hook when a line may be due, from whichever thread of a test
 * found it so (one at a time); under mpirun rank 0 hears of every rank's
 * operations as each round ends.
 */
#include "cli/cmd_meta.h"

void meta_progress_init(struct meta_progress *p, const struct sb_meta_run *m, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->m = m;
	cli_progress_init(&p->pg, quiet);
}

static void draw(struct meta_progress *p, uint64_t now)
{
	const struct sb_meta_progress *q = &p->p;
	const enum sb_meta_test t = q->test;
	const int io = sb_meta_is_io(t) || t == SB_META_SEEKS;
	struct cli_line l = {
		.label = "meta",
		.step_word = "test",
		.step = q->step,
		.nsteps = SB_MAX(q->nsteps, q->step),
		.what = sb_meta_test_name(t),
		.pct = q->total ? 100.0 * (double)SB_MIN(q->ops, q->total) / (double)q->total : -1,
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
	int got = sb_rate_get(&p->rate, now, q->ops, q->ops, &ops_s, NULL) == 0;
	uint64_t left = q->total > q->ops ? q->total - q->ops : 0;
	if (q->nranks > 1) { /* every rank's together, at most a round behind */
		const unsigned h = (p->all.head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
		got = p->have_all && sb_rate_get(&p->all, p->all.t[h], p->all.bytes[h],
						 p->all.ops[h], &ops_s, NULL) == 0;
		l.pct = q->all_total ? 100.0 * (double)SB_MIN(q->all_ops, q->all_total) /
					       (double)q->all_total
				     : -1;
		left = q->all_total > q->all_ops ? q->all_total - q->all_ops : 0;
		snprintf(p->what, sizeof(p->what), "%s, %u ranks", sb_meta_test_name(t), q->nranks);
		l.what = p->what;
	}
	if (got) {
		if (io && t != SB_META_SEEKS)
			l.bps = ops_s * (double)p->m->io.chunk;
		else
			l.ops = ops_s;
		if (ops_s > 0 && q->total)
			l.eta_ns = (double)left / ops_s * 1e9;
	}
	cli_progress_draw(&p->pg, &l, now);
}

void meta_progress_tell(void *ctx, const struct sb_meta_progress *q)
{
	struct meta_progress *p = ctx;
	p->p = *q;
	if (q->nranks > 1) {
		sb_rate_add(&p->all, q->all_ns, q->all_ops, q->all_ops);
		p->have_all = 1;
	} else {
		sb_rate_add(&p->rate, q->now_ns, q->ops, q->ops);
	}
	if (cli_progress_due(&p->pg, q->now_ns))
		draw(p, q->now_ns);
}

/* bonnie++'s progress messages, above the line. */
void meta_progress_phase(void *ctx, enum sb_meta_test t, unsigned step)
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
	struct meta_progress *p = ctx;
	/* the rate from the first operations on (not from before a cache
	 * drop the test begins with) */
	p->p.test = t;
	p->p.step = step;
	sb_rate_reset(&p->rate);
	sb_rate_reset(&p->all);
	p->have_all = 0;
	cli_progress_note(&p->pg, "meta: %s (%s)", what[t], sb_meta_test_name(t));
}

void meta_progress_end(struct meta_progress *p)
{
	cli_progress_clear(&p->pg);
}
