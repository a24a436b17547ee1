/*
 * What the first reading of a result and a second one share: opening the
 * file, judging its schema version, and telling what a log line is, the
 * same way each time.
 */
#include "report/report.h"

#include <fcntl.h>
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
	const struct sb_jv *v = sb_jv_get(sb, "schema_version");
	uint64_t n;
	if (!v)
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench result: its 'storbench' "
				"section has no schema_version",
				d->path);
	if (sb_jv_u64(v, &n) < 0 || n < 1) {
		char what[64];
		if (sb_jv_is(v, SB_JV_NUM))
			snprintf(what, sizeof(what), "%g", v->num.d);
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

enum rep_line_kind rep_line_kind(const struct sb_jv *v)
{
	const struct sb_jv *sb = sb_jv_get(v, "storbench");
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	if (sb_jv_is(sb, SB_JV_OBJ) && sb_jv_get(sb, "schema_version"))
		return REP_LINE_HEADER;
	if (type && !strcmp(type, "config") && sb_jv_get(v, "log_version"))
		return REP_LINE_CONFIG;
	if (sb_jv_len(sb_jv_get(v, "jobs")) || sb_jv_get(v, "jobname"))
		return REP_LINE_JOBS;
	return REP_LINE_RECORD;
}
