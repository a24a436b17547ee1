/*
 * What a sweep's progress line shows, kept from the run's callbacks
 * (sweep.h, struct sb_sweep_meter): the cell of how many, the bytes of
 * the whole sweep done (a test moves its file's size), the records' rate.
 */
#include "lib/sweep/sweep.h"

/* The bytes of every test of every cell that runs, once. */
static void totals(struct sb_sweep_meter *m, const struct sb_sweep_result *r)
{
	for (unsigned fi = 0; fi < r->nfile; fi++)
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (!sb_sweep_cell_runs(r, fi, ri))
				continue;
			m->ncells++;
			for (int t = 0; t < SB_SWEEP_NTESTS; t++)
				if (r->state[t][fi][ri])
					m->total += r->file_sizes[fi];
		}
}

void sb_sweep_meter_start(struct sb_sweep_meter *m, const struct sb_sweep_result *r)
{
	memset(m, 0, sizeof(*m));
	m->r = r;
	m->test = -1;
}

int sb_sweep_meter_step(struct sb_sweep_meter *m, unsigned fi, unsigned ri, int test, uint64_t now)
{
	const struct sb_sweep_result *r = m->r;
	int size_begins = 0;
	if (!m->total && !m->ncells)
		totals(m, r);
	if (m->test >= 0) /* the test before ended */
		m->ended += r->file_sizes[m->fi];
	if (test >= 0 && m->test < 0) /* a cell begins */
		size_begins = !m->cell++ || fi != m->fi;
	m->fi = fi;
	m->ri = ri;
	m->test = test;
	m->test_moved0 = m->moved;
	if (test >= 0)
		sb_rate_add(&m->rate, now, m->moved, 0);
	return size_begins;
}

int sb_sweep_meter_record(struct sb_sweep_meter *m, uint64_t *now)
{
	if (m->test < 0)
		return 0;
	const uint64_t rec = m->r->record_sizes[m->ri];
	m->moved += rec;
	m->unchecked += rec;
	if (m->unchecked < (1u << 20))
		return 0;
	m->unchecked = 0;
	*now = sb_now_ns();
	sb_rate_add(&m->rate, *now, m->moved, 0);
	return 1;
}

uint64_t sb_sweep_meter_done(const struct sb_sweep_meter *m)
{
	if (m->test < 0)
		return m->ended;
	const uint64_t fsize = m->r->file_sizes[m->fi];
	return m->ended + SB_MIN(m->moved - m->test_moved0, fsize);
}
