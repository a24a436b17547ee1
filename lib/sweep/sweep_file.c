/*
 * The test file of a sweep, from TARGET (lib/sweep/sweep.h): a file
 * storbench makes for each cell, or a file the user gave over, held open
 * from the write gate (lib/target/gate.h): nothing is ever written through
 * a symlink, and without consent only storbench's own files are.
 */
#include "lib/sweep/sweep.h"
#include "lib/base/units.h"
#include "lib/target/gate.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file TARGET, held open as f->fd, from the write gate (never a
 * symlink, never a file the kernel uses, without destroy only ours). One
 * of ours is removed (by its descriptor) and made new for each cell. */
static int hold_file(struct sb_sweep_file *f, const char *path, int destroy, int check_only,
		     struct sb_error *er)
{
	const int fd = sb_gate_file(path, destroy, NULL, NULL, er);
	if (fd < 0)
		return fd;
	f->owned = sb_file_is_ours_fd(fd) == 1;
	if (check_only) {
		close(fd);
		return 0;
	}
	if (!f->owned) {
		f->fd = fd;
		return 0;
	}
	const int e = sb_scratch_remove(path, fd);
	close(fd);
	if (e < 0)
		return sb_error_set(er, e, SB_ERR_ENV,
				    "cannot remove '%s', left by an earlier "
				    "run: %s",
				    path, strerror(-e));
	return 0;
}

/* --direct needs records in whole logical blocks and a filesystem that
 * takes O_DIRECT. */
static int check_direct(const struct sb_target_info *in, const struct sb_sweep_result *r,
			const struct sb_sweep_opts *o, const char *path, struct sb_error *er)
{
	const uint32_t lbs = in->logical_bs ? in->logical_bs : 512;
	if (!o->direct)
		return 0;
	if (in->direct_ok == 0)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--direct: the filesystem of '%s' "
				    "(%s) does not support direct I/O",
				    path, in->fstype[0] ? in->fstype : "unknown");
	for (unsigned i = 0; i < r->nrec; i++)
		if (r->record_sizes[i] % lbs)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "--record-sizes: %llu bytes "
					    "is not a multiple of the logical block size (%u "
					    "bytes), which --direct needs",
					    (unsigned long long)r->record_sizes[i], lbs);
	return 0;
}

static int file_open(struct sb_sweep_file *f, const char *path, const struct sb_target_info *in,
		     const struct sb_sweep_result *r, const struct sb_sweep_opts *o, int destroy,
		     int check_only, struct sb_error *er)
{
	char a[32], b[32];
	int e;
	f->owned = 1;
	f->fd = -1;
	switch (in->kind) {
	case SB_TARGET_DIR:
		if (sb_scratch_name(f->path, sizeof(f->path), path, ".storbench-", ".tmp") < 0)
			return sb_error_set(er, -ENAMETOOLONG, SB_ERR_INPUT, "cannot use '%s': %s",
					    path, strerror(ENAMETOOLONG));
		break;
	case SB_TARGET_NONE: snprintf(f->path, sizeof(f->path), "%s", path); break;
	case SB_TARGET_FILE:
		snprintf(f->path, sizeof(f->path), "%s", path);
		if ((e = hold_file(f, path, destroy, check_only, er)))
			return e;
		break;
	default:
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "cannot use '%s': sweep needs a "
				    "directory or a file on a filesystem",
				    path);
	}
	if ((e = check_direct(in, r, o, path, er)))
		return e;
	const uint64_t need = r->file_sizes[r->nfile - 1];
	if (in->fs_free && need > in->fs_free + (f->owned ? 0 : in->file_size))
		return sb_error_set(er, -ENOSPC, SB_ERR_ENV,
				    "not enough space for the test file: "
				    "%s needed, %s free on %s",
				    sb_fmt_size(need, a, sizeof(a)),
				    sb_fmt_size(in->fs_free, b, sizeof(b)),
				    in->mountpoint[0] ? in->mountpoint : "the filesystem");
	return 0;
}

int sb_sweep_file_open(struct sb_sweep_file *f, const char *path, const struct sb_target_info *in,
		       const struct sb_sweep_result *r, const struct sb_sweep_opts *o, int destroy,
		       struct sb_error *er)
{
	return file_open(f, path, in, r, o, destroy, 0, er);
}

int sb_sweep_file_check(const char *path, const struct sb_target_info *in,
			const struct sb_sweep_result *r, const struct sb_sweep_opts *o, int destroy,
			struct sb_error *er)
{
	struct sb_sweep_file f;
	return file_open(&f, path, in, r, o, destroy, 1, er);
}

void sb_sweep_file_close(struct sb_sweep_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}
