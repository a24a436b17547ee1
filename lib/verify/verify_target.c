/*
 * storbench verify: from TARGET to the files (or the device) it covers
 * (lib/verify/verify_target.h). Nothing is created before every option was
 * checked, and only files storbench created are ever removed.
 */
#include "lib/verify/verify_target.h"
#include "lib/base/units.h"
#include "lib/job/buffer.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#define NEW_FILE_SIZE (1ull << 30)
#define DIR_RESERVE (64ull << 20) /* left free when a directory is filled */
#define LEARN_LEN (1u << 20)

/* msg gets the message; returns err. */
static int __attribute__((format(printf, 4, 5)))
fail(char *msg, size_t ml, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, ml, fmt, ap);
	va_end(ap);
	return err;
}

static int add_seg(struct sb_vtarget *t, const char *path, uint64_t base, uint64_t off,
		   uint64_t size, char *msg, size_t ml)
{
	struct sb_vseg *s = realloc(t->seg, (t->nseg + 1) * sizeof(*s));
	if (!s)
		return fail(msg, ml, -ENOMEM, "out of memory");
	t->seg = s;
	s += t->nseg;
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (!s->path)
		return fail(msg, ml, -ENOMEM, "out of memory");
	s->base = base;
	s->offset = off;
	s->size = size;
	t->nseg++;
	return 0;
}

/* The region [offset, offset+size) inside something of `total` bytes. */
static int region_in(struct sb_vtarget *t, const struct sb_vtarget_opts *o, uint64_t total,
		     const char *what, char *msg, size_t ml)
{
	char a[32], b[32], c[32];
	if (o->offset >= total)
		return fail(msg, ml, -EINVAL, "--offset: %s is beyond the end of the %s (%s)",
			    sb_fmt_size(o->offset, a, sizeof(a)), what,
			    sb_fmt_size(total, b, sizeof(b)));
	uint64_t size = o->size ? o->size : total - o->offset;
	if (size > total - o->offset)
		return fail(msg, ml, -EINVAL, "--size: %s from offset %s goes past the end of the "
			    "%s (%s)", sb_fmt_size(size, a, sizeof(a)),
			    sb_fmt_size(o->offset, b, sizeof(b)), what,
			    sb_fmt_size(total, c, sizeof(c)));
	t->offset = o->offset;
	t->size = size;
	return add_seg(t, t->path, 0, o->offset, size, msg, ml);
}

static int existing_file(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
			 size_t ml)
{
	if ((o->phase & SB_VPHASE_WRITE) && !o->destroy && sb_file_is_ours(t->path) != 1)
		return fail(msg, ml, -EPERM, "refusing to overwrite '%s': storbench did not "
			    "create it (name a new file or a directory, or add --destroy-data)",
			    t->path);
	return region_in(t, o, t->info->file_size, "file", msg, ml);
}

static int block_device(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
			size_t ml)
{
	t->is_blockdev = 1;
	if ((o->phase & SB_VPHASE_WRITE) && !o->destroy)
		return fail(msg, ml, -EPERM, "refusing to write to block device '%s': verify "
			    "overwrites the region it tests (add --destroy-data)", t->path);
	return region_in(t, o, t->info->capacity, "device", msg, ml);
}

static int new_file(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	if (o->phase == SB_VPHASE_CHECK)
		return fail(msg, ml, -ENOENT, "cannot check '%s': it does not exist", t->path);
	if (o->offset)
		return fail(msg, ml, -EINVAL, "--offset: applies to an existing file or a "
			    "device, not to a new file");
	t->size = o->size ? o->size : NEW_FILE_SIZE;
	return add_seg(t, t->path, 0, 0, t->size, msg, ml);
}

/* Check: the files a write left, up to --size or as many as there are. */
static int dir_find(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	char name[4096];
	struct stat st;
	for (unsigned k = 0;; k++) {
		const uint64_t base = (uint64_t)k * SB_VFILE_SPAN;
		if (o->size && base >= o->size)
			break;
		snprintf(name, sizeof(name), SB_VFILE_FMT, t->path, k);
		const int there = stat(name, &st) == 0 && S_ISREG(st.st_mode);
		if (!there && !o->size) {
			if (!k)
				return fail(msg, ml, -ENOENT, "nothing to check in '%s': '%s' is not "
					    "there (write it first with --phase=write)", t->path,
					    name);
			break;
		}
		uint64_t size = o->size ? SB_MIN(SB_VFILE_SPAN, o->size - base)
					: (uint64_t)st.st_size;
		int e = add_seg(t, name, base, 0, size, msg, ml);
		if (e)
			return e;
		t->seg[t->nseg - 1].missing = !there;
		t->size = base + size;
	}
	return 0;
}

static int dir_plan(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	char name[4096], a[32];
	const uint64_t free_ = t->info->fs_free;
	uint64_t size = o->size;

	if (!size) {
		/* fill the filesystem, as f3write does, less a margin for its own
		 * metadata */
		const uint64_t reserve = SB_MAX(free_ / 50, DIR_RESERVE);
		if (free_ <= reserve + o->request_size)
			return fail(msg, ml, -ENOSPC, "not enough free space in '%s' to fill (%s "
				    "free); give --size", t->path,
				    sb_fmt_size(free_, a, sizeof(a)));
		size = (free_ - reserve) / o->request_size * o->request_size;
	}
	t->size = size;
	for (unsigned k = 0; (uint64_t)k * SB_VFILE_SPAN < size; k++) {
		const uint64_t base = (uint64_t)k * SB_VFILE_SPAN;
		snprintf(name, sizeof(name), SB_VFILE_FMT, t->path, k);
		int e = add_seg(t, name, base, 0, SB_MIN(SB_VFILE_SPAN, size - base), msg, ml);
		if (e)
			return e;
	}
	return 0;
}

static int directory(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	t->is_dir = 1;
	if (o->offset)
		return fail(msg, ml, -EINVAL, "--offset: applies to an existing file or a "
			    "device, not to a directory");
	return o->phase == SB_VPHASE_CHECK ? dir_find(t, o, msg, ml) : dir_plan(t, o, msg, ml);
}

/* Direct I/O: the default where it works; alignment where it is used. */
static int direct_io(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	const struct sb_target_info *in = t->info;
	if (o->direct == 1 && in->direct_ok == 0 && !t->is_blockdev)
		return fail(msg, ml, -EINVAL, "--direct=1: the filesystem of '%s' (%s) does "
			    "not support direct I/O; use --direct=0", t->path,
			    in->fstype[0] ? in->fstype : "unknown");
	t->direct = o->direct >= 0 ? o->direct : t->is_blockdev || in->direct_ok != 0;
	t->align = t->direct ? (in->logical_bs ? in->logical_bs : 512) : 1;
	if (o->block_size % t->align)
		return fail(msg, ml, -EINVAL, "--block-size: %u bytes is not a multiple of the "
			    "device's logical block size (%u bytes), which direct I/O needs",
			    o->block_size, t->align);
	if (t->offset % t->align)
		return fail(msg, ml, -EINVAL, "--offset: must be a multiple of the logical "
			    "block size (%u bytes) with direct I/O", t->align);
	return 0;
}

/* Whole blocks only: a size the user gave must be one, a default is cut. */
static int whole_blocks(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
			size_t ml)
{
	char a[32];
	if (o->size && o->size % o->block_size)
		return fail(msg, ml, -EINVAL, "--size: must be a multiple of the block size (%s)",
			    sb_fmt_size(o->block_size, a, sizeof(a)));
	t->size = 0;
	for (unsigned i = 0; i < t->nseg; i++) {
		t->seg[i].size -= t->seg[i].size % o->block_size;
		t->size = t->seg[i].base + t->seg[i].offset + t->seg[i].size - t->offset;
	}
	if (!t->size || (t->nseg && !t->seg[0].size))
		return fail(msg, ml, -EINVAL, "cannot use '%s': less than one block (%s) to %s",
			    t->path, sb_fmt_size(o->block_size, a, sizeof(a)),
			    o->phase == SB_VPHASE_CHECK ? "check" : "write");
	return 0;
}

int sb_vtarget_resolve(struct sb_vtarget *t, const char *path, const struct sb_target_info *info,
		       struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	int e;
	t->path = path;
	t->info = info;
	switch (info->kind) {
	case SB_TARGET_BLOCK:
		e = block_device(t, o, msg, ml);
		break;
	case SB_TARGET_FILE:
		e = existing_file(t, o, msg, ml);
		break;
	case SB_TARGET_DIR:
		e = directory(t, o, msg, ml);
		break;
	default:
		e = new_file(t, o, msg, ml);
		break;
	}
	if (e)
		return e;
	if (o->phase == SB_VPHASE_CHECK && !o->seed_given && sb_vtarget_learn(t) == 0) {
		t->learned = 1;
		o->seed = t->seed;
		if (!o->block_size_given)
			o->block_size = t->block_size;
	}
	if ((e = direct_io(t, o, msg, ml)))
		return e;
	return whole_blocks(t, o, msg, ml);
}

int sb_vtarget_open(const struct sb_vtarget *t, unsigned i, int write)
{
	const int fd = open(t->seg[i].path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC |
						    (t->direct ? O_DIRECT : 0));
	return fd < 0 ? -errno : fd;
}

/* A directory's file (or a new file): created, or one left by an earlier
 * write taken over in place, so that a block this write loses still shows
 * the older generation (stale) rather than nothing. */
static int create_seg(struct sb_vseg *s, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	const uint64_t need = s->offset + s->size;
	const int ours = sb_file_is_ours(s->path);
	struct stat st;

	if (ours == 0 && !o->destroy)
		return fail(msg, ml, -EEXIST, "refusing to overwrite '%s': storbench did not "
			    "create it (add --destroy-data)", s->path);
	if (ours >= 0) { /* there: ours (cut to size), or the user's (only grown) */
		if (stat(s->path, &st) == 0 && ((uint64_t)st.st_size < need || ours) &&
		    truncate(s->path, (off_t)need) < 0)
			return fail(msg, ml, -errno, "cannot extend '%s': %s", s->path,
				    strerror(errno));
		s->created = ours;
		return 0;
	}
	int e = sb_file_create(s->path, need, 0, o->seed);
	if (e < 0)
		return fail(msg, ml, e, "cannot create '%s': %s", s->path, strerror(-e));
	s->created = 1;
	return 0;
}

int sb_vtarget_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg,
		      size_t ml)
{
	const struct sb_target_info *in = t->info;
	char a[32], b[32];
	if (t->is_blockdev || in->kind == SB_TARGET_FILE)
		return 0;
	if (in->fs_free && t->size > in->fs_free && o->size)
		return fail(msg, ml, -ENOSPC, "not enough space: %s to write, %s free on %s",
			    sb_fmt_size(t->size, a, sizeof(a)), sb_fmt_size(in->fs_free, b, sizeof(b)),
			    in->mountpoint[0] ? in->mountpoint : "the filesystem");
	for (unsigned i = 0; i < t->nseg; i++) {
		int e = create_seg(&t->seg[i], o, msg, ml);
		if (e)
			return e;
	}
	/* files of an earlier, larger write would join a later check */
	for (unsigned k = t->nseg; t->is_dir; k++) {
		char name[4096];
		snprintf(name, sizeof(name), SB_VFILE_FMT, t->path, k);
		if (sb_file_remove_created(name) < 0)
			break;
	}
	return 0;
}

int sb_vtarget_remove(struct sb_vtarget *t, unsigned i)
{
	struct sb_vseg *s = &t->seg[i];
	const int e = s->created ? sb_file_remove_created(s->path) : 0;
	s->created = 0;
	return e;
}

void sb_vtarget_free(struct sb_vtarget *t)
{
	for (unsigned i = 0; i < t->nseg; i++)
		free(t->seg[i].path);
	free(t->seg);
	t->seg = NULL;
	t->nseg = 0;
}

/* The first valid block of any run in len bytes read at off of segment i. */
static int learn_at(const struct sb_vtarget *t, unsigned i, uint64_t off, unsigned char *buf,
		    struct sb_verify_header *h)
{
	const int fd = open(t->seg[i].path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	sb_drop_file_cache(fd);
	const ssize_t n = pread(fd, buf, LEARN_LEN, (off_t)off);
	close(fd);
	for (ssize_t k = 0; k + (ssize_t)SB_VERIFY_MIN_BS <= n; k += 512)
		if (sb_verify_block_valid(buf + k, (size_t)(n - k), h))
			return 1;
	return 0;
}

int sb_vtarget_learn(struct sb_vtarget *t)
{
	struct sb_verify_header h;
	unsigned char *buf = sb_buf_alloc(LEARN_LEN, 4096);
	int found = 0;

	if (!buf)
		return -ENOMEM;
	/* the start, the middle and the end of the first and the last file */
	for (unsigned n = 0; n < 6 && !found; n++) {
		const unsigned i = n < 3 ? 0 : t->nseg - 1;
		const struct sb_vseg *s = &t->seg[i];
		const uint64_t span = s->size > LEARN_LEN ? s->size - LEARN_LEN : 0;
		const uint64_t at = s->offset + (n % 3 == 0 ? 0 : n % 3 == 1 ? span / 2 : span);
		found = !s->missing && learn_at(t, i, at & ~4095ull, buf, &h);
	}
	free(buf);
	if (!found)
		return -ENOENT;
	t->seed = h.seed;
	t->block_size = h.block_size;
	return 0;
}
