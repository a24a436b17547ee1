/*
 * storbench verify: from TARGET to the files (or the device) it covers.
 * A file or a device is one region; a directory is a row of files of at
 * most 1 GiB (FAT32 holds no file of 4 GiB), whose offsets continue each
 * other as f3's 1.h2w, 2.h2w do. Nothing is created before every option
 * was checked, and only files storbench created are ever removed.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define NEW_FILE_SIZE (1ull << 30)
#define DIR_RESERVE (64ull << 20) /* left free when a directory is filled */
#define LEARN_LEN (1u << 20)

static int add_seg(struct vtarget *t, const char *path, uint64_t base, uint64_t off, uint64_t size)
{
	struct vseg *s = realloc(t->seg, (t->nseg + 1) * sizeof(*s));
	if (!s) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	t->seg = s;
	s += t->nseg;
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (!s->path) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	s->base = base;
	s->offset = off;
	s->size = size;
	t->nseg++;
	return 0;
}

/* The region [offset, offset+size) inside something of `total` bytes. */
static int region_in(struct vtarget *t, const struct verify_opts *o, uint64_t total,
		     const char *what)
{
	char a[32], b[32], c[32];
	if (o->offset >= total) {
		sb_err("--offset: %s is beyond the end of the %s (%s)",
		       sb_fmt_size(o->offset, a, sizeof(a)), what, sb_fmt_size(total, b, sizeof(b)));
		return SB_EXIT_USAGE;
	}
	uint64_t size = o->size_given ? o->size : total - o->offset;
	if (size > total - o->offset) {
		sb_err("--size: %s from offset %s goes past the end of the %s (%s)",
		       sb_fmt_size(size, a, sizeof(a)), sb_fmt_size(o->offset, b, sizeof(b)), what,
		       sb_fmt_size(total, c, sizeof(c)));
		return SB_EXIT_USAGE;
	}
	t->offset = o->offset;
	t->size = size;
	return add_seg(t, t->path, 0, o->offset, size);
}

static int existing_file(struct vtarget *t, const struct verify_opts *o)
{
	if ((o->phase & VPHASE_WRITE) && !o->destroy && sb_file_is_ours(t->path) != 1) {
		sb_err("refusing to overwrite '%s': storbench did not create it (name a new file "
		       "or a directory, or add --destroy-data)", t->path);
		return SB_EXIT_USAGE;
	}
	return region_in(t, o, t->ct.info.file_size, "file");
}

static int block_device(struct vtarget *t, const struct verify_opts *o)
{
	t->is_blockdev = 1;
	if ((o->phase & VPHASE_WRITE) && !o->destroy) {
		sb_err("refusing to write to block device '%s': verify overwrites the region it "
		       "tests (add --destroy-data)", t->path);
		return SB_EXIT_USAGE;
	}
	return region_in(t, o, t->ct.info.capacity, "device");
}

static int new_file(struct vtarget *t, const struct verify_opts *o)
{
	if (o->phase == VPHASE_CHECK) {
		sb_err("cannot check '%s': it does not exist", t->path);
		return SB_EXIT_USAGE;
	}
	if (o->offset) {
		sb_err("--offset: applies to an existing file or a device, not to a new file");
		return SB_EXIT_USAGE;
	}
	t->size = o->size_given ? o->size : NEW_FILE_SIZE;
	return add_seg(t, t->path, 0, 0, t->size);
}

/* Check: the files a write left, up to --size or as many as there are. */
static int dir_find(struct vtarget *t, const struct verify_opts *o)
{
	char name[4096];
	struct stat st;
	for (unsigned k = 0;; k++) {
		const uint64_t base = (uint64_t)k * VFILE_SPAN;
		if (o->size_given && base >= o->size)
			break;
		snprintf(name, sizeof(name), VFILE_FMT, t->path, k);
		const int there = stat(name, &st) == 0 && S_ISREG(st.st_mode);
		if (!there && !o->size_given) {
			if (!k) {
				sb_err("nothing to check in '%s': '%s' is not there (write it first "
				       "with --phase=write)", t->path, name);
				return SB_EXIT_USAGE;
			}
			break;
		}
		uint64_t size = o->size_given ? SB_MIN(VFILE_SPAN, o->size - base)
					      : (uint64_t)st.st_size;
		if (add_seg(t, name, base, 0, size))
			return SB_EXIT_ENV;
		t->seg[t->nseg - 1].missing = !there;
		t->size = base + size;
	}
	return 0;
}

static int dir_plan(struct vtarget *t, const struct verify_opts *o)
{
	char name[4096], a[32];
	const uint64_t free_ = t->ct.info.fs_free;
	uint64_t size = o->size;

	if (!o->size_given) {
		/* fill the filesystem, as f3write does, less a margin for its own
		 * metadata */
		const uint64_t reserve = SB_MAX(free_ / 50, DIR_RESERVE);
		if (free_ <= reserve + o->request_size) {
			sb_err("not enough free space in '%s' to fill (%s free); give --size",
			       t->path, sb_fmt_size(free_, a, sizeof(a)));
			return SB_EXIT_ENV;
		}
		size = (free_ - reserve) / o->request_size * o->request_size;
	}
	t->size = size;
	for (unsigned k = 0; (uint64_t)k * VFILE_SPAN < size; k++) {
		const uint64_t base = (uint64_t)k * VFILE_SPAN;
		snprintf(name, sizeof(name), VFILE_FMT, t->path, k);
		if (add_seg(t, name, base, 0, SB_MIN(VFILE_SPAN, size - base)))
			return SB_EXIT_ENV;
	}
	return 0;
}

static int directory(struct vtarget *t, const struct verify_opts *o)
{
	t->is_dir = 1;
	if (o->offset) {
		sb_err("--offset: applies to an existing file or a device, not to a directory");
		return SB_EXIT_USAGE;
	}
	return o->phase == VPHASE_CHECK ? dir_find(t, o) : dir_plan(t, o);
}

/* Direct I/O: the default where it works; alignment where it is used. */
static int direct_io(struct vtarget *t, const struct verify_opts *o)
{
	const struct sb_target_info *in = &t->ct.info;
	if (o->direct == 1 && in->direct_ok == 0 && !t->is_blockdev) {
		sb_err("--direct=1: the filesystem of '%s' (%s) does not support direct I/O; use "
		       "--direct=0", t->path, in->fstype[0] ? in->fstype : "unknown");
		return SB_EXIT_USAGE;
	}
	t->direct = o->direct >= 0 ? o->direct : t->is_blockdev || in->direct_ok != 0;
	t->align = t->direct ? (in->logical_bs ? in->logical_bs : 512) : 1;
	if (o->block_size % t->align) {
		sb_err("--block-size: %u bytes is not a multiple of the device's logical block "
		       "size (%u bytes), which direct I/O needs", o->block_size, t->align);
		return SB_EXIT_USAGE;
	}
	if (t->offset % t->align) {
		sb_err("--offset: must be a multiple of the logical block size (%u bytes) with "
		       "direct I/O", t->align);
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* Whole blocks only: a size the user gave must be one, a default is cut. */
static int whole_blocks(struct vtarget *t, const struct verify_opts *o)
{
	char a[32];
	if (o->size_given && o->size % o->block_size) {
		sb_err("--size: must be a multiple of the block size (%s)",
		       sb_fmt_size(o->block_size, a, sizeof(a)));
		return SB_EXIT_USAGE;
	}
	t->size = 0;
	for (unsigned i = 0; i < t->nseg; i++) {
		t->seg[i].size -= t->seg[i].size % o->block_size;
		t->size = t->seg[i].base + t->seg[i].offset + t->seg[i].size - t->offset;
	}
	if (!t->size || (t->nseg && !t->seg[0].size)) {
		sb_err("cannot use '%s': less than one block (%s) to %s", t->path,
		       sb_fmt_size(o->block_size, a, sizeof(a)),
		       o->phase == VPHASE_CHECK ? "check" : "write");
		return SB_EXIT_USAGE;
	}
	return 0;
}

int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o)
{
	int e;
	t->path = path;
	/* a caller that looked first (soak) is not made to look twice */
	if (!t->ct.probed && (e = cli_target_probe(&t->ct, path)))
		return e;
	switch (t->ct.info.kind) {
	case SB_TARGET_BLOCK:
		e = block_device(t, o);
		break;
	case SB_TARGET_FILE:
		e = existing_file(t, o);
		break;
	case SB_TARGET_DIR:
		e = directory(t, o);
		break;
	default:
		e = new_file(t, o);
		break;
	}
	if (e)
		return e;
	if (o->phase == VPHASE_CHECK && !o->seed_given && verify_target_learn(t, o) == 0)
		t->learned = 1;
	if ((e = direct_io(t, o)))
		return e;
	return whole_blocks(t, o);
}

int verify_target_open(const struct vtarget *t, unsigned i, int write)
{
	const int fd = open(t->seg[i].path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC |
						    (t->direct ? O_DIRECT : 0));
	return fd < 0 ? -errno : fd;
}

/* A directory's file (or a new file): created, or one left by an earlier
 * write taken over in place, so that a block this write loses still shows
 * the older generation (stale) rather than nothing. */
static int create_seg(struct vseg *s, const struct verify_opts *o)
{
	const uint64_t need = s->offset + s->size;
	const int ours = sb_file_is_ours(s->path);
	struct stat st;

	if (ours == 0 && !o->destroy) {
		sb_err("refusing to overwrite '%s': storbench did not create it (add "
		       "--destroy-data)", s->path);
		return SB_EXIT_USAGE;
	}
	if (ours >= 0) { /* there: ours (cut to size), or the user's (only grown) */
		if (stat(s->path, &st) == 0 && ((uint64_t)st.st_size < need || ours) &&
		    truncate(s->path, (off_t)need) < 0) {
			sb_err("cannot extend '%s': %s", s->path, strerror(errno));
			return SB_EXIT_ENV;
		}
		s->created = ours;
		return 0;
	}
	int e = sb_file_create(s->path, need, 0, o->seed);
	if (e < 0) {
		sb_err("cannot create '%s': %s", s->path, strerror(-e));
		return e == -ENOSPC || e == -EACCES || e == -EPERM ? SB_EXIT_ENV : SB_EXIT_USAGE;
	}
	s->created = 1;
	/* a second Ctrl-C removes what --phase=both would have removed */
	if (o->phase == VPHASE_BOTH && !o->keep)
		cli_signals_track_file(s->path, 1);
	return 0;
}

int verify_target_create(struct vtarget *t, const struct verify_opts *o)
{
	char a[32], b[32];
	if (t->is_blockdev) {
		t->ct.destroy_data = o->destroy;
		return cli_device_consent(&t->ct, t->path);
	}
	if (t->ct.info.kind == SB_TARGET_FILE)
		return 0;
	if (t->ct.info.fs_free && t->size > t->ct.info.fs_free && o->size_given) {
		sb_err("not enough space: %s to write, %s free on %s",
		       sb_fmt_size(t->size, a, sizeof(a)), sb_fmt_size(t->ct.info.fs_free, b, sizeof(b)),
		       t->ct.info.mountpoint[0] ? t->ct.info.mountpoint : "the filesystem");
		return SB_EXIT_ENV;
	}
	for (unsigned i = 0; i < t->nseg; i++) {
		int e = create_seg(&t->seg[i], o);
		if (e)
			return e;
	}
	/* files of an earlier, larger write would join a later check */
	for (unsigned k = t->nseg; t->is_dir; k++) {
		char name[4096];
		snprintf(name, sizeof(name), VFILE_FMT, t->path, k);
		if (sb_file_remove_created(name) < 0)
			break;
	}
	return 0;
}

void verify_target_remove_created(struct vtarget *t)
{
	for (unsigned i = 0; i < t->nseg; i++) {
		struct vseg *s = &t->seg[i];
		int e = s->created ? sb_file_remove_created(s->path) : 0;
		if (e < 0 && e != -ENOENT)
			sb_warn("could not remove '%s': %s", s->path, strerror(-e));
		s->created = 0;
	}
}

void verify_target_cleanup(struct vtarget *t, int remove_created)
{
	for (unsigned i = 0; i < t->nseg; i++) {
		const struct vseg *s = &t->seg[i];
		cli_signals_track_file(s->path, 0);
		int e = s->created && remove_created ? sb_file_remove_created(s->path) : 0;
		if (e < 0 && e != -ENOENT)
			sb_warn("could not remove '%s': %s", s->path, strerror(-e));
		free(t->seg[i].path);
	}
	free(t->seg);
	t->seg = NULL;
	t->nseg = 0;
	cli_target_cleanup(&t->ct, 1);
}

/* The first valid block of any run in len bytes read at off of segment i. */
static int learn_at(const struct vtarget *t, unsigned i, uint64_t off, unsigned char *buf,
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

int verify_target_learn(struct vtarget *t, struct verify_opts *o)
{
	struct sb_verify_header h;
	unsigned char *buf = sb_buf_alloc(LEARN_LEN, 4096);
	int found = 0;

	if (!buf)
		return -ENOMEM;
	/* the start, the middle and the end of the first and the last file */
	for (unsigned n = 0; n < 6 && !found; n++) {
		const unsigned i = n < 3 ? 0 : t->nseg - 1;
		const struct vseg *s = &t->seg[i];
		const uint64_t span = s->size > LEARN_LEN ? s->size - LEARN_LEN : 0;
		const uint64_t at = s->offset + (n % 3 == 0 ? 0 : n % 3 == 1 ? span / 2 : span);
		found = !s->missing && learn_at(t, i, at & ~4095ull, buf, &h);
	}
	free(buf);
	if (!found)
		return -ENOENT;
	o->seed = h.seed;
	if (!o->block_size_given)
		o->block_size = h.block_size;
	return 0;
}
