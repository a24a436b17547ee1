/*
 * What the history's back ends share (lib/history/ only): the back ends
 * themselves, and a query's SQL built once for every dialect.
 */
#ifndef SB_HISTORY_INT_H
#define SB_HISTORY_INT_H

#include "lib/history/history.h"

#define SB_HQ_ARGS 32

/* A query's SQL and its arguments, in order; columns: id, started,
 * recorded, command, options, host, version, model, serial, firmware,
 * source, labels, and with a figure: value, unit, word, group. */
struct hq_sql {
	char *sql;
	struct {
		const char *text; /* NULL: num */
		int64_t num;
	} args[SB_HQ_ARGS];
	size_t nargs;
};
enum sb_hq_dialect { SB_HQ_SQLITE, SB_HQ_PG };
/* 0, -EINVAL (a group_by not known, too many labels), -ENOMEM, with err. */
int sb_hq_build(const struct sb_history_query *q, enum sb_hq_dialect d, struct hq_sql *out,
		struct sb_error *err);
void sb_hq_free(struct hq_sql *b);

#ifdef HAVE_SQLITE
extern const struct sb_history_ops sb_history_sqlite;
#endif
#ifdef HAVE_PQ
extern const struct sb_history_ops sb_history_pq;
#endif

#endif
