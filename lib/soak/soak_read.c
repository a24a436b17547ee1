/*
 * The soak's records read back (the writer is soak_json.c): a log to
 * resume it, and the typed readers report/ and compare take a soak's
 * figures through, each record checked first by the log's rules
 * (soak_check.h), what is wrong named by its key path.
 */
#include "lib/soak/soak_json.h"
#include "lib/soak/soak_check.h"
#include "lib/verify/verify_range_json.h"
#include "lib/sweep/sweep.h"
#include "lib/target/cache.h"

#include <math.h>

static const char *str_of(const struct sb_jv *v)
{
	return sb_jv_str(v) ? sb_jv_str(v) : "";
}

static void copy_str(char *dst, size_t len, const struct sb_jv *v)
{
	snprintf(dst, len, "%s", str_of(v));
}

/* An iteration's cells back; those without a known test or with sizes
 * of 0 are left out. 0 or -ENOMEM. */
static int cells_from_json(const struct sb_jv *a, struct sb_soak_iter *it)
{
	const size_t n = sb_jv_len(a);
	if (!sb_jv_is(a, SB_JV_ARR))
		return 0;
	it->iozone = 1;
	if (!n)
		return 0;
	if (!(it->cells = calloc(n, sizeof(*it->cells))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *c = sb_jv_at(a, i);
		struct sb_soak_cell *o = &it->cells[it->ncells];
		const char *t = sb_jv_str(sb_jv_get(c, "test"));
		o->test = t ? sb_sweep_test_by_name(t) : -EINVAL;
		if (o->test < 0 || sb_jv_u64(sb_jv_get(c, "file_size"), &o->file_size) < 0 ||
		    sb_jv_u64(sb_jv_get(c, "record_size"), &o->record_size) < 0 || !o->file_size ||
		    !o->record_size)
			continue;
		o->kibps = sb_jv_num(sb_jv_get(c, "kibps"), NAN);
		it->ncells++;
	}
	return 0;
}

static void kline_from_json(const struct sb_jv *v, struct sb_soak_kline *l)
{
	memset(l, 0, sizeof(*l));
	sb_jv_u64(sb_jv_get(v, "time_us"), &l->time_us);
	copy_str(l->category, sizeof(l->category), sb_jv_get(v, "category"));
	copy_str(l->device, sizeof(l->device), sb_jv_get(v, "device"));
	/* a line that fills the room was cut by the writer of an older log,
	 * maybe inside a word: cut again at a word, with the ellipsis */
	const char *t = str_of(sb_jv_get(v, "text"));
	const size_t room = sizeof(l->text) - (strlen(t) >= sizeof(l->text) - 1);
	sb_soak_cut_text(l->text, room, t);
}

/* The bad ranges kept (SB_SOAK_MAX_RANGES), the others counted. */
static void ranges_from_json(const struct sb_jv *a, struct sb_soak_iter *it)
{
	for (size_t i = 0; i < sb_jv_len(a); i++) {
		struct sb_verify_range g;
		if (sb_verify_range_from_json(sb_jv_at(a, i), &g) < 0)
			continue;
		if (it->nranges < SB_SOAK_MAX_RANGES)
			it->ranges[it->nranges++] = g;
		else
			it->ranges_omitted++;
	}
}

/* "drop_caches", "fadvise": how the caches were dropped; "direct": none. */
static int cache_from_json(const char *name)
{
	for (int m = SB_CACHE_FADVISE; name && m <= SB_CACHE_DROP_CACHES; m++)
		if (!strcmp(name, sb_cache_method_name(m)))
			return m;
	return 0;
}

int sb_soak_iter_from_json(const struct sb_jv *v, struct sb_soak_iter *it)
{
	const struct sb_jv *ver = sb_jv_get(v, "verify"), *k = sb_jv_get(v, "kmsg");
	uint64_t x = 0;
	const struct sb_jv *wl = sb_jv_get(v, "write_lat"), *rl = sb_jv_get(v, "read_lat");
	memset(it, 0, sizeof(*it));
	sb_jv_u64(sb_jv_get(v, "iteration"), &it->n);
	sb_jv_u64(sb_jv_get(v, "start_ns"), &it->start_ns);
	sb_jv_u64(sb_jv_get(v, "end_ns"), &it->end_ns);
	/* a rate not told is none (NaN), as an interrupted one is to the verdict */
	it->write_bw = sb_jv_num(sb_jv_get(v, "write_bw_bytes"), NAN);
	it->read_bw = sb_jv_num(sb_jv_get(v, "read_bw_bytes"), NAN);
	for (int i = 0; i < 3; i++) {
		sb_jv_u64(sb_jv_get(wl, sb_soak_lat_keys[i]), &it->wlat[i]);
		sb_jv_u64(sb_jv_get(rl, sb_soak_lat_keys[i]), &it->rlat[i]);
	}
	sb_jv_u64(sb_jv_get(ver, "blocks_checked"), &it->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_jv_u64(sb_jv_get(ver, sb_verify_class_name(c)), &it->count[c]);
	ranges_from_json(sb_jv_get(ver, "bad_ranges"), it);
	sb_jv_u64(sb_jv_get(ver, "bad_ranges_omitted"), &x);
	it->ranges_omitted += x;
	x = 0;
	sb_jv_u64(sb_jv_get(v, "io_errors"), &it->io_errors);
	const double fe = sb_jv_num(sb_jv_get(v, "first_errno"), 0);
	it->first_errno = isfinite(fe) && fabs(fe) < 4096 ? abs((int)fe) : 0;
	sb_jv_u64(sb_jv_get(v, "first_error_offset"), &it->first_error_offset);
	it->cache = cache_from_json(sb_jv_str(sb_jv_get(v, "cache")));
	sb_jv_u64(sb_jv_get(v, "unwritten_blocks"), &it->unwritten);
	sb_jv_u64(sb_jv_get(v, "generation"), &it->generation);
	/* counted for the verdict, their text kept */
	it->nkmsg = SB_MIN(sb_jv_len(k), (size_t)SB_SOAK_MAX_KMSG);
	for (size_t i = 0; i < it->nkmsg; i++)
		kline_from_json(sb_jv_at(k, i), &it->kmsg[i]);
	sb_jv_u64(sb_jv_get(v, "kmsg_omitted"), &x);
	it->kmsg_omitted = (size_t)x + (sb_jv_len(k) - it->nkmsg);
	/* the other devices' lines, for information */
	const struct sb_jv *ko = sb_jv_get(v, "kmsg_other");
	for (size_t i = 0; i < sb_jv_len(ko); i++) {
		struct sb_soak_kline l;
		kline_from_json(sb_jv_at(ko, i), &l);
		sb_soak_iter_add_other(it, &l);
	}
	x = 0;
	sb_jv_u64(sb_jv_get(v, "kmsg_other_omitted"), &x);
	it->kother_omitted += (size_t)x;
	it->interrupted = sb_jv_bool(sb_jv_get(v, "interrupted"), 0);
	it->failed = sb_jv_bool(sb_jv_get(v, "failed"), 0) == 1;
	return cells_from_json(sb_jv_get(v, "cells"), it);
}

static int metric_from_json(const struct sb_jv *v, struct sb_soak_metric *m)
{
	const struct sb_jv *out = sb_jv_get(v, "outliers"), *cp = sb_jv_get(v, "change_points");
	uint64_t n = 0, total = 0;
	memset(m, 0, sizeof(*m));
	if (!sb_jv_is(out, SB_JV_ARR) || !sb_jv_is(cp, SB_JV_ARR))
		return -ENOENT;
	sb_jv_u64(sb_jv_get(v, "n"), &n);
	m->st.n = (size_t)n;
	m->st.median = sb_jv_num(sb_jv_get(v, "median"), 0);
	m->st.p5 = sb_jv_num(sb_jv_get(v, "p5"), 0);
	m->st.p95 = sb_jv_num(sb_jv_get(v, "p95"), 0);
	m->st.mean = sb_jv_num(sb_jv_get(v, "mean"), 0);
	m->st.cv = sb_jv_num(sb_jv_get(v, "cv"), 0);
	m->st.min = sb_jv_num(sb_jv_get(v, "min"), 0);
	m->st.max = sb_jv_num(sb_jv_get(v, "max"), 0);
	for (size_t i = 0; i < sb_jv_len(out) && m->noutliers < SB_ANOMALY_MAX_OUTLIERS; i++)
		if (sb_jv_u64(sb_jv_at(out, i), &m->outliers[m->noutliers]) == 0)
			m->noutliers++;
	/* logs written before outliers_total: the list was all of them */
	m->outliers_total = SB_MAX(m->noutliers, sb_jv_len(out));
	if (sb_jv_u64(sb_jv_get(v, "outliers_total"), &total) == 0 && total > m->outliers_total)
		m->outliers_total = (size_t)total;
	for (size_t i = 0; i < sb_jv_len(cp) && m->nchanges < SB_ANOMALY_MAX_CHANGES; i++) {
		const struct sb_jv *c = sb_jv_at(cp, i);
		if (sb_jv_u64(sb_jv_get(c, "iteration"), &m->changes[m->nchanges].at) < 0)
			continue;
		const double before = sb_jv_num(sb_jv_get(c, "before"), 0),
			     after = sb_jv_num(sb_jv_get(c, "after"), 0);
		m->changes[m->nchanges].before = before;
		m->changes[m->nchanges].after = after;
		m->changes[m->nchanges++].step = before != 0 ? (after - before) / before : 0;
	}
	return 0;
}

void sb_soak_line_read(const struct sb_jv *v, struct sb_soak_line *out)
{
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	const struct sb_jv *n = sb_jv_get(v, "iteration");
	out->is_iteration = type ? !strcmp(type, "iteration") : sb_jv_is(n, SB_JV_NUM);
	out->iteration = sb_jv_num(n, NAN);
	out->block_size = sb_jv_num(sb_jv_get(v, "block_size"), NAN);
	out->verify = sb_jv_get(v, "verify");
	out->health = sb_jv_get(v, "health");
	out->health_before = sb_jv_get(v, "health_before");
}

void sb_soak_log_head_read(const struct sb_jv *v, struct sb_soak_log_head *out)
{
	const struct sb_jv *lv = sb_jv_get(v, "log_version");
	uint64_t ver = 0;
	out->version = sb_jv_u64(lv, &ver) == 0 && ver >= 1 ? ver : 0;
	out->version_found = sb_jv_is(lv, SB_JV_NUM) ? lv->num.d : NAN;
	out->command = sb_jv_str(sb_jv_get(v, "command"));
	out->storbench = sb_jv_str(sb_jv_get(v, "storbench"));
	out->target = sb_jv_str(sb_jv_get(v, "target"));
	out->device = sb_jv_str(sb_jv_get(v, "device"));
	out->model = sb_jv_str(sb_jv_get(v, "model"));
}

void sb_soak_settings_from_json(const struct sb_jv *v, struct sb_soak_settings *s)
{
	uint64_t x = 0;
	const char *w = sb_jv_str(sb_jv_get(v, "workload"));
	memset(s, 0, sizeof(*s));
	s->known |= sb_jv_u64(sb_jv_get(v, "size"), &s->size) == 0;
	if (sb_jv_u64(sb_jv_get(v, "block_size"), &x) == 0 && x <= UINT32_MAX)
		s->block_size = (uint32_t)x, s->known = 1;
	if (sb_jv_u64(sb_jv_get(v, "request_size"), &x) == 0 && x <= UINT32_MAX)
		s->request_size = (uint32_t)x, s->known = 1;
	s->stop_known = sb_jv_u64(sb_jv_get(v, "iterations"), &s->iterations) == 0;
	s->stop_known &= sb_jv_u64(sb_jv_get(v, "duration_ns"), &s->duration_ns) == 0;
	s->known |= s->stop_known;
	s->known |= sb_jv_u64(sb_jv_get(v, "idle_ns"), &s->idle_ns) == 0;
	s->iozone = w && !strcmp(w, "iozone");
}

int sb_soak_summary_from_json(const struct sb_jv *v, struct sb_soak_summary *out)
{
	const struct sb_jv *st = sb_jv_get(v, "stability");
	uint64_t x = 0;
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < 2; k++) {
		if (metric_from_json(sb_jv_get(st, sb_soak_metric_names[k]), &out->m[k]) < 0)
			return -ENOENT;
		out->m[k].name = sb_soak_metric_names[k];
		out->anomalies += (int)(out->m[k].outliers_total + out->m[k].nchanges);
	}
	if (sb_jv_get(v, "settings"))
		sb_soak_settings_from_json(sb_jv_get(v, "settings"), &out->set);
	if (sb_jv_u64(sb_jv_get(v, "iterations"), &x) == 0)
		out->iterations = (size_t)x;
	if (sb_jv_u64(sb_jv_get(v, "failed_iterations"), &x) == 0)
		out->failed = (size_t)x;
	sb_jv_u64(sb_jv_get(v, "verify_bad_blocks"), &out->verify_bad);
	sb_jv_u64(sb_jv_get(v, "io_errors"), &out->io_errors);
	sb_jv_u64(sb_jv_get(v, "kmsg_lines"), &out->kmsg_lines);
	sb_jv_u64(sb_jv_get(v, "kmsg_other_lines"), &out->kmsg_other_lines);
	if (sb_jv_u64(sb_jv_get(v, "cut_short_iterations"), &x) == 0)
		out->cut_short = (size_t)x;
	const struct sb_jv *od = sb_jv_get(v, "kmsg_other_devices");
	for (size_t i = 0; i < sb_jv_len(od) && out->nother < SB_SOAK_MAX_OTHER; i++) {
		struct sb_soak_other_device *o = &out->other[out->nother++];
		const struct sb_jv *e = sb_jv_at(od, i);
		copy_str(o->device, sizeof(o->device), sb_jv_get(e, "device"));
		copy_str(o->first, sizeof(o->first), sb_jv_get(e, "first"));
		sb_jv_u64(sb_jv_get(e, "lines"), &o->lines);
	}
	/* the verdict as written (an unknown word is no pass) */
	const int verdict = sb_soak_verdict_by_name(sb_jv_str(sb_jv_get(v, "verdict")));
	out->verdict = verdict < 0 ? SB_SOAK_FAIL : (enum sb_soak_verdict)verdict;
	out->pass = out->verdict == SB_SOAK_PASS;
	const char *why = sb_jv_str(sb_jv_get(v, "stopped_early"));
	if (!why)
		why = sb_jv_str(sb_jv_get(v, "aborted_reason"));
	if (out->verdict == SB_SOAK_INTERRUPTED || out->verdict == SB_SOAK_ABORTED || why) {
		out->stopped = out->verdict == SB_SOAK_INTERRUPTED ? SB_SOAK_INTERRUPTED
			       : out->verdict == SB_SOAK_ABORTED   ? SB_SOAK_ABORTED
			       : sb_jv_get(v, "aborted_reason")	   ? SB_SOAK_ABORTED
								   : SB_SOAK_INTERRUPTED;
		snprintf(out->reason, sizeof(out->reason), "%s", why ? why : "unknown");
		copy_str(out->resume, sizeof(out->resume), sb_jv_get(v, "resume"));
	}
	return 0;
}

static int take_config(const struct sb_jv *v, struct sb_soak_log *log)
{
	const struct sb_jv *av = sb_jv_get(v, "argv");
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	uint64_t ver = 0;
	if (type && !strcmp(type, "config") && sb_jv_u64(sb_jv_get(v, "log_version"), &ver) == 0)
		log->log_version = ver;
	if (!type || strcmp(type, "config") || sb_jv_u64(sb_jv_get(v, "log_version"), &ver) < 0 ||
	    ver != SB_SOAK_LOG_VERSION || !sb_jv_is(av, SB_JV_ARR))
		return -EINVAL;
	sb_jv_u64(sb_jv_get(v, "seed"), &log->seed);
	sb_jv_u64(sb_jv_get(v, "started_ns"), &log->started_ns);
	copy_str(log->version, sizeof(log->version), sb_jv_get(v, "storbench"));
	copy_str(log->model, sizeof(log->model), sb_jv_get(v, "model"));
	uint64_t x = 0;
	if (sb_jv_u64(sb_jv_get(v, "ranks"), &x) == 0 && x > 1 && x < 1u << 24) {
		log->ranks = (unsigned)x;
		log->aggregate = sb_jv_bool(sb_jv_get(v, "aggregate"), 0);
		if (sb_jv_u64(sb_jv_get(v, "rank"), &x) == 0 && x < log->ranks)
			log->rank = (int)x;
	}
	if (!(log->argv = calloc(sb_jv_len(av) + 1, sizeof(char *))))
		return -ENOMEM;
	for (size_t i = 0; i < sb_jv_len(av); i++) {
		const char *a = sb_jv_str(sb_jv_at(av, i));
		if (!a)
			return -EINVAL;
		if (!(log->argv[log->argc] = strdup(a)))
			return -ENOMEM;
		log->argc++;
	}
	return 0;
}

/* The files a run listed (its configuration, start or cut record): what
 * a resume removes when they prove to be the soak's (once per path). */
static int take_files(const struct sb_jv *v, struct sb_soak_log *log)
{
	const struct sb_jv *files = sb_jv_get(v, "files");
	for (size_t i = 0; i < sb_jv_len(files); i++) {
		const char *path = sb_jv_str(sb_jv_at(files, i));
		size_t k = 0;
		while (k < log->nleft && strcmp(log->left[k].path, path))
			k++;
		if (k < log->nleft)
			continue;
		struct sb_soak_leftover *nv = realloc(log->left, (log->nleft + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		log->left = nv;
		if (!(nv[log->nleft].path = strdup(path)))
			return -ENOMEM;
		log->nleft++;
	}
	return 0;
}

static int take_iteration(const struct sb_jv *v, struct sb_soak_log *log)
{
	struct sb_soak_iter it;
	int e = sb_soak_iter_from_json(v, &it);
	if (!e)
		e = sb_soak_iter_append(&log->it, &log->nit, &log->capit, &it);
	if (e)
		sb_soak_iter_release(&it);
	return e;
}

/* One whole line (lineno 1-based) into the log. */
static int take_line(const char *line, size_t len, struct sb_soak_log *log)
{
	struct sb_jdoc *d = NULL;
	int e = sb_json_parse(line, len, NULL, &d, NULL);
	if (e < 0) {
		snprintf(log->why, sizeof(log->why), "not JSON");
		return e == -ENOMEM ? e : -EBADMSG;
	}
	const struct sb_jv *v = sb_jdoc_root(d);
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	const size_t lineno = log->check.line + 1;
	if (sb_soak_check_line(&log->check, v, log->why, sizeof(log->why)) < 0)
		e = lineno == 1 ? -EINVAL : -EBADMSG;
	else if (lineno == 1)
		e = take_config(v, log);
	else if (!strcmp(type, "iteration"))
		e = take_iteration(v, log);
	if (!e && lineno > 1)
		log->summary_line = !strcmp(type, "summary") ? lineno
				    : !strcmp(type, "iteration") || !strcmp(type, "resume")
					    ? 0
					    : log->summary_line;
	if (!e && (lineno == 1 || !strcmp(type, "start") || !strcmp(type, "cut")))
		e = take_files(v, log);
	else if (!e && !strcmp(type, "resume")) {
		/* a limit given at an earlier resume replaces the configuration's */
		log->iterations = log->duration_ns = 0;
		sb_jv_u64(sb_jv_get(v, "iterations"), &log->iterations);
		sb_jv_u64(sb_jv_get(v, "duration_ns"), &log->duration_ns);
		log->stop_changed = 1;
	}
	sb_jdoc_free(d);
	return e;
}

int sb_soak_log_parse(const char *text, size_t len, struct sb_soak_log *log)
{
	memset(log, 0, sizeof(*log));
	sb_soak_check_init(&log->check);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		if (!nl)
			break; /* torn last line */
		size_t ll = (size_t)(nl - (text + at));
		log->line++;
		int e = take_line(text + at, ll, log);
		if (e < 0)
			return e;
		if (log->summary_line == log->line) {
			log->summary_at = at;
			log->summary_len = ll;
		} else if (!log->summary_line) {
			log->summary_len = 0;
		}
		at += ll + 1;
		log->good = at;
	}
	if (!log->line)
		return -ENODATA;
	log->generation = sb_soak_check_used(&log->check);
	return 0;
}

void sb_soak_log_free(struct sb_soak_log *log)
{
	for (size_t i = 0; i < log->nleft; i++)
		free(log->left[i].path);
	free(log->left);
	for (int i = 0; log->argv && i < log->argc; i++)
		free(log->argv[i]);
	free(log->argv);
	sb_soak_iters_free(log->it, log->nit);
	memset(log, 0, sizeof(*log));
}

/* ---- the typed readers ---- */

/* A refusal of what lies at key path at ("" the top): msg (its own path
 * within) after it. */
static int refuse(struct sb_error *err, const char *at, const char *msg)
{
	return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s%s%s", at, *at ? "." : "", msg);
}

static int no_memory(struct sb_error *err)
{
	return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
}

/* Many ranks: each rank's own iteration (checked). */
static int ranks_from_json(const struct sb_jv *a, struct sb_soak_record *rec)
{
	if (sb_jv_len(a) && !(rec->ranks = calloc(sb_jv_len(a), sizeof(*rec->ranks))))
		return -ENOMEM;
	for (size_t i = 0; i < sb_jv_len(a); i++) {
		const struct sb_jv *e = sb_jv_at(a, i);
		struct sb_soak_rank *r = &rec->ranks[rec->nranks];
		uint64_t k = 0;
		sb_jv_u64(sb_jv_get(e, "rank"), &k);
		r->rank = (int)k;
		copy_str(r->host, sizeof(r->host), sb_jv_get(e, "host"));
		/* a time not told is none (NaN) */
		r->start_s = sb_jv_num(sb_jv_get(e, "start_s"), NAN);
		r->end_s = sb_jv_num(sb_jv_get(e, "end_s"), NAN);
		r->wstart_s = sb_jv_num(sb_jv_get(e, "write_start_s"), NAN);
		r->wend_s = sb_jv_num(sb_jv_get(e, "write_end_s"), NAN);
		r->rstart_s = sb_jv_num(sb_jv_get(e, "check_start_s"), NAN);
		r->rend_s = sb_jv_num(sb_jv_get(e, "check_end_s"), NAN);
		r->wpause_s = sb_jv_num(sb_jv_get(e, "write_pause_s"), 0);
		r->wshared_s = rec->write_shared_pause_s;
		sb_jv_u64(sb_jv_get(e, "write_bytes"), &r->write_bytes);
		sb_jv_u64(sb_jv_get(e, "checked_bytes"), &r->read_bytes);
		if (sb_soak_iter_from_json(e, &r->it) < 0)
			return -ENOMEM;
		rec->nranks++;
	}
	return 0;
}

int sb_soak_read_record_at(const struct sb_jv *v, const char *at, struct sb_soak_record *rec,
			   struct sb_error *err)
{
	char msg[384];
	memset(rec, 0, sizeof(*rec));
	if (!sb_jv_is(v, SB_JV_OBJ))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s: expected an object of an iteration's figures",
				    *at ? at : "iteration record");
	if (sb_soak_check_record(v, msg, sizeof(msg)) < 0)
		return refuse(err, at, msg);
	rec->start_spread_s = sb_jv_num(sb_jv_get(v, "start_spread_s"), NAN);
	rec->end_spread_s = sb_jv_num(sb_jv_get(v, "end_spread_s"), NAN);
	rec->write_shared_pause_s = sb_jv_num(sb_jv_get(v, "write_shared_pause_s"), 0);
	if (sb_soak_iter_from_json(v, &rec->it) < 0 ||
	    ranks_from_json(sb_jv_get(v, "ranks"), rec) < 0) {
		sb_soak_record_release(rec);
		return no_memory(err);
	}
	return 0;
}

int sb_soak_read_record(const struct sb_jv *v, struct sb_soak_record *rec, struct sb_error *err)
{
	return sb_soak_read_record_at(v, "", rec, err);
}

void sb_soak_record_release(struct sb_soak_record *rec)
{
	sb_soak_iter_release(&rec->it);
	for (unsigned i = 0; i < rec->nranks; i++)
		sb_soak_iter_release(&rec->ranks[i].it);
	free(rec->ranks);
	rec->ranks = NULL;
	rec->nranks = 0;
}

/* An iozone workload's cells' stability ("cells" of "stability"). */
static int cells_stability(const struct sb_jv *a, struct sb_soak_result *r, struct sb_error *err)
{
	char where[64];
	if (!a)
		return 0;
	if (!sb_jv_is(a, SB_JV_ARR))
		return refuse(err, "stability", "cells: expected an array of cells");
	if (sb_jv_len(a) && !(r->cells = calloc(sb_jv_len(a), sizeof(*r->cells))))
		return no_memory(err);
	for (size_t i = 0; i < sb_jv_len(a); i++) {
		const struct sb_jv *c = sb_jv_at(a, i);
		struct sb_soak_cell_metric *m = &r->cells[r->ncells];
		const char *t = sb_jv_str(sb_jv_get(c, "test"));
		snprintf(where, sizeof(where), "stability.cells[%zu]", i);
		m->test = t ? sb_sweep_test_by_name(t) : -EINVAL;
		if (m->test < 0)
			return refuse(err, where, "test: expected one of iozone's tests");
		if (sb_jv_u64(sb_jv_get(c, "file_size"), &m->file_size) < 0 ||
		    sb_jv_u64(sb_jv_get(c, "record_size"), &m->record_size) < 0 ||
		    metric_from_json(c, &m->m) < 0)
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "%s: expected a cell's sizes and stability", where);
		r->ncells++;
	}
	return 0;
}

int sb_soak_read_summary(const struct sb_jv *v, struct sb_soak_result *r, struct sb_error *err)
{
	char msg[384];
	memset(r, 0, sizeof(*r));
	if (!sb_jv_is(v, SB_JV_OBJ))
		return refuse(err, "", "soak: expected an object of a soak's summary");
	if (sb_soak_check_summary(v, msg, sizeof(msg)) < 0)
		return refuse(err, "", msg);
	if (sb_soak_summary_from_json(v, &r->sum) < 0) {
		sb_error_set(err, -ENOENT, SB_ERR_INPUT,
			     "stability: no stability of write_bw and read_bw (no verdict)");
		return -ENOENT;
	}
	r->kmsg_watched = sb_jv_bool(sb_jv_get(v, "kmsg_watched"), 0) == 1;
	r->iozone = sb_jv_get(sb_jv_get(v, "stability"), "cells") != NULL;
	const int e = cells_stability(sb_jv_get(sb_jv_get(v, "stability"), "cells"), r, err);
	if (e)
		sb_soak_result_free(r);
	return e;
}

static int stop_change_from_json(const struct sb_jv *v, struct sb_soak_result *r,
				 struct sb_error *err)
{
	static const char *const keys[] = { "after_iteration", "iterations_before",
					    "duration_ns_before", "iterations", "duration_ns" };
	uint64_t *const at[] = { &r->stop_change.after_iteration, &r->stop_change.iterations_before,
				 &r->stop_change.duration_ns_before, &r->stop_change.iterations,
				 &r->stop_change.duration_ns };
	char msg[128];
	if (!v)
		return 0;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return refuse(err, "", "stop_change: expected an object");
	for (size_t i = 0; i < SB_ARRAY_SIZE(keys); i++)
		if (sb_jv_u64(sb_jv_get(v, keys[i]), at[i]) < 0) {
			snprintf(msg, sizeof(msg), "%s: expected a whole number from 0", keys[i]);
			return refuse(err, "stop_change", msg);
		}
	r->stop_changed = 1;
	return 0;
}

/* An iteration record and its ranks into d. */
static int take_record(struct sb_soak_result *r, size_t *cap, struct sb_soak_record *rec)
{
	if (sb_soak_iter_append(&r->it, &r->nit, cap, &rec->it) < 0)
		return -ENOMEM;
	rec->it.cells = NULL; /* the array's now */
	rec->it.kother = NULL;
	if (!rec->nranks)
		return 0;
	struct sb_soak_rank **v = realloc(r->iter_ranks, *cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(v + (r->iter_ranks ? r->nit - 1 : 0), 0,
	       (*cap - (r->iter_ranks ? r->nit - 1 : 0)) * sizeof(*v));
	r->iter_ranks = v;
	v[r->nit - 1] = rec->ranks;
	r->nranks = rec->nranks;
	rec->ranks = NULL;
	rec->nranks = 0;
	return 0;
}

int sb_soak_read(const struct sb_jv *section, struct sb_soak_doc *out, struct sb_error *err)
{
	struct sb_soak_result *r = &out->r;
	const struct sb_jv *recs = sb_jv_get(section, "iteration_records");
	char where[64];
	size_t cap = 0;
	int e = sb_soak_read_summary(section, r, err);
	if (!e)
		e = stop_change_from_json(sb_jv_get(section, "stop_change"), r, err);
	if (!e && !sb_jv_is(recs, SB_JV_ARR))
		e = refuse(err, "", "iteration_records: expected an array of iteration records");
	for (size_t i = 0; !e && i < sb_jv_len(recs); i++) {
		struct sb_soak_record rec;
		snprintf(where, sizeof(where), "iteration_records[%zu]", i);
		if (!(e = sb_soak_read_record_at(sb_jv_at(recs, i), where, &rec, err))) {
			/* a repeat is no soak's; every iteration of many ranks
			 * has each rank's */
			if (r->nit && rec.it.n <= r->it[r->nit - 1].n)
				e = refuse(err, where, "iteration: expected one after the last");
			else if (r->nranks && rec.nranks != r->nranks)
				e = refuse(err, where,
					   "ranks: expected as many as the iterations before");
			else if (take_record(r, &cap, &rec) < 0)
				e = no_memory(err);
			sb_soak_record_release(&rec);
		}
	}
	if (e)
		sb_soak_result_free(r);
	return e;
}

void sb_soak_doc_free(struct sb_soak_doc *d)
{
	if (d)
		sb_soak_result_free(&d->r);
}

void sb_soak_result_free(struct sb_soak_result *r)
{
	if (!r)
		return;
	sb_soak_iters_free(r->it, r->nit);
	free(r->cells);
	for (size_t i = 0; r->iter_ranks && i < r->nit; i++) {
		for (unsigned k = 0; r->iter_ranks[i] && k < r->nranks; k++)
			sb_soak_iter_release(&r->iter_ranks[i][k].it);
		free(r->iter_ranks[i]);
	}
	free(r->iter_ranks);
	free(r->rank_host);
	free(r->rank_failed);
	memset(r, 0, sizeof(*r));
}

int sb_soak_log_summary(const char *text, const struct sb_soak_log *log,
			struct sb_soak_summary *out, struct sb_error *err)
{
	struct sb_jdoc *d = NULL;
	struct sb_soak_result r;
	if (!log->summary_len) {
		int e = sb_soak_summarize(log->it, log->nit, 0, out);
		if (e < 0)
			return no_memory(err);
		sb_soak_stop(out, SB_SOAK_INTERRUPTED,
			     "the log ends without the soak's summary (killed, cut by a power "
			     "loss, or still running)",
			     NULL);
		return 0;
	}
	int e = sb_json_parse(text + log->summary_at, log->summary_len, NULL, &d, NULL);
	if (e < 0) /* sb_soak_log_parse read it */
		return e == -ENOMEM ? no_memory(err) : refuse(err, "summary", "not JSON");
	e = sb_soak_read_summary(sb_jdoc_root(d), &r, err);
	sb_jdoc_free(d);
	if (e < 0)
		return e;
	*out = r.sum;
	sb_soak_result_free(&r);
	return 0;
}
