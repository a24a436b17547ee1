/*
 * e4defrag: fio's engine of that name, defragmentation activity on ext4.
 * Each write of bs at an offset moves the file's blocks of that range into
 * a donor file with EXT4_IOC_MOVE_EXT, the donor's (freshly allocated)
 * blocks taking their place: the data stays, its layout changes. The run
 * opens the donor beside the job's file (e->aux_fd, fio's donorname=);
 * without inplace the donor's range is allocated once, before the first
 * move (the region of the file, as fio's init does); with inplace=1 each
 * move allocates the request's range in the donor first and truncates
 * the donor to nothing after (fio's "alloc and free space inside defrag
 * event"). A read or a trim fails with EINVAL, as fio's: only writes
 * change the layout. A move that stops short is asked again for the rest;
 * one that moves nothing fails with EINVAL (fio: beyond the file's end).
 * Anywhere but ext4 the ioctl fails: the request fails and e->why names
 * the engine and the filesystem the file is on.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* The kernel's ABI (fs/ext4/ext4.h; include/uapi/linux/ext4.h only from
 * Linux 6.x, absent from older and musl's headers): 'f' 15, read-write,
 * this struct. Sizes and offsets are in the filesystem's blocks. */
struct sb_move_extent {
	uint32_t reserved; /* zero */
	uint32_t donor_fd;
	uint64_t orig_start;
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len; /* set by the kernel */
};
#define SB_EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct sb_move_extent)
#define SB_EXT4_MAGIC 0xEF53u

struct e4d {
	int ready; /* the donor prepared (its blocks size read, allocated) */
	uint64_t bsz;
	char why[160];
};

static const char *fs_name(int fd)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
		{ 0x01021994ul, "tmpfs" }, { 0x858458f6ul, "ramfs" },	{ 0x58465342ul, "xfs" },
		{ 0x9123683eul, "btrfs" }, { 0xF2F52010ul, "f2fs" },	{ 0x6969ul, "nfs" },
		{ 0x65735546ul, "fuse" },  { 0x794c7630ul, "overlay" }, { 0x4d44ul, "vfat" },
		{ 0x2011BAB0ul, "exfat" }, { 0x2fc12fc1ul, "zfs" },	{ SB_EXT4_MAGIC, "ext4" },
	};
	struct statfs st;
	if (fstatfs(fd, &st) < 0)
		return "an unknown filesystem";
	for (size_t i = 0; i < SB_ARRAY_SIZE(fs); i++)
		if ((unsigned long)st.f_type == fs[i].magic)
			return fs[i].name;
	return "a filesystem that is not ext4";
}

/* The request fails with err; the job's message says why, once. */
static int fail(struct sb_engine *e, struct sb_io *io, int err, const char *what)
{
	struct e4d *d = e->priv;
	const char *fs = fs_name(e->fd);
	if (!d->why[0]) {
		if (strcmp(fs, "ext4") && (err == ENOTTY || err == EOPNOTSUPP || err == EINVAL))
			snprintf(d->why, sizeof(d->why),
				 "ioengine=e4defrag needs ext4, the file is on %s (%s: %s)", fs,
				 what, strerror(err));
		else
			snprintf(d->why, sizeof(d->why), "ioengine=e4defrag: %s on %s: %s", what,
				 fs, strerror(err));
		e->why = d->why;
	}
	io->res = -err;
	return SB_Q_DONE;
}

static int prepare(struct sb_engine *e)
{
	struct e4d *d = e->priv;
	struct stat st;
	if (e->aux_fd < 0)
		return -EBADF;
	if (fstat(e->aux_fd, &st) < 0)
		return -errno;
	d->bsz = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	if (!e->inplace && e->whi > e->wlo && e->whi != UINT64_MAX &&
	    fallocate(e->aux_fd, 0, (off_t)e->wlo, (off_t)(e->whi - e->wlo)) < 0)
		return -errno;
	d->ready = 1;
	return 0;
}

/* Move [offset, offset + len) of the file into the donor, asking again
 * for what a short move left: the bytes moved, or -errno. */
static int64_t move(struct sb_engine *e, const struct sb_io *io)
{
	const struct e4d *d = e->priv;
	const uint64_t end = io->offset + io->len;
	uint64_t at = io->offset / d->bsz * d->bsz;
	while (at < end) {
		struct sb_move_extent me = { 0 };
		me.donor_fd = (uint32_t)e->aux_fd;
		me.orig_start = me.donor_start = at / d->bsz;
		me.len = (end + d->bsz - 1) / d->bsz - me.orig_start;
		const int r = ioctl(e->fd, SB_EXT4_IOC_MOVE_EXT, &me);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!me.moved_len)
			return -EINVAL; /* beyond the file's end, as fio says */
		at += me.moved_len * d->bsz;
	}
	return io->len;
}

static int e4d_queue(struct sb_engine *e, struct sb_io *io)
{
	struct e4d *d = e->priv;
	int e2;
	if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC) {
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	if (io->ddir != SB_DDIR_WRITE) {
		io->res = -EINVAL; /* fio's: a move is a write, nothing else */
		return SB_Q_DONE;
	}
	if (!d->ready && (e2 = prepare(e)) < 0)
		return fail(e, io, -e2, "allocating the donor file");
	if (e->inplace && fallocate(e->aux_fd, 0, (off_t)io->offset, (off_t)io->len) < 0)
		return fail(e, io, errno, "allocating the donor file");
	const int64_t r = move(e, io);
	if (e->inplace && ftruncate(e->aux_fd, 0) < 0 && r >= 0)
		return fail(e, io, errno, "truncating the donor file");
	if (r < 0)
		return fail(e, io, (int)-r, "EXT4_IOC_MOVE_EXT");
	io->res = r;
	return SB_Q_DONE;
}

static int e4d_init(struct sb_engine *e)
{
	if (e->fd < 0)
		return -EBADF;
	e->priv = calloc(1, sizeof(struct e4d));
	return e->priv ? 0 : -ENOMEM;
}

static void e4d_cleanup(struct sb_engine *e)
{
	free(e->priv);
	e->priv = NULL;
	e->why = NULL;
}

const struct sb_engine_ops sb_engine_e4defrag = {
	.name = "e4defrag",
	.desc = "fio's e4defrag: each write moves its range's blocks into a donor file "
		"(EXT4_IOC_MOVE_EXT, ext4 only)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_DONOR,
	.available = sb_fileop_available,
	.init = e4d_init,
	.queue = e4d_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = e4d_cleanup,
};
