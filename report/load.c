/*
 * Reading a result file for report and compare: a storbench JSON document,
 * a storbench JSON Lines log (report/load_log.c), or fio's JSON (messages
 * fio printed before the document are skipped) (report/load_doc.c). The
 * file is told by its first bytes and read from there record by record,
 * never whole. Anything that is no result is refused with the reason,
 * before any output is written; what a result holds that this storbench
 * cannot use (a cut or broken log line, a newer schema) is left out or
 * read as far as it can be, with a note.
 */
#include "report/report.h"

#define PROBE_MAX (4u << 20) /* a log's first line longer than this is no log line */

/* The first bytes of the file, up to PROBE_MAX: *len of them, *eof when
 * that is the whole file. */
static char *head(FILE *f, size_t *len, int *eof, int *err)
{
	size_t cap = 65536;
	char *buf = malloc(cap + 1);
	*len = 0;
	*eof = 0;
	while (buf) {
		size_t n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (*len < cap) {
			*eof = !ferror(f);
			*err = ferror(f) ? (errno ? errno : EIO) : 0;
			break;
		}
		if (cap >= PROBE_MAX)
			break;
		char *nb = realloc(buf, 2 * cap + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (!buf)
		*err = ENOMEM;
	else if (*err) {
		free(buf);
		buf = NULL;
	} else {
		buf[*len] = 0;
	}
	return buf;
}

/* A log: its first line is a whole JSON object and more follows, or it is
 * a log's configuration line alone (a soak that ran no iteration). */
static int looks_like_log(const char *text, size_t len, int eof)
{
	const char *nl = memchr(text, '\n', len);
	int alone = !nl || strspn(nl, " \t\r\n") >= (size_t)(text + len - nl);
	if (!eof && (!nl || alone))
		return 0; /* a line longer than a log's first line may be */
	struct sb_jdoc *t;
	if (sb_json_parse(text, nl ? (size_t)(nl - text) : len, NULL, &t, NULL) < 0)
		return 0;
	const struct sb_jv *v = sb_jdoc_root(t);
	int log = sb_jv_is(v, SB_JV_OBJ) && (!alone || rep_line_kind(v) == REP_LINE_CONFIG);
	sb_jdoc_free(t);
	return log;
}

/* Where the JSON starts (after fio's messages) and whether it is a log. */
static int probe(struct rep_doc *d, FILE *f, char **why)
{
	size_t len, skip = 0;
	int eof, err = 0;
	char *text = head(f, &len, &eof, &err);
	if (!text)
		return rep_fail(why, err == ENOMEM ? -ENOMEM : -err, "cannot read '%s': %s",
				d->path, strerror(err));
	while (skip < len && strchr(" \t\r\n", text[skip]))
		skip++;
	int rc = 0;
	if (skip == len && eof) {
		rc = rep_fail(why, -REP_EINPUT, "'%s' is empty, not a result", d->path);
	} else if (text[skip] != '{') {
		/* fio prints notes before its JSON, even with --output */
		const char *brace = strstr(text + skip, "\n{");
		if (!brace) {
			rc = rep_fail(why, -REP_EINPUT,
				      "'%s' is not a result: it does not start with a "
				      "JSON object",
				      d->path);
		} else {
			skip = (size_t)(brace + 1 - text);
			rc = rep_note(d,
				      "text before the JSON document of '%s' was skipped (fio's "
				      "messages)",
				      d->name);
		}
	}
	if (!rc) {
		d->src->start = (long long)skip;
		d->src->line0 = 1;
		for (size_t i = 0; i < skip; i++)
			d->src->line0 += text[i] == '\n';
		d->src->is_log = looks_like_log(text + skip, len - skip, eof);
	}
	free(text);
	return rc;
}

static int load(const char *path, int figures_only, struct rep_doc **out, char **why)
{
	int err = 0, rc;
	*out = NULL;
	*why = NULL;
	struct rep_doc *d = calloc(1, sizeof(*d));
	if (d)
		d->src = calloc(1, sizeof(*d->src));
	if (!d || !d->src) {
		rep_free(d);
		return rep_fail(why, -ENOMEM, "out of memory");
	}
	d->path = path;
	d->figures_only = figures_only;
	d->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	d->target.rotational = -1;
	d->src->end = -1;
	FILE *f = rep_open_regular(path, &err);
	if (!f) {
		rep_free(d);
		return rep_fail(why, -err, "cannot read '%s': %s", path,
				err == REP_EINPUT ? "not a regular file" : strerror(err));
	}
	rc = probe(d, f, why);
	if (!rc && fseeko(f, (off_t)d->src->start, SEEK_SET) < 0)
		rc = rep_fail(why, -errno, "cannot read '%s': %s", path, strerror(errno));
	if (!rc)
		rc = d->src->is_log ? rep_load_log(d, f, why) : rep_load_doc(d, f, why);
	fclose(f);
	if (rc) {
		rep_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

int rep_load(const char *path, struct rep_doc **out, char **why)
{
	return load(path, 0, out, why);
}

int rep_load_figures(const char *path, struct rep_doc **out, char **why)
{
	return load(path, 1, out, why);
}

void rep_free(struct rep_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->njobs; i++) {
		rep_series_free(&d->jobs[i].series);
		free(d->jobs[i].owned);
	}
	rep_iters_free(&d->iters);
	sb_verify_doc_free(d->verify);
	free(d->verify);
	rep_cycles_free(d->cycles);
	free(d->cycles);
	rep_dev_methods_free(d);
	free(d->src);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	for (size_t i = 0; i < d->ntrees; i++)
		sb_jdoc_free(d->trees[i]);
	free(d->jobs);
	free(d->summary);
	for (size_t i = 0; d->warnings_made && i < d->nwarnings; i++)
		free(d->warnings_made[i]);
	free(d->warnings_made);
	free(d->warnings);
	free(d->notes);
	sb_jdoc_free(d->summary_tree);
	free(d->trees);
	rep_methods_free(d);
	free(d);
}
