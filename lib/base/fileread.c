#include "lib/base/fileread.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>

int sb_read_stream(FILE *f, size_t max, char **text, size_t *len)
{
	char *t = NULL;
	size_t n = 0, cap = 0;
	*text = NULL;
	*len = 0;
	for (;;) {
		if (cap - n < 65536) {
			char *x = realloc(t, cap = cap ? 2 * cap : 65536);
			if (!x) {
				free(t);
				return -ENOMEM;
			}
			t = x;
		}
		const size_t k = fread(t + n, 1, cap - n - 1, f);
		n += k;
		if (k == 0 || (max && n > max))
			break;
	}
	const int e = ferror(f) ? -EIO : max && n > max ? -EFBIG : 0;
	if (e) {
		free(t);
		return e;
	}
	t[n] = 0;
	*text = t;
	*len = n;
	return 0;
}

int sb_read_file(const char *path, size_t max, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	*text = NULL;
	*len = 0;
	if (!f)
		return -errno;
	const int e = sb_read_stream(f, max, text, len);
	fclose(f);
	return e;
}

int sb_path_absolute(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX], dir[PATH_MAX], res[PATH_MAX];
	if (realpath(path, res)) {
		snprintf(out, len, "%s", res);
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	snprintf(buf, sizeof(buf), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(buf));
	snprintf(buf, sizeof(buf), "%s", path);
	const char *base = basename(buf);
	if (!realpath(dir, res))
		return -ENOENT;
	snprintf(out, len, "%s/%s", res, base);
	return 0;
}
