/*
 * How fast verify blocks are made and checked by one core: fill (PRNG
 * payload and checksum), check of intact blocks (checksum and header), and
 * check of foreign ones (zeros: the slow path, which regenerates half a
 * payload before it gives up), in GiB per second of one core's CPU time,
 * the best of a few tries. Built and run by bench/verify-speed.
 */
#include "lib/sb.h"
#include "lib/verify/block.h"
#include "lib/verify/crc32c.h"
#include "lib/verify/ranges.h"

#define BUF (16u << 20)	     /* larger than the caches, as a device's data is */
#define TOTAL (512ull << 20) /* bytes per try */
#define TRIES 5		     /* the best counts: the machine may be shared */

/* CPU time of this thread: a figure per core even when others compete */
static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double once(const struct sb_verify_fmt *f, unsigned char *buf, int what)
{
	struct sb_verify_acc acc;
	uint64_t t0 = cpu_ns(), done = 0;

	sb_verify_acc_init(&acc, f->block_size, 16);
	for (uint64_t off = 0; done < TOTAL; off += BUF, done += BUF) {
		if (what == 0)
			sb_verify_fill(f, buf, BUF, off, 1);
		else
			sb_verify_check(f, buf, BUF, what == 1 ? 0 : off, &acc);
	}
	sb_verify_acc_free(&acc);
	return (double)done / ((double)(cpu_ns() - t0) / 1e9) / (1u << 30);
}

static double run(const struct sb_verify_fmt *f, unsigned char *buf, int what)
{
	double best = 0;
	for (int i = 0; i < TRIES; i++)
		best = SB_MAX(best, once(f, buf, what));
	return best;
}

int main(void)
{
	static const uint32_t sizes[] = { 4096, 512, 65536 };
	unsigned char *buf = aligned_alloc(4096, BUF);
	if (!buf)
		return 1;
	printf("verify blocks, GiB/s of one core (CPU time, best of %d); crc32c instruction: %s\n", TRIES,
	       sb_crc32c_hw() ? "yes" : "no");
	printf("%-8s %-7s %8s %14s %14s\n", "block", "sum", "fill", "check intact",
	       "check zeros");
	for (size_t i = 0; i < SB_ARRAY_SIZE(sizes); i++)
		for (unsigned csum = SB_VERIFY_CSUM_XXH3; csum <= SB_VERIFY_CSUM_CRC32C; csum++) {
			struct sb_verify_fmt f;
			if (!sb_verify_csum_supported(csum))
				continue;
			sb_verify_fmt_init(&f, 12345, 1, sizes[i]);
			f.csum = (uint16_t)csum;
			const double fill = run(&f, buf, 0);
			const double check = run(&f, buf, 1);
			memset(buf, 0, BUF);
			const double zeros = run(&f, buf, 2);
			printf("%-8u %-7s %8.2f %14.2f %14.2f\n", sizes[i],
			       csum == SB_VERIFY_CSUM_XXH3 ? "xxh3" : "crc32c", fill, check, zeros);
		}
	free(buf);
	return 0;
}
