/* Equal-byte bins of a write's throughput, merged in pairs when full
 * (cliff.h). */
#include "lib/cliff/cliff.h"

void sb_cliff_bins_init(struct sb_cliff_bins *b, uint64_t first_bin)
{
	memset(b, 0, sizeof(*b));
	b->bin_bytes = first_bin ? first_bin : SB_CLIFF_FIRST_BIN;
}

/* Every two neighbours become one bin of twice the bytes (n is even:
 * SB_CLIFF_MAX_BINS is); the bin being filled keeps its bytes and time, now
 * half of a bin. */
static void merge(struct sb_cliff_bins *b)
{
	for (size_t i = 0; i < b->n / 2; i++)
		b->ns[i] = b->ns[2 * i] + b->ns[2 * i + 1];
	b->n /= 2;
	b->bin_bytes *= 2;
}

void sb_cliff_bins_add(struct sb_cliff_bins *b, uint64_t bytes, uint64_t ns)
{
	b->samples++;
	b->total_bytes += bytes;
	b->total_ns += (double)ns;
	if (!bytes) {
		b->part_ns += (double)ns;
		return;
	}
	uint64_t left = bytes;
	while (left) {
		const uint64_t take = SB_MIN(left, b->bin_bytes - b->part_bytes);
		b->part_bytes += take;
		b->part_ns += (double)ns * (double)take / (double)bytes;
		left -= take;
		if (b->part_bytes < b->bin_bytes)
			break;
		if (b->n == SB_CLIFF_MAX_BINS)
			merge(b);
		if (b->part_bytes < b->bin_bytes)
			continue; /* the merge made the bin being filled bigger */
		b->ns[b->n++] = b->part_ns;
		b->part_bytes = 0;
		b->part_ns = 0;
	}
}
