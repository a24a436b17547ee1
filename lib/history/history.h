/*
 * The results history (storbench history, --db; docs/history.md): every
 * result a command writes, recorded with the device's identity, the host,
 * the labels the user gave, every figure by the names plans use
 * (lib/plan/plan_figures.h) and the result file itself; queried by
 * device, firmware, label, command and date.
 *
 * One small interface (struct sb_history_ops) with a back end per store:
 * SQLite (history_sqlite.c, a file: WAL, a busy timeout, so that several
 * processes record at once) and PostgreSQL (history_pq.c, a lab's
 * server: --db=postgresql://...). The store never prints; each call returns 0 or -errno with err saying why,
 * naming the database.
 *
 *   struct sb_history *h;
 *   if (sb_history_open("results.db", &h, &err) == 0) {
 *           sb_history_record(h, &rec, &id, &err);
 *           sb_history_close(h);
 *   }
 */
#ifndef SB_HISTORY_H
#define SB_HISTORY_H

#include "lib/plan/plan_figures.h"

/* The schema this build writes and reads (the store's version table). */
#define SB_HISTORY_SCHEMA 1
/* The application the version table names: a database without it is not ours. */
#define SB_HISTORY_APP "storbench history"

struct sb_history_label {
	char *key, *value;
};

/* One result as recorded. Strings NULL or "": not known. */
struct sb_history_rec {
	int64_t started;  /* when the run began (s since 1970, UTC) */
	int64_t recorded; /* when it was recorded (0: now) */
	char *command;	  /* "quick", "soak", "fio" (an import of fio's JSON) */
	char *options;	  /* the command line as given; NULL: not known */
	char *host, *version;
	/* the device: what the result has of it */
	char *model, *serial, *firmware, *cid;
	uint64_t capacity;
	int ext_csd_rev; /* an eMMC's EXT_CSD revision; -1: none */
	int fw_slot;	 /* NVMe's active firmware slot; -1: none */
	char *state;	 /* the state the target was brought to (fill, purge...) */
	char *write_cache;
	char *source; /* the result file's path, as given */
	struct sb_history_label *labels;
	size_t nlabels;
	struct sb_figures figs;
	char *json; /* the result file itself */
	size_t json_len;
};

/* Reads a record out of a result's JSON text (text[0..len)): storbench's
 * result (its figures read by sb_figures_read; a command with no figures
 * documented is recorded with status alone), or fio's JSON output
 * (--output-format=json; command "fio", the figures of run's jobs:
 * JOB.read.bw ...). 0, -EINVAL with err naming what is wrong (not JSON,
 * neither storbench's nor fio's, a section its reader refused), -ENOMEM.
 * Free rec with sb_history_rec_free whatever it returned. */
int sb_history_rec_read(const char *text, size_t len, struct sb_history_rec *rec,
			struct sb_error *err);
/* A label "KEY=VALUE" added to rec: KEY of letters, digits, '_', '-', '.'
 * (1 to 64), VALUE any text but a newline (up to 256). 0, -EINVAL with err
 * saying what a label is, -ENOMEM. */
int sb_history_rec_label(struct sb_history_rec *rec, const char *kv, struct sb_error *err);
void sb_history_rec_free(struct sb_history_rec *rec);
/* The labels of from (NULL: none) added to rec: 0, or as
 * sb_history_rec_label. */
int sb_history_rec_labels_add(struct sb_history_rec *rec, const struct sb_history_rec *from,
			      struct sb_error *err);

/* What a query selects (NULL, 0: any) and how it groups. */
struct sb_history_query {
	const char *model, *serial, *firmware, *command, *host;
	const char *const *labels; /* "KEY=VALUE", each must match */
	size_t nlabels;
	int64_t since, until; /* started in [since, until) (0: no bound) */
	/* NULL: every result (a row each); else the rows of results that have
	 * this figure, with its value */
	const char *figure;
	/* with figure: the group of each row: firmware, model, serial, host,
	 * version, command, day (of started, UTC), label:KEY; NULL none */
	const char *group_by;
};
/* One row a query answers; strings are the store's until the callback
 * returns (NULL: not known). */
struct sb_history_row {
	int64_t id, started, recorded;
	const char *command, *options, *host, *version, *model, *serial, *firmware, *source;
	const char *labels; /* "k=v,k=v" in key order; "" none (and with group_by) */
	const char *group;  /* with group_by: the row's group (NULL: the row has none) */
	double value;	    /* with figure: its value (NaN: a word) */
	const char *unit, *word;
};
/* A group_by as a query takes it: 0, or -EINVAL with err listing them. */
int sb_history_group_check(const char *group_by, struct sb_error *err);

struct sb_history;
/* The interface of a back end. */
struct sb_history_ops {
	const char *name; /* "sqlite" */
	/* opens (creating a file that is not there) the store at where: 0 and
	 * *state, or -errno with err naming it */
	int (*open)(const char *where, void **state, struct sb_error *err);
	/* brings an empty store to SB_HISTORY_SCHEMA; refuses one that is not
	 * ours, or of a newer schema (-EPROTO, -EINVAL) */
	int (*migrate)(void *state, struct sb_error *err);
	int (*record)(void *state, const struct sb_history_rec *r, int64_t *id,
		      struct sb_error *err);
	/* calls row for each row the query selects, oldest started first; a
	 * non-zero return of row stops it and is returned */
	int (*query)(void *state, const struct sb_history_query *q,
		     int (*row)(void *ctx, const struct sb_history_row *r), void *ctx,
		     struct sb_error *err);
	/* the names of the figures stored, each once (for the nearest to a
	 * name not found) */
	int (*figure_names)(void *state, int (*name)(void *ctx, const char *name), void *ctx,
			    struct sb_error *err);
	/* optional: the store's housekeeping (SQLite's checkpoint of its
	 * write-ahead log into the file) left to a later process, for one
	 * that records a result and ends; each record stays durable */
	void (*defer)(void *state);
	void (*close)(void *state);
};

/* The back end of where ("postgresql://..." a server's, else a SQLite
 * file), or NULL with err saying that this build has none for it. */
const struct sb_history_ops *sb_history_backend(const char *where, struct sb_error *err);

/* Opens and migrates the history at where. 0 and *out, or -errno with err
 * naming the database: -ENOTSUP (this build has no back end for it),
 * -EPROTO (not a storbench history, or a newer schema), -errno of the
 * store (-EACCES, -EROFS, -ENOSPC, -EBUSY). */
int sb_history_open(const char *where, struct sb_history **out, struct sb_error *err);
/* Before a plan's first step: its labels (n KEY=VALUE) are the history's
 * and the history at where opens (and migrates), so that every step can
 * record its result. 0, or -errno with err->msg naming what: "label=..."
 * or "db=..." (the plan file's key), its class sb_history_rec_label's or
 * sb_history_open's. */
int sb_history_check(const char *where, const char *const *labels, size_t n,
		     struct sb_error *err);
int sb_history_record(struct sb_history *h, const struct sb_history_rec *r, int64_t *id,
		      struct sb_error *err);
int sb_history_query(struct sb_history *h, const struct sb_history_query *q,
		     int (*row)(void *ctx, const struct sb_history_row *r), void *ctx,
		     struct sb_error *err);
/* The names of stored figures nearest to name (by edit distance, nearest
 * first), up to max, into near: their number, or -errno with err. */
long sb_history_nearest(struct sb_history *h, const char *name, char (*near)[SB_FIGURE_NAME],
			size_t max, struct sb_error *err);
void sb_history_close(struct sb_history *h);
/*
 * For a command that records its result and ends: the history's
 * housekeeping is left to a later process, so that recording costs one
 * flush to the disk. SQLite: each record's commit is flushed (its
 * write-ahead log, synchronous=FULL) as always, but the log is not
 * checkpointed into the file when h closes: the file keeps its -wal
 * beside it, which SQLite reads on open; the commit that takes the log past
 * 128 pages (one in about ten) checkpoints and truncates it, and
 * storbench history checkpoints on closing. PostgreSQL: nothing to leave.
 */
void sb_history_defer(struct sb_history *h);

/* The result r the program wrote, recorded in the history at where
 * (history_result.c): its JSON written into memory and read back as
 * sb_history_rec_read reads a file, with the labels of labels (NULL:
 * none), options (the command line as given; NULL: not known) and source
 * (the result's file; NULL: none), for a command that records its
 * result and ends (sb_history_defer). 0; -errno with err. */
struct sb_results;
int sb_history_record_results(const struct sb_results *r, const char *where,
			      const struct sb_history_rec *labels, const char *options,
			      const char *source, struct sb_error *err);

#endif
