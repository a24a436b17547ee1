/*
 * Space on a filesystem the ranks share (coord.h): each rank says what it
 * will write where, rank 0 finds the first filesystem whose ranks need
 * more together than it has free. Nothing here talks to the other ranks:
 * the caller gathers the records and spreads the verdict.
 */
#include "lib/coord/coord.h"
#include "lib/base/units.h"

#include <sys/stat.h>

/* The filesystem of path, or of its parent for a file to make
 * (UINT64_MAX: neither is there). */
static uint64_t fs_dev(const char *path)
{
	struct stat st;
	char parent[4096];
	if (stat(path, &st) == 0)
		return (uint64_t)st.st_dev;
	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	return stat(parent, &st) == 0 ? (uint64_t)st.st_dev : UINT64_MAX;
}

void sb_coord_space_mine(const struct sb_coord *c, struct sb_coord_space *s, const char *path,
			 uint64_t need, uint64_t avail, const char *fs)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->host, sizeof(s->host), "%s", sb_coord_host(c));
	s->dev = fs_dev(path);
	s->need = need;
	s->avail = avail;
	snprintf(s->fs, sizeof(s->fs), "%s", fs && fs[0] ? fs : path);
}

/* k shares r's filesystem and needs space on it */
static int same_fs(const struct sb_coord_space *all, int k, int r)
{
	return all[k].need && all[k].dev == all[r].dev && !strcmp(all[k].host, all[r].host);
}

/* "0, 1 and 2" of the ranks in the group of rank r */
static void group_names(const struct sb_coord_space *all, int n, int r, char *out, size_t len)
{
	size_t o = 0;
	int named = 0, total = 0;
	for (int k = 0; k < n; k++)
		total += same_fs(all, k, r);
	out[0] = '\0';
	for (int k = 0; k < n && o < len; k++) {
		if (!same_fs(all, k, r))
			continue;
		const char *sep = ++named == 1 ? "" : named == total ? " and " : ", ";
		o += (size_t)snprintf(out + o, len - o, "%s%d", sep, k);
	}
}

int sb_coord_space_verdict(const struct sb_coord_space *all, int n, char *msg, size_t len)
{
	for (int r = 0; r < n; r++) {
		if (!all[r].need || all[r].dev == UINT64_MAX)
			continue;
		uint64_t need = 0, avail = all[r].avail;
		int first = r, group = 0;
		for (int k = 0; k < n; k++) {
			if (!same_fs(all, k, r))
				continue;
			first = SB_MIN(first, k);
			need += all[k].need;
			avail = SB_MIN(avail, all[k].avail);
			group++;
		}
		if (first != r || group < 2 || !avail || need <= avail)
			continue;
		char names[256], a[32], b[32];
		group_names(all, n, r, names, sizeof(names));
		snprintf(msg, len,
			 "not enough space on %s (host %s) for the ranks that share it: ranks "
			 "%s need %s together, %s free (a smaller --size, fewer ranks on "
			 "that host, or a filesystem each)",
			 all[r].fs, all[r].host, names, sb_fmt_size(need, a, sizeof(a)),
			 sb_fmt_size(avail, b, sizeof(b)));
		return r;
	}
	return -1;
}
