/* Reading results and writing the outputs of report and compare (cli/report_files.h). */
#include "cli/report_files.h"

#include <sys/stat.h>
#include <unistd.h>

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
