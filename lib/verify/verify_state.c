/* fio's verify state files in storbench's own text (verify_state.h). */
#include "lib/verify/verify_state.h"
#include "lib/base/fileread.h"
#include "lib/base/outfile.h"
#include "lib/base/units.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_verify_state_name(char *out, size_t n, const char *dir, const char *job, unsigned num)
{
	char ename[64];
	size_t k = 0;
	for (; job[k] && k + 1 < sizeof(ename); k++)
		ename[k] = job[k] == '/' ? '.' : job[k];
	ename[k] = 0;
	const int has_dir = dir[0] && strcmp(dir, ".");
	const size_t dl = strlen(dir);
	const int w = snprintf(out, n, "%s%slocal-%s-%u-verify.state", has_dir ? dir : "",
			       has_dir && dir[dl - 1] != '/' ? "/" : "", ename, num);
	return w < 0 || (size_t)w >= n ? -ENAMETOOLONG : 0;
}

int sb_verify_state_format(const struct sb_verify_state *s, char *out, size_t n)
{
	size_t w = 0;
	int k = snprintf(out, n, SB_VERIFY_STATE_MAGIC "\njob %s\nfile %s\n", s->job, s->file);
	const char *m = s->more;
	for (unsigned i = 0; k >= 0 && (size_t)k < n - w && i < s->nmore; i++) {
		w += (size_t)k;
		k = snprintf(out + w, n - w, "file %s\n", m);
		m += strlen(m) + 1;
	}
	if (k < 0 || (size_t)k >= n - w)
		return -ENOSPC;
	w += (size_t)k;
	k = snprintf(out + w, n - w,
		     "seed %" PRIu64 "\nblock_size %" PRIu32 "\ngeneration %" PRIu64
		     "\ncsum %u\noffset %" PRIu64 "\nsize %" PRIu64 "\ndone %" PRIu64
		     "\nended %d\n",
		     s->fmt.seed, s->fmt.block_size, s->fmt.generation, (unsigned)s->fmt.csum,
		     s->offset, s->size, s->done, !!s->ended);
	return k < 0 || (size_t)k >= n - w ? -ENOSPC : 0;
}

/* The next line of text[*pos..len) as "KEY VALUE": its value (NUL-ended
 * in buf), or NULL. */
static const char *field(const char *text, size_t len, size_t *pos, const char *key, char *buf,
			 size_t bl)
{
	const size_t kl = strlen(key);
	const char *nl = memchr(text + *pos, '\n', len - *pos);
	if (!nl)
		return NULL;
	const size_t ll = (size_t)(nl - (text + *pos));
	if (ll <= kl || memcmp(text + *pos, key, kl) || text[*pos + kl] != ' ' || ll - kl - 1 >= bl)
		return NULL;
	memcpy(buf, text + *pos + kl + 1, ll - kl - 1);
	buf[ll - kl - 1] = 0;
	if (strlen(buf) != ll - kl - 1 || !buf[0]) /* a NUL inside, or empty */
		return NULL;
	*pos += ll + 1;
	return buf;
}

static int number(const char *v, uint64_t max, uint64_t *out)
{
	return sb_parse_u64(v, out) < 0 || *out > max ? -EINVAL : 0;
}

int sb_verify_state_parse(const char *text, size_t len, struct sb_verify_state *s, char *msg,
			  size_t ml)
{
	static const char *const keys[] = { "job",  "file",   "seed", "block_size", "generation",
					    "csum", "offset", "size", "done",	    "ended" };
	const size_t ml0 = strlen(SB_VERIFY_STATE_MAGIC);
	char buf[4096];
	uint64_t v[SB_ARRAY_SIZE(keys)] = { 0 };
	size_t pos = ml0 + 1;
	memset(s, 0, sizeof(*s));
	if (len <= ml0 || memcmp(text, SB_VERIFY_STATE_MAGIC "\n", ml0 + 1)) {
		snprintf(msg, ml,
			 "not a storbench verify state file (fio's own state files are "
			 "not read)");
		return -EINVAL;
	}
	size_t used = 0, line = 2;
	for (unsigned k = 0; k < SB_ARRAY_SIZE(keys); k++, line++) {
		const char *val = field(text, len, &pos, keys[k], buf, sizeof(buf));
		int bad = !val;
		if (!bad && k == 0)
			bad = snprintf(s->job, sizeof(s->job), "%s", val) >= (int)sizeof(s->job);
		else if (!bad && k == 1)
			snprintf(s->file, sizeof(s->file), "%s", val);
		else if (!bad)
			bad = number(val, k == 9 ? 1 : UINT64_MAX, &v[k]) < 0;
		if (bad) {
			snprintf(msg, ml, "line %zu: expected '%s VALUE'", line, keys[k]);
			return -EINVAL;
		}
		/* a filename= list's further files, a line each */
		while (k == 1 && (val = field(text, len, &pos, "file", buf, sizeof(buf)))) {
			const size_t fl = strlen(val) + 1;
			line++;
			if (fl > sizeof(s->more) - used) {
				snprintf(msg, ml, "line %zu: more files than a state file holds",
					 line);
				return -EINVAL;
			}
			memcpy(s->more + used, val, fl);
			used += fl;
			s->nmore++;
		}
	}
	if (pos != len) {
		snprintf(msg, ml, "line %zu: more than a state file holds", line);
		return -EINVAL;
	}
	if (v[3] > SB_VERIFY_MAX_BS ||
	    sb_verify_fmt_init(&s->fmt, v[2], v[4], (uint32_t)v[3]) < 0 || !v[4]) {
		snprintf(msg, ml, "block_size %" PRIu64 " or generation %" PRIu64 " is not valid",
			 v[3], v[4]);
		return -EINVAL;
	}
	if (v[5] > UINT16_MAX || !sb_verify_csum_supported((unsigned)v[5])) {
		snprintf(msg, ml, "checksum algorithm %" PRIu64 " is not one this build has", v[5]);
		return -EINVAL;
	}
	s->fmt.csum = (uint16_t)v[5];
	s->offset = v[6];
	s->size = v[7];
	s->done = v[8];
	s->ended = (int)v[9];
	if (s->offset > UINT64_MAX - s->size || s->done > s->size || s->offset % v[3] ||
	    s->size % v[3]) {
		snprintf(msg, ml,
			 "the region (offset %" PRIu64 ", size %" PRIu64 ", done %" PRIu64
			 ") is not one of whole blocks",
			 s->offset, s->size, s->done);
		return -EINVAL;
	}
	return 0;
}

/* path's text (up to SB_VERIFY_STATE_MAX bytes, never through a
 * symlink, a regular file only; *text the caller frees): 0, or -errno
 * (-EINVAL: no regular file, -EFBIG: longer). */
static int slurp(const char *path, char **text, size_t *len)
{
	struct stat st;
	const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	FILE *f = fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ? NULL : fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -EINVAL;
	}
	const int e = sb_read_stream(f, SB_VERIFY_STATE_MAX, text, len);
	fclose(f);
	return e;
}

int sb_verify_state_may_write(const char *path, char *msg, size_t ml)
{
	const size_t n = strlen(SB_VERIFY_STATE_MAGIC) + 1;
	char head[64];
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		const int e = -errno;
		snprintf(msg, ml, "cannot look at '%s': %s", path, strerror(-e));
		return e;
	}
	int ours = 0;
	if (S_ISREG(st.st_mode)) {
		const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		ours = fd >= 0 && read(fd, head, n) == (ssize_t)n &&
		       !memcmp(head, SB_VERIFY_STATE_MAGIC "\n", n);
		if (fd >= 0)
			close(fd);
	}
	if (ours)
		return 0;
	snprintf(msg, ml,
		 "'%s' is there and is no storbench verify state file: it is not written over "
		 "(remove it, or give the job another name)",
		 path);
	return -EEXIST;
}

int sb_verify_state_write(const char *path, const struct sb_verify_state *s, char *msg, size_t ml)
{
	/* the longest state: a file line for each of a list's files */
	const size_t tl = 40000;
	char *text = malloc(tl);
	struct sb_outfile o;
	if (!text) {
		snprintf(msg, ml, "out of memory");
		return -ENOMEM;
	}
	int e = sb_verify_state_format(s, text, tl);
	if (!e)
		e = sb_verify_state_may_write(path, msg, ml);
	if (e == -ENOSPC)
		snprintf(msg, ml, "the state of '%s' is too long to write", s->file);
	if (!e && (e = sb_outfile_open(&o, path)) < 0)
		snprintf(msg, ml, "cannot write '%s': %s", path, strerror(-e));
	else if (!e) {
		fputs(text, o.f);
		if ((e = sb_outfile_commit(&o)) < 0)
			snprintf(msg, ml, "cannot write '%s': %s", path, strerror(-e));
	}
	free(text);
	return e;
}

int sb_verify_state_read(const char *path, struct sb_verify_state *s, char *msg, size_t ml)
{
	char *text = NULL, why[256];
	size_t len = 0;
	int e = slurp(path, &text, &len);
	if (e == -EFBIG || e == -EINVAL || e == -ELOOP)
		snprintf(msg, ml, "'%s': not a storbench verify state file", path);
	else if (e == -ENOMEM)
		snprintf(msg, ml, "out of memory");
	else if (e)
		snprintf(msg, ml, "cannot read '%s': %s", path, strerror(-e));
	else if ((e = sb_verify_state_parse(text, len, s, why, sizeof(why))) < 0)
		snprintf(msg, ml, "'%s': %s", path, why);
	if (e == -EFBIG || e == -ELOOP)
		e = -EINVAL;
	free(text);
	return e;
}
