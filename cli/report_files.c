/* Reading results and writing the outputs of report and compare (cli/report_files.h). */
#include "cli/report_files.h"

#include <sys/stat.h>
#include <unistd.h>

/* "-o FILE" is the one short option: spelled out for the shared parser. */
char **cli_expand_short(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	for (int i = 0; v && i < argc; i++)
		v[i] = !strcmp(argv[i], "-o") && i > 0 ? "--output" : argv[i];
	return v;
}

void cli_print_why(char *why)
{
	sb_err("%s", why ? why : "out of memory");
	free(why);
}

int cli_load_result(const char *path, struct rep_doc **out)
{
	char *why;
	int e = rep_load(path, out, &why);
	if (!e)
		return 0;
	cli_print_why(why);
	return e == -REP_EINPUT || e == -ENOENT || e == -EISDIR || e == -EFBIG ? SB_EXIT_USAGE
									: SB_EXIT_ENV;
}

/* mkstemp makes the file private; a report gets the mode of any new file. */
static void default_mode(const char *path)
{
	mode_t um = umask(0);
	umask(um);
	if (chmod(path, 0666 & ~um) < 0)
		sb_warn("cannot set the mode of '%s': %s", path, strerror(errno));
}

/* The temporary file becomes path when rc is 0, and goes otherwise. */
static int finish_tmp(const char *tmp, const char *path, int rc)
{
	if (!rc) {
		default_mode(tmp);
		if (rename(tmp, path) < 0) {
			sb_err("cannot write '%s': %s", path, strerror(errno));
			rc = SB_EXIT_ENV;
		}
	}
	if (rc)
		unlink(tmp);
	return rc;
}

int cli_write_file(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx)
{
	char tmp[4200];
	if (!path || !strcmp(path, "-")) {
		int e = write(stdout, ctx);
		if (e < 0)
			sb_err("cannot write to stdout: %s", strerror(-e));
		return e < 0 ? SB_EXIT_ENV : 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		sb_err("cannot write '%s': %s", path, strerror(errno));
		return SB_EXIT_ENV;
	}
	FILE *f = fdopen(fd, "w");
	int e = f ? write(f, ctx) : -errno;
	if (f && fclose(f) != 0 && !e)
		e = -errno;
	if (!f)
		close(fd);
	if (e < 0)
		sb_err("cannot write '%s': %s", path, strerror(-e));
	return finish_tmp(tmp, path, e < 0 ? SB_EXIT_ENV : 0);
}

int cli_write_named(const char *path, int (*write)(const char *tmp, const void *ctx),
		    const void *ctx)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		sb_err("cannot write '%s': %s", path, strerror(errno));
		return SB_EXIT_ENV;
	}
	close(fd);
	return finish_tmp(tmp, path, write(tmp, ctx));
}
