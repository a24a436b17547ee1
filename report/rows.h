/*
 * The tables of a report as rows of typed cells, walked once for every
 * renderer that lays tables out (CSV, XLSX): one row per measurement and
 * direction, interval, summary line, percentile, scalar of a log record,
 * verify class or bad range. Figures are in base units (bytes, bytes/s,
 * seconds, nanoseconds); a renderer picks its columns and units.
 */
#ifndef SB_ROWS_H
#define SB_ROWS_H

#include "report/report.h"

enum rep_cell_kind {
	REP_CELL_EMPTY,
	REP_CELL_STR,	/* s (NULL: empty text) */
	REP_CELL_NUM,	/* d; absent when not finite */
	REP_CELL_INT,	/* u */
	REP_CELL_WHOLE, /* d, shown rounded to a whole number */
	REP_CELL_FLAG,	/* flag: 1 yes, 0 no, -1 unknown */
};

struct rep_cell {
	enum rep_cell_kind kind;
	const char *s;
	double d;
	uint64_t u;
	int flag;
};

/* Columns of each table, in CSV's order; a table's columns past its CSV
 * ones hold a figure of the row in another form (the block size as text). */
enum {
	RM_SOURCE,
	RM_COMMAND,
	RM_JOB,
	RM_TEST,
	RM_RUN,
	RM_DIR,
	RM_RW,
	RM_BS_BYTES,
	RM_IODEPTH,
	RM_NUMJOBS,
	RM_DIRECT,
	RM_ENGINE,
	RM_CACHE,
	RM_RUNTIME,
	RM_IO_BYTES,
	RM_IOS,
	RM_BW,
	RM_IOPS,
	RM_LAT_KIND,
	RM_LAT_MIN,
	RM_LAT_MEAN,
	RM_LAT_MAX,
	RM_LAT_STDDEV,
	RM_P50,
	RM_P90,
	RM_P99,
	RM_P99_9,
	RM_P99_99,
	RM_ERRORS,
	RM_CSV,
	RM_BS = RM_CSV,
	RM_N
};
enum {
	RI_SOURCE,
	RI_COMMAND,
	RI_JOB,
	RI_DIR,
	RI_T0,
	RI_T1,
	RI_BW,
	RI_IOPS,
	RI_LAT_MEAN,
	RI_LAT_P99,
	RI_N
};
enum {
	RS_SOURCE,
	RS_COMMAND,
	RS_TEST,
	RS_DIR,
	RS_RUNS,
	RS_BW_MED,
	RS_BW_MIN,
	RS_BW_MAX,
	RS_IOPS_MED,
	RS_IOPS_MIN,
	RS_IOPS_MAX,
	RS_LAT_MEAN_MED,
	RS_LAT_P99_MED,
	RS_N
};
enum { RP_SOURCE, RP_COMMAND, RP_JOB, RP_DIR, RP_LAT_KIND, RP_PCT, RP_LAT, RP_N };
enum { RR_SOURCE, RR_COMMAND, RR_RECORD, RR_KEY, RR_VALUE, RR_N };
enum { RV_SOURCE, RV_COMMAND, RV_ITERATION, RV_CLASS, RV_BLOCKS, RV_BYTES, RV_SHARE, RV_N };
enum {
	RG_SOURCE,
	RG_COMMAND,
	RG_ITERATION,
	RG_CLASS,
	RG_OFFSET,
	RG_LENGTH,
	RG_EXPECTED,
	RG_GENERATION,
	RG_ERRNO,
	RG_ERROR,
	RG_RANK, /* a rank's range (verify under mpirun): its rank and host */
	RG_HOST,
	RG_N
};
/* cliff: the series (one row per bin), the steps found, the recoveries */
enum {
	RC_SOURCE,
	RC_COMMAND,
	RC_ROW,
	RC_INDEX,
	RC_BYTES,
	RC_BW,
	RC_BEFORE_BW,
	RC_AFTER_BW,
	RC_IDLE,
	RC_RECOVERED,
	RC_FRACTION,
	RC_N
};
/* iozone: soak --workload=iozone's cells, a row per iteration and cell */
enum { RZ_SOURCE, RZ_COMMAND, RZ_ITERATION, RZ_TEST, RZ_FILE, RZ_RECORD, RZ_KIBPS, RZ_N };
/* ranks: a run of many ranks (mpirun), each rank's figures of each job
 * and direction, from client_stats */
enum {
	RK_SOURCE,
	RK_COMMAND,
	RK_JOB,
	RK_RANK,
	RK_HOST,
	RK_DIR,
	RK_IO_BYTES,
	RK_BW,
	RK_IOPS,
	RK_START,
	RK_END,
	RK_OFFSET,
	RK_N
};
/* soak_ranks: a soak of many ranks, each rank's own figures of each
 * iteration (the records' "ranks"); times from the iteration's earliest start */
enum {
	RSK_SOURCE,
	RSK_COMMAND,
	RSK_ITERATION,
	RSK_RANK,
	RSK_HOST,
	RSK_WRITE_BW,
	RSK_READ_BW,
	RSK_WRITE_BYTES,
	RSK_CHECKED_BYTES,
	RSK_START,
	RSK_END,
	RSK_WRITE_START,
	RSK_WRITE_END,
	RSK_CHECK_START,
	RSK_CHECK_END,
	RSK_BLOCKS,
	RSK_BAD,
	RSK_IO_ERRORS,
	RSK_FAILED,
	RSK_N
};
/* meta_ranks: meta (bonnie) of many ranks, each rank's figures of each test */
enum {
	RMK_SOURCE,
	RMK_COMMAND,
	RMK_TEST,
	RMK_RANK,
	RMK_HOST,
	RMK_OPS,
	RMK_BYTES,
	RMK_ELAPSED,
	RMK_CPU,
	RMK_RATE,
	RMK_UNIT,
	RMK_LAT_MIN,
	RMK_LAT_P50,
	RMK_LAT_P99,
	RMK_LAT_MAX,
	RMK_START,
	RMK_END,
	RMK_N
};
/* meta_skew: per test, how far the ranks were apart (storbench.meta.skew) */
enum {
	RMS_SOURCE,
	RMS_COMMAND,
	RMS_TEST,
	RMS_FIRST_START,
	RMS_START_SPREAD,
	RMS_END_SPREAD,
	RMS_SPAN,
	RMS_MEDIAN_RATE,
	RMS_UNIT,
	RMS_SLOWEST,
	RMS_SLOWEST_VS,
	RMS_FASTEST,
	RMS_FASTEST_VS,
	RMS_N
};
/* verify_ranks: verify and run --verify of many ranks, each rank's
 * verdict and blocks per class (storbench.verify.ranks) */
enum {
	RVK_SOURCE,
	RVK_COMMAND,
	RVK_RANK,
	RVK_HOST,
	RVK_PATH,
	RVK_RESULT,
	RVK_BLOCKS,
	RVK_NOT_INTACT,
	RVK_CLASS0, /* REP_VCLASS_N columns, in verify's order of the classes */
	RVK_RANGES_OMITTED = RVK_CLASS0 + REP_VCLASS_N,
	RVK_N
};
#define REP_ROW_MAX RM_N
_Static_assert((int)RSK_N <= (int)RM_N && (int)RMK_N <= (int)RM_N && (int)RVK_N <= (int)RM_N,
	       "every table's row fits");

struct rep_columns {
	const char *const *names; /* CSV's header names */
	size_t n, ncsv;
};
extern const struct rep_columns rep_columns[REP_T_N];

struct rep_row {
	enum rep_table table;
	const struct rep_doc *doc;
	const struct rep_job *job; /* NULL: a row of no job */
	int ddir;		   /* -1: a row of no direction */
	struct rep_cell cell[REP_ROW_MAX];
};
typedef void (*rep_row_fn)(void *ctx, const struct rep_row *r);

/* intervals: the points of each job and direction together (one range per
 * line of a chart) instead of each interval's directions together */
#define REP_ROWS_BY_SERIES 1u

/* Calls fn (unless NULL) for every row of table t over docs, in order;
 * returns how many there are, or the error of reading a file again for
 * the rows of every record or interval (rep_each_record). */
long rep_rows(enum rep_table t, struct rep_doc *const *docs, size_t n, unsigned flags,
	      rep_row_fn fn, void *ctx);

#endif
