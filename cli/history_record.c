/*
 * The results history's recording (docs/history.md): --db and --label as
 * parsed, and every result a command writes recorded when --db or
 * STORBENCH_DB names a history (cli_history_record, called by
 * cli_write_json once the result is safe in its file).
 */
#include "cli/cli.h"

#include <limits.h>
#include <time.h>
#include <unistd.h>

static const char *db_given;
static struct sb_history_rec given; /* its labels: --label as given */

int cli_history_db(const char *v, char *hint, size_t hl)
{
	struct sb_error err = { 0 };
	if (!*v)
		return snprintf(hint, hl, "a file name"), -EINVAL;
	if (!sb_history_backend(v, &err))
		return snprintf(hint, hl, "a history this storbench can write: %s", err.msg),
		       -EINVAL;
	db_given = v;
	return 0;
}

int cli_history_label(const char *v, char *hint, size_t hl)
{
	struct sb_error err = { 0 };
	/* the same KEY=VALUE again is the same label: a command that reads its
	 * line twice (soak --resume) gives each label twice */
	const char *eq = strchr(v, '=');
	for (size_t i = 0; eq && i < given.nlabels; i++)
		if (strlen(given.labels[i].key) == (size_t)(eq - v) &&
		    !strncmp(given.labels[i].key, v, (size_t)(eq - v)) &&
		    !strcmp(given.labels[i].value, eq + 1))
			return 0;
	if (sb_history_rec_label(&given, v, &err) < 0)
		return snprintf(hint, hl, "%s", err.msg), -EINVAL;
	return 0;
}

/* A result recorded without --output is kept in a file of its own all the
 * same (the record names it, and a history that fails loses nothing):
 * storbench-CMD-YYYYmmdd-HHMMSS-PID.json in the current directory, one
 * name for the process (a command may read its line more than once). */
static char auto_output[96];

const char *cli_history_output(const char *cmd)
{
	if (!auto_output[0]) {
		char when[32];
		const time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
		snprintf(auto_output, sizeof(auto_output), "storbench-%.24s-%s-%ld.json", cmd,
			 when, (long)getpid());
	}
	return auto_output;
}

const char *cli_history_where(void)
{
	const char *e = getenv("STORBENCH_DB");
	return db_given ? db_given : e && *e ? e : NULL;
}

/* the command line this process was given, after the program's name */
static char *options_of_process(void)
{
	char buf[8192];
	FILE *f = fopen("/proc/self/cmdline", "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	if (!n)
		return NULL;
	buf[n] = 0;
	size_t skip = strlen(buf) + 1; /* argv[0] */
	for (size_t i = skip; i + 1 < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	return skip < n ? strdup(buf + skip) : NULL;
}

static int write_results(FILE *f, const void *r)
{
	return sb_results_write_json(r, f);
}

size_t cli_history_label_list(char (*kv)[400], size_t max)
{
	for (size_t i = 0; i < given.nlabels && i < max; i++)
		snprintf(kv[i], sizeof(kv[i]), "%s=%s", given.labels[i].key, given.labels[i].value);
	return given.nlabels;
}

int cli_history_labels(struct sb_history_rec *rec, struct sb_error *err)
{
	for (size_t i = 0; i < given.nlabels; i++) {
		char kv[400];
		snprintf(kv, sizeof(kv), "%s=%s", given.labels[i].key, given.labels[i].value);
		int e = sb_history_rec_label(rec, kv, err);
		if (e < 0)
			return e;
	}
	return 0;
}

static int record(const struct sb_results *r, const char *path, const char *where,
		  struct sb_error *err)
{
	struct sb_history_rec rec;
	struct sb_history *h = NULL;
	char *text = NULL, real[PATH_MAX];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	int e = write_results(f, r);
	if (fclose(f) != 0 && !e)
		e = -ENOMEM;
	if (e < 0) {
		free(text);
		return sb_error_set(err, e, SB_ERR_ENV, "cannot hold the result: %s", strerror(-e));
	}
	e = sb_history_rec_read(text, len, &rec, err);
	free(text);
	if (e == 0 && (e = cli_history_labels(&rec, err)) == 0) {
		rec.options = options_of_process();
		if (path && strcmp(path, "-") && realpath(path, real))
			rec.source = strdup(real);
		if ((e = sb_history_open(where, &h, err)) == 0) {
			sb_history_defer(h); /* one flush: the commit's */
			e = sb_history_record(h, &rec, NULL, err);
		}
		sb_history_close(h);
	}
	sb_history_rec_free(&rec);
	return e;
}

int cli_history_record(const struct sb_results *r, const char *path)
{
	/* once per result: quick writes its second target's, and a result
	 * may go to a file and to stdout */
	static const struct sb_results *done[8];
	static size_t ndone;
	const char *where = cli_history_where();
	struct sb_error err = { 0 };
	if (!where)
		return 0;
	for (size_t i = 0; i < ndone; i++)
		if (done[i] == r)
			return 0;
	if (ndone < SB_ARRAY_SIZE(done))
		done[ndone++] = r;
	if (record(r, path, where, &err) == 0) {
		if (path && auto_output[0] && !strcmp(path, auto_output))
			sb_note("the result is in '%s' (no --output: recorded in the history '%s' "
				"from there)",
				path, where);
		return 0;
	}
	sb_err("%s", err.msg);
	if (path && strcmp(path, "-"))
		sb_note("the result is in '%s'; record it later with: storbench history --db=%s "
			"--import %s",
			path, where, path);
	else
		sb_note("the result was not recorded in the history '%s'", where);
	return SB_EXIT_ENV;
}
