/*
 * A JSON Lines log, line by line: its header (a whole result, or soak's
 * configuration line), lines of jobs, and records. A soak's iterations go
 * into arrays of the figures the report draws and their lines are freed;
 * the last summary line is kept; no other record is held (a table that
 * lists them reads the log again). A line that cannot be used (cut short
 * by a crash, not JSON, wrong figures, longer than a line may be; a soak's
 * line that soak --resume would refuse, by lib/soak/soak_check.h) is
 * left out with a note naming the file and the line, and the rest is read.
 */
#include "report/report.h"

#include <math.h>

#define LINE_MAX_BYTES SB_JSON_READ_MAX_SIZE

static int keep_tree(struct rep_doc *d, struct sb_jdoc *t)
{
	struct sb_jdoc **v = rep_grow_one(d->trees, d->ntrees, sizeof(*v));
	if (!v) {
		sb_jdoc_free(t);
		return -ENOMEM;
	}
	d->trees = v;
	d->trees[d->ntrees++] = t;
	return 0;
}

/* A log that starts with its own configuration line (soak's):
 * {"type": "config", "log_version": 1, "storbench": VERSION, "target": ...}. */
static int log_config(struct rep_doc *d, const struct sb_jv *v, char **why)
{
	struct sb_soak_log_head h;
	sb_soak_log_head_read(v, &h);
	const uint64_t ver = h.version;
	if (!ver) {
		char what[32];
		if (!isnan(h.version_found))
			snprintf(what, sizeof(what), "%g", h.version_found);
		else
			snprintf(what, sizeof(what), "of the wrong type");
		return rep_fail(why, -REP_EINPUT,
				"'%s': log version %s is not one this storbench "
				"reads (version %d)",
				d->path, what, REP_LOG_VERSION);
	}
	if (ver > REP_LOG_VERSION &&
	    rep_note(d,
		     "'%s' is a log of version %llu, newer than this "
		     "storbench reads (%d): what it knows is shown, what "
		     "is new is left out",
		     d->name, (unsigned long long)ver, REP_LOG_VERSION) < 0)
		return rep_fail(why, -ENOMEM, "out of memory");
	d->root = v;
	d->command = rep_or(h.command, "soak");
	if (!strcmp(d->command, "spo-cycles")) {
		if (!(d->cycles = calloc(1, sizeof(*d->cycles))))
			return rep_fail(why, -ENOMEM, "out of memory");
		d->cycles->first_failed = d->cycles->first_error = NAN;
		rep_cycles_header(d->cycles, v);
	}
	snprintf(d->producer, sizeof(d->producer), "storbench %s", rep_or(h.storbench, "?"));
	d->target.path = h.target;
	d->target.device = h.device;
	d->target.model = h.model;
	return 0;
}

static int header(struct rep_doc *d, const struct sb_jv *v, enum rep_line_kind k, char **why)
{
	int rc;
	if (k == REP_LINE_HEADER) {
		if ((rc = rep_check_schema(d, sb_jv_get(v, "storbench"), why)) < 0)
			return rc == -ENOMEM ? rep_fail(why, rc, "out of memory") : rc;
		char msg[512];
		if (!d->root && rep_read_header(d, v, msg, sizeof(msg)) < 0)
			return rep_fail(why, -REP_EINPUT, "'%s': %s", d->path, msg);
	} else if (k == REP_LINE_CONFIG && !d->root) {
		return log_config(d, v, why);
	}
	return 0;
}

/* A record: a line's "type" is asked by name to choose its reader (a
 * generic loader of every log's lines); a soak's iteration into the arrays (-EINVAL: err says why it
 * cannot be), its summary kept. The tree is the caller's to free unless it
 * was kept here (1). */
static int record(struct rep_doc *d, struct sb_jdoc *t, struct sb_error *err)
{
	const struct sb_jv *v = sb_jdoc_root(t);
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	d->nrecords++;
	if (rep_is_iteration(v))
		return rep_iters_add(d, v, err);
	if (d->cycles)
		return rep_cycles_add(d, v, err);
	if (type && !strcmp(type, "summary")) {
		sb_jdoc_free(d->summary_tree);
		d->summary_tree = t;
		d->soak_summary = v;
		d->soak_summary_at = d->iters.n;
		return 1;
	}
	return 0;
}

static int cycles_line_check(const struct sb_jv *v, char *msg, size_t len)
{
	struct sb_spo_cycles_line l;
	struct sb_error err;
	if (sb_spo_cycles_read(v, &l, &err) == 0)
		return 0;
	snprintf(msg, len, "%s", err.msg);
	return -1;
}

int rep_log_line_check(struct rep_logcheck *lc, const struct sb_jv *v, char *msg, size_t len)
{
	/* the first line says whose log it is: its type and command asked by
	 * name, before the reader of its lines is chosen (a generic loader) */
	if (!lc->started) {
		const char *type = sb_jv_str(sb_jv_get(v, "type"));
		const char *cmd = sb_jv_str(sb_jv_get(v, "command"));
		lc->started = 1;
		lc->soak = type && !strcmp(type, "config") && (!cmd || !strcmp(cmd, "soak"));
		lc->cycles = type && !strcmp(type, "config") && cmd && !strcmp(cmd, "spo-cycles");
		sb_soak_check_init(&lc->c);
	}
	if (lc->soak && sb_soak_check_line(&lc->c, v, msg, len) < 0)
		return -REP_EINPUT;
	/* spo --cycles's lines as lib/spo's reader of the log takes them */
	if (lc->cycles && cycles_line_check(v, msg, len) < 0)
		return -REP_EINPUT;
	/* an iteration as lib/soak's reader takes it (sb_soak_read_record) */
	if (rep_is_iteration(v) && sb_soak_check_record(v, msg, len) < 0)
		return -REP_EINPUT;
	/* ranks' entries (a soak iteration's): lib/results' rules */
	if (rep_ranks_check(v, "", msg, len) < 0 || sb_soak_check_iterations(v, msg, len) < 0)
		return -REP_EINPUT;
	return rep_check(v, msg, len);
}

/* One line of the log, parsed: 0 when used or left out, < 0 to stop. */
static int line(struct rep_doc *d, struct rep_logcheck *lc, struct sb_jdoc *t, size_t lineno,
		char **why)
{
	const struct sb_jv *v = sb_jdoc_root(t);
	char msg[512];
	int rc = 0, keep = 0;
	if (!sb_jv_is(v, SB_JV_OBJ)) {
		rc = rep_skip_line(d, "line %zu of '%s' is not a JSON object and was left out",
				   lineno, d->name);
	} else if (rep_log_line_check(lc, v, msg, sizeof(msg)) < 0) {
		rc = rep_skip_line(d, "line %zu of '%s' was left out: %s", lineno, d->name, msg);
	} else {
		enum rep_line_kind k = rep_line_kind(v);
		if (k == REP_LINE_RECORD) {
			struct sb_error err;
			rc = record(d, t, &err);
			keep = rc == 1;
			/* checked as the reader checks (rep_log_line_check) */
			rc = rc < 0 ? rep_fail(why, rc, "%s",
					       rc == -EINVAL ? err.msg : "out of memory")
				    : 0;
		} else if ((rc = header(d, v, k, why)) == 0) {
			/* a line of jobs: found by name, each read by sb_job_read */
			const struct sb_jv *jobs = sb_jv_get(v, "jobs");
			size_t had = d->njobs;
			char where[32];
			for (size_t i = 0; !rc && i < sb_jv_len(jobs); i++) {
				snprintf(where, sizeof(where), "jobs[%zu]", i);
				if (sb_jv_is(sb_jv_at(jobs, i), SB_JV_OBJ))
					rc = rep_add_job(d, sb_jv_at(jobs, i), where, msg,
							 sizeof(msg));
			}
			if (!rc && sb_jv_get(v, "jobname"))
				rc = rep_add_job(d, v, "", msg, sizeof(msg));
			/* a job the reader refuses: the line left out from there on */
			if (rc == -REP_EINPUT)
				rc = rep_skip_line(d, "line %zu of '%s' was left out: %s", lineno,
						   d->name, msg);
			/* the model points into what it read: the header, the jobs */
			keep = d->root == v || d->njobs > had ? 2 : 0;
			rc = rc < 0 ? rep_fail(why, rc, "out of memory") : rc;
		}
	}
	if (keep == 2)
		return keep_tree(d, t) < 0 ? rep_fail(why, -ENOMEM, "out of memory") : rc;
	if (!keep)
		sb_jdoc_free(t);
	return rc;
}

/* A line that is no JSON: cut short by a crash, or broken. */
static int not_json(struct rep_doc *d, const struct rep_lines *lr, size_t n,
		    const struct sb_json_error *e)
{
	if (e->at_end)
		return rep_skip_line(d,
				     "line %zu of '%s' is cut short (%zu bytes%s) and was left out",
				     lr->lineno, d->name, n,
				     lr->has_nl ? "" : ", at the end of the file");
	const char *what = strchr(e->msg, ':') ? strchr(e->msg, ':') + 2 : e->msg;
	return rep_skip_line(d,
			     "line %zu of '%s' is not valid JSON (column %u: %s) and was left out",
			     lr->lineno, d->name, e->column, what);
}

int rep_load_log(struct rep_doc *d, FILE *f, char **why)
{
	struct rep_lines lr;
	struct rep_logcheck lc = { 0 };
	int rc;
	d->is_log = 1;
	if (rep_lines_open(&lr, f, d->src->start, -1, d->src->line0, LINE_MAX_BYTES) < 0) {
		rep_lines_close(&lr);
		return rep_fail(why, -ENOMEM, "out of memory");
	}
	while ((rc = rep_lines_next(&lr)) == 1) {
		size_t n = lr.len;
		if (n && lr.buf[n - 1] == '\r')
			n--;
		if (lr.too_long) {
			rc = rep_skip_line(d,
					   "line %zu of '%s' is longer than %u MiB and was left out",
					   lr.lineno, d->name, LINE_MAX_BYTES >> 20);
		} else if (strspn(lr.buf, " \t\r") < n) {
			struct sb_jdoc *t;
			struct sb_json_error e;
			rc = sb_json_parse(lr.buf, n, NULL, &t, &e);
			if (rc == -ENOMEM)
				rc = rep_fail(why, rc, "out of memory");
			else if (rc < 0)
				rc = not_json(d, &lr, n, &e);
			else
				rc = line(d, &lc, t, lr.lineno, why);
		}
		if (rc < 0)
			break;
	}
	d->src->end = lr.off;
	rep_lines_close(&lr);
	if (rc < 0)
		return *why ? rc
			    : rep_fail(why, rc, "cannot read '%s': %s", d->path, strerror(-rc));
	if (d->nskipped > REP_MAX_NOTES && rep_note(d, "%zu more lines of '%s' were left out",
						    d->nskipped - REP_MAX_NOTES, d->name) < 0)
		return rep_fail(why, -ENOMEM, "out of memory");
	if (!d->root)
		return rep_fail(why, -REP_EINPUT,
				"'%s' is not a storbench log: no line carries a "
				"'storbench' header or a configuration%s",
				d->path, d->nskipped ? " that could be read" : "");
	return 0;
}
