/*
 * What every workbook storbench writes shares (report/xlsx_book.c, with
 * libxlsxwriter): a number format for each kind of figure (MiB/s or MB/s
 * with one decimal, IOPS and counts with thousands separators, latency in
 * µs, sizes in bytes, KiB or MiB, times and durations), column titles in
 * the rate unit of --units, each column as wide as what it holds, headers
 * frozen, and charts in the reports' colours. The report's workbook
 * (report/xlsx.c) and compare's (report/compare_sheet.c) write through it.
 */
#ifndef SB_XLSX_BOOK_H
#define SB_XLSX_BOOK_H

#ifdef HAVE_XLSX
#include "report/report.h"

#include <xlsxwriter.h>

#define XB_MIBYTES 1048576.0
#define XB_MAXCOLS 256
#define XB_MAX_LINES 8

/* Kinds of figure, each with its number format and the divisor from the
 * base unit (bytes/s, ns, bytes) to the unit a sheet shows. */
enum xb_fmt {
	XB_TEXT,  /* text: no number format */
	XB_RATE,  /* bytes/s in MiB/s (MB/s: --units=si), 1 decimal */
	XB_IOPS,  /* operations a second, thousands separated */
	XB_US,	  /* ns in µs, 1 decimal */
	XB_COUNT, /* a whole number, thousands separated */
	XB_SEC,	  /* seconds, 3 decimals */
	XB_BYTES, /* bytes, thousands separated */
	XB_KIB,	  /* bytes in KiB, whole */
	XB_MIB,	  /* bytes in MiB, 1 decimal */
	XB_GIB,	  /* bytes in GiB, 3 decimals */
	XB_PCT,	  /* a number of per cent (99.9), 1 decimal */
	XB_PCTL,  /* a percentile (99.99), 2 or 3 decimals */
	XB_SHARE, /* a fraction shown as per cent (0.5: 50.0%) */
	XB_RATIO, /* a plain figure, 3 decimals (p-values, CV) */
	XB_NUM,	  /* a figure of its own unit, 1 decimal, thousands separated */
	XB_TIME,  /* ns since the epoch as a date and time (UTC) */
	XB_DUR,	  /* seconds as [h]:mm:ss.0 */
	XB_NFMT
};

struct xb_book {
	lxw_workbook *wb;
	lxw_format *bold, *fmt[XB_NFMT], *head[XB_NFMT];
	lxw_worksheet *sheet;
	const char *sheet_name;
	lxw_row_t row;
	double width[XB_MAXCOLS]; /* of the current sheet, in characters */
	int err;		  /* a result could not be read again */
};

/* A new workbook at path (constant memory: rows go to the file as they
 * are written): 0 or -EIO. */
int xb_open(struct xb_book *b, const char *path);
/* The last sheet's column widths, then the file: an lxw_error. */
lxw_error xb_close(struct xb_book *b);
/* A new sheet (the last one's widths set); its first row the bold titles
 * (NULL: none), frozen above row freeze and left of column freeze_col. */
lxw_worksheet *xb_sheet(struct xb_book *b, const char *name, const char *const *titles, size_t n,
			lxw_row_t freeze, lxw_col_t freeze_col);
/* Cells of the current sheet, widening their column to fit: text
 * (bold: a header; "MiB/s" in it in the rate unit, as xb_title), a
 * figure already in its unit, a figure in the base
 * unit of kind k (divided as k says; not finite: left empty). */
void xb_str(struct xb_book *b, lxw_row_t r, lxw_col_t c, const char *s, int bold);
void xb_num(struct xb_book *b, lxw_row_t r, lxw_col_t c, double v, enum xb_fmt k, int bold);
void xb_base(struct xb_book *b, lxw_row_t r, lxw_col_t c, double v, enum xb_fmt k);
/* The divisor of kind k from its base unit. */
double xb_div(enum xb_fmt k);
/* A title in the process's rate unit: "MiB/s" in it becomes "MB/s" with
 * --units=si. Returns buf. */
const char *xb_title(const char *t, char *buf, size_t len);
/* A chart with its title and axis names (in the rate unit), NULL when out
 * of memory; placed at (row, col) of the current sheet. */
lxw_chart *xb_chart(struct xb_book *b, uint8_t type, const char *title, const char *x,
		    const char *y);
void xb_place(struct xb_book *b, lxw_row_t row, lxw_col_t col, lxw_chart *ch);
/* A plan's verdict and criteria as the workbook's first sheet
 * (report/xlsx_plan.c). */
void xb_plan_sheet(struct xb_book *b, const struct rep_plan *p);
/* The reports' colours (Okabe-Ito): read, write, and by job. */
extern const lxw_color_t xb_colors[8];
#endif

#endif
