/*
 * A soak's records in JSON: the log's lines (its configuration, one line
 * per iteration, the summary with the verdict) and the "soak" section of
 * its results (the summary and every iteration), and reading them back:
 * a log to resume it, a summary for the report.
 */
#ifndef SB_SOAK_JSON_H
#define SB_SOAK_JSON_H

#include "lib/soak/soak_verdict.h"
#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/soak/soak_check.h"
#include "lib/soak/soak_record.h"
#include "lib/device/devinfo.h"

/* What a soak was started with: the log's first line. */
struct sb_soak_config {
	uint64_t started_ns; /* wall clock of the first iteration ever */
	uint64_t seed;
	const char *target;
	/* the files its iterations make (a directory's), listed before any is
	 * made: a resume after a crash removes those left */
	const char *const *files;
	size_t nfiles;
	int argc; /* the options as given, for --resume */
	char *const *argv;
	/* what it was asked: size, block and request size, the stop, the
	 * pause (its workload is the member below) */
	struct sb_soak_settings set;
	const char *engine;
	int direct, region_mode;
	const char *device, *model;	       /* NULL: unknown */
	const struct sb_health *health_before; /* NULL: none */
	const char *workload;		       /* NULL: verify (not written); "iozone" */
	/* many ranks (mpirun): their number, and this log's rank, or
	 * aggregate set for rank 0's log of the All clients figures; 0: one */
	unsigned ranks;
	int rank, aggregate;
};

/* A resumed soak told to stop otherwise than its log said (--iterations or
 * --duration with --resume): the log's {"type": "resume", ...} record, so
 * that a later resume keeps it, and "stop_change" in the results. 0: no
 * such limit. */
struct sb_soak_stop_change {
	uint64_t after_iteration; /* the last iteration before the resume */
	uint64_t iterations_before, duration_ns_before;
	uint64_t iterations, duration_ns;
};

/* How the soak ended for the program's exit, the worst of every rank's
 * (its own log's and LOG's) under mpirun, in this order. */
enum sb_soak_end {
	SB_SOAK_END_PASS,
	SB_SOAK_END_FAIL,    /* a verdict fail */
	SB_SOAK_END_ENV,     /* a log's summary line could not be written */
	SB_SOAK_END_STOPPED, /* stopped (here: the stop hook, or on another rank) */
};

/* How a soak ended: the verdict over the iterations of its log (under
 * mpirun rank 0's LOG, the All clients'; a rank's own elsewhere), what
 * the summary tells besides, and every iteration: what the log's summary
 * line and the results' "soak" section hold (soak_json.h). */
struct sb_soak_result {
	struct sb_soak_summary sum;
	struct sb_soak_cell_metric *cells; /* the iozone workload: each cell's stability */
	size_t ncells;
	struct sb_soak_iter *it; /* every iteration, resumed ones included */
	size_t nit;
	/* many ranks: each iteration's ranks (iter_ranks[i]: nranks of them,
	 * NULL for one resumed from the log), in each iteration record */
	struct sb_soak_rank **iter_ranks;
	unsigned nranks;
	int stop_changed; /* a resume changed the stop condition: how */
	struct sb_soak_stop_change stop_change;
	int kmsg_watched;
	int health_ok[2]; /* health[0] before, [1] after (written when both) */
	struct sb_health health[2];
	/* not written: for the program */
	int ran;    /* the soak began: its log holds the summary */
	int iozone; /* the iozone workload */
	char log[4096];
	enum sb_soak_end end;
	/* many ranks, rank 0: each rank's host and its failed iterations */
	char (*rank_host)[64];
	uint64_t *rank_failed;
};
/* Free what r holds (NULL accepted). */
void sb_soak_result_free(struct sb_soak_result *r);

/* The log's lines, each one object: {"type": "config", ...} (its
 * iteration 1 writes generation 1, each next one more, into "files"),
 * {"type": "iteration", ...}, {"type": "summary", ...}; a resumed run
 * first writes {"type": "start", ...}: the iteration n it goes on with
 * writes generation (one no write used before), each next one more, into
 * files; under mpirun a resume that cut a rank's log writes {"type":
 * "cut", ...}: the highest generation the lines cut away may have used,
 * and their files. */
void sb_soak_start_record(struct sb_json *j, uint64_t n, uint64_t generation,
			  const char *const *files, size_t nfiles);
void sb_soak_cut_record(struct sb_json *j, uint64_t after, uint64_t generation,
			const char *const *files, size_t nfiles);
void sb_soak_config_record(struct sb_json *j, const struct sb_soak_config *c);
void sb_soak_iter_record(struct sb_json *j, const struct sb_soak_iter *it);
void sb_soak_summary_record(struct sb_json *j, const struct sb_soak_result *r);
void sb_soak_resume_record(struct sb_json *j, const struct sb_soak_stop_change *c);
/* Many ranks: the All clients iteration all, and each rank's own in
 * "ranks" (times in seconds from the earliest start). */
void sb_soak_iter_record_ranks(struct sb_json *j, const struct sb_soak_iter *all,
			       const struct sb_soak_rank *r, unsigned n);
/* What an analysis of a soak's figures (report --format=json) could judge
 * of a metric: with too few values, its outliers or change points are
 * null, never an empty list that reads as none found. */
struct sb_soak_judged {
	int outliers, changes;
};
/* A metric's stability and anomalies as the object key: the soak's own
 * (judged NULL: the log's summary, the results' stability), or an
 * analysis (its figures only when there are values, null what it could
 * not judge, each change point's step). */
void sb_soak_metric_json(struct sb_json *j, const char *key, const struct sb_soak_metric *m,
			 const struct sb_soak_judged *judged);
/* The verdict's members, inside an open object: "verdict", and for a
 * soak that stopped before its end "stopped_early" (and "aborted_reason"),
 * "resume": the one writer of the summary line, the results' section and
 * the report's analysis. */
void sb_soak_verdict_json(struct sb_json *j, const struct sb_soak_summary *sum);
/* What the soak was asked, as the object key ("settings" of a summary;
 * the configuration line holds the same members). */
void sb_soak_settings_json(struct sb_json *j, const char *key, const struct sb_soak_settings *s);
/* The same read back from v (a summary's "settings", a configuration
 * line): what is there, the rest 0; known set when anything was. */
void sb_soak_settings_from_json(const struct sb_jv *v, struct sb_soak_settings *s);
/* The stability of both throughput metrics, m[0] write and m[1] read, as
 * members "write_bw" and "read_bw" (sb_soak_metric_json each): the one
 * writer of the block, in a summary's "stability" and in the report's
 * analysis (judged: NULL, or one per metric). */
void sb_soak_stability_members(struct sb_json *j, const struct sb_soak_metric m[2],
			       const struct sb_soak_judged *judged);
/* An iteration's members, inside an open object. */
void sb_soak_iter_json(struct sb_json *j, const struct sb_soak_iter *it);
/* The results' "soak" section (members, for sb_results.extra_json): the
 * summary and "iteration_records"; ctx is a struct sb_soak_result. */
void sb_soak_results_json(struct sb_json *j, const void *ctx);
/* A soak's results: the "soak" section r (kept while res is) and the
 * warnings it owes (kernel messages not watched, the throughput's and
 * each iozone cell's changes). */
struct sb_results;
void sb_soak_results(struct sb_results *res, const struct sb_soak_result *r);

/* ---- reading back (soak_read.c) ---- */

/* An iteration record back, unchecked (sb_soak_read_record checks): every
 * member the writer writes (a rate not there is NaN; a cache method but
 * drop_caches and fadvise is 0; the kernel lines and bad ranges past the
 * kept ones counted; an iozone workload's cells allocated, it->cells).
 * 0 or -ENOMEM. */
int sb_soak_iter_from_json(const struct sb_jv *v, struct sb_soak_iter *it);
/* The verdict a summary line or a results' soak section holds: 0, or
 * -ENOENT when it has no stability of both metrics (a hand-made log, a
 * soak that never ended). The metrics' names point to static strings. */
int sb_soak_summary_from_json(const struct sb_jv *v, struct sb_soak_summary *out);

/* An iteration record read back (a log's "iteration" line, an entry of
 * the results' iteration_records): the iteration, and under mpirun each
 * rank's own (rank 0's clock, seconds from the earliest start) and how far
 * apart they started and ended (NaN: not told). */
struct sb_soak_record {
	struct sb_soak_iter it;
	struct sb_soak_rank *ranks; /* nranks, or NULL */
	unsigned nranks;
	double start_spread_s, end_spread_s;
	double write_shared_pause_s; /* --burst: the pauses every rank shared (0 none) */
};
/* The record v, checked by the log's rules (soak_check.h): 0, or -EINVAL
 * with err naming the key path of what is wrong ("verify.stale: expected
 * a whole number from 0, found -5"), -ENOMEM. Release rec after a 0. */
int sb_soak_read_record(const struct sb_jv *v, struct sb_soak_record *rec, struct sb_error *err);
/* The same, the key paths in err after at ("iteration_records[3]"). */
int sb_soak_read_record_at(const struct sb_jv *v, const char *at, struct sb_soak_record *rec,
			   struct sb_error *err);
void sb_soak_record_release(struct sb_soak_record *rec);
/* A summary (a log's summary line, the results' soak section) into r:
 * its sum, the iozone cells' stability, kmsg_watched (its health is not
 * read). 0; -ENOENT (err says so) when it holds no stability of both
 * metrics: no verdict; -EINVAL with err by key path; -ENOMEM. Free r. */
int sb_soak_read_summary(const struct sb_jv *v, struct sb_soak_result *r, struct sb_error *err);
/* A line of a soak's log, or an entry of the results' iteration_records,
 * as a reader of every kind of line needs it before the line's own
 * reader: whether it is an iteration (its "type" says so, or, having no
 * type, its "iteration" is a number) and its number (NaN: none), and the
 * objects other readers take (NULL: none): an iteration's "verify"
 * (sb_verify_read), a summary's "health" (sb_health_pair_read), the
 * configuration's "health_before" (sb_health_doc_read) and its
 * block_size (NaN: not a number). */
struct sb_soak_line {
	int is_iteration;
	double iteration, block_size;
	const struct sb_jv *verify, *health, *health_before;
};
void sb_soak_line_read(const struct sb_jv *v, struct sb_soak_line *out);

/* A log's configuration line (sb_soak_config_record's; spo --cycles
 * writes its log's as soak's) as a reader of any log takes it: the log's
 * version (0 when not a whole number from 1; version_found: the number
 * found, NAN when of another type or absent), the command (NULL: none,
 * soak's before it was written), storbench's version, the target, its
 * device and model (NULL where absent or not a string). Nothing is
 * refused here: what is wrong is the reader's to say. */
struct sb_soak_log_head {
	uint64_t version;
	double version_found;
	const char *command, *storbench, *target, *device, *model;
};
void sb_soak_log_head_read(const struct sb_jv *v, struct sb_soak_log_head *out);

/* A results' "soak" section read back: what the run's result held (what
 * is written is what is read: the summary, the stop change, every
 * iteration and its ranks; not its health, nor what the result holds for
 * the program alone: ran, log, end, rank_host, rank_failed). */
struct sb_soak_doc {
	struct sb_soak_result r;
};
/* 0, or -EINVAL with err naming the key path in the section
 * ("iteration_records[3].io_errors: expected a whole number from 0, found
 * -3"), -ENOENT (no stability), -ENOMEM. Free with sb_soak_doc_free. */
int sb_soak_read(const struct sb_jv *section, struct sb_soak_doc *out, struct sb_error *err);
void sb_soak_doc_free(struct sb_soak_doc *d);

/* A file a run of the soak listed before it made any (its configuration,
 * start or cut record). */
struct sb_soak_leftover {
	char *path;
};

/* A log read back to resume it. */
struct sb_soak_log {
	uint64_t seed, started_ns;
	uint64_t log_version; /* line 1's, as it says (0: none); -EINVAL when not ours */
	char version[32];     /* the storbench that began it ("" not told) */
	char model[128];      /* the target's device model ("" not told) */
	int argc;	      /* the options it was started with */
	char **argv;
	int stop_changed; /* a resume record: the stop condition of the last one */
	unsigned ranks;	  /* the configuration's (many ranks), 0 one */
	int rank, aggregate;
	uint64_t iterations, duration_ns;
	struct sb_soak_iter *it; /* its complete iterations */
	size_t nit, capit;
	size_t good;	     /* bytes of its whole lines: less than the
					 * text's length when the last one is torn */
	size_t line;	     /* -EBADMSG, -EINVAL: the line refused */
	char why[384];	     /* and why (sb_soak_check_line's words, or "not JSON") */
	uint64_t generation; /* the highest generation a write may have used
			      * (a killed iteration's too): a new run starts above */
	/* the files the runs listed: a killed iteration's may be left, which a
	 * resume removes when they prove to be the soak's */
	struct sb_soak_leftover *left;
	size_t nleft;
	struct sb_soak_check check;
	/* its last summary line, text[summary_at..+summary_len), when no
	 * iteration or resume record follows it (summary_len 0: none) */
	size_t summary_line, summary_at, summary_len;
};
/*
 * Reads a log's text, every line checked as sb_soak_check_line checks it:
 * line 1 its configuration (of SB_SOAK_LOG_VERSION), then its iterations,
 * start and resume records (summary lines are skipped: a resumed soak
 * writes its own); a last line without its newline is left out. 0;
 * -EBADMSG when line log->line is not JSON or is refused (log->why says
 * why); -EINVAL when line 1 is not a soak's configuration; -ENODATA when
 * there is no whole line; -ENOMEM. Free with sb_soak_log_free, whatever it
 * returned.
 */
int sb_soak_log_parse(const char *text, size_t len, struct sb_soak_log *log);
void sb_soak_log_free(struct sb_soak_log *log);
/*
 * What a log read by sb_soak_log_parse (text: its text) ended with: its
 * last summary line as written (a soak that finished, was interrupted or
 * aborted, or a resumed soak's over all its iterations), or, where no
 * summary follows the last iteration or resume (a soak killed, cut by a
 * power loss, or still running), its iterations summarized and stopped as
 * SB_SOAK_INTERRUPTED: never a pass (a failed iteration stays a fail).
 * 0, -EINVAL with err naming the summary line's fault, -ENOMEM.
 */
int sb_soak_log_summary(const char *text, const struct sb_soak_log *log,
			struct sb_soak_summary *out, struct sb_error *err);

#endif
