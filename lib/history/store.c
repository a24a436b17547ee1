/*
 * The history's interface over its back ends: which back end a --db
 * names, opening and migrating, the stored figure names nearest to one
 * not found.
 */
#include "lib/history/history_int.h"
#include "lib/base/units.h"

struct sb_history {
	const struct sb_history_ops *ops;
	void *state;
};

static int is_url(const char *where)
{
	return !strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11);
}

const struct sb_history_ops *sb_history_backend(const char *where, struct sb_error *err)
{
	if (is_url(where)) {
#ifdef HAVE_PQ
		return &sb_history_pq;
#else
		sb_error_set(err, -ENOTSUP, SB_ERR_INPUT,
			     "'%s' needs a storbench built with PostgreSQL (libpq: make HAVE_PQ=1): "
			     "this one is not",
			     where);
		return NULL;
#endif
	}
#ifdef HAVE_SQLITE
	return &sb_history_sqlite;
#else
	sb_error_set(err, -ENOTSUP, SB_ERR_INPUT,
		     "'%s' needs a storbench built with SQLite (libsqlite3: make HAVE_SQLITE=1): "
		     "this one is not",
		     where);
	return NULL;
#endif
}

int sb_history_open(const char *where, struct sb_history **out, struct sb_error *err)
{
	const struct sb_history_ops *ops = sb_history_backend(where, err);
	*out = NULL;
	if (!ops)
		return -ENOTSUP;
	if (!*where)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "a history needs a file name");
	struct sb_history *h = calloc(1, sizeof(*h));
	if (!h)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	h->ops = ops;
	int e = ops->open(where, &h->state, err);
	if (e == 0 && (e = ops->migrate(h->state, err)) < 0)
		ops->close(h->state);
	if (e < 0) {
		free(h);
		return e;
	}
	*out = h;
	return 0;
}

/* err->msg behind what it is about ("label=", "db="); e. */
static int about(struct sb_error *err, const char *what, int e)
{
	char msg[sizeof(err->msg)];
	snprintf(msg, sizeof(msg), "%s", err->msg);
	snprintf(err->msg, sizeof(err->msg), "%s%s", what, msg);
	return e;
}

int sb_history_check(const char *where, const char *const *labels, size_t n, struct sb_error *err)
{
	struct sb_history_rec rec = { 0 };
	struct sb_history *h = NULL;
	int e = 0;
	memset(err, 0, sizeof(*err));
	for (size_t i = 0; i < n && !e; i++)
		if ((e = sb_history_rec_label(&rec, labels[i], err)) < 0)
			about(err, "label=", e);
	sb_history_rec_free(&rec);
	if (!e && (e = sb_history_open(where, &h, err)) < 0)
		about(err, "db=", e);
	sb_history_close(h);
	return e < 0 ? e : 0;
}

int sb_history_record(struct sb_history *h, const struct sb_history_rec *r, int64_t *id,
		      struct sb_error *err)
{
	return h->ops->record(h->state, r, id, err);
}

int sb_history_query(struct sb_history *h, const struct sb_history_query *q,
		     int (*row)(void *ctx, const struct sb_history_row *r), void *ctx,
		     struct sb_error *err)
{
	return h->ops->query(h->state, q, row, ctx, err);
}

void sb_history_defer(struct sb_history *h)
{
	if (h && h->ops->defer)
		h->ops->defer(h->state);
}

void sb_history_close(struct sb_history *h)
{
	if (!h)
		return;
	h->ops->close(h->state);
	free(h);
}

/* ---- the stored figure names nearest to one ---- */

struct near {
	const char *name;
	char (*v)[SB_FIGURE_NAME];
	unsigned dist[16];
	size_t n, max;
};

static int near_one(void *ctx, const char *name)
{
	struct near *c = ctx;
	unsigned d = sb_edit_distance(c->name, name);
	size_t at = c->n;
	while (at > 0 &&
	       (c->dist[at - 1] > d || (c->dist[at - 1] == d && strcmp(c->v[at - 1], name) > 0)))
		at--;
	if (at >= c->max)
		return 0;
	size_t last = c->n < c->max ? c->n : c->max - 1;
	for (size_t j = last; j > at; j--) {
		c->dist[j] = c->dist[j - 1];
		memcpy(c->v[j], c->v[j - 1], sizeof(c->v[j]));
	}
	c->dist[at] = d;
	snprintf(c->v[at], sizeof(c->v[at]), "%s", name);
	c->n += c->n < c->max;
	return 0;
}

long sb_history_nearest(struct sb_history *h, const char *name, char (*near)[SB_FIGURE_NAME],
			size_t max, struct sb_error *err)
{
	struct near c = { name, near, { 0 }, 0, SB_MIN(max, 16) };
	if (!c.max)
		return 0;
	int e = h->ops->figure_names(h->state, near_one, &c, err);
	return e < 0 ? e : (long)c.n;
}
