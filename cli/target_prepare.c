/*
 * From TARGET to the files each job opens: validate first, create after,
 * remove only what we created.
 */
#include "cli/cli.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/storbench.h"


static const char *kind_name(enum sb_target_kind k)
{
	static const char *const names[] = { "missing", "file", "directory", "block device",
					     "special file" };
	return names[k];
}

int cli_target_probe(struct cli_target *t, const char *path)
{
	memset(&t->info, 0, sizeof(t->info));
	int e = sb_target_probe(path, &t->info);
	if (e == -ENOENT) {
		sb_err("cannot use '%s': its directory does not exist", path);
		return SB_EXIT_USAGE;
	}
	if (e < 0) {
		sb_err("cannot use '%s': %s", path, strerror(-e));
		return e == -EACCES || e == -EPERM ? SB_EXIT_ENV : SB_EXIT_USAGE;
	}
	if (t->info.kind == SB_TARGET_OTHER) {
		sb_err("cannot use '%s': a %s is not a file, directory or block device", path,
		       kind_name(t->info.kind));
		return SB_EXIT_USAGE;
	}
	t->probed = 1;
	return 0;
}

/* Region inside an existing file or device of size total. */
static int region_in(struct cli_target *t, const struct sb_job_opts *job, uint64_t total,
		     const char *what)
{
	char a[32], b[32], c[32];
	if (job->offset >= total) {
		sb_err("--offset: %s is beyond the end of the %s (%s)",
		       sb_fmt_size(job->offset, a, sizeof(a)), what, sb_fmt_size(total, b, sizeof(b)));
		return SB_EXIT_USAGE;
	}
	uint64_t size = job->size ? job->size : total - job->offset;
	if (size > total - job->offset) {
		sb_err("--size: %s from offset %s goes past the end of the %s (%s)",
		       sb_fmt_size(size, a, sizeof(a)), sb_fmt_size(job->offset, b, sizeof(b)),
		       what, sb_fmt_size(total, c, sizeof(c)));
		return SB_EXIT_USAGE;
	}
	t->region_offset = job->offset;
	t->region_size = size;
	return 0;
}

static int check_alignment(const struct cli_target *t, const struct sb_job_opts *job)
{
	if (!job->direct || t->align <= 1)
		return 0;
	uint32_t minbs = sb_job_min_bs(job);
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++) {
		uint32_t bs = job->nbssplit ? job->bssplit[i].bs : job->bs;
		if (bs % t->align) {
			sb_err("--bs: %u bytes is not a multiple of the device's logical block "
			       "size (%u bytes), which direct I/O needs", bs, t->align);
			return SB_EXIT_USAGE;
		}
	}
	if (t->region_offset % t->align || t->region_size < minbs) {
		sb_err("--offset: must be a multiple of the logical block size (%u bytes) "
		       "with direct I/O", t->align);
		return SB_EXIT_USAGE;
	}
	return 0;
}

static int check_space(const struct cli_target *t, uint64_t need, unsigned nfiles)
{
	char a[32], b[32];
	if (t->info.fs_free && need > t->info.fs_free) {
		sb_err("not enough space for the test file%s: %s needed, %s free on %s",
		       nfiles > 1 ? "s" : "", sb_fmt_size(need, a, sizeof(a)),
		       sb_fmt_size(t->info.fs_free, b, sizeof(b)),
		       t->info.mountpoint[0] ? t->info.mountpoint : "the filesystem");
		return SB_EXIT_ENV;
	}
	return 0;
}

static int set_path(struct cli_target *t, unsigned i, const char *path)
{
	t->paths[i] = strdup(path);
	if (!t->paths[i]) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	return 0;
}

static int interrupted_exit(void)
{
	return cli_interrupted() == SIGTERM ? SB_EXIT_SIGTERM : SB_EXIT_SIGINT;
}

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* Forget the i-th file: removed (it is ours and still under its name) and
 * closed. */
static void drop_file(struct cli_target *t, unsigned i, int keep)
{
	const int fd = t->fd[i] - 1;
	if (t->created[i])
		cli_signals_track_fd(t->paths[i], fd, 0);
	if (t->created[i] && !keep) {
		int e = sb_scratch_remove(t->paths[i], fd);
		if (e == -ESTALE)
			sb_warn("did not remove '%s': it is no longer the file storbench created",
				t->paths[i]);
		else if (e < 0 && e != -ENOENT)
			sb_warn("could not remove '%s': %s", t->paths[i], strerror(-e));
	}
	if (t->fd[i] && t->fd[i] != t->excl_fd)
		close(fd);
	t->fd[i] = 0;
	t->created[i] = 0;
}

/* Every test file is new (O_EXCL, never through a symlink), in a directory
 * under a name nobody can guess, and used by its descriptor from then on:
 * nothing planted in a shared directory is ever opened, written or
 * removed. A first Ctrl-C stops the layout. */
static int create_files(struct cli_target *t, const char *path, const struct sb_job_opts *job,
			int needs_data)
{
	const struct sb_stop stop = { stop_asked, NULL };
	char name[4096];
	for (unsigned i = 0; i < t->npaths; i++) {
		int fd;
		if (t->info.kind == SB_TARGET_DIR) {
			fd = sb_scratch_create(path, ".storbench-", ".tmp", O_RDWR, name, sizeof(name));
		} else {
			snprintf(name, sizeof(name), "%s", path);
			fd = sb_scratch_create_path(name, O_RDWR);
		}
		if (fd < 0) {
			sb_err("cannot create '%s': %s", name, strerror(-fd));
			return fd == -ENOSPC || fd == -EACCES ? SB_EXIT_ENV : SB_EXIT_USAGE;
		}
		int e = set_path(t, i, name);
		if (e) {
			sb_scratch_remove(name, fd);
			close(fd);
			return e;
		}
		t->fd[i] = fd + 1;
		t->created[i] = 1;
		/* a second Ctrl-C during the layout removes the half-made file */
		cli_signals_track_fd(t->paths[i], fd, 1);
		e = sb_file_layout(fd, t->region_size, needs_data, job->seed + i, &stop);
		if (e < 0) {
			drop_file(t, i, 0);
			if (e == -EINTR)
				return interrupted_exit();
			sb_err("cannot create '%s': %s", name, strerror(-e));
			return e == -ENOSPC ? SB_EXIT_ENV : e == -EACCES ? SB_EXIT_ENV : SB_EXIT_USAGE;
		}
	}
	return 0;
}

/* The file TARGET, opened once and used by its descriptor from then on.
 * Written only when it is not a symlink (--destroy-data is consent to
 * overwrite the file named, not whatever a link points to now) and, without
 * --destroy-data, only when it is ours. */
static int hold_file(struct cli_target *t, const char *path, int writes)
{
	struct stat st;
	const int fd = open(path, (writes ? O_RDWR | O_NOFOLLOW : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP && writes) {
		sb_err("refusing to write to '%s': it is a symbolic link (name the file itself)",
		       path);
		return SB_EXIT_USAGE;
	}
	if (fd < 0) {
		sb_err("cannot open '%s': %s", path, strerror(errno));
		return errno == EACCES || errno == EPERM ? SB_EXIT_ENV : SB_EXIT_USAGE;
	}
	t->fd[0] = fd + 1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sb_err("cannot use '%s': it is no longer a regular file", path);
		return SB_EXIT_USAGE;
	}
	if (writes && !t->destroy_data && sb_file_is_ours_fd(fd) != 1) {
		sb_err("refusing to overwrite '%s': storbench did not create it (name a new "
		       "file or a directory, or add --destroy-data)", path);
		return SB_EXIT_USAGE;
	}
	t->info.file_size = (uint64_t)st.st_size;
	return 0;
}

int cli_target_open(const struct cli_target *t, unsigned i, int flags)
{
	if (t->fd[i])
		return sb_scratch_reopen(t->fd[i] - 1, flags);
	const int fd = open(t->paths[i], flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int cli_device_consent(struct cli_target *t, const char *path)
{
	char why[512];
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode)) {
		sb_err("cannot use '%s': %s", path, strerror(errno ? errno : ENOTBLK));
		return SB_EXIT_USAGE;
	}
	int r = sb_dev_in_use(st.st_rdev, why, sizeof(why));
	if (r > 0) {
		sb_err("refusing to write to '%s': %s", path, why);
		return SB_EXIT_ENV;
	}
	if (r < 0) {
		sb_err("refusing to write to '%s': cannot tell whether it is in use: %s", path,
		       strerror(-r));
		return SB_EXIT_ENV;
	}
	r = sb_dev_signature(path, why, sizeof(why));
	if (r < 0) {
		sb_err("cannot read '%s': %s", path, strerror(-r));
		return SB_EXIT_ENV;
	}
	if (r > 0 && !t->destroy_data) {
		sb_err("refusing to write to '%s': it holds a %s (add --destroy-data to "
		       "overwrite it)", path, why);
		return SB_EXIT_USAGE;
	}
	/* no signature found is no proof of no data (a raw database, a wiped
	 * superblock): every device write is consented to */
	if (!t->destroy_data) {
		sb_err("refusing to write to '%s': writing destroys what the device holds "
		       "(add --destroy-data to allow it)", path);
		return SB_EXIT_USAGE;
	}
	/* hold the device exclusively for the whole run: mount, mkfs and
	 * another storbench now get EBUSY */
	t->excl_fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (t->excl_fd < 0) {
		sb_err("cannot open '%s' exclusively: %s", path,
		       errno == EBUSY ? "it is in use (mounted, or held by another program)"
				      : strerror(errno));
		t->excl_fd = 0;
		return SB_EXIT_ENV;
	}
	t->excl_fd++; /* stored +1 so that 0 means none */
	/* the device held is the one checked, not what a link names by now:
	 * the jobs write through this descriptor */
	struct stat held;
	if (fstat(t->excl_fd - 1, &held) < 0 || !S_ISBLK(held.st_mode) ||
	    held.st_rdev != st.st_rdev) {
		sb_err("refusing to write to '%s': it changed while it was checked", path);
		return SB_EXIT_ENV;
	}
	return 0;
}

/* Direct I/O aligns to the logical block. Where the filesystem has no
 * O_DIRECT, a --direct=1 asked for is refused; the default degrades to
 * buffered I/O, which the results say (cli_results_describe). */
static int set_align(struct cli_target *t, struct sb_job_opts *job, const char *path)
{
	const struct sb_target_info *in = &t->info;
	t->align = job->direct ? (in->logical_bs ? in->logical_bs : 512) : 1;
	if (job->direct && in->direct_ok == 0 && job->direct_given) {
		sb_err("--direct=1: the filesystem of '%s' (%s) does not support direct I/O; "
		       "use --direct=0", path, in->fstype[0] ? in->fstype : "unknown");
		return SB_EXIT_USAGE;
	}
	if (job->direct && in->direct_ok == 0) {
		job->direct = 0;
		t->direct_fallback = 1;
		t->align = 1;
	}
	return 0;
}

int cli_target_prepare(struct cli_target *t, const char *path, struct sb_job_opts *job,
		       int needs_data, int noio)
{
	int e;
	if (noio) {
		/* the null engine touches nothing: the target is only a name */
		t->region_offset = job->offset;
		t->region_size = job->size ? job->size : CLI_NEW_FILE_SIZE;
		t->align = 1;
		return 0;
	}
	/* a caller that looked first (quick) is not made to look twice */
	if (!t->probed && (e = cli_target_probe(t, path)))
		return e;
	const struct sb_target_info *in = &t->info;
	int writes = sb_rw_writes(job->rw);
	if ((e = set_align(t, job, path)))
		return e;

	switch (in->kind) {
	case SB_TARGET_BLOCK:
		if (writes && (e = cli_device_consent(t, path)))
			return e;
		t->is_blockdev = 1;
		if ((e = region_in(t, job, in->capacity, "device")))
			return e;
		t->npaths = 1;
		/* the jobs open the device that was checked, whatever the name
		 * (a link) names by then */
		t->fd[0] = t->excl_fd;
		if ((e = check_alignment(t, job)))
			return e;
		return set_path(t, 0, path);
	case SB_TARGET_FILE:
		t->npaths = 1;
		if ((e = set_path(t, 0, path)) || (e = hold_file(t, path, writes)))
			return e;
		if (!in->file_size) {
			sb_err("cannot use '%s': the file is empty (name a new file to create one)",
			       path);
			return SB_EXIT_USAGE;
		}
		if ((e = region_in(t, job, in->file_size, "file")))
			return e;
		return check_alignment(t, job);
	case SB_TARGET_NONE:
	case SB_TARGET_DIR:
		t->region_offset = 0;
		if (job->offset) {
			sb_err("--offset: applies to an existing file or a device, not to a %s",
			       in->kind == SB_TARGET_DIR ? "directory" : "new file");
			return SB_EXIT_USAGE;
		}
		t->region_size = job->size ? job->size : CLI_NEW_FILE_SIZE;
		/* bounded before it is stored: cleanup walks paths[0..npaths) */
		const unsigned nfiles = in->kind == SB_TARGET_DIR ? job->numjobs : 1;
		if (nfiles > SB_ARRAY_SIZE(t->paths)) {
			sb_err("--numjobs: at most %zu jobs for a directory target",
			       SB_ARRAY_SIZE(t->paths));
			return SB_EXIT_USAGE;
		}
		if ((e = check_alignment(t, job)) ||
		    (e = check_space(t, t->region_size * nfiles, nfiles)))
			return e;
		t->npaths = nfiles;
		return create_files(t, path, job, needs_data);
	default:
		return SB_EXIT_USAGE;
	}
}

int cli_target_view(const struct cli_target *shared, struct cli_target *view,
		    struct sb_job_opts *job, const char *path, uint64_t new_size)
{
	const struct sb_target_info *in = &shared->info;
	*view = *shared;
	/* it owns nothing: paths, descriptors and the device hold stay the
	 * shared target's */
	memset(view->created, 0, sizeof(view->created));
	view->excl_fd = 0;
	view->direct_fallback = 0;
	int e = set_align(view, job, path);
	if (e)
		return e;
	switch (in->kind) {
	case SB_TARGET_BLOCK:
		e = region_in(view, job, in->capacity, "device");
		break;
	case SB_TARGET_FILE:
		e = region_in(view, job, in->file_size, "file");
		break;
	case SB_TARGET_NONE:
		if (job->offset) {
			sb_err("--offset: applies to an existing file or a device, not to a new file");
			return SB_EXIT_USAGE;
		}
		view->region_offset = 0;
		view->region_size = job->size ? job->size : new_size;
		e = view->region_size > new_size ? SB_EXIT_USAGE : 0;
		break;
	default:
		return SB_EXIT_USAGE;
	}
	return e ? e : check_alignment(view, job);
}

void cli_target_cleanup(struct cli_target *t, int keep)
{
	for (unsigned i = 0; i < t->npaths; i++) {
		drop_file(t, i, keep);
		free(t->paths[i]);
		t->paths[i] = NULL;
	}
	t->npaths = 0;
	if (t->excl_fd > 0)
		close(t->excl_fd - 1);
	t->excl_fd = 0;
}
