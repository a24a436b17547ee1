/*
 * The history in a SQLite file (libsqlite3; HAVE_SQLITE). WAL, so that
 * readers never wait for a writer, and a busy timeout, so that several
 * processes recording at once wait their turn rather than fail; each
 * record is one transaction (BEGIN IMMEDIATE: the write lock taken first,
 * no deadlock between two readers turned writers).
 *
 * The schema's version table (storbench_schema) names the application
 * and the version: a database with tables and without it is not ours; a
 * version above SB_HISTORY_SCHEMA is a newer storbench's. Both are
 * refused, never changed.
 */
#include "lib/history/history_int.h"

#ifdef HAVE_SQLITE
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <unistd.h>

#define BUSY_MS 30000
_Static_assert(SB_HISTORY_SCHEMA == 1, "schema_sql and its INSERT make schema 1");

struct hs {
	sqlite3 *db;
	char *path;
};

static const char schema_sql[] =
	"CREATE TABLE storbench_schema(application TEXT NOT NULL, version INTEGER NOT NULL);"
	"CREATE TABLE results(id INTEGER PRIMARY KEY, started INTEGER NOT NULL,"
	" recorded INTEGER NOT NULL, command TEXT NOT NULL, options TEXT, host TEXT,"
	" version TEXT, model TEXT, serial TEXT, firmware TEXT, capacity INTEGER, cid TEXT,"
	" ext_csd_rev INTEGER, fw_slot INTEGER, state TEXT, write_cache TEXT, source TEXT,"
	" result TEXT NOT NULL);"
	"CREATE TABLE labels(result INTEGER NOT NULL REFERENCES results(id), key TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY(result, key)) WITHOUT ROWID;"
	"CREATE TABLE figures(result INTEGER NOT NULL REFERENCES results(id), name TEXT NOT NULL,"
	" value REAL, unit TEXT NOT NULL, word TEXT, PRIMARY KEY(name, result)) WITHOUT ROWID;"
	"CREATE INDEX results_started ON results(started);"
	"CREATE INDEX labels_kv ON labels(key, value);";

/* -errno of a SQLite result code */
static int errno_of(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return -EBUSY;
	case SQLITE_NOMEM: return -ENOMEM;
	case SQLITE_READONLY: return -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH: return -EACCES;
	case SQLITE_FULL: return -ENOSPC;
	case SQLITE_CANTOPEN: return -ENOENT;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT: return -EPROTO;
	default: return -EIO;
	}
}

/* Why a file SQLite cannot open cannot be opened: its last system error
 * is of its last try (read-only, after read-write failed); the file's or
 * its directory's access says the first. */
static int cantopen_errno(const char *path, int sys)
{
	char dir[PATH_MAX];
	if (access(path, F_OK) == 0)
		return access(path, R_OK | W_OK) < 0 ? errno : sys;
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	return access(dir, W_OK | X_OK) < 0 ? errno : sys;
}

static int fail(struct hs *s, int rc, struct sb_error *err, const char *what)
{
	int e = errno_of(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;
	if ((rc & 0xff) == SQLITE_CANTOPEN && (sys = cantopen_errno(s->path, sys)) > 0)
		e = -sys;
	else if ((rc & 0xff) == SQLITE_IOERR && sys > 0)
		e = -sys; /* the system's word: ENOSPC, EROFS */
	else if (e == -ENOSPC && sys <= 0)
		sys = ENOSPC; /* a short write: SQLite keeps no errno */
	if (e == -EPROTO)
		return sb_error_set(err, e, SB_ERR_INPUT, "'%s' is not a storbench history: %s",
				    s->path, s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	return sb_error_set(err, e, e == -EIO ? SB_ERR_ENV : sb_errno_class(e),
			    "history '%s': %s: %s%s%s", s->path, what,
			    s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc), sys > 0 ? ": " : "",
			    sys > 0 ? strerror(sys) : "");
}

static int hs_open(const char *where, void **state, struct sb_error *err)
{
	struct hs *s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(where))) {
		free(s);
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	}
	int rc = sqlite3_open_v2(where, &s->db,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
				 NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(s->db, BUSY_MS);
	if (rc != SQLITE_OK) {
		int e = fail(s, rc, err, "cannot open");
		sqlite3_close(s->db);
		free(s->path);
		free(s);
		return e;
	}
	*state = s;
	return 0;
}

static void hs_close(void *state)
{
	struct hs *s = state;
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

/* The log is not checkpointed into the file at close (sb_history_defer):
 * the two flushes and the log's unlink a checkpoint costs are a later
 * process's; the records are in the log, flushed at each commit. Each
 * process that opens the history first reads the log whole again (its
 * index, the -shm, is rebuilt, and with it what was checkpointed is
 * forgotten: SQLite's own checkpoint would never restart the log). So
 * the commit that takes the log past DEFER_PAGES (a result is 10 to 15
 * pages) checkpoints it and truncates it, without waiting: a reader or
 * writer of another process leaves it to a later commit. What a process
 * reads on opening stays under 600 KiB. */
#define DEFER_PAGES 128
static int wal_hook(void *ctx, sqlite3 *db, const char *name, int frames)
{
	(void)ctx;
	if (frames < DEFER_PAGES)
		return SQLITE_OK;
	sqlite3_busy_timeout(db, 0);
	sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
	sqlite3_busy_timeout(db, BUSY_MS);
	return SQLITE_OK; /* the record is committed whatever the checkpoint did */
}

static void hs_defer(void *state)
{
	struct hs *s = state;
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	sqlite3_wal_hook(s->db, wal_hook, NULL);
}

static int exec(struct hs *s, const char *sql, struct sb_error *err, const char *what)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : fail(s, rc, err, what);
}

/* the one integer sql answers (-1: no row) */
static int one_int(struct hs *s, const char *sql, int64_t *out, struct sb_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fail(s, rc, err, "cannot read its schema");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
						     : fail(s, rc, err, "cannot read its schema");
}

static int hs_migrate(void *state, struct sb_error *err)
{
	struct hs *s = state;
	int64_t ours, tables, version = -1;
	char app[64] = "";
	int e;
	/* WAL is the file's (kept once set); setting it writes the header.
	 * synchronous=FULL (the connection's, not every build's default): a
	 * commit returns once its log is flushed, so a recorded result
	 * survives a power cut */
	if ((e = exec(s, "PRAGMA journal_mode=WAL", err, "cannot use its journal")) < 0 ||
	    (e = exec(s, "PRAGMA synchronous=FULL", err, "cannot use its journal")) < 0)
		return e;
	if ((e = exec(s, "BEGIN IMMEDIATE", err, "cannot lock it")) < 0)
		return e;
	if ((e = one_int(s,
			 "SELECT count(*) FROM sqlite_master WHERE type='table' AND "
			 "name='storbench_schema'",
			 &ours, err)) < 0 ||
	    (e = one_int(s, "SELECT count(*) FROM sqlite_master", &tables, err)) < 0)
		goto out;
	if (ours) {
		sqlite3_stmt *st;
		int rc = sqlite3_prepare_v2(s->db,
					    "SELECT application, version FROM storbench_schema", -1,
					    &st, NULL);
		if (rc != SQLITE_OK) {
			e = fail(s, rc, err, "cannot read its schema");
			goto out;
		}
		if (sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *a = sqlite3_column_text(st, 0);
			snprintf(app, sizeof(app), "%s", a ? (const char *)a : "");
			version = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
	}
	if ((ours && strcmp(app, SB_HISTORY_APP)) || (!ours && tables)) {
		e = sb_error_set(err, -EPROTO, SB_ERR_INPUT,
				 "'%s' is not a storbench history (a SQLite database of something "
				 "else: no storbench_schema table naming '" SB_HISTORY_APP "')",
				 s->path);
		goto out;
	}
	if (version > SB_HISTORY_SCHEMA) {
		e = sb_error_set(err, -EPROTO, SB_ERR_INPUT,
				 "'%s' is a history of schema %lld, newer than this storbench's "
				 "(%d): a newer storbench wrote it",
				 s->path, (long long)version, SB_HISTORY_SCHEMA);
		goto out;
	}
	if (!ours) {
		if ((e = exec(s, schema_sql, err, "cannot make its tables")) < 0 ||
		    (e = exec(s, "INSERT INTO storbench_schema VALUES('" SB_HISTORY_APP "', 1)",
			      err, "cannot make its tables")) < 0)
			goto out;
	}
	return exec(s, "COMMIT", err, "cannot write it");
out:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return e;
}

static int bind_text(sqlite3_stmt *st, int i, const char *v)
{
	return v && *v ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int hs_record(void *state, const struct sb_history_rec *r, int64_t *id, struct sb_error *err)
{
	struct hs *s = state;
	sqlite3_stmt *res = NULL, *lab = NULL, *fig = NULL;
	int rc, e;
	if ((e = exec(s, "BEGIN IMMEDIATE", err, "cannot lock it")) < 0)
		return e;
	rc = sqlite3_prepare_v2(s->db,
				"INSERT INTO results(started, recorded, command, options, host, "
				"version, model, serial, firmware, capacity, cid, ext_csd_rev, "
				"fw_slot, state, write_cache, source, result) VALUES(?, ?, ?, ?, ?, "
				"?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				-1, &res, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(s->db, "INSERT INTO labels VALUES(?, ?, ?)", -1, &lab,
					NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(s->db,
					"INSERT OR REPLACE INTO figures VALUES(?, ?, ?, ?, ?)", -1,
					&fig, NULL);
	if (rc != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(res, 1, r->started);
	sqlite3_bind_int64(res, 2, r->recorded ? r->recorded : (int64_t)time(NULL));
	bind_text(res, 3, r->command);
	bind_text(res, 4, r->options);
	bind_text(res, 5, r->host);
	bind_text(res, 6, r->version);
	bind_text(res, 7, r->model);
	bind_text(res, 8, r->serial);
	bind_text(res, 9, r->firmware);
	if (r->capacity)
		sqlite3_bind_int64(res, 10, (int64_t)r->capacity);
	bind_text(res, 11, r->cid);
	if (r->ext_csd_rev >= 0)
		sqlite3_bind_int(res, 12, r->ext_csd_rev);
	if (r->fw_slot >= 0)
		sqlite3_bind_int(res, 13, r->fw_slot);
	bind_text(res, 14, r->state);
	bind_text(res, 15, r->write_cache);
	bind_text(res, 16, r->source);
	sqlite3_bind_text(res, 17, r->json ? r->json : "", r->json ? (int)r->json_len : 0,
			  SQLITE_STATIC);
	if ((rc = step_done(res)) != SQLITE_OK)
		goto out;
	const int64_t rid = sqlite3_last_insert_rowid(s->db);
	for (size_t i = 0; i < r->nlabels && rc == SQLITE_OK; i++) {
		sqlite3_bind_int64(lab, 1, rid);
		bind_text(lab, 2, r->labels[i].key);
		sqlite3_bind_text(lab, 3, r->labels[i].value, -1, SQLITE_STATIC);
		rc = step_done(lab);
	}
	for (size_t i = 0; i < r->figs.n && rc == SQLITE_OK; i++) {
		const struct sb_figure *f = &r->figs.v[i];
		sqlite3_bind_int64(fig, 1, rid);
		bind_text(fig, 2, f->name);
		if (f->word[0] || !isfinite(f->value))
			sqlite3_bind_null(fig, 3);
		else
			sqlite3_bind_double(fig, 3, f->value);
		sqlite3_bind_text(fig, 4, f->unit ? f->unit : "", -1, SQLITE_STATIC);
		bind_text(fig, 5, f->word);
		rc = step_done(fig);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK && id)
		*id = rid;
out:
	sqlite3_finalize(res);
	sqlite3_finalize(lab);
	sqlite3_finalize(fig);
	if (rc == SQLITE_OK)
		return 0;
	e = fail(s, rc, err, "cannot record the result");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return e;
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int hs_query(void *state, const struct sb_history_query *q,
		    int (*row)(void *ctx, const struct sb_history_row *r), void *ctx,
		    struct sb_error *err)
{
	struct hs *s = state;
	struct hq_sql b;
	sqlite3_stmt *st = NULL;
	int e = sb_hq_build(q, SB_HQ_SQLITE, &b, err);
	if (e < 0)
		return e;
	int rc = sqlite3_prepare_v2(s->db, b.sql, -1, &st, NULL);
	for (size_t i = 0; i < b.nargs && rc == SQLITE_OK; i++)
		rc = b.args[i].text
			     ? sqlite3_bind_text(st, (int)i + 1, b.args[i].text, -1, SQLITE_STATIC)
			     : sqlite3_bind_int64(st, (int)i + 1, b.args[i].num);
	if (rc != SQLITE_OK) {
		e = fail(s, rc, err, "cannot query it");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sb_history_row r = {
			.id = sqlite3_column_int64(st, 0),
			.started = sqlite3_column_int64(st, 1),
			.recorded = sqlite3_column_int64(st, 2),
			.command = col(st, 3),
			.options = col(st, 4),
			.host = col(st, 5),
			.version = col(st, 6),
			.model = col(st, 7),
			.serial = col(st, 8),
			.firmware = col(st, 9),
			.source = col(st, 10),
			.labels = col(st, 11),
			.value = NAN,
		};
		if (!r.labels)
			r.labels = "";
		if (q->figure) {
			r.value = sqlite3_column_type(st, 12) == SQLITE_NULL
					  ? NAN
					  : sqlite3_column_double(st, 12);
			r.unit = col(st, 13);
			r.word = col(st, 14);
			r.group = q->group_by ? col(st, 15) : NULL;
		}
		if ((e = row(ctx, &r)) != 0)
			goto out;
	}
	e = rc == SQLITE_DONE ? 0 : fail(s, rc, err, "cannot query it");
out:
	sqlite3_finalize(st);
	sb_hq_free(&b);
	return e;
}

static int hs_figure_names(void *state, int (*name)(void *ctx, const char *name), void *ctx,
			   struct sb_error *err)
{
	struct hs *s = state;
	sqlite3_stmt *st;
	int e = 0,
	    rc = sqlite3_prepare_v2(s->db, "SELECT DISTINCT name FROM figures", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fail(s, rc, err, "cannot query it");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((e = name(ctx, col(st, 0))) != 0)
			break;
	if (!e && rc != SQLITE_DONE)
		e = fail(s, rc, err, "cannot query it");
	sqlite3_finalize(st);
	return e;
}

const struct sb_history_ops sb_history_sqlite = {
	.name = "sqlite",
	.open = hs_open,
	.migrate = hs_migrate,
	.record = hs_record,
	.query = hs_query,
	.figure_names = hs_figure_names,
	.defer = hs_defer,
	.close = hs_close,
};
#endif
