/* Results: describing the target prepared, writing JSON. */
#include "cli/cli.h"

#include <unistd.h>

void cli_results_describe(struct sb_results *r, const struct sb_jobtarget *t, const char *path)
{
	int created = 0;
	for (unsigned i = 0; i < t->npaths; i++)
		created |= t->created[i];
	sb_results_describe(r, &t->info, path, created, t->direct_fallback);
}

/* Written to PATH.tmp-PID, flushed to disk, then renamed over PATH: a
 * reader (or a second Ctrl-C) never sees half a document. */
int cli_write_json(const struct sb_results *r, const char *path)
{
	if (!strcmp(path, "-"))
		return sb_results_write_json(r, stdout) < 0 ? -1 : 0;
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wx");
	if (!f) {
		sb_err("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	int e = sb_results_write_json(r, f);
	if (!e && fsync(fileno(f)) < 0 && errno != EINVAL)
		e = -errno;
	if (fclose(f) != 0 && !e)
		e = -errno;
	if (!e && rename(tmp, path) < 0)
		e = -errno;
	if (e < 0) {
		unlink(tmp);
		sb_err("cannot write '%s': %s", path, strerror(-e));
		return -1;
	}
	return 0;
}
