/* Results: describing the target prepared, writing JSON. */
#include "cli/cli.h"

#include <sys/stat.h>
#include <unistd.h>

void cli_results_describe(struct sb_results *r, const struct sb_jobtarget *t, const char *path)
{
	int created = 0;
	for (unsigned i = 0; i < t->npaths; i++)
		created |= t->created[i];
	sb_results_describe(r, &t->info, path, created, t->direct_fallback);
}

/* Every output file goes through here: written under a temporary name
 * (O_EXCL|O_NOFOLLOW in the same directory), flushed to the medium and
 * renamed over PATH (lib/base/outfile.h), so a reader, a full disk or a
 * second Ctrl-C never leaves half a document; the temporary name is
 * tracked so a second Ctrl-C removes it too; the error is the write's own
 * (a full disk says so). */
static int report_failure(const char *path, int e)
{
	struct stat st;
	if (path && e == -EPERM && stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		sb_err("refusing to write '%s': it is a block device (results go to a file, "
		       "or - for standard output)",
		       path);
	else if (path)
		sb_err("cannot write '%s': %s", path, strerror(-e));
	else
		sb_err("cannot write to stdout: %s", strerror(-e));
	return SB_EXIT_ENV;
}

int cli_write_file(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx)
{
	struct sb_outfile o;
	int e;
	if (!path || !strcmp(path, "-")) {
		path = NULL;
		sb_outfile_stream(&o, stdout);
	} else if ((e = sb_outfile_open(&o, path)) < 0) {
		return report_failure(path, e);
	}
	if (o.tmp[0])
		cli_signals_track_file(o.tmp, 1);
	e = write(o.f, ctx);
	if (e == CLI_WRITE_SAID) {
		sb_outfile_abort(&o);
		if (path)
			cli_signals_track_file(o.tmp, 0);
		return SB_EXIT_ENV;
	}
	if (e < 0) {
		e = o.err ? o.err : e; /* the descriptor's errno, not stdio's flag */
		sb_outfile_abort(&o);
	} else {
		e = sb_outfile_commit(&o);
	}
	if (path)
		cli_signals_track_file(o.tmp, 0);
	return e < 0 ? report_failure(path, e) : 0;
}

int cli_write_named(const char *path, int (*write)(const char *tmp, const void *ctx),
		    const void *ctx)
{
	struct sb_outfile o;
	int e = sb_outfile_open(&o, path);
	if (e < 0)
		return report_failure(path, e);
	cli_signals_track_file(o.tmp, 1);
	int rc = write(o.tmp, ctx);
	if (rc) {
		sb_outfile_abort(&o);
	} else if ((e = sb_outfile_commit(&o)) < 0) {
		rc = report_failure(path, e);
	}
	cli_signals_track_file(o.tmp, 0);
	return rc;
}

static int write_results(FILE *f, const void *r)
{
	return sb_results_write_json(r, f);
}

/* The one place a result is written: whole first, then recorded in the
 * history when one is named (--db, STORBENCH_DB), so that a database that
 * fails loses nothing. */
int cli_write_json(const struct sb_results *r, const char *path)
{
	if (cli_write_file(path, write_results, r))
		return -1;
	return cli_history_record(r, path) ? -1 : 0;
}

int cli_read_jobfile(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		sb_err("cannot read job file '%s': %s", path, strerror(errno));
		return SB_EXIT_USAGE;
	}
	const int e = sb_read_stream(f, 1u << 20, text, len);
	fclose(f);
	if (e == -ENOMEM)
		sb_err("out of memory");
	else if (e == -EFBIG)
		sb_err("job file '%s' is larger than 1 MiB: not a job file?", path);
	else if (e)
		sb_err("cannot read job file '%s'", path);
	return e == -ENOMEM ? SB_EXIT_ENV : e ? SB_EXIT_USAGE : 0;
}
