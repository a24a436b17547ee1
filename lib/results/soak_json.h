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
#include "lib/results/soak_check.h"
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
	uint64_t size;
	uint32_t block_size, request_size;
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

/* How a soak ended: its verdict, and what the summary tells besides. */
struct sb_soak_result {
	const struct sb_soak_summary *sum;
	const struct sb_soak_stop_change *stop_change; /* NULL: none */
	int kmsg_watched;
	const struct sb_health *health_before, *health_after; /* both, or NULL */
	const struct sb_soak_iter *it;			      /* every iteration, for the results */
	size_t nit;
	/* --workload=iozone: every cell's stability ("cells" of the summary) */
	const struct sb_soak_cell_metric *cells;
	size_t ncells;
	/* many ranks: each iteration's ranks (iter_ranks[i]: nranks of them,
	 * or NULL for an iteration without, one resumed from the log), in
	 * each iteration record's "ranks" as the aggregate log has them */
	const struct sb_soak_rank *const *iter_ranks;
	unsigned nranks;
};

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
/* An iteration's members, inside an open object. */
void sb_soak_iter_json(struct sb_json *j, const struct sb_soak_iter *it);
/* The results' "soak" section (members, for sb_results.extra_json): the
 * summary and "iteration_records"; ctx is a struct sb_soak_result. */
void sb_soak_results_json(struct sb_json *j, const void *ctx);

/* An iteration record back: what the verdict needs, the kernel lines'
 * text and an iozone workload's cells (allocated: it->cells; the kernel
 * lines' times, the bad ranges, the first error and the cache method are
 * not read). 0 or -ENOMEM. */
int sb_soak_iter_from_json(const struct sb_jv *v, struct sb_soak_iter *it);
/* The verdict a summary line or a results' soak section holds: 0, or
 * -ENOENT when it has no stability of both metrics (a hand-made log, a
 * soak that never ended). The metrics' names point to static strings. */
int sb_soak_summary_from_json(const struct sb_jv *v, struct sb_soak_summary *out);

/* A file a run of the soak listed before it made any (its configuration,
 * start or cut record). */
struct sb_soak_leftover {
	char *path;
};

/* A log read back to resume it. */
struct sb_soak_log {
	uint64_t seed, started_ns;
	int argc; /* the options it was started with */
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

#endif
