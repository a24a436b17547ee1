/* Reading results and writing the outputs of report and compare (cli/report_files.h). */
#include "cli/report_files.h"

#include <sys/stat.h>
#include <unistd.h>

/* The formats reports are written in, for cli_output_format's default. */
static const char *const formats[] = { "text", "html", "csv", "xlsx", "json" };

/* The name among formats[] of the first of the command's formats (name
 * NULL), or name when the command takes it; NULL otherwise. */
static const char *format_of(const struct cli_command *cmd, const char *name)
{
	const char *f = cmd->words->formats;
	for (; *f; f += strcspn(f, "|"), f += *f == '|') {
		const size_t n = strcspn(f, "|");
		for (size_t i = 0; i < SB_ARRAY_SIZE(formats); i++)
			if (strlen(formats[i]) == n && !strncmp(f, formats[i], n) &&
			    (!name || !strcmp(name, formats[i])))
				return formats[i];
	}
	return NULL;
}

int cli_output_format(const struct cli_command *cmd, const struct cli_shared *sh, const char *exts,
		      const char **fmt)
{
	const char *name = sh->format ? format_of(cmd, sh->format) : NULL;
	if (!name && sh->output) {
		const char *ext = cli_format_of_path(sh->output);
		name = ext ? format_of(cmd, ext) : NULL;
		if (!name) {
			sb_err("--output: '%s' has no extension that names a format (%s); add "
			       "--format",
			       sh->output, exts);
			return SB_EXIT_USAGE;
		}
	}
	if (!name)
		name = format_of(cmd, NULL);
	if (!strcmp(name, "xlsx") && (!sh->output || !strcmp(sh->output, "-"))) {
		sb_err("--format=xlsx: a workbook needs a file (-o FILE.xlsx)");
		return SB_EXIT_USAGE;
	}
	if (!strcmp(name, "xlsx") && !rep_xlsx_available()) {
		char *why;
		rep_xlsx(sh->output, NULL, 0, &why); /* says what is missing */
		cli_print_why(why);
		return SB_EXIT_USAGE;
	}
	*fmt = name;
	return 0;
}

void cli_print_why(char *why)
{
	sb_err("%s", why ? why : "out of memory");
	free(why);
}

int cli_load_result(const char *path, struct rep_doc **out)
{
	return cli_load(path, 0, out);
}

int cli_load(const char *path, int figures_only, struct rep_doc **out)
{
	char *why;
	int e = figures_only ? rep_load_figures(path, out, &why) : rep_load(path, out, &why);
	if (!e) {
		for (size_t i = 0; i < (*out)->nnotes; i++)
			sb_note("%s", (*out)->notes[i]);
		return 0;
	}
	cli_print_why(why);
	return e == -REP_EINPUT || e == -ENOENT || e == -EISDIR || e == -EFBIG ? SB_EXIT_USAGE
									       : SB_EXIT_ENV;
}
