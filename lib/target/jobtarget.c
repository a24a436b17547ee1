/*
 * From TARGET to the files each job opens (lib/target/jobtarget.h):
 * validate first, create after, remove only what we created.
 */
#include "lib/target/jobtarget.h"
#include "lib/base/outfile.h"
#include "lib/base/rng.h"
#include "lib/base/units.h"
#include "lib/target/gate.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(enum sb_target_kind k)
{
	static const char *const names[] = { "missing", "file", "directory", "block device",
					     "special file" };
	return names[k];
}

int sb_jobtarget_probe(struct sb_jobtarget *t, const char *path, struct sb_error *er)
{
	memset(&t->info, 0, sizeof(t->info));
	int e = sb_target_probe(path, &t->info);
	if (e == -ENOENT)
		return sb_error_set(er, e, SB_ERR_ENV,
				    "cannot use '%s': its directory does not exist", path);
	if (e < 0)
		return sb_error_set(er, e, sb_errno_class(e), "cannot use '%s': %s", path,
				    strerror(-e));
	if (t->info.kind == SB_TARGET_OTHER)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "cannot use '%s': a %s is not a file, directory or block device",
				    path, kind_name(t->info.kind));
	if ((e = sb_target_missing_device(path, &t->info, er)))
		return e;
	t->probed = 1;
	return 0;
}

/* Region inside an existing file or device of size total. */
/* floor(total * pct / 100) without overflow */
static uint64_t share(uint64_t total, unsigned pct)
{
	return total / 100 * pct + total % 100 * pct / 100;
}

static int region_in(struct sb_jobtarget *t, const struct sb_job_opts *job, uint64_t total,
		     const char *what, struct sb_error *er)
{
	char a[32], b[32], c[32];
	struct sb_job_opts resolved;
	if (job->size_pct || job->offset_pct) {
		/* fio's size=N% and offset=N%: of the whole file or device,
		 * rounded down to the smallest block (and the alignment) */
		const uint64_t unit = SB_MAX(sb_job_min_bs(job), t->align ? t->align : 1);
		resolved = *job;
		if (job->size_pct)
			resolved.size = share(total, job->size_pct) / unit * unit;
		if (job->offset_pct)
			resolved.offset = share(total, job->offset_pct) / unit * unit;
		if (job->size_pct && !resolved.size)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "--size: %u%% of the %s (%s) is less than a block",
					    job->size_pct, what, sb_fmt_size(total, a, sizeof(a)));
		job = &resolved;
	}
	if (job->offset >= total)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--offset: %s is beyond the end of the %s (%s)",
				    sb_fmt_size(job->offset, a, sizeof(a)), what,
				    sb_fmt_size(total, b, sizeof(b)));
	uint64_t size = job->size ? job->size : total - job->offset;
	if (size > total - job->offset)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--size: %s from offset %s goes past the end of the %s (%s)",
				    sb_fmt_size(size, a, sizeof(a)),
				    sb_fmt_size(job->offset, b, sizeof(b)), what,
				    sb_fmt_size(total, c, sizeof(c)));
	if (size < sb_job_max_bs(job))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--bs: a request (%s) is larger than the region of the %s it "
				    "may use (%s from offset %s)",
				    sb_fmt_size(sb_job_max_bs(job), a, sizeof(a)), what,
				    sb_fmt_size(size, b, sizeof(b)),
				    sb_fmt_size(job->offset, c, sizeof(c)));
	t->region_offset = job->offset;
	t->region_size = size;
	return 0;
}

static int check_alignment(const struct sb_jobtarget *t, const struct sb_job_opts *job,
			   struct sb_error *er)
{
	if (!job->direct || t->align <= 1)
		return 0;
	uint32_t minbs = sb_job_min_bs(job);
	for (unsigned i = 0, n = sb_job_nsizes(job); i < n; i++) {
		uint32_t bs = sb_job_size(job, i);
		if (bs % t->align)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "--bs: %u bytes is not a multiple of the device's "
					    "logical block size (%u bytes), which direct I/O needs",
					    bs, t->align);
	}
	if (job->blockalign % t->align)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "blockalign: %u bytes is not a multiple of the device's logical "
				    "block size (%u bytes), which direct I/O needs",
				    job->blockalign, t->align);
	if (t->region_offset % t->align || t->region_size < minbs) /* region_in said the size */
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--offset: must be a multiple of the logical block size "
				    "(%u bytes) with direct I/O",
				    t->align);
	return 0;
}

static int check_space(const struct sb_jobtarget *t, uint64_t need, unsigned nfiles,
		       struct sb_error *er)
{
	char a[32], b[32];
	if (t->info.fs_free && need > t->info.fs_free)
		return sb_error_set(er, -ENOSPC, SB_ERR_ENV,
				    "not enough space for the test file%s: %s needed, %s free on %s",
				    nfiles > 1 ? "s" : "", sb_fmt_size(need, a, sizeof(a)),
				    sb_fmt_size(t->info.fs_free, b, sizeof(b)),
				    t->info.mountpoint[0] ? t->info.mountpoint : "the filesystem");
	return 0;
}

static int set_path(struct sb_jobtarget *t, unsigned i, const char *path, struct sb_error *er)
{
	t->paths[i] = strdup(path);
	if (!t->paths[i])
		return sb_error_set(er, -ENOMEM, SB_ERR_ENV, "out of memory");
	return 0;
}

static void track(const struct sb_jobtarget *t, unsigned i, int on)
{
	if (t->hooks.track)
		t->hooks.track(t->hooks.ctx, t->paths[i], t->fd[i] - 1, on);
}

static void warn(const struct sb_jobtarget *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(const struct sb_jobtarget *t, const char *fmt, ...)
{
	char msg[4352];
	va_list ap;
	if (!t->hooks.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->hooks.warn(t->hooks.ctx, msg);
}

/* Forget the i-th file: removed (it is ours and still under its name) and
 * closed. */
static void drop_file(struct sb_jobtarget *t, unsigned i, int keep)
{
	const int fd = t->fd[i] - 1;
	if (t->created[i])
		track(t, i, 0);
	if (t->created[i] && !keep) {
		int e = sb_scratch_remove(t->paths[i], fd);
		if (e == -ESTALE)
			warn(t, "did not remove '%s': it is no longer the file storbench created",
			     t->paths[i]);
		else if (e < 0 && e != -ENOENT)
			warn(t, "could not remove '%s': %s", t->paths[i], strerror(-e));
	}
	if (t->fd[i] && t->fd[i] != t->excl_fd)
		close(fd);
	t->fd[i] = 0;
	t->created[i] = 0;
}

/* Every test file is new (O_EXCL, never through a symlink), in a directory
 * under a name nobody can guess, and used by its descriptor from then on:
 * nothing planted in a shared directory is ever opened, written or
 * removed. The stop hook stops the layout. */
static int create_files(struct sb_jobtarget *t, const char *path, const struct sb_job_opts *job,
			int needs_data, struct sb_error *er)
{
	const struct sb_stop stop = { t->hooks.stop, t->hooks.ctx };
	char name[4096];
	for (unsigned i = 0; i < t->npaths; i++) {
		int fd;
		if (t->nrfiles || (job->filename_format[0] && t->info.kind == SB_TARGET_DIR)) {
			/* fio's names (filename_format, or JOB.JOBNUM.FILENUM),
			 * new (O_EXCL), inside the directory */
			const unsigned per = t->nrfiles ? t->nrfiles : 1;
			const size_t dl = strlen(path);
			char base[256];
			int n = sb_job_file_name(job, i / per, i % per, base, sizeof(base));
			if (n < 0) /* the job's name, with a '/' in it, as fio would name them */
				return sb_error_set(er, n, SB_ERR_INPUT,
						    "job '%s': the names of its files ('%s') are "
						    "not files inside '%s'",
						    job->name,
						    job->filename_format[0]
							    ? job->filename_format
							    : "$jobname.$jobnum.$filenum",
						    path);
			n = snprintf(name, sizeof(name), "%s%s%s", path,
				     dl && path[dl - 1] == '/' ? "" : "/", base);
			fd = (size_t)n >= sizeof(name) ? -ENAMETOOLONG
						       : sb_scratch_create_path(name, O_RDWR);
		} else if (t->info.kind == SB_TARGET_DIR) {
			fd = sb_scratch_create(path, ".storbench-", ".tmp", O_RDWR, name,
					       sizeof(name));
		} else {
			snprintf(name, sizeof(name), "%s", path);
			fd = sb_scratch_create_path(name, O_RDWR);
		}
		/* the name taken by a run using it (fio's names; a new file
		 * made meanwhile): that run named */
		long who = fd == -EEXIST ? sb_hold_path(name) : 0;
		if (who > 0)
			return sb_hold_refusal(er, name, who);
		if (fd < 0)
			return sb_error_set(er, fd, sb_errno_class(fd), "cannot create '%s': %s",
					    name, strerror(-fd));
		int e = set_path(t, i, name, er);
		if (e) {
			sb_scratch_remove(name, fd);
			close(fd);
			return e;
		}
		t->fd[i] = fd + 1;
		t->created[i] = 1;
		/* held before it is marked or written: another run that opens
		 * it finds it held, or finds it unmarked and empty, and goes */
		if ((e = sb_hold_new(fd, &who))) {
			drop_file(t, i, 0);
			return e == -EBUSY ? sb_hold_refusal(er, name, who)
					   : sb_error_set(er, e, SB_ERR_ENV, "cannot lock '%s': %s",
							  name, strerror(-e));
		}
		/* from here on the caller may remove the half-made file (a
		 * second Ctrl-C during the layout) */
		track(t, i, 1);
		const uint64_t len = t->nrfiles ? t->fsize[i] : t->region_offset + t->region_size;
		/* fill_device's file is written, never allocated ahead: its
		 * writes find the file system full */
		e = job->fill_device && !needs_data
			    ? (ftruncate(fd, (off_t)len) == 0 ? 0 : -errno)
			    : sb_file_layout(fd, len, needs_data, job->seed + i,
					     t->hooks.stop ? &stop : NULL);
		if (e < 0) {
			drop_file(t, i, 0);
			if (e == -EINTR)
				return sb_error_set(er, e, SB_ERR_STOPPED, "%s", "");
			return sb_error_set(er, e, sb_errno_class(e), "cannot create '%s': %s",
					    name, strerror(-e));
		}
	}
	return 0;
}

/* The run's hold on the file or device open as fd (lib/target/hold.h). */
static int hold(int fd, const char *path, int write, struct sb_error *er)
{
	long who;
	const int e = sb_hold(fd, write, &who);
	if (e == -EBUSY)
		return sb_hold_refusal(er, path, who);
	return e ? sb_error_set(er, e, SB_ERR_ENV, "cannot lock '%s': %s", path, strerror(-e)) : 0;
}

/* The file TARGET, opened once and used by its descriptor from then on:
 * to write, through the write gate (never a symlink, never a file the
 * kernel uses, without --destroy-data only ours); to read, as named. */
static int hold_file(struct sb_jobtarget *t, const char *path, int writes, struct sb_error *er)
{
	struct stat st;
	int fd;
	if (writes) {
		fd = sb_gate_file(path, t->destroy_data, NULL, NULL, er);
		if (fd < 0)
			return fd;
	} else if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		const int err = errno;
		return sb_error_set(er, -err, sb_errno_class(err), "cannot open '%s': %s", path,
				    strerror(err));
	}
	t->fd[0] = fd + 1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "cannot use '%s': it is no longer a regular file", path);
	/* held for the run (another storbench run using it is a refusal; the
	 * gate's hold to write is this descriptor's already) */
	const int e = hold(fd, path, writes, er);
	if (e)
		return e;
	t->info.file_size = (uint64_t)st.st_size;
	return 0;
}

int sb_jobtarget_open(const struct sb_jobtarget *t, unsigned i, int flags)
{
	if (t->fd[i])
		return sb_scratch_reopen(t->fd[i] - 1, flags);
	/* a write goes through what the write gate gave, never a name */
	if ((flags & O_ACCMODE) != O_RDONLY)
		return -EPERM;
	const int fd = open(t->paths[i], flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sb_jobtarget_consent(struct sb_jobtarget *t, const char *path, struct sb_error *er)
{
	if (t->excl_fd > 0) /* asked again: the answer of now */
		close(t->excl_fd - 1);
	t->excl_fd = 0;
	t->fd[0] = 0;
	const int fd = sb_gate_device(path, t->destroy_data, er);
	if (fd < 0)
		return fd;
	/* stored +1 so that 0 means none; the jobs write through it */
	t->excl_fd = fd + 1;
	t->fd[0] = t->excl_fd;
	return 0;
}

/* Direct I/O aligns to the logical block. Where the filesystem has no
 * O_DIRECT, a --direct=1 asked for is refused; the default degrades to
 * buffered I/O, which the results say (t->direct_fallback). */
static int set_align(struct sb_jobtarget *t, struct sb_job_opts *job, const char *path,
		     struct sb_error *er)
{
	const struct sb_target_info *in = &t->info;
	t->align = job->direct ? (in->logical_bs ? in->logical_bs : 512) : 1;
	if (job->direct && in->direct_ok == 0 && job->direct_given)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--direct=1: the filesystem of "
				    "'%s' (%s) does not support direct I/O; use --direct=0",
				    path, in->fstype[0] ? in->fstype : "unknown");
	if (job->direct && in->direct_ok == 0) {
		job->direct = 0;
		t->direct_fallback = 1;
		t->align = 1;
	}
	return 0;
}

static int prepare_device(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			  struct sb_error *er)
{
	int e;
	if ((sb_rw_writes(job->rw) || t->writes) && (e = sb_jobtarget_consent(t, path, er)))
		return e;
	t->is_blockdev = 1;
	if ((e = region_in(t, job, t->info.capacity, "device", er)))
		return e;
	t->npaths = 1;
	if ((e = set_path(t, 0, path, er)))
		return e;
	/* the jobs open the device that was checked, whatever the name (a
	 * link) names by then: held with O_EXCL to write, else held to read
	 * (a run writing it is a refusal) */
	t->fd[0] = t->excl_fd;
	if (!t->fd[0]) {
		const int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s': %s", path,
					    strerror(errno));
		t->fd[0] = fd + 1;
		if ((e = hold(fd, path, 0, er)))
			return e;
	}
	return check_alignment(t, job, er);
}

static int prepare_file(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			struct sb_error *er)
{
	int e;
	t->npaths = 1;
	if ((e = set_path(t, 0, path, er)) ||
	    (e = hold_file(t, path, sb_rw_writes(job->rw) || t->writes, er)))
		return e;
	if (!t->info.file_size)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "cannot use '%s': the file is empty "
				    "(name a new file to create one)",
				    path);
	if ((e = region_in(t, job, t->info.file_size, "file", er)))
		return e;
	return check_alignment(t, job, er);
}

/* fio's sizes of nrfiles files of one job (filesetup.c): filesize's, one
 * drawn from LOW-HIGH per file and rounded down to the smallest block, or
 * size split evenly, the first files a block longer where it does not
 * divide. Returns their sum. */
static uint64_t file_sizes(const struct sb_job_opts *job, struct sb_rng *rng, uint64_t *out)
{
	const uint64_t bs = sb_job_min_bs(job), n = job->nrfiles;
	const uint64_t fs = job->size / n;
	uint64_t extra = (job->size - fs * n) / bs, sum = 0;
	for (unsigned f = 0; f < n; f++) {
		uint64_t sz = fs;
		if (job->filesize_lo == job->filesize_hi && job->filesize_lo) {
			sz = job->filesize_lo;
		} else if (job->filesize_lo) {
			sz = job->filesize_lo +
			     sb_rng_below(rng, job->filesize_hi - job->filesize_lo + 1);
			sz -= sz % bs;
		} else if (extra) {
			extra--;
			sz += bs;
		}
		out[f] = sz;
		sum += sz;
	}
	return sum;
}

/* nrfiles > 1 in a directory: every job's files and their sizes. */
static int plan_files(struct sb_jobtarget *t, const struct sb_job_opts *job, struct sb_error *er)
{
	char a[32];
	struct sb_rng rng;
	if ((uint64_t)job->nrfiles * job->numjobs > SB_JT_MAX_FILES)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "nrfiles: %u files for each of %u jobs: at most %d files in all",
				    job->nrfiles, job->numjobs, SB_JT_MAX_FILES);
	if (!job->filesize_lo && !job->size)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "nrfiles: %u new files need a size (size= or filesize=)",
				    job->nrfiles);
	sb_rng_seed(&rng, job->seed ^ 0xf11e5123ull);
	t->nrfiles = job->nrfiles;
	t->region_offset = 0;
	for (unsigned k = 0; k < job->numjobs; k++) {
		const uint64_t sum = file_sizes(job, &rng, &t->fsize[k * job->nrfiles]);
		if (!k)
			t->region_size = sum;
	}
	for (unsigned i = 0; i < job->nrfiles * job->numjobs; i++)
		if (t->fsize[i] < sb_job_max_bs(job))
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "nrfiles: a file of %s is shorter than a block",
					    sb_fmt_size(t->fsize[i], a, sizeof(a)));
	return 0;
}

/* A directory (a file per job, or nrfiles) or a new file. */
static int prepare_new(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		       int needs_data, struct sb_error *er)
{
	const struct sb_target_info *in = &t->info;
	int e;
	if (job->size_pct || job->offset_pct)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--%s: %u%% is a share of an existing file or device, not of a "
				    "%s: give a size",
				    job->size_pct ? "size" : "offset",
				    job->size_pct ? job->size_pct : job->offset_pct,
				    in->kind == SB_TARGET_DIR ? "directory" : "new file");
	if (job->offset && !job->fio_new_file)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--offset: applies to an existing "
				    "file or a device, not to a %s",
				    in->kind == SB_TARGET_DIR ? "directory" : "new file");
	/* a job file's, as fio: a new file is made offset + size long, and
	 * the job works on [offset, offset + size) of it */
	t->region_offset = job->offset;
	t->region_size = job->size ? job->size : SB_JT_NEW_FILE_SIZE;
	if (job->fill_device && !job->size && in->kind != SB_TARGET_DIR) {
		/* fio's fill_device: until the file system is full: the space
		 * free now and a block more, so the last write finds none */
		const uint64_t bs = SB_MAX(sb_job_max_bs(job), 1);
		t->region_size = (in->fs_free / bs + 1) * bs;
	}
	if (t->region_offset > UINT64_MAX / 4 - t->region_size)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "--offset: too large");
	/* bounded before it is stored: cleanup walks paths[0..npaths) */
	const unsigned nfiles = in->kind == SB_TARGET_DIR ? job->numjobs : 1;
	if (nfiles > SB_JT_MAX_FILES)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--numjobs: at most %d jobs for a directory target",
				    SB_JT_MAX_FILES);
	uint64_t need = (t->region_offset + t->region_size) * nfiles;
	unsigned npaths = nfiles;
	if (in->kind == SB_TARGET_DIR && job->nrfiles > 1) {
		if ((e = plan_files(t, job, er)))
			return e;
		npaths = job->nrfiles * job->numjobs;
		need = 0;
		for (unsigned i = 0; i < npaths; i++)
			need += t->fsize[i];
	}
	t->space_need = need;
	if ((e = check_alignment(t, job, er)) ||
	    (!job->fill_device && (e = check_space(t, need, npaths, er))))
		return e;
	if (t->check_only)
		return 0;
	t->npaths = npaths;
	return create_files(t, path, job, needs_data, er);
}

/* The name of job k's file f of an engine that makes its files (fio's
 * JOB.K.F), or of its one file: 0, or -ENAMETOOLONG. */
static int mk_name(const struct sb_jobtarget *t, unsigned k, unsigned f, char *buf, size_t len)
{
	const char *dir = t->paths[0];
	const size_t dl = strlen(dir);
	const int n = t->mk_nfiles ? snprintf(buf, len, "%s%s%s.%u.%u", dir,
					      dl && dir[dl - 1] == '/' ? "" : "/", t->mk_job, k, f)
				   : snprintf(buf, len, "%s", dir);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A file laid out by name: marked ours, then written (random data,
 * data) or allocated, as sb_file_layout but with no sync of its own
 * (mk_layout syncs them all at once: thousands of files). */
static int mk_fill(int fd, uint64_t len, int data, uint64_t seed, const struct sb_stop *stop)
{
	uint64_t buf[512];
	struct sb_rng rng;
	int e = sb_file_mark(fd);
	if (!e && !data && fallocate(fd, 0, 0, (off_t)len) < 0)
		e = errno == EOPNOTSUPP && ftruncate(fd, (off_t)len) == 0 ? 0 : -errno;
	if (e || !data)
		return e;
	sb_rng_seed(&rng, seed);
	for (uint64_t done = 0; done < len && !e; done += sizeof(buf)) {
		if (stop->fn && !(done % (64u << 20)) && done && stop->fn(stop->ctx))
			return -EINTR;
		for (size_t i = 0; i < SB_ARRAY_SIZE(buf); i++)
			buf[i] = sb_rng_next(&rng);
		e = sb_write_full(fd, (const char *)buf, (size_t)SB_MIN(len - done, sizeof(buf)));
	}
	return e;
}

/* The files laid out for an engine that works on them by name (filestat,
 * filedelete), as fio lays them out before the jobs: each new (O_EXCL,
 * never through a symlink), its inode number kept, written (needs_data)
 * or allocated, closed; none held open, however many. Sizes: fio's
 * (file_sizes), every clone's alike. 0 or -errno. */
static int mk_layout(struct sb_jobtarget *t, const struct sb_job_opts *job, int needs_data,
		     struct sb_error *er)
{
	const struct sb_stop stop = { t->hooks.stop, t->hooks.ctx };
	const unsigned per = t->mk_nfiles ? t->mk_nfiles : 1;
	char name[4096];
	for (unsigned k = 0; k < t->mk_jobs; k++)
		for (unsigned f = 0; f < per; f++) {
			struct stat st;
			int e = t->hooks.stop && t->hooks.stop(t->hooks.ctx) ? -EINTR : 0;
			if (e)
				return sb_error_set(er, e, SB_ERR_STOPPED, "%s", "");
			if ((e = mk_name(t, k, f, name, sizeof(name))))
				return sb_error_set(er, e, SB_ERR_INPUT, "cannot create '%s': %s",
						    t->paths[0], strerror(-e));
			const int fd = sb_scratch_create_path(name, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				return sb_error_set(er, fd, sb_errno_class(fd),
						    "cannot create '%s': %s", name, strerror(-fd));
			if (fstat(fd, &st) == 0)
				t->mk_ino[(size_t)k * per + f] = (uint64_t)st.st_ino;
			else
				e = -errno;
			const uint64_t len = t->mk_end[f] - (f ? t->mk_end[f - 1] : 0);
			if (!e)
				e = mk_fill(fd, len, needs_data, job->seed + (uint64_t)k * per + f,
					    &stop);
			close(fd);
			if (e == -EINTR)
				return sb_error_set(er, e, SB_ERR_STOPPED, "%s", "");
			if (e < 0)
				return sb_error_set(er, e, sb_errno_class(e),
						    "cannot create '%s': %s", name, strerror(-e));
		}
	/* on the media once, as fio's create_fsync does each file */
	const int dfd = open(t->paths[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const int e = dfd < 0 || syncfs(dfd) == 0 ? 0 : -errno;
	if (dfd >= 0)
		close(dfd);
	return e ? sb_error_set(er, e, SB_ERR_ENV, "cannot sync '%s': %s", t->paths[0],
				strerror(-e))
		 : 0;
}

/* Each file's end in the region and room for every file's inode number
 * (t->mk_end, t->mk_ino), the space they take checked. 0 or -errno. */
static int mk_plan(struct sb_jobtarget *t, const struct sb_job_opts *job, struct sb_error *er)
{
	char a[32];
	const unsigned per = t->mk_nfiles ? t->mk_nfiles : 1;
	t->mk_end = calloc(per, sizeof(*t->mk_end));
	t->mk_ino = calloc((size_t)t->mk_jobs * per, sizeof(*t->mk_ino));
	if (!t->mk_end || !t->mk_ino)
		return sb_error_set(er, -ENOMEM, SB_ERR_ENV, "out of memory");
	if (t->mk_nfiles > 1 && (job->size || job->filesize_lo)) {
		struct sb_rng rng;
		sb_rng_seed(&rng, job->seed ^ 0xf11e5123ull);
		file_sizes(job, &rng, t->mk_end);
	} else {
		for (unsigned f = 0; f < per; f++)
			t->mk_end[f] = t->mk_span;
	}
	for (unsigned f = 0; f < per; f++) {
		if (t->mk_end[f] < sb_job_max_bs(job))
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "nrfiles: a file of %s is shorter than a block",
					    sb_fmt_size(t->mk_end[f], a, sizeof(a)));
		t->mk_end[f] += f ? t->mk_end[f - 1] : 0;
		if (t->mk_end[f] > UINT64_MAX / 4 / t->mk_jobs)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "--size: too large");
	}
	const uint64_t sum = t->mk_end[per - 1];
	t->region_size = job->size && job->size < sum ? job->size : sum;
	t->space_need = sum * t->mk_jobs;
	return check_space(t, t->space_need, per * t->mk_jobs, er);
}

/* The files an engine works on by name (t->mkfiles): named in a
 * directory, or the one new file named; none exists yet, so that cleanup
 * removes only what the run made. fio's filecreate makes them itself;
 * for the others (layout) they are laid out here. Each file's span:
 * filesize=, else size= split evenly (fio's). */
static int prepare_mkfiles(struct sb_jobtarget *t, const char *path, const struct sb_job_opts *job,
			   int layout, int needs_data, struct sb_error *er)
{
	char name[4096], a[32];
	int e = t->probed ? 0 : sb_jobtarget_probe(t, path, er);
	if (e)
		return e;
	if (t->info.kind != SB_TARGET_DIR && t->info.kind != SB_TARGET_NONE)
		return layout ? sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					     "the %s engine works on the files it lays out in a "
					     "directory, not on '%s'",
					     job->engine, path)
			      : sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					     "the %s engine makes its files: name a directory or a "
					     "new file, not the %s '%s'",
					     job->engine, kind_name(t->info.kind), path);
	const unsigned n = job->nrfiles ? job->nrfiles : 1;
	if (t->info.kind == SB_TARGET_NONE && n > 1)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "nrfiles: %u files of the %s engine need a directory, not the "
				    "new file '%s'",
				    n, job->engine, path);
	if (strchr(job->name, '/'))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "the %s engine names its files after the job: '%s' has a '/'",
				    job->engine, job->name);
	t->mk_nfiles = t->info.kind == SB_TARGET_DIR ? n : 0;
	t->mk_jobs = t->info.kind == SB_TARGET_DIR ? job->numjobs : 1;
	snprintf(t->mk_job, sizeof(t->mk_job), "%s", job->name);
	uint64_t span = job->filesize_lo ? job->filesize_lo : job->size ? job->size / n : 0;
	if (!span)
		span = sb_job_min_bs(job);
	if (span < sb_job_max_bs(job))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "the %s engine: a file of %s is shorter than a block",
				    job->engine, sb_fmt_size(span, a, sizeof(a)));
	if (span > UINT64_MAX / 4 / n)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "--size: too large");
	t->mk_span = span;
	t->region_offset = 0;
	t->region_size = job->size && job->size < span * n ? job->size : span * n;
	t->npaths = 1;
	if ((e = set_path(t, 0, path, er)) || (layout && (e = mk_plan(t, job, er))))
		return e;
	for (unsigned k = 0; k < t->mk_jobs; k++)
		for (unsigned f = 0; f < (t->mk_nfiles ? t->mk_nfiles : 1); f++) {
			struct stat st;
			if ((e = mk_name(t, k, f, name, sizeof(name))))
				return sb_error_set(er, e, SB_ERR_INPUT, "cannot create '%s': %s",
						    t->paths[0], strerror(-e));
			const int err = lstat(name, &st) == 0 ? EEXIST : errno;
			if (err != ENOENT)
				return sb_error_set(er, -err, SB_ERR_ENV, "cannot create '%s': %s",
						    name, strerror(err));
		}
	t->mkfiles_made = !t->check_only;
	return layout && !t->check_only ? mk_layout(t, job, needs_data, er) : 0;
}

/* Remove the regular files an engine made under the names it had (none
 * existed before the run); those laid out here only while the name is
 * still the file made. */
static void mk_remove(struct sb_jobtarget *t)
{
	char name[4096];
	const unsigned per = t->mk_nfiles ? t->mk_nfiles : 1;
	for (unsigned k = 0; k < t->mk_jobs; k++)
		for (unsigned f = 0; f < per; f++) {
			struct stat st;
			if (mk_name(t, k, f, name, sizeof(name)) || lstat(name, &st) < 0 ||
			    !S_ISREG(st.st_mode))
				continue;
			if (t->mk_ino && t->mk_ino[(size_t)k * per + f] != (uint64_t)st.st_ino)
				continue;
			if (unlink(name) < 0 && errno != ENOENT)
				warn(t, "could not remove '%s': %s", name, strerror(errno));
		}
}

/* Member i of a filename= list prepared as the target of its own: its
 * file (or device) and descriptor moved into t, the i-th of t's files. */
static int list_member(struct sb_jobtarget *t, unsigned i, const char *name,
		       const struct sb_job_opts *job, uint64_t per, int needs_data,
		       struct sb_error *er)
{
	struct sb_jobtarget m;
	struct sb_job_opts mj = *job;
	memset(&m, 0, sizeof(m));
	m.destroy_data = t->destroy_data;
	m.writes = t->writes;
	m.check_only = t->check_only;
	m.hooks = t->hooks;
	mj.nfilenames = 0;
	mj.nrfiles = 1;
	mj.filesize_lo = mj.filesize_hi = 0;
	mj.size = per;
	mj.offset = 0;
	mj.fill_device = 0;
	int e = sb_jobtarget_probe(&m, name, er);
	if (!e && m.info.kind != SB_TARGET_FILE && m.info.kind != SB_TARGET_NONE &&
	    m.info.kind != SB_TARGET_BLOCK)
		e = sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				 "filename: '%s' in the list is a %s: the list names files or "
				 "devices",
				 name, kind_name(m.info.kind));
	if (!e && m.info.kind == SB_TARGET_NONE && !per)
		e = sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				 "filename: '%s' in the list is not there, and the job has no "
				 "size to create it at (size=)",
				 name);
	if (!e && i && (m.info.kind == SB_TARGET_BLOCK) != t->is_blockdev)
		e = sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				 "filename: the list mixes devices and files ('%s'): name only "
				 "files, or only devices",
				 name);
	if (!e)
		e = sb_jobtarget_prepare(&m, name, &mj, needs_data, 0, er);
	if (!e && m.region_offset)
		e = sb_error_set(er, -EINVAL, SB_ERR_INPUT, "%s", "offset: not with a list");
	if (e) {
		sb_jobtarget_cleanup(&m, 0);
		return e;
	}
	if (!i) {
		t->info = m.info;
		t->is_blockdev = m.is_blockdev;
	}
	t->align = SB_MAX(t->align, m.align);
	t->direct_fallback |= m.direct_fallback;
	t->space_need += m.space_need;
	t->fsize[i] = m.region_size;
	t->region_size += m.region_size;
	if (m.npaths) { /* moved: m keeps nothing to close or remove */
		t->paths[i] = m.paths[0];
		t->fd[i] = m.fd[0];
		t->created[i] = m.created[0];
		t->npaths = i + 1;
		m.paths[0] = NULL;
		m.npaths = 0;
		m.fd[0] = m.excl_fd = 0;
	}
	sb_jobtarget_cleanup(&m, 0);
	return 0;
}

/* fio's filename=a:b:c: the job's files, each prepared as a single one
 * (the write gate, the hold, the checks of a new file), as nrfiles, the
 * size split evenly (fio's), an existing file's own size where none is
 * given. */
static int prepare_list(struct sb_jobtarget *t, struct sb_job_opts *job, int needs_data,
			struct sb_error *er)
{
	const unsigned n = job->nfilenames;
	if (job->numjobs > 1)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "filename: a list of files with numjobs=%u is not supported "
				    "(storbench's clones each need files of their own): give numjobs=1",
				    job->numjobs);
	if (t->mkfiles)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "filename: the %s engine makes its files: not with a list",
				    job->engine);
	if (job->offset || job->size_pct || job->offset_pct || job->offset_increment)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "filename: a list of files with offset= or a size in percent is "
				    "not supported");
	if (n > SB_JT_MAX_FILES)
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "filename: at most %d files",
				    SB_JT_MAX_FILES);
	/* fio's: size split evenly, the first files a block longer where it
	 * does not divide */
	const uint64_t bs = SB_MAX(sb_job_min_bs(job), 1);
	const uint64_t fs = job->filesize_lo ? job->filesize_lo : job->size / n;
	uint64_t extra = job->filesize_lo ? 0 : (job->size - fs * n) / bs;
	t->region_offset = t->region_size = 0;
	t->align = 1;
	t->nrfiles = n;
	for (unsigned i = 0; i < n; i++) {
		const uint64_t per = fs + (extra ? bs : 0);
		if (extra)
			extra--;
		int e = list_member(t, i, sb_job_filename_at(job->filenames, i), job, per,
				    needs_data, er);
		if (e)
			return e;
	}
	return 0;
}

int sb_jobtarget_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			 int needs_data, int noio, struct sb_error *er)
{
	int e;
	if (job->nfilenames > 1 && !noio)
		return prepare_list(t, job, needs_data, er);
	if (noio) {
		/* the null engine touches nothing: the target is only a name */
		t->region_offset = job->offset;
		t->region_size = job->size ? job->size : SB_JT_NEW_FILE_SIZE;
		t->align = 1;
		return t->mkfiles ? prepare_mkfiles(t, path, job, 0, 0, er) : 0;
	}
	/* a caller that looked first (quick) is not made to look twice */
	if (!t->probed && (e = sb_jobtarget_probe(t, path, er)))
		return e;
	if (t->mkfiles) { /* laid out by name, none opened: no direct I/O */
		t->align = 1;
		return prepare_mkfiles(t, path, job, 1, needs_data, er);
	}
	if ((e = set_align(t, job, path, er)))
		return e;
	switch (t->info.kind) {
	case SB_TARGET_BLOCK: return prepare_device(t, path, job, er);
	case SB_TARGET_FILE: return prepare_file(t, path, job, er);
	case SB_TARGET_NONE:
	case SB_TARGET_DIR: return prepare_new(t, path, job, needs_data, er);
	default: return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "%s", "");
	}
}

int sb_jobtarget_view(const struct sb_jobtarget *shared, struct sb_jobtarget *view,
		      struct sb_job_opts *job, const char *path, uint64_t new_size,
		      struct sb_error *er)
{
	const struct sb_target_info *in = &shared->info;
	*view = *shared;
	/* it owns nothing: paths, descriptors and the device hold stay the
	 * shared target's */
	memset(view->created, 0, sizeof(view->created));
	view->excl_fd = 0;
	view->direct_fallback = 0;
	int e = set_align(view, job, path, er);
	if (e)
		return e;
	switch (in->kind) {
	case SB_TARGET_BLOCK: e = region_in(view, job, in->capacity, "device", er); break;
	case SB_TARGET_FILE: e = region_in(view, job, in->file_size, "file", er); break;
	case SB_TARGET_NONE:
		if (job->size_pct || job->offset_pct)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "--%s: a percentage is a share of an existing file or "
					    "device, not of a new file: give a size",
					    job->size_pct ? "size" : "offset");
		if (job->offset && !job->fio_new_file)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
					    "--offset: applies to an "
					    "existing file or a device, not to a new file");
		if (job->offset >= new_size)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "%s", "");
		view->region_offset = job->offset;
		view->region_size = job->size ? job->size : new_size - job->offset;
		if (view->region_size > new_size - job->offset)
			return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "%s", "");
		break;
	default: return sb_error_set(er, -EINVAL, SB_ERR_INPUT, "%s", "");
	}
	return e ? e : check_alignment(view, job, er);
}

void sb_jobtarget_cleanup(struct sb_jobtarget *t, int keep)
{
	if (t->mkfiles_made && !keep && t->npaths)
		mk_remove(t);
	t->mkfiles_made = 0;
	free(t->mk_end);
	free(t->mk_ino);
	t->mk_end = t->mk_ino = NULL;
	for (unsigned i = 0; i < t->npaths; i++) {
		drop_file(t, i, keep);
		free(t->paths[i]);
		t->paths[i] = NULL;
	}
	t->npaths = 0;
	if (t->fd[0] && t->fd[0] == t->excl_fd)
		t->fd[0] = 0;
	if (t->excl_fd > 0)
		close(t->excl_fd - 1);
	t->excl_fd = 0;
}
