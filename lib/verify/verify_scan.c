/*
 * The files of verify runs in a directory, found by their names
 * (.storbench-verify-<run>-<k>.tmp, or .storbench-verify-<k>.tmp of
 * storbench before runs had names of their own) but trusted only for what
 * they hold: each is opened without following a symlink and must be a
 * regular file. A run that is writing holds its files (lib/target/hold.h):
 * a check leaves such a run alone, and so does a fill that clears the
 * files of earlier runs; a check holds the files it reads, so no fill
 * removes them and no run writes them meanwhile.
 */
#include "lib/verify/verify_int.h"
#include "lib/verify/verify_target.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct ventry {
	char run[32];
	unsigned k;
};

struct vlist {
	struct ventry *e;
	size_t n;
};

static int all_digits(const char *s, size_t n)
{
	if (!n || n > 9)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* <pid>-<16 hex digits>, as sb_scratch_name draws it */
static int is_run(const char *s, size_t n)
{
	const char *dash = memchr(s, '-', n);
	if (!dash || !all_digits(s, (size_t)(dash - s)) || s + n - dash - 1 != 16)
		return 0;
	for (const char *p = dash + 1; p < s + n; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

/* Parse a name of a verify file: 1 with e filled, 0 when it is not one. */
static int parse_name(const char *name, struct ventry *e)
{
	const size_t len = strlen(name), pre = strlen(SB_VNAME_PREFIX),
		     suf = strlen(SB_VNAME_SUFFIX);
	if (len <= pre + suf || strncmp(name, SB_VNAME_PREFIX, pre) ||
	    strcmp(name + len - suf, SB_VNAME_SUFFIX))
		return 0;
	const char *mid = name + pre;
	const size_t n = len - pre - suf;
	const char *dash = memrchr(mid, '-', n);
	const char *kpart = dash ? dash + 1 : mid;
	const size_t klen = (size_t)(mid + n - kpart);
	if (!all_digits(kpart, klen))
		return 0;
	if (dash && (!is_run(mid, (size_t)(dash - mid)) || (size_t)(dash - mid) >= sizeof(e->run)))
		return 0;
	memset(e->run, 0, sizeof(e->run));
	if (dash)
		memcpy(e->run, mid, (size_t)(dash - mid));
	e->k = (unsigned)strtoul(kpart, NULL, 10);
	return 1;
}

/* The files of verify runs in dir. A name is no proof: one whose number
 * puts it past what the filesystem can hold (1 GiB a file) is no file of a
 * run, whatever it says. */
static int list(const char *dir, struct vlist *l)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct ventry e;
	struct statvfs vfs;
	uint64_t max_k = UINT32_MAX;

	memset(l, 0, sizeof(*l));
	if (!d)
		return -errno;
	if (fstatvfs(dirfd(d), &vfs) == 0 && vfs.f_blocks)
		max_k = (uint64_t)vfs.f_blocks * vfs.f_frsize / SB_VFILE_SPAN + 1;
	while ((de = readdir(d))) {
		if (!parse_name(de->d_name, &e) || e.k > max_k)
			continue;
		struct ventry *n = realloc(l->e, (l->n + 1) * sizeof(*n));
		if (!n) {
			closedir(d);
			return -ENOMEM;
		}
		l->e = n;
		l->e[l->n++] = e;
	}
	closedir(d);
	return 0;
}

/* What a check knows of one run from its first file. */
struct vrun {
	const char *run;
	unsigned first; /* its lowest k */
	int usable;	/* that file is a regular file nobody is writing */
	int busy;	/* a run is writing it */
	int seed_match; /* its first block is of the --seed given */
	int valid;	/* its first block is a verify block's header */
	int mine;	/* of the user who runs this */
	struct timespec mtime;
};

static void look_at_run(const struct sb_vtarget *t, const struct sb_vtarget_opts *o, struct vrun *r)
{
	char name[4096];
	struct stat st;
	if (sb_vname(name, sizeof(name), t->path, r->run, r->first) < 0)
		return;
	const int fd = sb_vopen_regular(name, 0);
	if (fd < 0)
		return;
	long who;
	if (sb_hold_held(fd, 0, &who) == 1) {
		r->busy = 1;
	} else if (fstat(fd, &st) == 0) {
		unsigned char head[SB_VERIFY_HDR_SIZE];
		struct sb_verify_header h;
		r->usable = 1;
		r->mtime = st.st_mtim;
		r->mine = st.st_uid == geteuid();
		if (pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head)) {
			sb_verify_header_decode(head, &h);
			r->valid = h.magic == SB_VERIFY_MAGIC && h.version == SB_VERIFY_VERSION;
			r->seed_match = o->seed_given && r->valid && h.seed == o->seed;
		}
	}
	close(fd);
}

/* Which run to check: of the seed given, the user's own, one that starts
 * as verify data, and only then the newest (anyone can set a time). */
static int newer(const struct vrun *a, const struct vrun *b)
{
	if (a->seed_match != b->seed_match)
		return a->seed_match;
	if (a->mine != b->mine)
		return a->mine;
	if (a->valid != b->valid)
		return a->valid;
	return a->mtime.tv_sec != b->mtime.tv_sec ? a->mtime.tv_sec > b->mtime.tv_sec
						  : a->mtime.tv_nsec > b->mtime.tv_nsec;
}

/* The run to check: of --seed where one is, else the newest; -1 none. */
static long choose(const struct sb_vtarget *t, const struct sb_vtarget_opts *o,
		   const struct vlist *l, struct vrun *runs, size_t *nruns, int *busy)
{
	long best = -1;
	*nruns = 0;
	*busy = 0;
	for (size_t i = 0; i < l->n; i++) {
		size_t r = 0;
		while (r < *nruns && strcmp(runs[r].run, l->e[i].run))
			r++;
		if (r == *nruns) {
			memset(&runs[r], 0, sizeof(runs[r]));
			runs[r].run = l->e[i].run;
			runs[r].first = l->e[i].k;
			++*nruns;
		}
		runs[r].first = SB_MIN(runs[r].first, l->e[i].k);
	}
	for (size_t r = 0; r < *nruns; r++) {
		look_at_run(t, o, &runs[r]);
		*busy |= runs[r].busy;
		if (runs[r].usable && (best < 0 || newer(&runs[r], &runs[best])))
			best = (long)r;
	}
	return best;
}

/* Segment k of the run: the file, opened, or a file missing. */
static int add_file(struct sb_vtarget *t, const struct sb_vtarget_opts *o, unsigned k, int there,
		    char *msg, size_t ml)
{
	const uint64_t base = (uint64_t)k * SB_VFILE_SPAN;
	char name[4096];
	struct stat st;
	int e = sb_vname(name, sizeof(name), t->path, t->run, k);
	if (e < 0)
		return sb_vfail(msg, ml, e, "cannot check '%s': %s", t->path, strerror(-e));
	const int fd = there ? sb_vopen_regular(name, 0) : -ENOENT;
	uint64_t size = o->size ? SB_MIN(SB_VFILE_SPAN, o->size - base) : SB_VFILE_SPAN;
	if (fd >= 0 && !o->size && fstat(fd, &st) == 0)
		size = (uint64_t)st.st_size;
	/* held to read: a fill elsewhere leaves it alone, a run writing it
	 * (since the run was chosen) is a refusal */
	long who;
	e = fd >= 0 ? sb_hold(fd, 0, &who) : 0;
	if (e) {
		close(fd);
		if (e == -EBUSY)
			sb_hold_why(msg, ml, name, who);
		else
			sb_vfail(msg, ml, e, "cannot lock '%s': %s", name, strerror(-e));
		return e;
	}
	if ((e = sb_vseg_add(t, name, base, 0, size, msg, ml))) {
		if (fd >= 0)
			close(fd);
		return e;
	}
	struct sb_vseg *s = &t->seg[t->nseg - 1];
	s->fd = fd;
	s->missing = fd < 0;
	t->size = base + size;
	return 0;
}

static int has(const struct vlist *l, const char *run, unsigned k)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].k == k && !strcmp(l->e[i].run, run))
			return 1;
	return 0;
}

int sb_vscan_find(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml)
{
	struct vlist l;
	size_t nruns;
	int busy, e = list(t->path, &l);
	if (e < 0)
		return sb_vfail(msg, ml, e, "cannot read '%s': %s", t->path, strerror(-e));
	struct vrun *runs = calloc(l.n ? l.n : 1, sizeof(*runs));
	if (!runs) {
		free(l.e);
		return sb_vfail(msg, ml, -ENOMEM, "out of memory");
	}
	const long best = choose(t, o, &l, runs, &nruns, &busy);
	if (best < 0) {
		e = busy ? sb_vfail(msg, ml, -EBUSY,
				    "nothing to check in '%s' yet: another "
				    "storbench run is writing its files",
				    t->path)
			 : sb_vfail(msg, ml, -ENOENT,
				    "nothing to check in '%s': no file written "
				    "by storbench verify there (write them first with "
				    "--phase=write)",
				    t->path);
		goto out;
	}
	snprintf(t->run, sizeof(t->run), "%s", runs[best].run);
	t->other_runs = (unsigned)nruns - 1;
	unsigned last = 0;
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.e[i].run, t->run))
			last = SB_MAX(last, l.e[i].k);
	/* with --size: the files it covers; without: every file up to the last
	 * there (a file missing between is data missing) */
	for (unsigned k = 0; !e; k++) {
		const uint64_t base = (uint64_t)k * SB_VFILE_SPAN;
		if (o->size ? base >= o->size : k > last)
			break;
		e = add_file(t, o, k, has(&l, t->run, k), msg, ml);
	}
out:
	free(runs);
	free(l.e);
	return e;
}

/* Calls fn for each file of an earlier run that is ours (its mark says
 * so: sb_file_is_ours_fd), is the user's who runs this, and that no run
 * uses (held to write while fn runs). */
static uint64_t each_leftover(const struct sb_vtarget *t,
			      uint64_t (*fn)(const char *name, int fd, const struct stat *st))
{
	struct vlist l;
	uint64_t sum = 0;
	if (list(t->path, &l) < 0) {
		free(l.e);
		return 0;
	}
	for (size_t i = 0; i < l.n; i++) {
		char name[4096];
		struct stat st;
		if (!strcmp(l.e[i].run, t->run) ||
		    sb_vname(name, sizeof(name), t->path, l.e[i].run, l.e[i].k) < 0)
			continue;
		/* to write: the hold that excludes every other run's */
		const int fd = sb_vopen_regular(name, 1);
		long who;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && sb_file_is_ours_fd(fd) == 1 &&
		    sb_hold(fd, 1, &who) == 0)
			sum += fn(name, fd, &st);
		close(fd);
	}
	free(l.e);
	return sum;
}

static uint64_t space_of(const char *name, int fd, const struct stat *st)
{
	(void)name;
	(void)fd;
	return (uint64_t)st->st_blocks * 512;
}

static uint64_t remove_it(const char *name, int fd, const struct stat *st)
{
	(void)st;
	sb_scratch_remove(name, fd);
	return 0;
}

uint64_t sb_vscan_leftover(const struct sb_vtarget *t)
{
	return each_leftover(t, space_of);
}

void sb_vscan_remove_leftovers(const struct sb_vtarget *t)
{
	each_leftover(t, remove_it);
}
