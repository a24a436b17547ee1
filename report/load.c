/*
 * Reading a result file for report and compare: a storbench JSON document,
 * a storbench JSON Lines log (one object per line; a line cut short by a
 * crash is left out with a note), or fio's JSON (messages fio printed
 * before the document are skipped). Anything else is refused with the
 * reason, before any output is written.
 */
#include "report/report.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOAD_MAX (256u << 20) /* a log may be long; one document is held to the reader's limit */

static int keep_tree(struct rep_doc *d, struct sb_jdoc *t)
{
	struct sb_jdoc **v = realloc(d->trees, (d->ntrees + 1) * sizeof(*v));
	if (!v) {
		sb_jdoc_free(t);
		return -ENOMEM;
	}
	d->trees = v;
	d->trees[d->ntrees++] = t;
	return 0;
}

/* A regular file only: a FIFO or a terminal would block the read for ever
 * (opened without blocking, checked, then read as usual). */
static FILE *open_regular(const char *path, int *err)
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

static char *slurp(const char *path, size_t *len, int *err)
{
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	*err = 0;
	FILE *f = open_regular(path, err);
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 1 >= cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = cap > LOAD_MAX + 1 ? NULL : realloc(buf, cap);
			if (!nb) {
				*err = cap > LOAD_MAX + 1 ? EFBIG : ENOMEM;
				break;
			}
			buf = nb;
		}
		size_t n = fread(buf + *len, 1, cap - 1 - *len, f);
		if (!n) {
			if (ferror(f))
				*err = errno ? errno : EIO;
			break;
		}
		*len += n;
	}
	fclose(f);
	if (*err) {
		free(buf);
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

/* 0 when the storbench section's schema is one we read; says why otherwise. */
static int check_schema(const char *path, const struct sb_jv *sb, char **why)
{
	const struct sb_jv *v = sb_jv_get(sb, "schema_version");
	uint64_t n;
	if (!v)
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench result: its 'storbench' "
				"section has no schema_version",
				path);
	if (sb_jv_u64(v, &n) < 0 || n != SB_SCHEMA_VERSION) {
		char what[64];
		if (sb_jv_is(v, SB_JV_NUM))
			snprintf(what, sizeof(what), "%g", v->num.d);
		else
			snprintf(what, sizeof(what), "of the wrong type");
		return rep_fail(why, -REP_EINPUT,
				"'%s': results schema version %s is not one "
				"this storbench reads (version %d); a newer storbench may read it",
				path, what, SB_SCHEMA_VERSION);
	}
	return 0;
}

static int is_fio(const struct sb_jv *root)
{
	const struct sb_jv *job = sb_jv_at(sb_jv_get(root, "jobs"), 0);
	return sb_jv_get(root, "fio version") ||
	       (sb_jv_is(sb_jv_get(root, "jobs"), SB_JV_ARR) && sb_jv_get(job, "job options"));
}

static int load_document(struct rep_doc *d, const char *text, size_t len, char **why)
{
	struct sb_jdoc *t;
	struct sb_json_error e;
	/* a long run's document (per-interval series) outgrows the reader's
	 * default limit: the file's own limit applies */
	const struct sb_json_limits lim = { LOAD_MAX, 0 };
	int rc = sb_json_parse(text, len, &lim, &t, &e);
	if (rc == -ENOMEM || (rc == 0 && keep_tree(d, t) < 0))
		return rep_fail(why, -ENOMEM, "out of memory");
	if (rc < 0)
		return rep_fail(why, -REP_EINPUT, "'%s' is not valid JSON: %s%s", d->path, e.msg,
				e.at_end ? " (the file is cut short)" : "");
	const struct sb_jv *root = sb_jdoc_root(t);
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	char msg[512];
	if (rep_check(root, msg, sizeof(msg)) < 0)
		return rep_fail(why, -REP_EINPUT, "'%s': %s", d->path, msg);
	if (sb_jv_is(sb, SB_JV_OBJ)) {
		if ((rc = check_schema(d->path, sb, why)))
			return rc;
	} else if (is_fio(root)) {
		d->is_fio = 1;
	} else {
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench or fio result (it has "
				"neither a 'storbench' section nor fio's 'jobs')",
				d->path);
	}
	rep_read_header(d, root);
	const struct sb_jv *jobs = sb_jv_get(root, "jobs");
	for (size_t i = 0; i < sb_jv_len(jobs); i++)
		if (sb_jv_is(sb_jv_at(jobs, i), SB_JV_OBJ) && rep_add_job(d, sb_jv_at(jobs, i)) < 0)
			return rep_fail(why, -ENOMEM, "out of memory");
	return 0;
}

/* A log that starts with its own configuration line (soak's):
 * {"type": "config", "log_version": 1, "storbench": VERSION, "target": ...}. */
static int log_config(struct rep_doc *d, const struct sb_jv *v, char **why)
{
	uint64_t ver = 0;
	const struct sb_jv *lv = sb_jv_get(v, "log_version");
	if (sb_jv_u64(lv, &ver) < 0 || ver != REP_LOG_VERSION) {
		char what[32];
		if (sb_jv_is(lv, SB_JV_NUM))
			snprintf(what, sizeof(what), "%g", lv->num.d);
		else
			snprintf(what, sizeof(what), "of the wrong type");
		return rep_fail(why, -REP_EINPUT,
				"'%s': log version %s is not one this storbench "
				"reads (version %d); a newer storbench may read it",
				d->path, what, REP_LOG_VERSION);
	}
	d->root = v;
	d->command = rep_or(sb_jv_str(sb_jv_get(v, "command")), "soak");
	snprintf(d->producer, sizeof(d->producer), "storbench %s",
		 rep_or(sb_jv_str(sb_jv_get(v, "storbench")), "?"));
	d->target.path = sb_jv_str(sb_jv_get(v, "target"));
	d->target.device = sb_jv_str(sb_jv_get(v, "device"));
	d->target.model = sb_jv_str(sb_jv_get(v, "model"));
	return 0;
}

/* One line of a log: the header, jobs, or a record of the command. */
static int log_line(struct rep_doc *d, const struct sb_jv *v, size_t lineno, char **why)
{
	const struct sb_jv *sb = sb_jv_get(v, "storbench");
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	int rc, header = 0;
	char msg[512];
	if (!sb_jv_is(v, SB_JV_OBJ))
		return rep_fail(why, -REP_EINPUT, "'%s' line %zu: a log line must be a JSON object",
				d->path, lineno);
	if (rep_check(v, msg, sizeof(msg)) < 0)
		return rep_fail(why, -REP_EINPUT, "'%s' line %zu: %s", d->path, lineno, msg);
	if (sb_jv_is(sb, SB_JV_OBJ) && sb_jv_get(sb, "schema_version")) {
		if ((rc = check_schema(d->path, sb, why)))
			return rc;
		if (!d->root)
			rep_read_header(d, v);
		header = 1;
	} else if (type && !strcmp(type, "config") && sb_jv_get(v, "log_version")) {
		if (!d->root && (rc = log_config(d, v, why)))
			return rc;
		header = 1;
	}
	const struct sb_jv *jobs = sb_jv_get(v, "jobs");
	int any = 0;
	for (size_t i = 0; i < sb_jv_len(jobs); i++, any = 1)
		if (rep_add_job(d, sb_jv_at(jobs, i)) < 0)
			return rep_fail(why, -ENOMEM, "out of memory");
	if (sb_jv_get(v, "jobname")) {
		any = 1;
		if (rep_add_job(d, v) < 0)
			return rep_fail(why, -ENOMEM, "out of memory");
	}
	if (!any && !header) {
		const struct sb_jv **r = realloc(d->records, (d->nrecords + 1) * sizeof(*r));
		if (!r)
			return rep_fail(why, -ENOMEM, "out of memory");
		d->records = r;
		d->records[d->nrecords++] = v;
	}
	return 0;
}

static int load_log(struct rep_doc *d, const char *text, size_t len, char **why)
{
	size_t lineno = 0;
	d->is_log = 1;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		size_t n = (size_t)(stop - p);
		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		const char *line = p;
		p = nl ? nl + 1 : end;
		if (strspn(line, " \t\r") >= n)
			continue;
		struct sb_jdoc *t;
		struct sb_json_error e;
		int rc = sb_json_parse(line, n, NULL, &t, &e);
		if (rc == -EBADMSG && e.at_end) {
			rep_note(d, "line %zu of '%s' is cut short (%zu bytes%s) and was left out",
				 lineno, d->name, n, nl ? "" : ", at the end of the file");
			continue;
		}
		if (rc == -ENOMEM || (rc == 0 && keep_tree(d, t) < 0))
			return rep_fail(why, -ENOMEM, "out of memory");
		if (rc < 0)
			return rep_fail(why, -REP_EINPUT,
					"'%s' line %zu: not valid JSON: column "
					"%u: %s",
					d->path, lineno, e.column,
					strchr(e.msg, ':') ? strchr(e.msg, ':') + 2 : e.msg);
		if ((rc = log_line(d, sb_jdoc_root(t), lineno, why)))
			return rc;
	}
	if (!d->root)
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench log: no line carries a "
				"'storbench' header or a configuration",
				d->path);
	return 0;
}

/* A log: its first line is a whole JSON object and more follows. */
static int looks_like_log(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	if (!nl || strspn(nl, " \t\r\n") >= (size_t)(text + len - nl))
		return 0;
	struct sb_jdoc *t;
	if (sb_json_parse(text, (size_t)(nl - text), NULL, &t, NULL) < 0)
		return 0;
	int obj = sb_jv_is(sb_jdoc_root(t), SB_JV_OBJ);
	sb_jdoc_free(t);
	return obj;
}

static int load_text(struct rep_doc *d, const char *text, size_t len, char **why)
{
	size_t skip = 0;
	while (skip < len && strchr(" \t\r\n", text[skip]))
		skip++;
	if (skip == len)
		return rep_fail(why, -REP_EINPUT, "'%s' is empty, not a result", d->path);
	if (text[skip] != '{') {
		/* fio prints notes before its JSON, even with --output */
		const char *brace = strstr(text + skip, "\n{");
		if (!brace)
			return rep_fail(why, -REP_EINPUT,
					"'%s' is not a result: it does not start with a "
					"JSON object",
					d->path);
		skip = (size_t)(brace + 1 - text);
		rep_note(d, "text before the JSON document of '%s' was skipped (fio's messages)",
			 d->name);
	}
	if (looks_like_log(text + skip, len - skip))
		return load_log(d, text + skip, len - skip, why);
	return load_document(d, text + skip, len - skip, why);
}

int rep_load(const char *path, struct rep_doc **out, char **why)
{
	size_t len;
	int err;
	*out = NULL;
	*why = NULL;
	struct rep_doc *d = calloc(1, sizeof(*d));
	if (!d)
		return rep_fail(why, -ENOMEM, "out of memory");
	d->path = path;
	d->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	d->target.rotational = -1;
	char *text = slurp(path, &len, &err);
	if (!text) {
		rep_free(d);
		return rep_fail(why, -err, "cannot read '%s': %s", path,
				err == EFBIG	    ? "larger than 256 MiB"
				: err == REP_EINPUT ? "not a regular file"
						    : strerror(err));
	}
	int rc = load_text(d, text, len, why);
	free(text);
	if (rc) {
		rep_free(d);
		return rc;
	}
	*out = d;
	return 0;
}
