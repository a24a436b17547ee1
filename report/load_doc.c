/*
 * A results document (storbench's or fio's), read in pieces
 * (lib/json/json_split.h): every job's per-interval series and a soak's
 * iteration records are taken one item at a time into the arrays the
 * charts draw, and the rest of the document becomes the tree the model
 * points into. A document is written whole, so one that is not valid JSON
 * or holds a figure of the wrong type anywhere is refused, with where.
 */
#include "report/report.h"

/* bigger than any document once its series and iterations are taken out;
 * the whole document used to be held to this */
#define REST_MAX (256u << 20)

enum { P_SERIES, P_ITERATIONS };
static const char *const paths[] = {
	[P_SERIES] = "jobs[].storbench.series",
	[P_ITERATIONS] = "storbench.soak.iteration_records",
};

/* compare's reading (d->figures_only): the jobs apart, each read for its
 * figures in a second pass once the header is known */
enum { F_JOBS, F_ITERATIONS };
static const char *const fig_paths[] = {
	[F_JOBS] = "jobs",
	[F_ITERATIONS] = "storbench.soak.iteration_records",
};

struct taking {
	struct rep_doc *d;
	char **why;
	struct rep_series *series; /* by index in "jobs" */
	size_t nseries;
	size_t at[2];	 /* items of the current array so far */
	size_t outer;	 /* its job */
	int job_options; /* figures only: the first job has fio's "job options" */
};

static int series_item(struct taking *t, size_t job, const struct sb_jv *v, const char *where)
{
	struct sb_interval_doc iv;
	struct sb_error er;
	if (sb_interval_read(v, where, &iv, &er) < 0)
		return rep_fail(t->why, -REP_EINPUT, "'%s': %s", t->d->path, er.msg);
	if (job >= t->nseries) {
		size_t n = job + 1;
		struct rep_series *s = realloc(t->series, n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		memset(s + t->nseries, 0, (n - t->nseries) * sizeof(*s));
		t->series = s;
		t->nseries = n;
	}
	return rep_series_add(&t->series[job], &iv);
}

static int on_item(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	struct taking *t = ctx;
	char where[96], msg[512];
	if (path == P_SERIES && outer != t->outer) {
		t->at[path] = 0; /* the next job's */
		t->outer = outer;
	}
	size_t i = t->at[path]++;
	if (path == P_SERIES)
		snprintf(where, sizeof(where), "jobs[%zu].storbench.series[%zu]", outer, i);
	else
		snprintf(where, sizeof(where), "%s[%zu]", paths[path], i);
	/* an interval is its reader's to judge (series_item) */
	if (path == P_ITERATIONS && rep_check_at(v, where, msg, sizeof(msg)) < 0)
		return rep_fail(t->why, -REP_EINPUT, "'%s': %s", t->d->path, msg);
	/* its ranks' entries: lib/results' rules of every section's */
	if (path == P_ITERATIONS && rep_ranks_check(v, where, msg, sizeof(msg)) < 0)
		return rep_fail(t->why, -REP_EINPUT, "'%s': %s", t->d->path, msg);
	/* a soak's iteration: the rules of its log's (lib/soak/soak_check.h) */
	if (path == P_ITERATIONS && sb_jv_is(v, SB_JV_OBJ) && rep_is_iteration(v) &&
	    sb_soak_check_record(v, msg, sizeof(msg)) < 0)
		return rep_fail(t->why, -REP_EINPUT, "'%s': %s.%s", t->d->path, where, msg);
	int e = 0;
	struct sb_error err;
	if (path == P_SERIES) {
		if ((e = series_item(t, outer, v, where)) == -REP_EINPUT)
			return e;
	} else if (sb_jv_is(v, SB_JV_OBJ)) {
		t->d->nrecords++;
		if (rep_is_iteration(v) && (e = rep_iters_add(t->d, v, &err)) == -EINVAL)
			return rep_fail(t->why, -REP_EINPUT, "'%s': %s.%s", t->d->path, where,
					err.msg);
	}
	return e < 0 ? rep_fail(t->why, e, "out of memory") : 0;
}

/* job_options: the first job, read apart, has fio's "job options".
 * By key on purpose (a generic loader): what kind of document this is
 * must be known before a reader can be chosen, and fio's document is
 * fio's schema, which no writer of storbench's owns. */
static int is_fio(const struct sb_jv *root, int job_options)
{
	const struct sb_jv *job = sb_jv_at(sb_jv_get(root, "jobs"), 0);
	return sb_jv_get(root, "fio version") || (sb_jv_is(sb_jv_get(root, "jobs"), SB_JV_ARR) &&
						  (job_options || sb_jv_get(job, "job options")));
}

/* Figures only, the first pass: the jobs and iterations are only looked at. */
static int fig_look(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	struct taking *t = ctx;
	(void)outer;
	if (path == F_JOBS && t->at[F_JOBS]++ == 0)
		t->job_options = sb_jv_get(v, "job options") != NULL;
	return 0;
}

/* Figures only, the second pass: each job checked by its readers (its
 * intervals too, which it keeps here) and read, its tree freed when the
 * call returns. */
static int fig_job(void *ctx, size_t path, size_t outer, const struct sb_jv *v)
{
	struct taking *t = ctx;
	const size_t i = t->at[F_JOBS]++;
	char where[48], msg[512];
	(void)path;
	(void)outer;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return 0;
	snprintf(where, sizeof(where), "jobs[%zu]", i);
	if (rep_check_job(v, where, msg, sizeof(msg)) < 0)
		return rep_fail(t->why, -REP_EINPUT, "'%s': %s", t->d->path, msg);
	const int e = rep_add_job(t->d, v, where, msg, sizeof(msg));
	if (e == -REP_EINPUT)
		return rep_fail(t->why, e, "'%s': %s", t->d->path, msg);
	if (e < 0)
		return rep_fail(t->why, -ENOMEM,
				"out of memory reading the jobs of '%s' (%zu so far)", t->d->path,
				t->d->njobs);
	t->d->jobs[t->d->njobs - 1].index = i;
	return 0;
}

/* The jobs of the document, each with the series read apart. The arrays
 * are found by name (storbench's and fio's "jobs", fio's "client_stats":
 * a generic loader of both schemas), each item read by sb_job_read. */
static int jobs(struct rep_doc *d, struct taking *t)
{
	const struct sb_jv *jobs = sb_jv_get(d->root, "jobs");
	for (size_t i = 0; i < sb_jv_len(jobs); i++) {
		const struct sb_jv *job = sb_jv_at(jobs, i);
		if (!sb_jv_is(job, SB_JV_OBJ))
			continue;
		char where[32], msg[sizeof(((struct sb_error *)0)->msg)];
		snprintf(where, sizeof(where), "jobs[%zu]", i);
		const int e = rep_add_job(d, job, where, msg, sizeof(msg));
		if (e == -REP_EINPUT)
			return rep_fail(t->why, e, "'%s': %s", d->path, msg);
		if (e < 0)
			return rep_fail(t->why, e, "out of memory");
		struct rep_job *j = &d->jobs[d->njobs - 1];
		j->index = i;
		if (i < t->nseries) {
			rep_series_free(&j->series);
			j->series = t->series[i];
			memset(&t->series[i], 0, sizeof(t->series[i]));
		}
		rep_series_end(&j->series, j->interval_s);
	}
	/* each rank's entry, checked as a job is (read when drawn) */
	const struct sb_jv *cs = sb_jv_get(d->root, "client_stats");
	for (size_t i = 0; i < sb_jv_len(cs); i++) {
		struct sb_job_doc x;
		struct sb_error er;
		char where[40];
		snprintf(where, sizeof(where), "client_stats[%zu]", i);
		if (sb_job_read(sb_jv_at(cs, i), NULL, where, &x, &er) < 0)
			return rep_fail(t->why, -REP_EINPUT, "'%s': %s", d->path, er.msg);
	}
	return 0;
}

/* One reading of the document: the items of the paths to item, the rest
 * into *rest. */
static int read_split(struct rep_doc *d, FILE *f, struct taking *t, const char *const *ps,
		      size_t np, int (*item)(void *, size_t, size_t, const struct sb_jv *),
		      struct sb_jdoc **rest, size_t *end)
{
	struct sb_json_split s = { ps, np, item, t, 0, REST_MAX, 0, d->src->line0, end };
	struct sb_json_error e;
	int rc = sb_json_split_read(f, &s, rest, &e);
	if (rc == 0 || *t->why)
		return rc;
	if (rc == -ENOMEM)
		return rep_fail(t->why, rc, "out of memory");
	if (rc == -EIO)
		return rep_fail(t->why, rc, "cannot read '%s': %s", d->path, strerror(EIO));
	return rep_fail(t->why, -REP_EINPUT, "'%s' is not valid JSON: %s%s", d->path, e.msg,
			e.at_end ? " (the file is cut short)" : "");
}

/* What follows the document, from its end: white space, or fio's normal
 * text (--output-format=normal,json prints it after the JSON), which is
 * skipped with a note; anything else after storbench's is an error. */
static int after_doc(struct rep_doc *d, FILE *f, size_t end, const struct sb_jv *root,
		     int job_options, char **why)
{
	long long at = d->src->start + (long long)end;
	if (fseeko(f, (off_t)at, SEEK_SET) < 0)
		return rep_fail(why, -errno, "cannot read '%s': %s", d->path, strerror(errno));
	int c;
	while ((c = getc(f)) != EOF && strchr(" \t\r\n", c))
		;
	if (ferror(f))
		return rep_fail(why, -EIO, "cannot read '%s': %s", d->path, strerror(EIO));
	d->src->end = at;
	if (c == EOF)
		return 0;
	if (!sb_jv_get(root, "storbench") && is_fio(root, job_options))
		return rep_note(d,
				"text after the JSON document of '%s' was skipped (fio's "
				"normal output)",
				d->name);
	return rep_fail(why, -REP_EINPUT,
			"'%s' is not valid JSON: unexpected data after the document "
			"(byte %lld)",
			d->path, at);
}

/* Figures only: the jobs, read again one at a time now that the header is
 * known (the rest of this reading is the first's again, and goes). */
static int fig_jobs(struct rep_doc *d, FILE *f, struct taking *t)
{
	struct sb_jdoc *again = NULL;
	size_t end = 0;
	if (fseeko(f, (off_t)d->src->start, SEEK_SET) < 0)
		return rep_fail(t->why, -errno, "cannot read '%s': %s", d->path, strerror(errno));
	t->at[F_JOBS] = 0;
	const int rc = read_split(d, f, t, fig_paths, 1, fig_job, &again, &end);
	sb_jdoc_free(again);
	return rc;
}

int rep_load_doc(struct rep_doc *d, FILE *f, char **why)
{
	struct taking t = { .d = d, .why = why };
	struct sb_jdoc *rest = NULL;
	char msg[512];
	size_t end = 0;
	const int fig = d->figures_only;
	int rc = fig ? read_split(d, f, &t, fig_paths, SB_ARRAY_SIZE(fig_paths), fig_look, &rest,
				  &end)
		     : read_split(d, f, &t, paths, SB_ARRAY_SIZE(paths), on_item, &rest, &end);
	if (!rc) {
		struct sb_jdoc **v = rep_grow_one(d->trees, d->ntrees, sizeof(*v));
		if (!v) {
			sb_jdoc_free(rest);
			rc = rep_fail(why, -ENOMEM, "out of memory");
		} else {
			d->trees = v;
			d->trees[d->ntrees++] = rest;
		}
	}
	const struct sb_jv *root = rest ? sb_jdoc_root(rest) : NULL;
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	if (!rc)
		rc = after_doc(d, f, end, root, t.job_options, why);
	if (!rc && rep_check(root, msg, sizeof(msg)) < 0)
		rc = rep_fail(why, -REP_EINPUT, "'%s': %s", d->path, msg);
	/* a soak's summary: the rules of its log's (lib/soak/soak_check.h) */
	const struct sb_jv *soak = sb_results_section(sb, SB_SECTION_SOAK);
	if (!rc && sb_jv_is(soak, SB_JV_OBJ) && sb_soak_check_summary(soak, msg, sizeof(msg)) < 0)
		rc = rep_fail(why, -REP_EINPUT, "'%s': storbench.soak.%s", d->path, msg);
	if (!rc && sb_jv_is(soak, SB_JV_OBJ) && sb_soak_check_iterations(soak, msg, sizeof(msg)) < 0)
		rc = rep_fail(why, -REP_EINPUT, "'%s': storbench.soak.%s", d->path, msg);
	if (!rc && sb_jv_is(sb, SB_JV_OBJ) && !(rc = rep_check_schema(d, sb, why))) {
		if (!(rc = rep_dev_methods_read(d, sb, why)))
			rc = rep_methods_read(d, sb, why);
	} else if (!rc && is_fio(root, t.job_options))
		d->is_fio = 1;
	else if (!rc)
		rc = rep_fail(why, -REP_EINPUT,
			      "'%s' is not a storbench or fio result (it has "
			      "neither a 'storbench' section nor fio's 'jobs')",
			      d->path);
	if (rc == -ENOMEM && !*why)
		rc = rep_fail(why, rc, "out of memory");
	if (!rc) {
		if (rep_read_header(d, root, msg, sizeof(msg)) < 0)
			rc = rep_fail(why, -REP_EINPUT, "'%s': %s", d->path, msg);
		else
			rc = rep_read_verify(d, why);
	}
	if (!rc) {
		if (fig)
			rc = fig_jobs(d, f, &t);
		else
			rc = jobs(d, &t);
	}
	for (size_t i = 0; i < t.nseries; i++)
		rep_series_free(&t.series[i]);
	free(t.series);
	return rc;
}
