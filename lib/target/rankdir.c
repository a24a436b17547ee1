/*
 * A rank's own directory, marked so that a later run recognises what a
 * killed run left there (rankdir.h): every check before anything is
 * removed, by descriptor (the directory opened without following a
 * symlink, each entry looked at with AT_SYMLINK_NOFOLLOW and removed with
 * unlinkat on that descriptor), and anything not proven storbench's a
 * refusal that touches nothing.
 */
#include "lib/target/rankdir.h"
#include "lib/base/outfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER "storbench per-rank directory 1"
#define MARKER_MAX (4u << 20) /* a marker of a million-file run is smaller */

/* ---- the process behind a marker ---- */

/* The start time of process pid (clock ticks since boot, field 22 of
 * /proc/PID/stat), or -1 when it is not there. */
static long long proc_start(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	const ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* "pid (comm) S ppid ..." */
	if (!p)
		return -1;
	p++;
	/* fields 3 (the state) to 22 (the start time) */
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoll(p + 1, NULL, 10) : -1;
}

/* ---- the marker ---- */

static int valid_name(const char *s)
{
	const size_t n = strlen(s);
	if (!n || n > 255 || !strcmp(s, ".") || !strcmp(s, "..") || !strcmp(s, SB_RANKDIR_MARKER))
		return 0;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c == '/' || *c < 0x20 || *c == 0x7f)
			return 0;
	return 1;
}

/* This run's header, at the start of an empty marker. */
static int write_header(struct sb_rankdir *d)
{
	char buf[512];
	const int n = snprintf(buf, sizeof(buf),
			       HEADER "\nrun %s\nhost %s\npid %ld\nstart %lld\ncreated %lld\n",
			       d->run, d->host, (long)getpid(), proc_start((long)getpid()),
			       (long long)time(NULL));
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	if (lseek(d->mfd, 0, SEEK_SET) < 0)
		return -errno;
	return sb_write_full(d->mfd, buf, (size_t)n);
}

struct parsed {
	int kept;
	long long start;
	unsigned have; /* bits: run host pid start created */
};

static int add_name(struct sb_rankdir *d, const char *name)
{
	if (d->nnames % 64 == 0) {
		char **n = realloc(d->names, (d->nnames + 64) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		d->names = n;
	}
	if (!(d->names[d->nnames] = strdup(name)))
		return -ENOMEM;
	d->nnames++;
	return 0;
}

/* One line of the marker into d and p: 0, -EINVAL (does not parse),
 * -ENOMEM. */
static int parse_line(struct sb_rankdir *d, struct parsed *p, char *line)
{
	char *v = strchr(line, ' ');
	char *end;
	if (!strcmp(line, "kept")) {
		p->kept = 1;
		return 0;
	}
	if (!v || !v[1])
		return -EINVAL;
	*v++ = '\0';
	if (!strcmp(line, "file"))
		return valid_name(v) ? add_name(d, v) : -EINVAL;
	if (!strcmp(line, "run") && strlen(v) < sizeof(d->old_run)) {
		snprintf(d->old_run, sizeof(d->old_run), "%s", v);
		p->have |= 1;
	} else if (!strcmp(line, "host") && strlen(v) < sizeof(d->old_host)) {
		snprintf(d->old_host, sizeof(d->old_host), "%s", v);
		p->have |= 2;
	} else if (!strcmp(line, "pid")) {
		errno = 0;
		d->old_pid = strtol(v, &end, 10);
		if (errno || *end || d->old_pid <= 0)
			return -EINVAL;
		p->have |= 4;
	} else if (!strcmp(line, "start")) {
		errno = 0;
		p->start = strtoll(v, &end, 10);
		if (errno || *end)
			return -EINVAL;
		p->have |= 8;
	} else if (!strcmp(line, "created")) {
		errno = 0;
		d->old_created = strtoll(v, &end, 10);
		if (errno || *end)
			return -EINVAL;
		p->have |= 16;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* The marker read: 0, -EINVAL with the line that does not parse in *bad
 * (0: it is cut short or lacks a key), or -errno. */
static int read_marker(struct sb_rankdir *d, struct parsed *p, unsigned *bad)
{
	struct stat st;
	*bad = 0;
	memset(p, 0, sizeof(*p));
	if (fstat(d->mfd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_size <= 0 ||
	    (uint64_t)st.st_size > MARKER_MAX)
		return -EINVAL;
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	const ssize_t n = pread(d->mfd, buf, (size_t)st.st_size, 0);
	if (n != st.st_size) {
		free(buf);
		return n < 0 ? -errno : -EINVAL;
	}
	buf[n] = '\0';
	int e = 0;
	unsigned lineno = 0;
	char *line = buf;
	/* every line ends with a newline: a torn last line (a run killed as
	 * it wrote it) does not parse */
	if (buf[n - 1] != '\n' || memchr(buf, '\0', (size_t)n))
		e = -EINVAL;
	while (!e && *line) {
		char *nl = strchr(line, '\n');
		*nl = '\0';
		lineno++;
		if (lineno == 1)
			e = strcmp(line, HEADER) ? -EINVAL : 0;
		else
			e = parse_line(d, p, line);
		if (e == -EINVAL)
			*bad = lineno;
		line = nl + 1;
	}
	free(buf);
	if (!e && p->have != 31)
		e = -EINVAL;
	return e;
}

/* ---- the directory ---- */

static int listed(const struct sb_rankdir *d, const char *name)
{
	for (unsigned i = 0; i < d->nnames; i++)
		if (!strcmp(d->names[i], name))
			return 1;
	return 0;
}

/* Every entry: the marker or a regular file of ours the marker lists,
 * counted; anything else named in er (-EEXIST). */
static int scan(struct sb_rankdir *d, struct sb_error *er)
{
	const int fd = dup(d->dfd);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int rc = 0;
	if (!dir) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return sb_error_set(er, rc, SB_ERR_ENV, "cannot read '%s': %s", d->path,
				    strerror(-rc));
	}
	rewinddir(dir);
	d->nfound = 0;
	d->found_bytes = 0;
	while (!rc && (errno = 0, e = readdir(dir))) {
		struct stat st;
		const char *n = e->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, SB_RANKDIR_MARKER))
			continue;
		if (!listed(d, n)) {
			rc = sb_error_set(er, -EEXIST, SB_ERR_INPUT,
					  "'%s' holds '%s', which run %s did not make: not "
					  "removing anything (remove the directory yourself)",
					  d->path, n, d->old_run);
		} else if (fstatat(d->dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				rc = sb_error_set(er, -errno, SB_ERR_ENV,
						  "cannot look at '%s/%s': %s", d->path, n,
						  strerror(errno));
		} else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
			rc = sb_error_set(er, -EEXIST, SB_ERR_INPUT,
					  "'%s/%s' is not the file run %s made there (%s): not "
					  "removing anything (remove the directory yourself)",
					  d->path, n, d->old_run,
					  S_ISLNK(st.st_mode)	   ? "a symbolic link"
					  : !S_ISREG(st.st_mode)   ? "not a regular file"
					  : st.st_uid != geteuid() ? "another user's"
								   : "it has other names");
		} else {
			d->nfound++;
			d->found_bytes += (uint64_t)st.st_size;
		}
	}
	if (!rc && errno)
		rc = sb_error_set(er, -errno, SB_ERR_ENV, "cannot read '%s': %s", d->path,
				  strerror(errno));
	closedir(dir);
	return rc;
}

static int refuse(struct sb_error *er, const char *path, const char *why)
{
	return sb_error_set(er, -EEXIST, SB_ERR_INPUT,
			    "'%s' exists and %s: not touching it (remove it yourself, or give "
			    "another TARGET)",
			    path, why);
}

/* An existing directory: an earlier run's to take over (d->reuse), or a
 * refusal. */
static int look_at(struct sb_rankdir *d, struct sb_error *er)
{
	struct stat st;
	char why[512];
	d->dfd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->dfd < 0)
		return errno == ELOOP || errno == ENOTDIR
			       ? refuse(er, d->path, "is not a directory (a symbolic link?)")
			       : sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s': %s",
					      d->path, strerror(errno));
	if (fstat(d->dfd, &st) < 0 || st.st_uid != geteuid())
		return refuse(er, d->path, "is another user's");
	d->mfd = openat(d->dfd, SB_RANKDIR_MARKER, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (d->mfd < 0)
		return errno == ENOENT || errno == ELOOP
			       ? refuse(er, d->path,
					"has no mark of a storbench run (a directory of yours, one "
					"of an older storbench, or not storbench's)")
			       : sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s/%s': %s",
					      d->path, SB_RANKDIR_MARKER, strerror(errno));
	/* held from here: a run that starts now finds it locked */
	int nolock = 0;
	if (flock(d->mfd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK) {
			struct parsed p;
			unsigned bad;
			const int known = read_marker(d, &p, &bad) == 0;
			snprintf(why, sizeof(why), "is in use by a run now (%s%s%s%s)",
				 known ? "run " : "locked", known ? d->old_run : "",
				 known ? " on " : "", known ? d->old_host : "");
			return refuse(er, d->path, why);
		}
		nolock = 1; /* no locks on this filesystem: the process tells */
	}
	struct parsed p;
	unsigned bad;
	int e = read_marker(d, &p, &bad);
	if (e == -ENOMEM)
		return sb_error_set(er, e, SB_ERR_ENV, "out of memory");
	if (e) {
		if (bad)
			snprintf(why, sizeof(why),
				 "its mark %s does not read as storbench's (line %u)",
				 SB_RANKDIR_MARKER, bad);
		else
			snprintf(why, sizeof(why), "its mark %s does not read as storbench's",
				 SB_RANKDIR_MARKER);
		return refuse(er, d->path, why);
	}
	const int same_host = !strcmp(d->old_host, d->host);
	if (same_host && (d->old_pid == (long)getpid() || proc_start(d->old_pid) == p.start)) {
		snprintf(why, sizeof(why), "is in use by run %s (pid %ld, still running)",
			 d->old_run, d->old_pid);
		return refuse(er, d->path, why);
	}
	if (nolock && !same_host) {
		snprintf(why, sizeof(why),
			 "was made by run %s on %s, and without file locks here whether it "
			 "still runs cannot be told",
			 d->old_run, d->old_host);
		return refuse(er, d->path, why);
	}
	if (p.kept) {
		snprintf(why, sizeof(why), "holds the files run %s kept (--keep)", d->old_run);
		return refuse(er, d->path, why);
	}
	if ((e = scan(d, er)))
		return e;
	d->reuse = 1;
	return 0;
}

int sb_rankdir_open(struct sb_rankdir *d, const char *path, const char *run, const char *host,
		    struct sb_error *er)
{
	memset(d, 0, sizeof(*d));
	d->dfd = d->mfd = -1;
	if (snprintf(d->path, sizeof(d->path), "%s", path) >= (int)sizeof(d->path))
		return sb_error_set(er, -ENAMETOOLONG, SB_ERR_INPUT, "'%s': name too long", path);
	snprintf(d->run, sizeof(d->run), "%s", run && *run ? run : "-");
	snprintf(d->host, sizeof(d->host), "%s", host && *host ? host : "-");
	for (char *c = d->run; *c; c++) /* one word each */
		*c = *c <= ' ' || *c == 0x7f ? '_' : *c;
	for (char *c = d->host; *c; c++)
		*c = *c <= ' ' || *c == 0x7f ? '_' : *c;
	if (mkdir(path, 0700) < 0) {
		if (errno != EEXIST)
			return sb_error_set(er, -errno, SB_ERR_ENV,
					    "cannot make the rank's directory '%s': %s", path,
					    strerror(errno));
		return look_at(d, er);
	}
	d->made = 1;
	struct stat st;
	int e = 0;
	d->dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->dfd < 0 || fstat(d->dfd, &st) < 0 || st.st_uid != geteuid())
		e = -EEXIST; /* not the directory just made */
	if (!e) {
		d->mfd = openat(d->dfd, SB_RANKDIR_MARKER,
				O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (d->mfd < 0)
			e = -errno;
	}
	if (!e && flock(d->mfd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		e = -EBUSY; /* another run found it first */
	if (!e)
		e = write_header(d);
	if (e)
		return sb_error_set(er, e, SB_ERR_ENV, "cannot mark the rank's directory '%s': %s",
				    path, strerror(-e));
	return 0;
}

int sb_rankdir_claim(struct sb_rankdir *d, struct sb_error *er)
{
	if (!d->reuse)
		return 0;
	/* what the first look saw, once more: a change since stops here */
	int e = scan(d, er);
	for (unsigned i = 0; !e && i < d->nnames; i++) {
		struct stat st;
		if (fstatat(d->dfd, d->names[i], &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				e = sb_error_set(er, -errno, SB_ERR_ENV,
						 "cannot look at '%s/%s': %s", d->path, d->names[i],
						 strerror(errno));
			continue;
		}
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
			e = sb_error_set(er, -ESTALE, SB_ERR_INPUT,
					 "'%s/%s' changed since it was looked at: not removed",
					 d->path, d->names[i]);
		else if (unlinkat(d->dfd, d->names[i], 0) < 0 && errno != ENOENT)
			e = sb_error_set(er, -errno, SB_ERR_ENV, "cannot remove '%s/%s': %s",
					 d->path, d->names[i], strerror(errno));
	}
	if (e)
		return e;
	if (ftruncate(d->mfd, 0) < 0 || (e = write_header(d)) < 0) {
		e = e ? e : -errno;
		return sb_error_set(er, e, SB_ERR_ENV, "cannot mark the rank's directory '%s': %s",
				    d->path, strerror(-e));
	}
	d->reuse = 0;
	d->made = 1;
	return 0;
}

int sb_rankdir_note(struct sb_rankdir *d, const char *path)
{
	if (d->mfd < 0 || d->reuse)
		return 0;
	const size_t dl = strlen(d->path);
	const char *name = path;
	if (!strncmp(path, d->path, dl) && path[dl] == '/')
		name = path + dl + 1;
	else if (strchr(path, '/'))
		return 0; /* elsewhere */
	/* a name made again (soak: each iteration's files) is listed once */
	if (!valid_name(name) || listed(d, name))
		return 0;
	int e = add_name(d, name);
	if (e)
		return e;
	char line[300];
	const int n = snprintf(line, sizeof(line), "file %s\n", name);
	if (lseek(d->mfd, 0, SEEK_END) < 0)
		return -errno;
	return sb_write_full(d->mfd, line, (size_t)n);
}

/* Only the marker left? */
static int only_marker(int dfd)
{
	const int fd = dup(dfd);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int only = 1;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(dir);
	while (only && (e = readdir(dir)))
		only = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		       !strcmp(e->d_name, SB_RANKDIR_MARKER);
	closedir(dir);
	return only;
}

int sb_rankdir_close(struct sb_rankdir *d, enum sb_rankdir_end how)
{
	int e = 0;
	if (d->reuse || !d->made)
		how = SB_RANKDIR_LEAVE; /* an earlier run's, not taken over */
	if (how == SB_RANKDIR_KEEP && d->mfd >= 0) {
		if (lseek(d->mfd, 0, SEEK_END) < 0)
			e = -errno;
		else
			e = sb_write_full(d->mfd, "kept\n", 5);
	} else if (how == SB_RANKDIR_REMOVE && d->dfd >= 0) {
		/* the marker closed (its lock let go) before it is unlinked: FUSE
		 * keeps an open unlinked file as .fuse_hiddenN, which would stop
		 * the rmdir; our pid stays in it until then, so no run takes the
		 * directory meanwhile */
		if (d->mfd >= 0)
			close(d->mfd);
		d->mfd = -1;
		if (!only_marker(d->dfd))
			e = -ENOTEMPTY; /* the marker stays: it names what is ours */
		else if (unlinkat(d->dfd, SB_RANKDIR_MARKER, 0) < 0 && errno != ENOENT)
			e = -errno;
		else if (rmdir(d->path) < 0 && errno != ENOENT)
			e = -errno;
	}
	if (d->mfd >= 0)
		close(d->mfd);
	if (d->dfd >= 0)
		close(d->dfd);
	for (unsigned i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
	d->names = NULL;
	d->nnames = 0;
	d->mfd = d->dfd = -1;
	d->made = d->reuse = 0;
	return e;
}
