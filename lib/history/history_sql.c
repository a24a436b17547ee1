/*
 * A query of the history as SQL, built once for every back end's dialect
 * (placeholders, the labels gathered, the day of a time).
 */
#include "lib/history/history_int.h"

#include <stdarg.h>

/* ---- a query's SQL ---- */

struct sqlbuf {
	char *s;
	size_t len, cap;
	int err;
	enum sb_hq_dialect d;
	struct hq_sql *b;
};

static void put(struct sqlbuf *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sqlbuf *q, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(q->s ? q->s + q->len : NULL, q->s ? q->cap - q->len : 0, fmt, ap);
		va_end(ap);
		if (q->s && q->len + (size_t)n < q->cap) {
			q->len += (size_t)n;
			return;
		}
		size_t cap = (q->cap ? q->cap : 512) * 2 + (size_t)n;
		char *s = realloc(q->s, cap);
		if (!s) {
			q->err = -ENOMEM;
			return;
		}
		q->s = s;
		q->cap = cap;
	}
}

/* a placeholder for the next argument: text t, else the number v */
static void arg(struct sqlbuf *q, const char *t, int64_t v)
{
	if (q->b->nargs == SB_HQ_ARGS) {
		q->err = -E2BIG;
		return;
	}
	q->b->args[q->b->nargs].text = t;
	q->b->args[q->b->nargs].num = v;
	q->b->nargs++;
	if (q->d == SB_HQ_PG)
		put(q, "$%zu", q->b->nargs);
	else
		put(q, "?");
}

static const char *const groups[] = { "firmware", "model",   "serial", "host",
				      "version",  "command", "day",    "label:KEY" };

int sb_history_group_check(const char *g, struct sb_error *err)
{
	if (!strncmp(g, "label:", 6) && g[6])
		return 0;
	for (size_t i = 0; i + 1 < SB_ARRAY_SIZE(groups); i++)
		if (!strcmp(g, groups[i]))
			return 0;
	return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
			    "'%s' is not a group (firmware, model, serial, host, version, command, "
			    "day or label:KEY)",
			    g);
}

int sb_hq_build(const struct sb_history_query *qq, enum sb_hq_dialect d, struct hq_sql *b,
		struct sb_error *err)
{
	struct sqlbuf q = { .d = d, .b = b };
	memset(b, 0, sizeof(*b));
	if (qq->group_by && sb_history_group_check(qq->group_by, err) < 0)
		return -EINVAL;
	put(&q, "SELECT r.id, r.started, r.recorded, r.command, r.options, r.host, r.version, "
		"r.model, r.serial, r.firmware, r.source, ");
	if (qq->figure && qq->group_by)
		put(&q, "NULL"); /* groups need no labels: each row's would cost a lookup */
	else if (d == SB_HQ_PG)
		put(&q, "(SELECT string_agg(l.key || '=' || l.value, ',' ORDER BY l.key) FROM "
			"labels l WHERE l.result = r.id)");
	else
		put(&q, "(SELECT group_concat(k || '=' || v, ',') FROM (SELECT l.key AS k, l.value "
			"AS v FROM labels l WHERE l.result = r.id ORDER BY l.key))");
	if (qq->figure) {
		put(&q, ", f.value, f.unit, f.word, ");
		const char *g = qq->group_by;
		if (!g)
			put(&q, "NULL");
		else if (!strncmp(g, "label:", 6)) {
			put(&q, "(SELECT l.value FROM labels l WHERE l.result = r.id AND l.key = ");
			arg(&q, g + 6, 0);
			put(&q, ")");
		} else if (!strcmp(g, "day"))
			put(&q, d == SB_HQ_PG
					? "to_char(to_timestamp(r.started) AT TIME ZONE 'UTC', "
					  "'YYYY-MM-DD')"
					: "date(r.started, 'unixepoch')");
		else
			put(&q, "r.%s", g); /* a column of the list above */
		put(&q, " FROM results r JOIN figures f ON f.result = r.id AND f.name = ");
		arg(&q, qq->figure, 0);
	} else {
		put(&q, " FROM results r");
	}
	put(&q, " WHERE 1 = 1");
	const struct {
		const char *col, *v;
	} eq[] = { { "model", qq->model },
		   { "serial", qq->serial },
		   { "firmware", qq->firmware },
		   { "command", qq->command },
		   { "host", qq->host } };
	for (size_t i = 0; i < SB_ARRAY_SIZE(eq); i++)
		if (eq[i].v) {
			put(&q, " AND r.%s = ", eq[i].col);
			arg(&q, eq[i].v, 0);
		}
	for (size_t i = 0; i < qq->nlabels; i++) {
		const char *kv = qq->labels[i], *e = strchr(kv, '=');
		if (!e) {
			sb_hq_free(b);
			free(q.s);
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "'%s' is not a label (KEY=VALUE)", kv);
		}
		put(&q,
		    " AND EXISTS (SELECT 1 FROM labels l WHERE l.result = r.id AND l.key || '=' "
		    "|| l.value = ");
		arg(&q, kv, 0);
		put(&q, ")");
	}
	if (qq->since) {
		put(&q, " AND r.started >= ");
		arg(&q, NULL, qq->since);
	}
	if (qq->until) {
		put(&q, " AND r.started < ");
		arg(&q, NULL, qq->until);
	}
	put(&q, " ORDER BY r.started, r.id");
	if (q.err) {
		free(q.s);
		return sb_error_set(err, q.err, q.err == -ENOMEM ? SB_ERR_ENV : SB_ERR_INPUT,
				    q.err == -ENOMEM ? "out of memory" : "too many conditions");
	}
	b->sql = q.s;
	return 0;
}

void sb_hq_free(struct hq_sql *b)
{
	free(b->sql);
	b->sql = NULL;
}
