/* An iozone workload's iteration (storbench soak --workload=iozone): the
 * cells of the sweep it ran as the iteration's figures. */
#include "lib/soak/soak_record.h"
#include "lib/sweep/sweep.h"

int sb_soak_cells_from_sweep(struct sb_soak_iter *it, const struct sb_sweep_result *r)
{
	size_t n = 0;
	double bytes[2] = { 0, 0 }, ns[2] = { 0, 0 };
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++)
				n += r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
	it->ncells = 0;
	it->cells = n ? calloc(n, sizeof(*it->cells)) : NULL;
	if (n && !it->cells)
		return -ENOMEM;
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++) {
				if (r->state[t][fi][ri] != SB_SWEEP_CELL_DONE)
					continue;
				struct sb_soak_cell *c = &it->cells[it->ncells++];
				c->test = t;
				c->file_size = r->file_sizes[fi];
				c->record_size = r->record_sizes[ri];
				c->kibps = (double)r->kibps[t][fi][ri];
				const int w = !sb_sweep_test_writes(t);
				bytes[w] += (double)r->file_sizes[fi];
				ns[w] += (double)r->elapsed_ns[t][fi][ri];
			}
	it->write_bw = ns[0] > 0 ? bytes[0] * 1e9 / ns[0] : 0;
	it->read_bw = ns[1] > 0 ? bytes[1] * 1e9 / ns[1] : 0;
	return 0;
}
