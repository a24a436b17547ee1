/*
 * storbench verify: from TARGET to the files (or the device) it covers
 * (lib/verify/verify_target.h). Nothing is created before every option was
 * checked, and only files storbench created are ever removed.
 */
#include "lib/verify/verify_target.h"
#include "lib/verify/verify_int.h"
#include "lib/base/units.h"
#include "lib/target/gate.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define NEW_FILE_SIZE (1ull << 30)

/* The region [offset, offset+size) inside something of `total` bytes. A
 * check may ask for more than a file holds: what is not there is missing. */
static int region_in(struct sb_vtarget *t, const struct sb_vtarget_opts *o, uint64_t total,
		     const char *what, char *msg, size_t ml)
{
	char a[32], b[32], c[32];
	const int past_end_ok = o->phase == SB_VPHASE_CHECK && o->size && !t->is_blockdev;
	if (o->offset >= total && !past_end_ok)
		return sb_vfail(msg, ml, -EINVAL, "--offset: %s is beyond the end of the %s (%s)",
				sb_fmt_size(o->offset, a, sizeof(a)), what,
				sb_fmt_size(total, b, sizeof(b)));
	uint64_t size = o->size ? o->size : total - o->offset;
	if (size > total - o->offset && !past_end_ok)
		return sb_vfail(msg, ml, -EINVAL,
				"--size: %s from offset %s goes past the end "
				"of the %s (%s)",
				sb_fmt_size(size, a, sizeof(a)),
				sb_fmt_size(o->offset, b, sizeof(b)), what,
				sb_fmt_size(total, c, sizeof(c)));
	t->offset = o->offset;
	t->size = size;
	return sb_vseg_add(t, t->path, 0, o->offset, size, msg, ml);
}

/* The run's hold on the file or device open as fd (lib/target/hold.h). */
static int hold(int fd, const char *path, int write, char *msg, size_t ml)
{
	long who;
	const int e = sb_hold(fd, write, &who);
	if (e == -EBUSY)
		sb_hold_why(msg, ml, path, who);
	else if (e)
		sb_vfail(msg, ml, e, "cannot lock '%s': %s", path, strerror(-e));
	return e;
}

/* The file TARGET, opened once: a write through the write gate (never a
 * symlink, never a file the kernel uses, without --destroy-data only one
 * that carries storbench's mark), a check as named. */
static int existing_file(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
			 size_t ml)
{
	const int write = o->phase & SB_VPHASE_WRITE;
	struct stat st;
	struct sb_error er;
	int fd = write ? sb_gate_file(t->path, o->destroy, NULL, NULL, &er)
		       : open(t->path, O_RDONLY | O_CLOEXEC);
	if (write && fd < 0) /* what the user asked wrongly: a refusal (-EPERM) */
		return sb_vfail(msg, ml, er.cls == SB_ERR_INPUT ? -EPERM : fd, "%s", er.msg);
	if (fd < 0) {
		const int err = errno;
		return sb_vfail(msg, ml, -err, "cannot open '%s': %s", t->path, strerror(err));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return sb_vfail(msg, ml, -EINVAL, "cannot use '%s': not a regular file", t->path);
	}
	/* held for the run: another run writing it (or, for a write, using
	 * it) is a refusal (the gate's hold to write is this one already) */
	int e = hold(fd, t->path, write, msg, ml);
	if (e) {
		close(fd);
		return e;
	}
	e = region_in(t, o, (uint64_t)st.st_size, "file", msg, ml);
	if (e) {
		close(fd);
		return e;
	}
	t->seg[0].fd = fd;
	return 0;
}

static int block_device(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	t->is_blockdev = 1;
	if ((o->phase & SB_VPHASE_WRITE) && !o->destroy)
		return sb_vfail(msg, ml, -EPERM,
				"refusing to write to block device '%s': verify "
				"overwrites the region it tests (add --destroy-data)",
				t->path);
	int e = region_in(t, o, t->info->capacity, "device", msg, ml);
	if (e || (o->phase & SB_VPHASE_WRITE))
		return e; /* a write holds it with O_EXCL (sb_jobtarget_consent) */
	/* a check: held to read, the device checked whatever its name names */
	const int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_vfail(msg, ml, -errno, "cannot open '%s': %s", t->path, strerror(errno));
	t->seg[0].fd = fd;
	return hold(fd, t->path, 0, msg, ml);
}

static int new_file(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	if (o->phase == SB_VPHASE_CHECK)
		return sb_vfail(msg, ml, -ENOENT, "cannot check '%s': it does not exist", t->path);
	if (o->offset)
		return sb_vfail(msg, ml, -EINVAL,
				"--offset: applies to an existing file or a "
				"device, not to a new file");
	t->size = o->size ? o->size : NEW_FILE_SIZE;
	return sb_vseg_add(t, t->path, 0, 0, t->size, msg, ml);
}

/* What a fill may take: every free block of the filesystem (as root, ext4's
 * reserved ones too, as f3write takes them) and what earlier runs' files
 * hold; the files find the real limit when they are allocated. */
static uint64_t fill_room(const struct sb_vtarget *t)
{
	struct statvfs v;
	uint64_t room = t->info->fs_free;
	if (statvfs(t->path, &v) == 0)
		room = SB_MAX(room, (uint64_t)v.f_bfree * v.f_frsize);
	return room + t->leftover;
}

/* A write: this run's files, under names of its own. A fill (no size)
 * plans all the room there is, and what earlier runs' files hold, which it
 * removes first (as f3write does); sb_vtarget_create cuts the plan where
 * the filesystem is full. */
static int dir_plan(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	char name[4096], a[32];
	uint64_t size = o->size;
	int e = sb_scratch_name(t->run, sizeof(t->run), NULL, "", "");

	if (e < 0)
		return sb_vfail(msg, ml, e, "cannot name files in '%s': %s", t->path, strerror(-e));
	t->free_before = t->info->fs_free;
	if (!size) {
		t->fill = 1;
		t->leftover = sb_vscan_leftover(t);
		t->free_before += t->leftover;
		size = fill_room(t) / o->block_size * o->block_size;
		if (!size)
			return sb_vfail(msg, ml, -ENOSPC,
					"not enough free space in '%s' to fill "
					"(%s free); give --size",
					t->path, sb_fmt_size(t->free_before, a, sizeof(a)));
	}
	t->size = size;
	for (unsigned k = 0; (uint64_t)k * SB_VFILE_SPAN < size; k++) {
		const uint64_t base = (uint64_t)k * SB_VFILE_SPAN;
		if ((e = sb_vname(name, sizeof(name), t->path, t->run, k)) < 0)
			return sb_vfail(msg, ml, e, "cannot name files in '%s': %s", t->path,
					strerror(-e));
		if ((e = sb_vseg_add(t, name, base, 0, SB_MIN(SB_VFILE_SPAN, size - base), msg,
				     ml)))
			return e;
	}
	return 0;
}

static int directory(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	t->is_dir = 1;
	if (o->offset)
		return sb_vfail(msg, ml, -EINVAL,
				"--offset: applies to an existing file or a "
				"device, not to a directory");
	return o->phase == SB_VPHASE_CHECK ? sb_vscan_find(t, o, msg, ml) : dir_plan(t, o, msg, ml);
}

/* A check reads as far as the data says it was written (unless the size
 * was given): a file cut short, or a directory's last files deleted, leave
 * blocks missing, not fewer blocks to check; a file past that end, named
 * as one of the run's, is none of its. */
static int extend_to_region_end(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
				size_t ml)
{
	const uint64_t end = t->region_end;
	char name[4096];
	if (o->size || !end || !t->nseg)
		return 0;
	if (!t->is_dir) {
		struct sb_vseg *s = &t->seg[0];
		if (end > s->offset + s->size)
			s->size = end - s->offset;
		t->size = s->size;
		return 0;
	}
	while (t->nseg && t->seg[t->nseg - 1].base >= end) {
		struct sb_vseg *s = &t->seg[--t->nseg];
		if (s->fd >= 0)
			close(s->fd);
		free(s->path);
	}
	for (unsigned k = 0; (uint64_t)k * SB_VFILE_SPAN < end; k++) {
		const uint64_t base = (uint64_t)k * SB_VFILE_SPAN,
			       want = SB_MIN(SB_VFILE_SPAN, end - base);
		if (k == t->nseg) {
			int e = sb_vname(name, sizeof(name), t->path, t->run, k);
			if (!e)
				e = sb_vseg_add(t, name, base, 0, want, msg, ml);
			if (e)
				return e == -ENAMETOOLONG
					       ? sb_vfail(msg, ml, e, "cannot check '%s': %s",
							  t->path, strerror(-e))
					       : e;
			t->seg[k].missing = 1;
		}
		t->seg[k].size = SB_MAX(t->seg[k].size, want);
	}
	t->size = t->seg[t->nseg - 1].base + t->seg[t->nseg - 1].size;
	return 0;
}

/* Direct I/O: the default where it works; alignment where it is used. */
static int direct_io(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	const struct sb_target_info *in = t->info;
	if (o->direct == 1 && in->direct_ok == 0 && !t->is_blockdev)
		return sb_vfail(msg, ml, -EINVAL,
				"--direct=1: the filesystem of '%s' (%s) does "
				"not support direct I/O; use --direct=0",
				t->path, in->fstype[0] ? in->fstype : "unknown");
	t->direct = o->direct >= 0 ? o->direct : t->is_blockdev || in->direct_ok != 0;
	t->align = t->direct ? (in->logical_bs ? in->logical_bs : 512) : 1;
	if (o->block_size % t->align)
		return sb_vfail(msg, ml, -EINVAL,
				"--block-size: %u bytes is not a multiple of "
				"the device's logical block size (%u bytes), which direct I/O "
				"needs",
				o->block_size, t->align);
	if (t->offset % t->align)
		return sb_vfail(msg, ml, -EINVAL,
				"--offset: must be a multiple of the logical "
				"block size (%u bytes) with direct I/O",
				t->align);
	return 0;
}

/* Whole blocks only: a size the user gave must be one, a default is cut. */
static int whole_blocks(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	char a[32];
	const uint32_t bs = o->block_size;
	if (o->size && o->size % bs)
		return sb_vfail(msg, ml, -EINVAL,
				"--size: must be a multiple of the block size (%s)",
				sb_fmt_size(bs, a, sizeof(a)));
	t->size = 0;
	for (unsigned i = 0; i < t->nseg; i++) {
		struct sb_vseg *s = &t->seg[i];
		s->size -= s->size % bs;
		t->size = s->base + s->offset + s->size - t->offset;
	}
	if (!t->size || (t->nseg && !t->seg[0].size))
		return sb_vfail(msg, ml, -EINVAL, "cannot use '%s': less than one block (%s) to %s",
				t->path, sb_fmt_size(bs, a, sizeof(a)),
				o->phase == SB_VPHASE_CHECK ? "check" : "write");
	return 0;
}

/* A check: what the data says of the run that wrote it. */
static int learn(struct sb_vtarget *t, struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	if (sb_vtarget_learn(t, o) < 0)
		return 0;
	if (!o->seed_given) {
		t->learned = 1;
		o->seed = t->seed;
		if (!o->block_size_given)
			o->block_size = t->block_size;
	}
	/* blocks of another size than the check's say nothing of its region */
	if (t->block_size != o->block_size)
		t->region_end = 0;
	return extend_to_region_end(t, o, msg, ml);
}

int sb_vtarget_resolve(struct sb_vtarget *t, const char *path, const struct sb_target_info *info,
		       struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	int e;
	t->path = path;
	t->info = info;
	switch (info->kind) {
	case SB_TARGET_BLOCK: e = block_device(t, o, msg, ml); break;
	case SB_TARGET_FILE: e = existing_file(t, o, msg, ml); break;
	case SB_TARGET_DIR: e = directory(t, o, msg, ml); break;
	default: e = new_file(t, o, msg, ml); break;
	}
	if (e)
		return e;
	if (o->phase == SB_VPHASE_CHECK && (e = learn(t, o, msg, ml)))
		return e;
	if ((e = direct_io(t, o, msg, ml)))
		return e;
	return whole_blocks(t, o, msg, ml);
}

/* The run's hold on its directory: shared by runs of a given size,
 * exclusive for a fill, which takes all the free space. */
static int lock_dir(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	if (t->dir_fd)
		return 0;
	const int fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return sb_vfail(msg, ml, -errno, "cannot open '%s': %s", t->path, strerror(errno));
	t->dir_fd = fd + 1;
	if (flock(fd, (o->size ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 || errno != EWOULDBLOCK)
		return 0; /* a filesystem without locks: as before there were any */
	return sb_vfail(msg, ml, -EBUSY,
			o->size ? "'%s' is being filled by another storbench "
				  "verify: wait until it ends"
				: "cannot fill '%s': another storbench "
				  "verify is writing there (give --size, or wait until it ends)",
			t->path);
}

static int allocate(int fd, uint64_t size)
{
	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	if (!size || fallocate(fd, 0, 0, (off_t)size) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	return ftruncate(fd, (off_t)size) == 0 ? 0 : -errno;
}

/* Held before it is marked or written, and marked: another run that
 * opens it finds it held, or unmarked and empty, and goes. */
static int prep_seg(int fd, void *ctx)
{
	long *who = ctx;
	const int e = sb_hold_new(fd, who);
	return e ? e : sb_file_mark(fd);
}

/* A new file of need bytes, allocated where the filesystem can. */
static int create_seg(struct sb_vseg *s, char *msg, size_t ml)
{
	int e = sb_vseg_create(s, msg, ml);
	if (e)
		return e;
	if ((e = allocate(s->fd, s->offset + s->size))) {
		sb_vseg_drop(s);
		return sb_vfail(msg, ml, e, "cannot create '%s': %s", s->path, strerror(-e));
	}
	return 0;
}

/* A retired file (sb_vtarget_retire) for a new one, swapped in under its
 * name (sb_scratch_replace) before the old one goes, and only then given
 * its size: the name never stands free, and the filesystem never holds
 * both at once. Where names cannot be swapped, removed and made anew. */
static int renew_seg(struct sb_vseg *s, char *msg, size_t ml)
{
	long who = 0;
	const int fd = sb_scratch_replace(s->path, s->fd, O_RDWR, prep_seg, &who);
	s->retired = 0;
	if (fd == -EOPNOTSUPP) {
		sb_scratch_remove(s->path, s->fd);
		close(s->fd);
		s->fd = -1;
		s->created = 0;
		return create_seg(s, msg, ml);
	}
	if (fd < 0) {
		if (fd == -EBUSY)
			sb_hold_why(msg, ml, s->path, who);
		else
			sb_vfail(msg, ml, fd, "cannot make '%s' anew: %s", s->path, strerror(-fd));
		return fd;
	}
	s->fd = fd;
	const int e = allocate(fd, s->offset + s->size);
	return e ? sb_vfail(msg, ml, e, "cannot create '%s': %s", s->path, strerror(-e)) : 0;
}

int sb_vtarget_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	const struct sb_target_info *in = t->info;
	char a[32], b[32];
	int e;
	if (t->is_blockdev || in->kind == SB_TARGET_FILE)
		return 0;
	if (in->fs_free && t->size > in->fs_free && o->size)
		return sb_vfail(msg, ml, -ENOSPC, "not enough space: %s to write, %s free on %s",
				sb_fmt_size(t->size, a, sizeof(a)),
				sb_fmt_size(in->fs_free, b, sizeof(b)),
				in->mountpoint[0] ? in->mountpoint : "the filesystem");
	if (t->is_dir && (e = lock_dir(t, o, msg, ml)))
		return e;
	if (t->leftover)
		sb_vscan_remove_leftovers(t);
	if (t->fill)
		return sb_vfill_create(t, o, msg, ml);
	for (unsigned i = 0; i < t->nseg; i++) {
		struct sb_vseg *s = &t->seg[i];
		if (s->retired ? (e = renew_seg(s, msg, ml))
			       : s->fd < 0 && (e = create_seg(s, msg, ml)))
			return e;
	}
	return 0;
}
