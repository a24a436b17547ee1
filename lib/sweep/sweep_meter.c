/*
 * What a sweep's progress shows, kept as it runs (struct sweep_run's
 * meter): the cell of how many, the bytes of the whole sweep done (a test
 * moves its file's size) and of the records asked for, told to the
 * progress hook.
 */
#include "lib/sweep/sweep_int.h"

/* The bytes of every test of every cell that runs, once. */
void sb_sweep_totals(struct sweep_run *s)
{
	const struct sb_sweep_result *r = s->r;
	for (unsigned fi = 0; fi < r->nfile; fi++)
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (!sb_sweep_cell_runs(r, fi, ri))
				continue;
			s->ncells++;
			for (int t = 0; t < SB_SWEEP_NTESTS; t++)
				if (r->state[t][fi][ri])
					s->total += r->file_sizes[fi];
		}
}

uint64_t sb_sweep_done_bytes(const struct sweep_run *s)
{
	if (s->test < 0)
		return s->ended;
	const uint64_t fsize = s->r->file_sizes[s->fi];
	return s->ended + SB_MIN(s->moved - s->test_moved0, fsize);
}

static void tell(struct sweep_run *s, enum sb_sweep_tell kind, uint64_t now, int size_begins)
{
	const struct sb_sweep_progress p = {
		.kind = kind,
		.test = s->test,
		.fi = s->fi,
		.ri = s->ri,
		.cell = s->cell,
		.ncells = s->ncells,
		.size_begins = size_begins,
		.done = sb_sweep_done_bytes(s),
		.total = s->total,
		.moved = s->moved,
		.now_ns = now,
		.nranks = s->nranks,
		.have_all = s->have_all,
		.all_done = s->all_done,
		.all_moved = s->all_moved,
		.all_ns = s->all_ns,
	};
	s->h->progress(s->h->ctx, &p);
}

void sb_sweep_told(struct sweep_run *s, enum sb_sweep_tell kind, uint64_t now)
{
	tell(s, kind, now, 0);
}

void sb_sweep_step(struct sweep_run *s, unsigned fi, unsigned ri, int test)
{
	int size_begins = 0;
	if (s->test >= 0) /* the test before ended */
		s->ended += s->r->file_sizes[s->fi];
	if (test >= 0 && s->test < 0) /* a cell begins */
		size_begins = !s->cell++ || fi != s->fi;
	s->fi = fi;
	s->ri = ri;
	s->test = test;
	s->test_moved0 = s->moved;
	if (s->h->progress)
		tell(s, SB_SWEEP_TELL_STEP, sb_now_ns(), size_begins);
}
