/* storbench iozone's output in iozone 3.489's layout (report/iozone_layout.c),
 * also sweep's text and a soak's iozone iteration. */
#ifndef SB_REPORT_IOZONE_LAYOUT_H
#define SB_REPORT_IOZONE_LAYOUT_H

#include "lib/storbench.h"

/* iozone's header: the option lines in the order given (a->notes), the
 * command line (argc, argv: what followed "storbench iozone"), the unit,
 * cache sizes, stride, burst, then what storbench does its way. */
void rep_iozone_header(FILE *f, const struct sb_iozone_args *a, int argc, char **argv);
/* iozone's two title lines over the rows. */
void rep_iozone_columns(FILE *f);
/* A row per measured cell in iozone's columns; tests: the -i groups asked
 * for (blanks for the others); ops: operations per second (-O); dash: "-"
 * for every figure not measured (sweep's text: the fields stay in place
 * for gengnuplot.sh). */
void rep_iozone_rows(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops, int dash);
/* A block per test, as iozone -R's dump_report: the title, the record
 * sizes, a line per file size with a value per measured cell. */
void rep_iozone_blocks(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops);
/* "Excel output is below:" and the blocks, as iozone -R. */
void rep_iozone_excel(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops);

#endif
