/*
 * The pseudo-random order of flashbench's --random and --open-au (vm.c:
 * lfsr): a maximal-length Galois LFSR, so every index is visited exactly
 * once per period. Toggle masks from Xilinx XAPP052's tap table.
 */
#include "lib/flash/flash.h"

static const uint32_t masks[] = {
	/* width 8..24 */
	0xB8,	 0x110,	  0x240,   0x500,   0x829,    0x100D,	0x2015,	  0x6000,   0xD008,
	0x12000, 0x20400, 0x40023, 0x90000, 0x140000, 0x300000, 0x420000, 0xE10000,
};

int sb_lfsr_init(struct sb_lfsr *l, uint32_t n)
{
	if (n == 0 || n > (1u << 24))
		return -EINVAL;
	unsigned w = 8;
	while (w < 24 && ((1u << w) - 1) < n)
		w++;
	l->mask = masks[w - 8];
	l->state = 1;
	l->n = n;
	return 0;
}

/* the states run over 1 .. 2^w - 1; index = state - 1 */
static uint32_t step(struct sb_lfsr *l)
{
	const uint32_t s = l->state;
	l->state = (s >> 1) ^ ((s & 1u) ? l->mask : 0u);
	return s - 1;
}

uint32_t sb_lfsr_next(struct sb_lfsr *l)
{
	uint32_t v;
	while ((v = step(l)) >= l->n)
		;
	return v;
}
