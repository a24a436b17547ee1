/* Pieces of the HTML report shared by its files (report/html*.c) and compare. */
#ifndef SB_REPORT_HTML_H
#define SB_REPORT_HTML_H

#include "report/report.h"
#include "report/markup.h"

/* The page (report/html_page.c): its head with the CSS, its footer, and
 * the small pieces every section writes. */
void rep_html_begin(FILE *f, const char *title);
void rep_html_end(FILE *f);
void html_kv(FILE *f, const char *key, const char *val); /* a row of a key/value table */
void html_cell(FILE *f, const char *s, int numeric);
char *html_fmt_ns(double ns, char *buf, size_t len); /* "12.3 µs" */
/* <table><thead> with cols; columns from numeric_from on are right-aligned */
void html_head_row(FILE *f, const char *const *cols, size_t n, unsigned numeric_from);

/* Tables (report/html_tables.c) */
void html_repeats_table(FILE *f, const struct rep_doc *d); /* median and spread of repeats */
void html_results_table(FILE *f, const struct rep_doc *d); /* per measurement and direction */
void html_records(FILE *f, const struct rep_doc *d);
/* A multi-host run's ranks: skew and a row each (report/html_ranks.c) */
void html_ranks_table(FILE *f, const struct rep_doc *d);

/* Command sections (report/html_charts.c) */
void html_section_run(FILE *f, const struct rep_doc *d);
void html_section_quick(FILE *f, const struct rep_doc *d);
/* two quick results: a table with B/A and a chart of both per direction */
void html_quick_pair(FILE *f, const struct rep_doc *const *d);
void html_section_soak(FILE *f, const struct rep_doc *d);  /* report/html_soak.c */
/* A soak's verdict, why, settings and statistics: the top of its section,
 * before the device and the charts (report/html_soak.c). */
void html_soak_lead(FILE *f, const struct rep_doc *d);
/* A soak's verdict after its entry of the table of contents (" FAIL"),
 * nothing for another command (report/html_soak.c). */
void html_soak_toc_verdict(FILE *f, const struct rep_doc *d);
void html_soak_cells(FILE *f, const struct rep_doc *d);	   /* report/html_iozone.c */
void html_soak_ranks(FILE *f, const struct rep_doc *d);	   /* report/html_soak_ranks.c */
void html_section_sweep(FILE *f, const struct rep_doc *d); /* report/html_sweep.c */
void html_section_pts(FILE *f, const struct rep_doc *d);   /* report/html_pts.c */
void html_section_cliff(FILE *f, const struct rep_doc *d); /* report/html_cliff.c */
/* storbench.flash: findings, diff per boundary, open-AU curves (report/html_flash.c) */
void html_section_flash(FILE *f, const struct rep_doc *d);
/* storbench.verify: the map, counts and ranges (report/html_verify.c) */
void html_section_verify(FILE *f, const struct rep_doc *d);
/* storbench.spo: verdict, map, classes, ack-to-cut histogram (report/html_spo.c) */
void html_section_spo(FILE *f, const struct rep_doc *d);
void html_section_spo_cycles(FILE *f, const struct rep_doc *d);
/* storbench.meta: the tests, and under mpirun the skew and each rank
 * (report/html_meta.c) */
void html_section_meta(FILE *f, const struct rep_doc *d);
/* A region as rows of cells coloured by class (report/html_map.c): laid out
 * over [origin, origin + size) in cells of whole blocks of bs (0, or
 * -EINVAL for a region that cannot be drawn), ranges of a class added (0
 * is "nothing found", never added), then drawn with the classes as the
 * legend's series, each cell in the class other than 0 covering most of it. */
#define HTML_MAP_CELLS 1024
#define HTML_MAP_CLASSES 8 /* verify's and spo's classes */
struct html_map {
	double origin, size, cell;
	size_t ncells, ncols, nrows;
	double cls[HTML_MAP_CELLS];
	double bad[HTML_MAP_CELLS][HTML_MAP_CLASSES]; /* bytes of each class in the cell */
};
struct chart_series;
int html_map_layout(struct html_map *m, double origin, double size, double bs);
void html_map_add(struct html_map *m, int cls, double offset, double length);
void html_map_chart(FILE *f, struct html_map *m, const char *title, const char *note,
		    const struct chart_series *classes, size_t nclasses);

/* health before and after of a soak (report/html_health.c) */
void html_health(FILE *f, const struct rep_doc *d);

/* A latency histogram estimated from percentiles: nbins shares (percent of
 * the requests) between nbins + 1 log-spaced edges. 0 or -EINVAL when the
 * distribution has too little to draw. */
int rep_lat_hist(const struct rep_lat *l, double *edges, double *share, size_t nbins);

#endif
