/*
 * A fill of a directory (lib/verify/verify_int.h): the files of the plan,
 * each allocated as far as the filesystem lets it grow. f3write writes
 * 1 GiB files until a write fails with ENOSPC and keeps the last one
 * partial; a verify block records where the region ends, so the end must
 * be known before the first write: the files are allocated first
 * (fallocate, or ftruncate where there is none: FAT zero-fills, exFAT
 * allocates), until the filesystem says it is full.
 */
#include "lib/verify/verify_int.h"
#include "lib/verify/verify_target.h"
#include "lib/base/units.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SPARSE_MARGIN (1ull << 20)

static int full(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG;
}

/* Grow fd's empty file towards want bytes, allocated; where the filesystem
 * is full first, as far as it lets the file grow, to a whole unit (a verify
 * block: steps halved down to one). *got: the size reached. 0, or -errno
 * of a failure other than a full filesystem. */
static int grow(int fd, uint64_t want, uint64_t unit, uint64_t *got)
{
	uint64_t cur = 0, step = want;
	int trunc = 0, synced = 0;
	struct stat st;

	if (want > (uint64_t)INT64_MAX)
		return -EFBIG;
	while (cur < want) {
		const uint64_t n = SB_MIN(step, want - cur);
		int r = trunc ? 0 : fallocate(fd, 0, (off_t)cur, (off_t)n);
		if (!trunc && r < 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
			trunc = 1;
		if (trunc)
			r = ftruncate(fd, (off_t)(cur + n));
		if (r == 0) {
			cur += n;
			continue;
		}
		if (!full(errno))
			return -errno;
		/* blocks freed just before (earlier runs' files) may wait for
		 * the journal's commit: once, commit and try again */
		if (!synced++ && syncfs(fd) == 0)
			continue;
		if (n <= unit)
			break;
		step = SB_MAX(n / 2 / unit, 1) * unit;
	}
	*got = cur;
	/* a failed step may have left the file longer (ext4 keeps what it
	 * allocated): cut it where the plan ends */
	if (fstat(fd, &st) < 0)
		return -errno;
	return (uint64_t)st.st_size == cur || ftruncate(fd, (off_t)cur) == 0 ? 0 : -errno;
}

/* Did the filesystem set space aside for the file grown to size (not a
 * sparse file: a filesystem with neither fallocate nor allocation on
 * ftruncate, as many FUSE ones)? */
static int reserved(int fd, uint64_t size)
{
	struct stat st;
	return fstat(fd, &st) < 0 || (uint64_t)st.st_blocks * 512 >= size - size / 16;
}

/* Where a fill must end on a filesystem that sets nothing aside: the free
 * space it says it has, less a margin for its own use (a write past that
 * fails with ENOSPC, as a failed write). */
static uint64_t sparse_end(const struct sb_vtarget *t, uint64_t unit)
{
	struct statvfs v;
	if (statvfs(t->path, &v) < 0)
		return t->size;
	const uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize;
	const uint64_t margin = SB_MAX(avail / 100, SPARSE_MARGIN);
	return avail > margin ? (avail - margin) / unit * unit : 0;
}

/* The planned segments from i on are not used: the plan ends before them. */
static void cut_plan(struct sb_vtarget *t, unsigned i)
{
	while (t->nseg > i) {
		struct sb_vseg *s = &t->seg[--t->nseg];
		if (s->fd >= 0)
			sb_vseg_drop(s);
		free(s->path);
	}
}

int sb_vfill_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	const uint64_t unit = o->block_size ? o->block_size : 512;
	uint64_t end = t->size;
	unsigned i;
	char a[32];

	for (i = 0; i < t->nseg && t->seg[i].base < end; i++) {
		struct sb_vseg *s = &t->seg[i];
		const uint64_t want = SB_MIN(s->size, end - s->base);
		uint64_t got = 0;
		int e = s->fd >= 0 ? 0 : sb_vseg_create(s, msg, ml);
		if (e)
			return e;
		if ((e = grow(s->fd, want, unit, &got))) {
			sb_vseg_drop(s);
			return sb_vfail(msg, ml, e, "cannot create '%s': %s", s->path,
					strerror(-e));
		}
		if (i == 0 && !reserved(s->fd, got)) {
			end = SB_MIN(end, sparse_end(t, unit));
			if (got > end && ftruncate(s->fd, (off_t)end) < 0)
				return sb_vfail(msg, ml, -errno, "cannot create '%s': %s", s->path,
						strerror(errno));
			got = SB_MIN(got, end);
		}
		if (!got)
			break;
		if (got < s->size)
			end = s->base + got;
		s->size = got;
	}
	cut_plan(t, i);
	if (!t->nseg)
		return sb_vfail(msg, ml, -ENOSPC,
				"not enough free space in '%s' to fill (%s free); give --size",
				t->path, sb_fmt_size(t->free_before, a, sizeof(a)));
	t->size = t->seg[t->nseg - 1].base + t->seg[t->nseg - 1].size;
	return 0;
}
