/*
 * storbench iozone ARGS...: iozone's command line (lib/sweep/iozone_args.c
 * maps it) run as a sweep, printed in iozone's layout to the column, -R's
 * "Excel output" blocks, -b's workbook (XLSX). The whole line is checked
 * before anything is created; an option storbench cannot honour exits 2
 * naming it and what to use instead.
 */
#include "cli/iozone_cli.h"
#include "cli/report_files.h"
#include "report/report.h"

#include <unistd.h>

static void help(const struct cli_command *cmd)
{
	printf("usage: storbench iozone [--output=FILE] [--quiet] [--destroy-data] IOZONE-OPTIONS\n\n"
	       "iozone's command line, run by storbench's sweep (docs/sweep.md) and printed in\n"
	       "iozone 3.489's layout, column for column. See docs/iozone-cli.md for every\n"
	       "option: what it maps to, and what storbench refuses.\n\n"
	       "iozone options taken:\n"
	       "  -a, -A         auto mode: file sizes 64k to 512m, records 4k to 16m (-A: also -z)\n"
	       "  -z             all record sizes on large files (no crossover)\n"
	       "  -s SIZE, -r SIZE   file size, record size (KiB, or with k, m, g); repeatable\n"
	       "  -n, -g SIZE    auto mode's smallest and largest file size\n"
	       "  -y, -q SIZE    auto mode's smallest and largest record size\n"
	       "  -i N           tests 0 to 7: write, read, random, backward read, record\n"
	       "                 rewrite, stride read, fwrite, fread (repeatable; default all)\n"
	       "  -e, -c         fsync, close inside the timings\n"
	       "  -I             O_DIRECT (not the stdio tests)\n"
	       "  -+n            no second passes (rewrite, reread, ... print 0)\n"
	       "  -+b KB,MSEC    after each KB written, fsync and sleep MSEC, not timed\n"
	       "  -j N           stride read: N records\n"
	       "  -f FILE        the test file [iozone.tmp]; -w: leave it in place\n"
	       "  -R             the Excel report on stdout, as iozone prints it\n"
	       "  -b FILE        a workbook, one sheet per test, written to FILE (XLSX content\n"
	       "                 whatever the name: iozone writes BIFF)\n"
	       "  -O             operations per second instead of KiB/s\n"
	       "  -S KB, -L BYTES  cache sizes: shown in the header, as iozone\n\n"
	       "storbench's own flags (before the iozone options):\n"
	       "  --output=FILE  also write storbench's JSON results to FILE\n"
	       "  --quiet        no progress lines on stderr\n"
	       "  --destroy-data  -f may name an existing file storbench did not create\n"
	       "  --drop-cache   drop the page cache before each read test (iozone reads\n"
	       "                 what its write test left in memory, and so does storbench\n"
	       "                 iozone without this flag; -I bypasses the cache)\n\n"
	       "examples:\n"
	       "  storbench iozone -azecI -+n -L64 -S32 -r2m -s128m -i0 -i2 -+b 400000,30000 -w -f testfile\n"
	       "  storbench iozone -a -s 2G -+n -i 0 -i 1 -f F -Rb iozone.xls\n");
	cli_print_exit_status(stdout, cmd);
}

/* storbench's own flags come first, checked as every command checks its
 * shared flags; returns how many, or -1 (said). */
static int own_flags(struct iozone_cli *z, int argc, char **argv)
{
	int i = 0;
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *w = argv[i], *eq = strchr(w, '=');
		const size_t n = eq ? (size_t)(eq - w) : strlen(w);
		int *flag = !strncmp(w, "--quiet", n) && n == 7		  ? &z->s.sh.quiet
			    : !strncmp(w, "--destroy-data", n) && n == 14 ? &z->s.sh.destroy_data
			    : !strncmp(w, "--drop-cache", n) && n == 12	  ? &z->drop_cache
			    : !strncmp(w, "--help", n) && n == 6	  ? &z->a.help
									  : NULL;
		if (flag && eq) {
			sb_err("%.*s: takes no value", (int)n, w);
			return -1;
		} else if (flag) {
			*flag = 1;
		} else if (n == 8 && !strncmp(w, "--output", 8)) {
			if (!eq || !eq[1]) {
				sb_err("--output: '' is not valid (expected a file name)");
				return -1;
			}
			z->json = eq + 1;
		} else {
			sb_err("%.*s: unknown option (storbench iozone takes --output=FILE, "
			       "--quiet, --destroy-data, --drop-cache, --help, then iozone's "
			       "options)",
			       (int)n, w);
			return -1;
		}
	}
	return i;
}

static int write_xlsx(const char *tmp, const void *ctx)
{
	struct rep_doc *const *d = ctx;
	char *why;
	if (rep_xlsx(tmp, d, 1, &why) < 0) {
		cli_print_why(why);
		return SB_EXIT_ENV;
	}
	return 0;
}

/* -b: the results as JSON under a temporary name, read back by the report
 * layer, written as a workbook. */
static int workbook(const struct sb_results *res, const char *path)
{
	char tmp[] = "/tmp/storbench-iozone-XXXXXX";
	const int fd = mkstemp(tmp);
	if (fd < 0) {
		sb_err("-b: cannot make a temporary file: %s", strerror(errno));
		return SB_EXIT_ENV;
	}
	close(fd);
	struct rep_doc *d = NULL;
	int rc = cli_write_json(res, tmp) < 0 ? SB_EXIT_ENV : cli_load_result(tmp, &d);
	if (!rc)
		rc = cli_write_named(path, write_xlsx, &d);
	rep_free(d);
	unlink(tmp);
	return rc;
}

/* Checks of the line that need the program, not the parser. */
static int check(const struct iozone_cli *z)
{
	if (z->a.xls && !rep_xlsx_available()) {
		sb_err("-b: this storbench was built without libxlsxwriter; use -R and "
		       "redirect stdout, or rebuild with HAVE_XLSX=1");
		return SB_EXIT_USAGE;
	}
	if (z->a.xls && !strcmp(z->a.xls, z->a.file)) {
		sb_err("-b: '%s' is the test file (-f); name another", z->a.xls);
		return SB_EXIT_USAGE;
	}
	return 0;
}

static int outputs(struct iozone_cli *z, int argc, char **argv, const struct sb_results *res)
{
	const uint32_t asked = z->a.tests ? z->a.tests : SB_SWEEP_ALL_TESTS;
	(void)argc;
	(void)argv;
	rep_iozone_rows(stdout, z->s.r, asked, z->a.ops, 0);
	printf("\niozone test complete.\n");
	if (z->a.excel)
		rep_iozone_excel(stdout, z->s.r, asked, z->a.ops);
	fflush(stdout);
	int rc = 0;
	if (z->json && cli_write_json(res, z->json) < 0)
		rc = SB_EXIT_ENV;
	if (z->a.xls) {
		const int w = workbook(res, z->a.xls);
		const size_t n = strlen(z->a.xls);
		if (!w && n > 4 && !strcmp(z->a.xls + n - 4, ".xls"))
			sb_note("-b: '%s' written as XLSX (Office Open XML), not iozone's BIFF "
				"(Excel 97); spreadsheet programs open it by its content",
				z->a.xls);
		rc = rc ? rc : w;
	}
	return rc;
}

void iozone_name_options(void)
{
	cli_msg_alias("--record-sizes", "-r");
	cli_msg_alias("--file-sizes", "-s");
	cli_msg_alias("--direct", "-I");
	cli_msg_alias("--tests", "-i");
}

int cmd_iozone(const struct cli_command *cmd, int argc, char **argv)
{
	struct iozone_cli *z = calloc(1, sizeof(*z));
	if (!z) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	argc--, argv++; /* the command's name */
	const int own = own_flags(z, argc, argv);
	struct sb_sweep_result *r = NULL;
	struct sb_results *res = NULL;
	int rc = own < 0 ? SB_EXIT_USAGE : 0;
	if (!rc && !z->a.help && sb_iozone_args_parse(&z->a, argc - own, argv + own) < 0) {
		sb_err("%s", z->a.error);
		rc = SB_EXIT_USAGE;
	}
	if (!rc && z->a.help) {
		help(cmd);
		goto out;
	}
	if (!rc && z->a.version) {
		printf("storbench %s iozone: iozone's tests and output layout (iozone 3.489)\n",
		       sb_version());
		goto out;
	}
	iozone_name_options();
	rc = rc ? rc : check(z);
	if (rc)
		goto out;
	r = calloc(1, sizeof(*r));
	res = sb_results_create("sweep");
	if (!r || !res) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
		goto out;
	}
	struct sweep_cli *s = &z->s;
	z->a.o.warm = !z->drop_cache; /* iozone reads what its writes left cached */
	s->o = z->a.o;
	s->o.keep = z->a.keep;
	s->tests_given = s->o.tests;
	s->r = r;
	if ((rc = sweep_check(s)))
		goto out; /* before the header: the line is wrong, nothing ran */
	rep_iozone_header(stdout, &z->a, argc - own, argv + own);
	rc = sweep_execute(s, z->a.file, res);
	if (s->ran) {
		rep_iozone_columns(stdout);
		const int w = outputs(z, argc, argv, res);
		rc = rc ? rc : w;
		rep_warnings_text(stderr, res);
	}
	if (cli_interrupted())
		rc = cli_interrupt_status();
out:
	sb_results_free(res);
	free(r);
	free(z);
	return rc;
}
