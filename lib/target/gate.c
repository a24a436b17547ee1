/*
 * The write gate (lib/target/gate.h): a file or a device the user named
 * becomes a descriptor that may write it here, and nowhere else.
 */
#include "lib/target/gate.h"
#include "lib/target/hold.h"
#include "lib/target/safety.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif

/* Filesystems whose files are the kernel's interfaces, not storage: a
 * write there sets something (a sysfs attribute, an EFI variable). */
static const struct {
	unsigned long magic;
	const char *name;
} kernel_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" },	    { SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },	    { TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" }, { SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },	    { CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" }, { BPF_FS_MAGIC, "bpf" },
	{ EFIVARFS_MAGIC, "efivarfs" },	    { PSTOREFS_MAGIC, "pstore" },
	{ CONFIGFS_MAGIC, "configfs" },	    { BINFMTFS_MAGIC, "binfmt_misc" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },   { NSFS_MAGIC, "nsfs" },
};

/* The name of the kernel interface fd's file lies on, or NULL. */
static const char *kernel_interface(int fd)
{
	struct statfs fs;
	if (fstatfs(fd, &fs) < 0)
		return NULL;
	for (size_t i = 0; i < SB_ARRAY_SIZE(kernel_fs); i++)
		if ((unsigned long)fs.f_type == kernel_fs[i].magic)
			return kernel_fs[i].name;
	return NULL;
}

static enum sb_errclass open_class(int err)
{
	return sb_errno_class(err); /* the exit status table's classes */
}

/* A file that is not ours, without consent: the refusal names what it
 * holds where a signature says (a filesystem image, a LUKS volume). */
static int refuse_theirs(int fd, const char *path, struct sb_error *er)
{
	char what[128], holds[160] = "";
	if (sb_fd_signature(fd, what, sizeof(what)) == 1)
		snprintf(holds, sizeof(holds), "; it holds a %s", what);
	return sb_error_set(er, -EPERM, SB_ERR_INPUT,
			    "refusing to overwrite '%s': storbench did not create it%s (name a new "
			    "file or a directory, or add --destroy-data)",
			    path, holds);
}

/* The run's hold to write (lib/target/hold.h): another storbench run
 * using the file or device is a refusal that names it. */
static int hold_run(int fd, const char *path, struct sb_error *er)
{
	long who;
	const int e = sb_hold(fd, 1, &who);
	if (e == -EBUSY)
		return sb_hold_refusal(er, path, who);
	return e ? sb_error_set(er, e, SB_ERR_ENV, "cannot lock '%s': %s", path, strerror(-e)) : 0;
}

int sb_gate_file(const char *path, int destroy, sb_gate_ours_fn ours, void *ctx,
		 struct sb_error *er)
{
	struct stat st;
	char why[400];
	/* O_NONBLOCK: a fifo planted there does not hang us */
	const int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	const int err = errno;
	if (fd < 0 && err == ELOOP)
		return sb_error_set(er, -ELOOP, SB_ERR_INPUT,
				    "refusing to write to '%s': it is a symbolic link (name the "
				    "file itself)",
				    path);
	if (fd < 0)
		return sb_error_set(er, -err, open_class(err), "cannot open '%s': %s", path,
				    strerror(err));
	const char *kernel = NULL;
	int e = fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ? -EINVAL : 0;
	if (e)
		sb_error_set(er, e, SB_ERR_INPUT, "cannot use '%s': it is no longer a regular file",
			     path);
	else if ((kernel = kernel_interface(fd)))
		e = sb_error_set(er, -EPERM, SB_ERR_INPUT,
				 "refusing to write to '%s': it is on %s, a kernel interface, not "
				 "storage",
				 path, kernel);
	/* held before anything is decided about it: another storbench run
	 * using it is the refusal, whatever else it is */
	if (!e)
		e = hold_run(fd, path, er);
	const int used = e ? 0 : sb_file_in_use(fd, why, sizeof(why));
	if (used == 1)
		e = sb_error_set(er, -ETXTBSY, SB_ERR_ENV, "refusing to write to '%s': it is %s",
				 path, why);
	else if (used < 0)
		e = sb_error_set(er, used, SB_ERR_ENV,
				 "refusing to write to '%s': cannot tell whether the kernel uses "
				 "it: %s",
				 path, strerror(-used));
	if (!e && !destroy && (ours ? ours(fd, ctx) : sb_file_is_ours_fd(fd)) != 1)
		e = refuse_theirs(fd, path, er);
	if (e) {
		close(fd);
		return e;
	}
	/* a regular file: back to blocking I/O */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* A log's existing file is storbench's by its mark, or holds nothing */
static int log_ours(int fd, void *ctx)
{
	(void)ctx;
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size == 0)
		return 1;
	return sb_file_is_ours_fd(fd);
}

static const char *kind_of(mode_t m)
{
	return S_ISBLK(m)    ? "a block device"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISFIFO(m) ? "a fifo"
	       : S_ISDIR(m)  ? "a directory"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

int sb_gate_log(const char *path, int destroy, int append, int check_only, struct sb_error *er)
{
	struct stat st;
	if (!check_only) {
		/* a shared log (append) is appended to by every clone: the one
		 * that makes it too, or its lines overwrite the others' */
		const int fd = open(path,
				    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
					    (append ? O_APPEND : 0),
				    0644);
		if (fd >= 0) {
			sb_file_mark(fd); /* ours to write again; where no xattr, empty is */
			return fd;
		}
		if (errno != EEXIST)
			return sb_error_set(er, -errno, open_class(errno), "cannot create '%s': %s",
					    path, strerror(errno));
	} else if (lstat(path, &st) < 0) {
		return errno == ENOENT ? 0
				       : sb_error_set(er, -errno, open_class(errno),
						      "cannot use '%s': %s", path, strerror(errno));
	}
	/* what stands there, named (sb_gate_file decides on what it opens) */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "refusing to write to '%s': it is %s (a log is written to a "
				    "regular file)",
				    path, kind_of(st.st_mode));
	const int fd = sb_gate_file(path, destroy, log_ours, NULL, er);
	if (fd < 0 || check_only) {
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : 0;
	}
	if (!append && ftruncate(fd, 0) < 0) {
		const int err = errno;
		close(fd);
		return sb_error_set(er, -err, open_class(err), "cannot truncate '%s': %s", path,
				    strerror(err));
	}
	if (append)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
	return fd;
}

/* Held: the device checked (dev), not what a link names by now. */
static int hold(const char *path, dev_t dev, struct sb_error *er)
{
	struct stat held;
	const int fd = open(path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		const int err = errno;
		/* a storbench run names itself (lib/target/hold.h) */
		const long who = err == EBUSY ? sb_hold_path(path) : 0;
		if (who > 0)
			return sb_hold_refusal(er, path, who);
		return sb_error_set(er, -err, SB_ERR_ENV, "cannot open '%s' exclusively: %s", path,
				    err == EBUSY ? "it is in use (mounted, or held by another "
						   "program)"
						 : strerror(err));
	}
	if (fstat(fd, &held) < 0 || !S_ISBLK(held.st_mode) || held.st_rdev != dev) {
		close(fd);
		return sb_error_set(er, -ESTALE, SB_ERR_ENV,
				    "refusing to write to '%s': it changed while it was checked",
				    path);
	}
	/* O_EXCL keeps mounts and writers off; a storbench run reading it
	 * holds it shared, which the hold to write sees */
	const int e = hold_run(fd, path, er);
	if (e) {
		close(fd);
		return e;
	}
	return fd;
}

int sb_gate_device(const char *path, int destroy, struct sb_error *er)
{
	char why[512];
	struct stat st;
	/* what stat says, or that it is no device (any longer) */
	const int err = stat(path, &st) < 0 ? errno : S_ISBLK(st.st_mode) ? 0 : ENOTBLK;
	if (err)
		return sb_error_set(er, -err, SB_ERR_INPUT, "cannot use '%s': %s", path,
				    strerror(err));
	int r = sb_dev_in_use(st.st_rdev, why, sizeof(why));
	if (r > 0)
		return sb_error_set(er, -EBUSY, SB_ERR_ENV, "refusing to write to '%s': %s", path,
				    why);
	if (r < 0)
		return sb_error_set(er, r, SB_ERR_ENV,
				    "refusing to write to '%s': cannot tell whether it is in use: "
				    "%s",
				    path, strerror(-r));
	r = sb_dev_signature(path, why, sizeof(why));
	if (r < 0)
		return sb_error_set(er, r, SB_ERR_ENV, "cannot read '%s': %s", path, strerror(-r));
	if (r > 0 && !destroy)
		return sb_error_set(er, -EPERM, SB_ERR_INPUT,
				    "refusing to write to '%s': it holds a %s (add --destroy-data "
				    "to overwrite it)",
				    path, why);
	/* no signature found is no proof of no data (a raw database, a wiped
	 * superblock): every device write is consented to */
	if (!destroy)
		return sb_error_set(er, -EPERM, SB_ERR_INPUT,
				    "refusing to write to '%s': writing destroys what the device "
				    "holds (add --destroy-data to allow it)",
				    path);
	return hold(path, st.st_rdev, er);
}

int sb_gate_beside(const char *file, const char *name, int destroy, int check_only,
		   struct sb_error *er)
{
	char path[4352];
	const char *slash = strrchr(file, '/');
	const int dl = slash ? (int)(slash - file) + 1 : 0;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "'%s' names no file beside '%s' (a plain name is needed)", name,
				    file);
	if (snprintf(path, sizeof(path), "%.*s%s", dl, file, name) >= (int)sizeof(path))
		return sb_error_set(er, -ENAMETOOLONG, SB_ERR_INPUT, "'%.*s%s' is too long", dl,
				    file, name);
	struct stat st;
	if (check_only) {
		if (lstat(path, &st) < 0)
			return errno == ENOENT ? 0
					       : sb_error_set(er, -errno, open_class(errno),
							      "cannot look at '%s': %s", path,
							      strerror(errno));
		const int fd = sb_gate_file(path, destroy, NULL, NULL, er);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : 0;
	}
	const int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return sb_gate_file(path, destroy, NULL, NULL, er);
	if (fd < 0)
		return sb_error_set(er, -errno, open_class(errno), "cannot create '%s': %s", path,
				    strerror(errno));
	long who = 0;
	int e = sb_file_mark(fd);
	if (!e)
		e = sb_hold_new(fd, &who);
	if (e < 0) {
		close(fd);
		unlink(path);
		return sb_error_set(er, e, SB_ERR_ENV, "cannot make '%s' storbench's: %s", path,
				    strerror(-e));
	}
	return fd;
}
