/*
 * What the first reading of a result and a second one share: opening the
 * file, judging its schema version, and telling what a log line is, the
 * same way each time.
 */
#include "report/report.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *rep_open_regular(const char *path, int *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		*err = S_ISDIR(st.st_mode) ? EISDIR : REP_EINPUT;
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		*err = errno;
		close(fd);
	}
	return f;
}

int rep_check_schema(struct rep_doc *d, const struct sb_jv *sb, char **why)
{
	uint64_t n;
	double found;
	const int e = sb_results_schema_read(sb, &n, &found);
	if (e == -ENOENT)
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench result: its 'storbench' "
				"section has no schema_version",
				d->path);
	if (e < 0) {
		char what[64];
		if (!isnan(found))
			snprintf(what, sizeof(what), "%g", found);
		else
			snprintf(what, sizeof(what), "of the wrong type");
		return rep_fail(why, -REP_EINPUT,
				"'%s': results schema version %s is not one "
				"this storbench reads (version %d)",
				d->path, what, SB_SCHEMA_VERSION);
	}
	if (n > SB_SCHEMA_VERSION)
		return rep_note(d,
				"'%s' has results schema version %llu, newer than this storbench "
				"reads (%d): what it knows is shown, what is new is left out "
				"(a newer storbench shows it all)",
				d->name, (unsigned long long)n, SB_SCHEMA_VERSION);
	return 0;
}

/* The first member named key (as sb_jv_get), found in one pass over v's
 * members for several keys: every line of a day's log is asked. */
#define KEYS 5
static void members(const struct sb_jv *v, const char *const *keys, const struct sb_jv **out)
{
	for (int k = 0; k < KEYS; k++)
		out[k] = NULL;
	for (size_t i = 0; sb_jv_is(v, SB_JV_OBJ) && i < v->obj.n; i++) {
		const struct sb_jmember *m = &v->obj.m[i];
		for (int k = 0; k < KEYS; k++)
			if (!out[k] && m->key[0] == keys[k][0] && !strcmp(m->key, keys[k]))
				out[k] = &m->val;
	}
}

enum rep_line_kind rep_line_kind(const struct sb_jv *v)
{
	enum { STORBENCH, TYPE, LOG_VERSION, JOBS, JOBNAME };
	static const char *const keys[KEYS] = { "storbench", "type", "log_version", "jobs",
						"jobname" };
	const struct sb_jv *m[KEYS];
	members(v, keys, m);
	const char *type = sb_jv_str(m[TYPE]);
	uint64_t n;
	double found;
	if (sb_results_schema_read(m[STORBENCH], &n, &found) != -ENOENT)
		return REP_LINE_HEADER;
	if (type && !strcmp(type, "config") && m[LOG_VERSION])
		return REP_LINE_CONFIG;
	if (sb_jv_len(m[JOBS]) || m[JOBNAME])
		return REP_LINE_JOBS;
	return REP_LINE_RECORD;
}
