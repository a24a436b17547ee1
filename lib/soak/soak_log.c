/*
 * The soak log: JSON Lines, one record per line, each flushed and fsync'd
 * before the next iteration starts, so a crash or a power cut loses at most
 * the iteration in flight. Line 1 is the configuration (the options as
 * given, the seed, the device); then one line per iteration; a summary line
 * when the soak ends. A resume reads it back and appends. The records are
 * soak_json.c's; this file holds the file.
 */
#include "lib/soak/soak_int.h"
#include "lib/base/outfile.h"

#include <unistd.h>

int soak_log_open(struct soak *s, FILE **f, const char *path, int append)
{
	*f = fopen(path, append ? "a" : "wx");
	/* a buffer larger than any record: each line reaches the file in one
	 * write(), so even SIGKILL leaves whole lines */
	if (*f) {
		setvbuf(*f, NULL, _IOFBF, 1 << 16);
		return 0;
	}
	const int e = -errno;
	return soak_fail(s, e, SB_ERR_ENV, "cannot write the log '%s': %s%s", path, strerror(-e),
			 e == -EEXIST ? " (it exists: name a new one, or --resume it)" : "");
}

int soak_log_commit(struct soak *s, FILE *log, struct sb_json *j)
{
	int e = sb_json_end(j);
	if (!e && fsync(fileno(log)) < 0)
		e = -errno;
	return e < 0 ? soak_fail(s, e, SB_ERR_ENV, "cannot write the log: %s", strerror(-e)) : 0;
}

/* The files the iterations make (a directory's), NULL for none; free it. */
static const char **files_of(const struct soak *s, size_t *n)
{
	*n = s->region_mode || s->iozone ? 0 : s->vt->nseg;
	const char **files = *n ? malloc(*n * sizeof(*files)) : NULL;
	if (!files)
		*n = 0;
	for (size_t i = 0; i < *n; i++)
		files[i] = s->vt->seg[i].path;
	return files;
}

void soak_settings(const struct soak *s, struct sb_soak_settings *set)
{
	const struct sb_sweep_result *z = s->iozone ? s->zr : NULL;
	*set = (struct sb_soak_settings){
		/* iozone: its largest file and record, no verify block */
		.size = z ? z->file_sizes[z->nfile - 1] : s->vt->size,
		.block_size = z ? 0 : s->o->block_size,
		.request_size = z ? (uint32_t)z->record_sizes[z->nrec - 1] : s->o->request_size,
		.iterations = s->iterations,
		.duration_ns = s->duration_ns,
		.idle_ns = s->o->idle_ns,
		.iozone = s->iozone,
		.known = 1,
		.stop_known = 1,
	};
}

int soak_log_config(struct soak *s, FILE *log, int aggregate)
{
	const struct sb_soak_opts *o = s->o;
	const struct sb_target_info *ti = o->info;
	struct sb_soak_settings set;
	size_t nfiles = 0;
	const char **files = aggregate ? NULL : files_of(s, &nfiles);
	soak_settings(s, &set);
	const struct sb_soak_config c = {
		.started_ns = s->started_ns,
		.seed = s->seed,
		.target = aggregate   ? o->target
			  : s->iozone ? o->iozone->file
				      : s->vt->path,
		.files = files,
		.nfiles = nfiles,
		.argc = o->argc,
		.argv = o->argv,
		.set = set,
		.engine = o->ops ? o->ops->name : "psync",
		.direct = s->iozone ? o->iozone->o.direct : s->vt->direct,
		.region_mode = s->region_mode,
		.device = ti && ti->devname[0] ? ti->devname : NULL,
		.model = ti && ti->model[0] ? ti->model : NULL,
		.health_before = !aggregate && s->health_ok[0] ? &s->health[0] : NULL,
		.workload = s->iozone ? "iozone" : NULL,
		/* many ranks: this is the log of one of them, or their aggregate */
		.ranks = s->nranks > 1 ? (unsigned)s->nranks : 0,
		.rank = s->rank,
		.aggregate = aggregate,
	};
	struct sb_json j;
	sb_json_begin(&j, log, 1);
	sb_soak_config_record(&j, &c);
	free(files);
	return soak_log_commit(s, log, &j);
}

int soak_log_iteration(struct soak *s, const struct sb_soak_iter *it)
{
	struct sb_json j;
	sb_json_begin(&j, s->log, 1);
	sb_soak_iter_record(&j, it);
	return soak_log_commit(s, s->log, &j);
}

int soak_log_summary(struct soak *s, FILE *log, const struct sb_soak_result *r)
{
	struct sb_json j;
	sb_json_begin(&j, log, 1);
	sb_soak_summary_record(&j, r);
	return soak_log_commit(s, log, &j);
}

int soak_log_start(struct soak *s, uint64_t n)
{
	size_t nfiles;
	const char **files = files_of(s, &nfiles);
	struct sb_json j;
	sb_json_begin(&j, s->log, 1);
	sb_soak_start_record(&j, n, s->gen_base, files, nfiles);
	free(files);
	return soak_log_commit(s, s->log, &j);
}

int soak_log_stop_change(struct soak *s, FILE *log)
{
	struct sb_json j;
	sb_json_begin(&j, log, 1);
	sb_soak_resume_record(&j, &s->stop_change);
	return soak_log_commit(s, log, &j);
}

/* ---- resume ---- */

void soak_log_leftovers(struct soak *s)
{
	for (size_t i = 0; i < s->nleft; i++) {
		const char *path = s->left[i].path;
		char why[256];
		/* any generation the soak may have written (s->gen_base: the
		 * first one above them) */
		const int e = sb_soak_leftover_remove(path, s->seed, s->gen_base - 1, why,
						      sizeof(why));
		if (e > 0)
			soak_note(s, "removed '%s', which the soak made before it was stopped",
				  path);
		else if (e == -EPERM)
			soak_warn(s,
				  "left '%s', a name the soak's log lists: %s, so it is not provably "
				  "the soak's (remove it yourself if it is)",
				  path, why);
		else if (e < 0)
			soak_warn(s, "could not remove '%s', which the soak made: %s", path,
				  strerror(-e));
		free(s->left[i].path);
	}
	free(s->left);
	s->left = NULL;
	s->nleft = 0;
}

static int read_all(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	while (b) {
		size_t got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap)
			break;
		char *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	int e = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!b)
		return -ENOMEM;
	b[n] = 0;
	*buf = b;
	*len = n;
	return e;
}

/* What sb_soak_log_parse's failure e means to the user: said, e returned. */
static int parse_error(struct soak *s, const char *path, int e, const struct sb_soak_log *log)
{
	const enum sb_errclass cls = e == -ENOMEM ? SB_ERR_ENV : SB_ERR_INPUT;
	if (e == -EBADMSG)
		return soak_fail(s, e, cls,
				 "--resume: '%s' line %zu is not a soak log record (%s): not "
				 "resuming from it",
				 path, log->line, log->why);
	if (e == -EINVAL)
		return soak_fail(s, e, cls,
				 "--resume: '%s' is not a storbench soak log (line 1 is not its "
				 "configuration)",
				 path);
	if (e == -ENODATA)
		return soak_fail(s, e, cls, "--resume: '%s' is empty", path);
	return soak_fail(s, e, cls, "--resume: cannot read '%s': %s", path, strerror(-e));
}

/* What the log holds into r (argv, seed) and r->st (the rest). */
static void take(struct sb_soak_resume *r, struct sb_soak_log *log)
{
	struct sb_soak_resume_state *st = r->st;
	r->seed = log->seed;
	r->argc = log->argc;
	r->argv = log->argv;
	st->started_ns = log->started_ns;
	st->it = log->it;
	st->nit = log->nit;
	st->capit = log->capit;
	st->stop_logged = log->stop_changed;
	st->ranks = log->ranks;
	st->rank = log->rank;
	st->aggregate = log->aggregate;
	st->iterations = log->iterations;
	st->duration_ns = log->duration_ns;
	st->generation = log->generation;
	st->left = log->left;
	st->nleft = log->nleft;
	log->left = NULL;
	log->nleft = 0;
	log->argv = NULL;
	log->it = NULL;
	log->nit = 0;
}

int soak_log_read(struct soak *s, const char *path, struct sb_soak_resume *r)
{
	struct sb_soak_log log;
	char *buf = NULL;
	size_t len = 0;
	int e = read_all(path, &buf, &len);
	if (e < 0) {
		free(buf);
		return soak_fail(s, e, e == -ENOENT ? SB_ERR_INPUT : SB_ERR_ENV,
				 "--resume: cannot read '%s': %s", path, strerror(-e));
	}
	e = sb_soak_log_parse(buf, len, &log);
	free(buf);
	if (e < 0) {
		e = parse_error(s, path, e, &log);
		sb_soak_log_free(&log);
		return e;
	}
	take(r, &log);
	const size_t good = log.good;
	sb_soak_log_free(&log);
	if (good < len && truncate(path, (off_t)good) < 0)
		return soak_fail(s, -errno, SB_ERR_ENV,
				 "--resume: cannot cut the torn last line of '%s': %s", path,
				 strerror(errno));
	if (good < len)
		soak_warn(s,
			  "--resume: the last line of '%s' was cut short (a crash?): it is dropped",
			  path);
	return 0;
}

/* The type and iteration of a line ("" and 0 when it has none). */
static void line_kind(const char *text, size_t len, char *type, size_t tl, uint64_t *n)
{
	struct sb_jdoc *d = NULL;
	type[0] = 0;
	*n = 0;
	if (sb_json_parse(text, len, NULL, &d, NULL) == 0) {
		const struct sb_jv *v = sb_jdoc_root(d);
		const char *t = sb_jv_str(sb_jv_get(v, "type"));
		snprintf(type, tl, "%s", t ? t : "");
		sb_jv_u64(sb_jv_get(v, "iteration"), n);
	}
	sb_jdoc_free(d);
}

/* The byte after the line of iteration n (of line 1 when n is 0); 0 none. */
static size_t end_of(const char *text, size_t len, uint64_t n)
{
	size_t line = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		if (!nl)
			break;
		const size_t ll = (size_t)(nl - (text + at));
		char type[16];
		uint64_t k = 0;
		int hit = ++line == 1 && !n;
		if (!hit) {
			line_kind(text + at, ll, type, sizeof(type), &k);
			hit = !strcmp(type, "iteration") && k == n;
		}
		at += ll + 1;
		if (hit)
			return at;
	}
	return 0;
}

/* The files the start and cut records of buf[at..len) list, in files
 * (pointing into docs, which the caller frees). */
static int listed_files(const char *buf, size_t at, size_t len, struct sb_jdoc ***docs,
			size_t *ndocs, const char ***files, size_t *nfiles)
{
	for (size_t p = at; p < len;) {
		const char *nl = memchr(buf + p, '\n', len - p);
		struct sb_jdoc *d = NULL;
		if (!nl)
			break;
		const size_t ll = (size_t)(nl - (buf + p));
		if (sb_json_parse(buf + p, ll, NULL, &d, NULL) == 0) {
			const struct sb_jv *v = sb_jdoc_root(d);
			const char *type = sb_jv_str(sb_jv_get(v, "type"));
			const struct sb_jv *f = sb_jv_get(v, "files");
			struct sb_jdoc **nd = realloc(*docs, (*ndocs + 1) * sizeof(*nd));
			const char **nf = realloc(*files,
						  (*nfiles + sb_jv_len(f) + 1) * sizeof(*nf));
			if (nd)
				*docs = nd;
			if (nf)
				*files = nf;
			if (!nd || !nf) {
				sb_jdoc_free(d);
				return -ENOMEM;
			}
			(*docs)[(*ndocs)++] = d;
			for (size_t i = 0;
			     type && (!strcmp(type, "start") || !strcmp(type, "cut")) &&
			     i < sb_jv_len(f);
			     i++)
				if (sb_jv_str(sb_jv_at(f, i)))
					(*files)[(*nfiles)++] = sb_jv_str(sb_jv_at(f, i));
		}
		p += ll + 1;
	}
	return 0;
}

/* The log up to iteration n, then a cut record: the highest generation
 * a write may have used (used) and the files the start records cut away
 * listed, which a later resume must still know (no generation used
 * again, the files to remove). Written whole under a temporary name, then
 * renamed: a crash leaves the log as it was or as it is to be. */
int soak_log_cut(const char *path, uint64_t n, uint64_t used)
{
	char *buf = NULL;
	size_t len = 0, nfiles = 0, ndocs = 0;
	const char **files = NULL;
	struct sb_jdoc **docs = NULL;
	struct sb_outfile out;
	int e = read_all(path, &buf, &len);
	const size_t at = e ? 0 : end_of(buf, len, n);
	if (!e && !at)
		e = -ENOENT;
	/* the files of the runs that started after iteration n */
	if (!e)
		e = listed_files(buf, at, len, &docs, &ndocs, &files, &nfiles);
	if (!e)
		e = sb_outfile_open(&out, path);
	if (!e) {
		struct sb_json j;
		fwrite(buf, 1, at, out.f);
		sb_json_begin(&j, out.f, 1);
		sb_soak_cut_record(&j, n, used, files, nfiles);
		e = sb_json_end(&j);
		if (e)
			sb_outfile_abort(&out);
		else
			e = sb_outfile_commit(&out);
	}
	for (size_t i = 0; i < ndocs; i++)
		sb_jdoc_free(docs[i]);
	free(docs);
	free(files);
	free(buf);
	return e;
}
