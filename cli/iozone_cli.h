/* storbench iozone: what cli/cmd_iozone.c, cli/iozone_out.c and sweep's
 * text share. */
#ifndef SB_CLI_IOZONE_H
#define SB_CLI_IOZONE_H

#include "cli/cmd_sweep.h"

struct iozone_cli {
	struct sb_iozone_args a;
	struct sweep_cli s;
	const char *json; /* --output=FILE: storbench's JSON results too */
	int drop_cache;	  /* --drop-cache: cold page cache before each read test */
};

/* iozone's header: the option lines in the order given, the command line,
 * the unit, cache sizes, stride, burst, then what storbench does its way. */
void iozone_print_header(FILE *f, const struct iozone_cli *z, int argc, char **argv);
/* From here on every message names iozone's options, not the sweep's
 * behind them: -r, not --record-sizes (cli_msg_alias). */
void iozone_name_options(void);
/* iozone's two title lines over the rows. */
void iozone_print_columns(FILE *f);
/* A row per measured cell in iozone's columns; tests: the -i groups asked
 * for (blanks for the others); ops: operations per second (-O); dash: "-"
 * for every figure not measured (sweep's text: the fields stay in place
 * for gengnuplot.sh). */
void iozone_print_rows(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops, int dash);
/* A block per test, as iozone -R's dump_report: the title, the record
 * sizes, a line per file size with a value per measured cell. */
void iozone_print_blocks(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops);
/* "Excel output is below:" and the blocks, as iozone -R. */
void iozone_print_excel(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops);

#endif
