/*
 * Reading a result's records again, for the tables that list every one
 * (CSV, XLSX): the model keeps only what the charts draw, so the records
 * themselves come from the file once more, one at a time, as the table is
 * written. A log is read only as far as the first reading went (a soak may
 * still be writing it); a file that no longer holds what it held then
 * fails the table with the reason, not with a table of something else.
 */
#include "report/report.h"

#include <math.h>

struct again {
	const struct rep_doc *d;
	rep_record_fn rfn;
	rep_interval_fn ifn;
	const struct rep_job *job; /* NULL: every job's intervals */
	void *ctx;
	size_t n;     /* records handed over */
	size_t *kept; /* intervals per job, by model index */
	size_t outer, at;
	int stop;
};

static int changed(const struct rep_doc *d, const char *what)
{
	d->src->err = -EIO;
	snprintf(d->src->why, sizeof(d->src->why),
		 "'%s' changed while the report was written (%s): run report again", d->path, what);
	return -EIO;
}

static FILE *reopen(const struct rep_doc *d)
{
	int err = 0;
	FILE *f = rep_open_regular(d->path, &err);
	if (f && fseeko(f, (off_t)d->src->start, SEEK_SET) < 0) {
		err = errno;
		fclose(f);
		f = NULL;
	}
	if (!f) {
		d->src->err = -EIO;
		snprintf(d->src->why, sizeof(d->src->why), "cannot read '%s' again: %s", d->path,
			 err == REP_EINPUT ? "not a regular file" : strerror(err));
	}
	return f;
}

/* ---- records ---- */
/* checked: the line was checked as the first reading checked it */
static int hand_record(struct again *a, const struct sb_jv *v, int checked)
{
	char msg[512];
	if (a->stop || !sb_jv_is(v, SB_JV_OBJ) || (!checked && rep_check(v, msg, sizeof(msg)) < 0))
		return 0; /* left out the first time too (a log's line) */
	if (a->n >= a->d->nrecords)
		return changed(a->d, "it holds more records");
	int rc = a->rfn(a->ctx, a->d, a->n++, v);
	a->stop = rc > 0;
	return rc < 0 ? rc : 0;
}

static int log_records(struct again *a, FILE *f)
{
	const struct rep_doc *d = a->d;
	struct rep_lines lr;
	struct rep_logcheck lc = { 0 };
	char msg[512];
	int rc = rep_lines_open(&lr, f, d->src->start, d->src->end, d->src->line0,
				SB_JSON_READ_MAX_SIZE);
	while (!rc && !a->stop && (rc = rep_lines_next(&lr)) == 1) {
		struct sb_jdoc *t;
		size_t n = lr.len;
		if (n && lr.buf[n - 1] == '\r')
			n--;
		rc = 0;
		if (lr.too_long || strspn(lr.buf, " \t\r") >= n ||
		    sb_json_parse(lr.buf, n, NULL, &t, NULL) < 0)
			continue;
		/* every line, as the first reading checked it (a soak's in order) */
		const struct sb_jv *v = sb_jdoc_root(t);
		if (sb_jv_is(v, SB_JV_OBJ) && rep_log_line_check(&lc, v, msg, sizeof(msg)) == 0 &&
		    rep_line_kind(v) == REP_LINE_RECORD)
			rc = hand_record(a, v, 1);
		sb_jdoc_free(t);
	}
	rep_lines_close(&lr);
	return rc == -EIO ? changed(d, "it cannot be read") : rc;
}

static int doc_item(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	struct again *a = ctx;
	(void)outer;
	if (a->rfn)
		return hand_record(a, v, 0);
	/* intervals: the i-th of job outer */
	if (outer != a->outer || !a->at)
		a->outer = outer, a->at = 0;
	size_t i = a->at++;
	for (size_t k = 0; k < a->d->njobs; k++) {
		const struct rep_job *j = &a->d->jobs[k];
		struct sb_interval_doc iv;
		struct sb_error er;
		double t1, len;
		if (j->in_log || j->index != outer || (a->job && a->job != j))
			continue;
		if (sb_interval_read(v, "", &iv, &er) < 0 ||
		    !rep_interval_kept(&iv, i, j->series.nraw, j->interval_s, &t1, &len))
			return 0;
		if (++a->kept[k] > j->series.n)
			return changed(a->d, "a job has more intervals");
		return a->ifn(a->ctx, a->d, j, &iv);
	}
	(void)path;
	return 0;
}

static int doc_pieces(struct again *a, FILE *f, const char *path)
{
	const char *const paths[] = { path };
	size_t end;
	struct sb_json_split s = { paths, 1, doc_item, a, 0, 256u << 20, 0, a->d->src->line0, &end };
	struct sb_jdoc *rest;
	int rc = sb_json_split_read(f, &s, &rest, NULL);
	sb_jdoc_free(rest);
	if (rc == -EBADMSG || rc == -E2BIG || rc == -EFBIG || rc == -EIO)
		return changed(a->d, "it is no longer the document it was");
	return rc;
}

int rep_each_record(const struct rep_doc *d, rep_record_fn fn, void *ctx)
{
	struct again a = { .d = d, .rfn = fn, .ctx = ctx };
	if (!d->nrecords)
		return 0;
	FILE *f = reopen(d);
	if (!f)
		return -EIO;
	int rc = d->src->is_log ? log_records(&a, f)
				: doc_pieces(&a, f, "storbench.soak.iteration_records");
	fclose(f);
	if (!rc && !a.stop && a.n != d->nrecords)
		return changed(d, "it holds fewer records");
	return rc;
}

/* ---- intervals ---- */
/* A log line's job keeps its series in the tree. */
static int tree_intervals(const struct rep_doc *d, const struct rep_job *j, rep_interval_fn fn,
			  void *ctx)
{
	const struct sb_jv *s = j->series_json;
	double t1, len;
	for (size_t i = 0; i < sb_jv_len(s); i++) {
		struct sb_interval_doc iv;
		struct sb_error er;
		if (sb_interval_read(sb_jv_at(s, i), "", &iv, &er) < 0 ||
		    !rep_interval_kept(&iv, i, sb_jv_len(s), j->interval_s, &t1, &len))
			continue;
		int rc = fn(ctx, d, j, &iv);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	return 0;
}

int rep_each_interval(const struct rep_doc *d, const struct rep_job *j, rep_interval_fn fn,
		      void *ctx)
{
	int rc = 0, any = 0;
	for (size_t k = 0; !rc && k < d->njobs; k++) {
		if (j && j != &d->jobs[k])
			continue;
		if (d->jobs[k].in_log)
			rc = tree_intervals(d, &d->jobs[k], fn, ctx);
		else
			any |= d->jobs[k].series.n > 0;
	}
	if (rc || !any)
		return rc;
	struct again a = { .d = d, .ifn = fn, .job = j, .ctx = ctx };
	a.kept = calloc(d->njobs, sizeof(*a.kept));
	FILE *f = a.kept ? reopen(d) : NULL;
	if (!f) {
		free(a.kept);
		return a.kept ? -EIO : -ENOMEM;
	}
	rc = doc_pieces(&a, f, "jobs[].storbench.series");
	fclose(f);
	for (size_t k = 0; !rc && k < d->njobs; k++)
		if (!d->jobs[k].in_log && (!j || j == &d->jobs[k]) &&
		    a.kept[k] != d->jobs[k].series.n)
			rc = changed(d, "a job has fewer intervals");
	free(a.kept);
	return rc;
}

/* ---- verify objects: a result's own, and every iteration's ---- */
struct each_verify {
	rep_verify_fn fn;
	void *ctx;
};

/* An iteration's blocks, read through lib/verify's reader (the line
 * passed its checks when the file was read). */
static int iteration_verify(void *ctx, const struct rep_doc *d, size_t i, const struct sb_jv *r)
{
	const struct each_verify *e = ctx;
	struct sb_soak_line l;
	struct sb_verify_doc doc;
	struct sb_error err;
	sb_soak_line_read(r, &l);
	if (!l.is_iteration || !sb_jv_is(l.verify, SB_JV_OBJ))
		return 0;
	int rc = sb_verify_read(l.verify, &doc, &err);
	if (!rc)
		e->fn(e->ctx, d, isnan(l.iteration) ? (double)i + 1 : l.iteration, &doc);
	sb_verify_doc_free(&doc);
	return rc == -ENOMEM ? rc : 0;
}

int rep_verify_each(const struct rep_doc *d, rep_verify_fn fn, void *ctx)
{
	struct each_verify e = { fn, ctx };
	if (d->verify && d->verify->has_blocks)
		fn(ctx, d, 0, d->verify);
	return d->iters.n ? rep_each_record(d, iteration_verify, &e) : 0;
}
