/*
 * A result the program just wrote, recorded in a history (history.h): its
 * JSON written into memory and read back as a file's would be, so that
 * what is recorded is what the file holds.
 */
#include "lib/history/history.h"

#include <stdio.h>

#include "lib/results/results.h"

int sb_history_rec_labels_add(struct sb_history_rec *rec, const struct sb_history_rec *from,
			      struct sb_error *err)
{
	for (size_t i = 0; from && i < from->nlabels; i++) {
		char kv[400];
		snprintf(kv, sizeof(kv), "%s=%s", from->labels[i].key, from->labels[i].value);
		int e = sb_history_rec_label(rec, kv, err);
		if (e < 0)
			return e;
	}
	return 0;
}

static int write_results(FILE *f, const struct sb_results *r)
{
	return sb_results_write_json(r, f);
}

int sb_history_record_results(const struct sb_results *r, const char *where,
			      const struct sb_history_rec *labels, const char *options,
			      const char *source, struct sb_error *err)
{
	struct sb_history_rec rec;
	struct sb_history *h = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	int e = write_results(f, r);
	if (fclose(f) != 0 && !e)
		e = -ENOMEM;
	if (e < 0) {
		free(text);
		return sb_error_set(err, e, SB_ERR_ENV, "cannot hold the result: %s", strerror(-e));
	}
	e = sb_history_rec_read(text, len, &rec, err);
	free(text);
	if (e == 0 && (e = sb_history_rec_labels_add(&rec, labels, err)) == 0) {
		rec.options = options ? strdup(options) : NULL;
		rec.source = source ? strdup(source) : NULL;
		if ((e = sb_history_open(where, &h, err)) == 0) {
			sb_history_defer(h); /* one flush: the commit's */
			e = sb_history_record(h, &rec, NULL, err);
		}
		sb_history_close(h);
	}
	sb_history_rec_free(&rec);
	return e;
}
