/*
 * The history on a PostgreSQL server (libpq; HAVE_PQ): --db=postgresql://
 * ..., for a lab whose test stations write to one history. The same
 * tables as SQLite's (history_sqlite.c), the same queries (history_sql.c
 * in PostgreSQL's dialect); each record one transaction; the schema made
 * under an advisory lock, so that stations starting at once make it once.
 * A database with tables and without storbench_schema is not ours; a newer
 * schema is a newer storbench's: both refused, never changed. Messages
 * name the server without a password the URL may hold.
 */
#include "lib/history/history_int.h"

#ifdef HAVE_PQ
#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>

struct hp {
	PGconn *c;
	char name[512]; /* the URL without its password */
};

static const char schema_sql[] =
	"CREATE TABLE storbench_schema(application TEXT NOT NULL, version INTEGER NOT NULL);"
	"CREATE TABLE results(id BIGSERIAL PRIMARY KEY, started BIGINT NOT NULL,"
	" recorded BIGINT NOT NULL, command TEXT NOT NULL, options TEXT, host TEXT,"
	" version TEXT, model TEXT, serial TEXT, firmware TEXT, capacity BIGINT, cid TEXT,"
	" ext_csd_rev INTEGER, fw_slot INTEGER, state TEXT, write_cache TEXT, source TEXT,"
	" result TEXT NOT NULL);"
	"CREATE TABLE labels(result BIGINT NOT NULL REFERENCES results(id), key TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY(result, key));"
	"CREATE TABLE figures(result BIGINT NOT NULL REFERENCES results(id), name TEXT NOT NULL,"
	" value DOUBLE PRECISION, unit TEXT NOT NULL, word TEXT, PRIMARY KEY(name, result));"
	"CREATE INDEX results_started ON results(started);"
	"CREATE INDEX labels_kv ON labels(key, value);"
	"INSERT INTO storbench_schema VALUES('" SB_HISTORY_APP "', 1);";
_Static_assert(SB_HISTORY_SCHEMA == 1, "schema_sql makes schema 1");

/* where without the password of "scheme://user:password@host" */
static void redact(const char *where, char *out, size_t len)
{
	const char *s = strstr(where, "://"), *at = s ? strchr(s + 3, '@') : NULL;
	const char *colon = s && at ? memchr(s + 3, ':', (size_t)(at - s - 3)) : NULL;
	if (colon)
		snprintf(out, len, "%.*s:***%s", (int)(colon - where), where, at);
	else
		snprintf(out, len, "%s", where);
}

/* libpq's message, its line breaks made spaces, its last one dropped */
static int fail(struct hp *s, int e, struct sb_error *err, const char *what)
{
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", s->c ? PQerrorMessage(s->c) : "out of memory");
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : 0;
	return sb_error_set(err, e, SB_ERR_ENV, "history '%s': %s: %s", s->name, what, msg);
}

static int ok(PGresult *r)
{
	ExecStatusType t = PQresultStatus(r);
	return t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
}

static int exec(struct hp *s, const char *sql, struct sb_error *err, const char *what)
{
	PGresult *r = PQexec(s->c, sql);
	int e = ok(r) ? 0
		      : fail(s, PQstatus(s->c) == CONNECTION_OK ? -EIO : -ECONNRESET, err, what);
	PQclear(r);
	return e;
}

static int hp_open(const char *where, void **state, struct sb_error *err)
{
	struct hp *s = calloc(1, sizeof(*s));
	if (!s)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	redact(where, s->name, sizeof(s->name));
	s->c = PQconnectdb(where);
	if (!s->c || PQstatus(s->c) != CONNECTION_OK) {
		int e = fail(s, -ECONNREFUSED, err, "cannot connect");
		PQfinish(s->c);
		free(s);
		return e;
	}
	/* its notices (a table that exists) are not ours to print */
	PQsetNoticeProcessor(s->c, NULL, NULL);
	*state = s;
	return 0;
}

static void hp_close(void *state)
{
	struct hp *s = state;
	if (!s)
		return;
	PQfinish(s->c);
	free(s);
}

static int hp_migrate(void *state, struct sb_error *err)
{
	struct hp *s = state;
	int e;
	if ((e = exec(s, "BEGIN", err, "cannot begin")) < 0)
		return e;
	/* the schema made once: an advisory lock ("SBHS"), taken before the
	 * statement that looks (its own snapshot, after the lock's wait) */
	if ((e = exec(s, "SELECT pg_advisory_xact_lock(1396853843)", err, "cannot lock it")) < 0)
		goto out0;
	PGresult *r = PQexec(s->c,
			     "SELECT 0, to_regclass('storbench_schema') IS NOT NULL, "
			     "(SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())");
	if (!ok(r) || PQntuples(r) != 1) {
		e = fail(s, -EIO, err, "cannot read its schema");
		goto out;
	}
	const int ours = !strcmp(PQgetvalue(r, 0, 1), "t");
	const long tables = atol(PQgetvalue(r, 0, 2));
	PQclear(r);
	r = NULL;
	if (!ours && tables) {
		e = sb_error_set(err, -EPROTO, SB_ERR_INPUT,
				 "'%s' is not a storbench history (a database of something else: "
				 "no storbench_schema table naming '" SB_HISTORY_APP "')",
				 s->name);
		goto out;
	}
	if (!ours) {
		if ((e = exec(s, schema_sql, err, "cannot make its tables")) < 0)
			goto out;
	} else {
		r = PQexec(s->c, "SELECT application, version FROM storbench_schema");
		if (!ok(r)) {
			e = fail(s, -EIO, err, "cannot read its schema");
			goto out;
		}
		const char *app = PQntuples(r) ? PQgetvalue(r, 0, 0) : "";
		const long version = PQntuples(r) ? atol(PQgetvalue(r, 0, 1)) : 0;
		if (strcmp(app, SB_HISTORY_APP)) {
			e = sb_error_set(err, -EPROTO, SB_ERR_INPUT,
					 "'%s' is not a storbench history (its storbench_schema names "
					 "'%.64s')",
					 s->name, app);
			goto out;
		}
		if (version > SB_HISTORY_SCHEMA) {
			e = sb_error_set(
				err, -EPROTO, SB_ERR_INPUT,
				"'%s' is a history of schema %ld, newer than this storbench's "
				"(%d): a newer storbench wrote it",
				s->name, version, SB_HISTORY_SCHEMA);
			goto out;
		}
	}
	PQclear(r);
	return exec(s, "COMMIT", err, "cannot write it");
out:
	PQclear(r);
out0:;
	PGresult *rb = PQexec(s->c, "ROLLBACK");
	PQclear(rb);
	return e;
}

static const char *or_null(const char *v)
{
	return v && *v ? v : NULL;
}

static int hp_record(void *state, const struct sb_history_rec *r, int64_t *id, struct sb_error *err)
{
	struct hp *s = state;
	char started[24], recorded[24], cap[24], rev[16], slot[16], rid[24], val[40];
	int e;
	snprintf(started, sizeof(started), "%" PRId64, r->started);
	snprintf(recorded, sizeof(recorded), "%" PRId64,
		 r->recorded ? r->recorded : (int64_t)time(NULL));
	snprintf(cap, sizeof(cap), "%" PRIu64, r->capacity);
	snprintf(rev, sizeof(rev), "%d", r->ext_csd_rev);
	snprintf(slot, sizeof(slot), "%d", r->fw_slot);
	const char *v[17] = { started,
			      recorded,
			      r->command,
			      or_null(r->options),
			      or_null(r->host),
			      or_null(r->version),
			      or_null(r->model),
			      or_null(r->serial),
			      or_null(r->firmware),
			      r->capacity ? cap : NULL,
			      or_null(r->cid),
			      r->ext_csd_rev >= 0 ? rev : NULL,
			      r->fw_slot >= 0 ? slot : NULL,
			      or_null(r->state),
			      or_null(r->write_cache),
			      or_null(r->source),
			      r->json ? r->json : "" };
	if ((e = exec(s, "BEGIN", err, "cannot begin")) < 0)
		return e;
	PGresult *q =
		PQexecParams(s->c,
			     "INSERT INTO results(started, recorded, command, options, host, "
			     "version, model, serial, firmware, capacity, cid, ext_csd_rev, "
			     "fw_slot, state, write_cache, source, result) VALUES($1, $2, $3, $4, "
			     "$5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) "
			     "RETURNING id",
			     17, NULL, v, NULL, NULL, 0);
	if (!ok(q) || PQntuples(q) != 1)
		goto bad;
	snprintf(rid, sizeof(rid), "%s", PQgetvalue(q, 0, 0));
	PQclear(q);
	q = NULL;
	for (size_t i = 0; i < r->nlabels; i++) {
		const char *lv[3] = { rid, r->labels[i].key, r->labels[i].value };
		q = PQexecParams(s->c, "INSERT INTO labels VALUES($1, $2, $3)", 3, NULL, lv, NULL,
				 NULL, 0);
		if (!ok(q))
			goto bad;
		PQclear(q);
		q = NULL;
	}
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct sb_figure *f = &r->figs.v[i];
		const int num = !f->word[0] && isfinite(f->value);
		snprintf(val, sizeof(val), "%.17g", f->value);
		const char *fv[5] = { rid, f->name, num ? val : NULL, f->unit ? f->unit : "",
				      f->word[0] ? f->word : NULL };
		q = PQexecParams(
			s->c,
			"INSERT INTO figures VALUES($1, $2, $3, $4, $5) ON CONFLICT (name, "
			"result) DO UPDATE SET value = EXCLUDED.value, unit = EXCLUDED.unit, "
			"word = EXCLUDED.word",
			5, NULL, fv, NULL, NULL, 0);
		if (!ok(q))
			goto bad;
		PQclear(q);
		q = NULL;
	}
	if ((e = exec(s, "COMMIT", err, "cannot record the result")) < 0)
		return e;
	if (id)
		*id = strtoll(rid, NULL, 10);
	return 0;
bad:
	e = fail(s, PQstatus(s->c) == CONNECTION_OK ? -EIO : -ECONNRESET, err,
		 "cannot record the result");
	PQclear(q);
	q = PQexec(s->c, "ROLLBACK");
	PQclear(q);
	return e;
}

static const char *col(PGresult *q, int row, int c)
{
	return PQgetisnull(q, row, c) ? NULL : PQgetvalue(q, row, c);
}

static int hp_query(void *state, const struct sb_history_query *qq,
		    int (*row)(void *ctx, const struct sb_history_row *r), void *ctx,
		    struct sb_error *err)
{
	struct hp *s = state;
	struct hq_sql b;
	char nums[SB_HQ_ARGS][24];
	const char *args[SB_HQ_ARGS];
	int e = sb_hq_build(qq, SB_HQ_PG, &b, err);
	if (e < 0)
		return e;
	for (size_t i = 0; i < b.nargs; i++) {
		snprintf(nums[i], sizeof(nums[i]), "%" PRId64, b.args[i].num);
		args[i] = b.args[i].text ? b.args[i].text : nums[i];
	}
	PGresult *q = PQexecParams(s->c, b.sql, (int)b.nargs, NULL, args, NULL, NULL, 0);
	sb_hq_free(&b);
	if (!ok(q)) {
		e = fail(s, PQstatus(s->c) == CONNECTION_OK ? -EIO : -ECONNRESET, err,
			 "cannot query it");
		PQclear(q);
		return e;
	}
	for (int i = 0; i < PQntuples(q) && !e; i++) {
		struct sb_history_row r = {
			.id = strtoll(PQgetvalue(q, i, 0), NULL, 10),
			.started = strtoll(PQgetvalue(q, i, 1), NULL, 10),
			.recorded = strtoll(PQgetvalue(q, i, 2), NULL, 10),
			.command = col(q, i, 3),
			.options = col(q, i, 4),
			.host = col(q, i, 5),
			.version = col(q, i, 6),
			.model = col(q, i, 7),
			.serial = col(q, i, 8),
			.firmware = col(q, i, 9),
			.source = col(q, i, 10),
			.labels = col(q, i, 11),
			.value = NAN,
		};
		if (!r.labels)
			r.labels = "";
		if (qq->figure) {
			r.value = PQgetisnull(q, i, 12) ? NAN : strtod(PQgetvalue(q, i, 12), NULL);
			r.unit = col(q, i, 13);
			r.word = col(q, i, 14);
			r.group = qq->group_by ? col(q, i, 15) : NULL;
		}
		e = row(ctx, &r);
	}
	PQclear(q);
	return e;
}

static int hp_figure_names(void *state, int (*name)(void *ctx, const char *name), void *ctx,
			   struct sb_error *err)
{
	struct hp *s = state;
	PGresult *q = PQexec(s->c, "SELECT DISTINCT name FROM figures");
	int e = 0;
	if (!ok(q))
		e = fail(s, -EIO, err, "cannot query it");
	for (int i = 0; !e && i < PQntuples(q); i++)
		e = name(ctx, PQgetvalue(q, i, 0));
	PQclear(q);
	return e;
}

const struct sb_history_ops sb_history_pq = {
	.name = "postgresql",
	.open = hp_open,
	.migrate = hp_migrate,
	.record = hp_record,
	.query = hp_query,
	.figure_names = hp_figure_names,
	.close = hp_close,
};
#endif
