/*
 * Fake-capacity probe in the manner of f3probe (docs/verify.md, and
 * METHODS.md 2.4): a few thousand single-block writes and reads that find
 * where a device stops keeping data. Three findings:
 *   - a cache in front of the medium: blocks written near the end read back
 *     while few, and vanish once more than the cache was written;
 *   - wrap-around: a block written at g reads back at g + 2^k (the address
 *     decoder ignores the high bits), so the usable size is 2^k;
 *   - the usable size: a search for the first position that does not keep
 *     a block, confirmed by random samples below it.
 * Destructive: every block from the first MiB to the end may be written.
 * The device is reached through callbacks, so tests can emulate fakes.
 */
#ifndef SB_VERIFY_CAPACITY_H
#define SB_VERIFY_CAPACITY_H

#include "lib/sb.h"

struct sb_capacity_dev {
	uint64_t nblocks;    /* the size the device announces, in blocks */
	uint32_t block_size; /* bytes: its logical block size, a multiple of 512 */
	/* n consecutive blocks at block position pos: 0 or -errno */
	int (*read)(void *ctx, uint64_t pos, void *buf, uint32_t n);
	int (*write)(void *ctx, uint64_t pos, const void *buf, uint32_t n);
	void *ctx;
	/* polled between steps: non-zero stops the probe (Ctrl-C); may be NULL */
	int (*stop)(void *ctx);
};

enum sb_capacity_kind {
	SB_CAPACITY_GOOD,	/* keeps data everywhere it announces */
	SB_CAPACITY_DAMAGED,	/* keeps no data even at the start */
	SB_CAPACITY_LIMBO,	/* loses writes past the usable size */
	SB_CAPACITY_WRAPAROUND, /* past the usable size, writes land at the start again */
	SB_CAPACITY_CHAIN,	/* wraps, but not everything below the wrap is usable */
};

const char *sb_capacity_kind_name(enum sb_capacity_kind k);

struct sb_capacity_result {
	enum sb_capacity_kind kind;
	uint64_t announced_blocks;
	uint64_t usable_blocks; /* blocks [0, usable) keep data */
	int wrap_order;		/* addresses wrap at 2^wrap_order bytes; 0: no wrap */
	uint64_t cache_blocks;	/* approximate size of a cache found, 0 none */
	uint64_t blocks_written, blocks_read;
	uint64_t io_errors; /* reads or writes that failed (counted as lost blocks) */
	int interrupted;
};

/* The first block the probe writes: everything before the first MiB is
 * left alone (partition table). */
uint64_t sb_capacity_first_block(uint32_t block_size);

/* Probe d; seed makes the random choices and the data of this run. 0, or
 * -EINVAL (a device too small: under 2 MiB), -ENOMEM. */
int sb_capacity_run(const struct sb_capacity_dev *d, uint64_t seed, struct sb_capacity_result *out);

/* A probe as the results report it. */
struct sb_capacity_report {
	struct sb_capacity_result res;
	uint32_t block_size; /* the device's logical block size */
	uint64_t seed;
	uint64_t ns; /* how long it took */
};

/* The probe on a whole block device (lib/verify/capacity_blockdev.c),
 * through the psync engine with O_DIRECT, its writes bounded to the device
 * past its first MiB. The caller holds the device and has its consent. */
struct sb_capacity_blockdev;
/* The device open as fd (O_RDWR | O_DIRECT, a descriptor the write gate
 * gave: lib/target/gate.h; taken over, closed by close or on failure),
 * named path, of capacity bytes in blocks of block_size. 0, or -errno with
 * msg saying what failed. */
int sb_capacity_blockdev_open(struct sb_capacity_blockdev **out, int fd, const char *path,
			      uint64_t capacity, uint32_t block_size, char *msg, size_t ml);
/* Run the probe: as sb_capacity_run; stop (may be NULL) is polled. */
int sb_capacity_blockdev_run(struct sb_capacity_blockdev *d, uint64_t seed, int (*stop)(void *ctx),
			     void *ctx, struct sb_capacity_result *out);
void sb_capacity_blockdev_close(struct sb_capacity_blockdev *d);

#endif
