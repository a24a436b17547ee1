/*
 * The fake-capacity probe (lib/verify/capacity.h) on a whole block device:
 * its block reads and writes go through the psync engine, whose write
 * bounds keep the probe off the first MiB (the partition table).
 */
#include "lib/verify/capacity.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <unistd.h>

struct sb_capacity_blockdev {
	int fd;
	struct sb_engine eng;
	uint32_t bs;
	uint64_t nblocks;
	int (*stop)(void *ctx);
	void *stop_ctx;
};

static int pio(struct sb_capacity_blockdev *d, uint64_t pos, void *buf, uint32_t n, int write)
{
	struct sb_io io = { .buf = buf,
			    .offset = pos * d->bs,
			    .len = n * d->bs,
			    .ddir = write ? SB_DDIR_WRITE : SB_DDIR_READ };
	int r = sb_engine_queue(&d->eng, &io);
	if (r < 0)
		return r;
	return io.res == (int64_t)io.len ? 0 : io.res < 0 ? (int)io.res : -EIO;
}

static int read_cb(void *ctx, uint64_t pos, void *buf, uint32_t n)
{
	return pio(ctx, pos, buf, n, 0);
}

static int write_cb(void *ctx, uint64_t pos, const void *buf, uint32_t n)
{
	return pio(ctx, pos, (void *)buf, n, 1);
}

static int stop_cb(void *ctx)
{
	const struct sb_capacity_blockdev *d = ctx;
	return d->stop ? d->stop(d->stop_ctx) : 0;
}

int sb_capacity_blockdev_open(struct sb_capacity_blockdev **out, int fd, const char *path,
			      uint64_t capacity, uint32_t block_size, char *msg, size_t ml)
{
	struct sb_capacity_blockdev *d = calloc(1, sizeof(*d));
	int e;

	*out = NULL;
	if (!d) {
		close(fd);
		snprintf(msg, ml, "out of memory");
		return -ENOMEM;
	}
	d->bs = block_size;
	d->nblocks = capacity / block_size;
	d->fd = fd;
	if ((e = sb_engine_init(&d->eng, sb_engine_find("psync"), d->fd, 1, 1)) < 0) {
		snprintf(msg, ml, "cannot use '%s': %s", path, strerror(-e));
		close(d->fd);
		free(d);
		return e;
	}
	/* the probe leaves the first MiB (the partition table) alone */
	sb_engine_set_write_bounds(&d->eng, sb_capacity_first_block(d->bs) * d->bs, capacity);
	*out = d;
	return 0;
}

int sb_capacity_blockdev_run(struct sb_capacity_blockdev *d, uint64_t seed, int (*stop)(void *ctx),
			     void *ctx, struct sb_capacity_result *out)
{
	const struct sb_capacity_dev dev = { d->nblocks, d->bs, read_cb, write_cb, d, stop_cb };
	d->stop = stop;
	d->stop_ctx = ctx;
	return sb_capacity_run(&dev, seed, out);
}

void sb_capacity_blockdev_close(struct sb_capacity_blockdev *d)
{
	if (!d)
		return;
	sb_engine_cleanup(&d->eng);
	close(d->fd);
	free(d);
}
