/*
 * The soak log: JSON Lines, one record per line, each flushed and fsync'd
 * before the next iteration starts, so a crash or a power cut loses at most
 * the iteration in flight. Line 1 is the configuration (the options as
 * given, the seed, the device); then one line per iteration; a summary line
 * when the soak ends. --resume reads it back and appends.
 */
#include "cli/soak.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lib/storbench.h"

int soak_log_open(struct soak_state *s, const char *path, int append)
{
	s->log = fopen(path, append ? "a" : "wx");
	/* a buffer larger than any record: each line reaches the file in one
	 * write(), so even SIGKILL leaves whole lines */
	if (s->log)
		setvbuf(s->log, NULL, _IOFBF, 1 << 16);
	if (!s->log) {
		sb_err("cannot write the log '%s': %s%s", path, strerror(errno),
		       errno == EEXIST ? " (it exists: name a new one, or --resume it)" : "");
		return SB_EXIT_ENV;
	}
	return 0;
}

/* End a record: newline, flush, fsync. */
static int commit(struct soak_state *s, struct sb_json *j)
{
	int e = sb_json_end(j);
	if (!e && fsync(fileno(s->log)) < 0)
		e = -errno;
	if (e < 0)
		sb_err("cannot write the log: %s", strerror(-e));
	return e;
}

int soak_log_config(struct soak_state *s)
{
	struct sb_json j;
	sb_json_begin(&j, s->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "type", "config");
	sb_json_str(&j, "command", "soak");
	sb_json_u64(&j, "log_version", SOAK_LOG_VERSION);
	sb_json_str(&j, "storbench", sb_version());
	sb_json_u64(&j, "started_ns", s->started_ns);
	sb_json_u64(&j, "seed", s->seed);
	sb_json_str(&j, "target", s->t.v.path);
	sb_json_arr_open(&j, "argv");
	for (int i = 0; i < s->o->argc; i++)
		sb_json_str(&j, NULL, s->o->argv[i]);
	sb_json_arr_close(&j);
	sb_json_u64(&j, "size", s->t.v.size);
	sb_json_u64(&j, "block_size", s->o->v.block_size);
	sb_json_u64(&j, "request_size", s->o->v.request_size);
	sb_json_str(&j, "engine", s->ops->name);
	sb_json_bool(&j, "direct", s->t.v.direct);
	sb_json_bool(&j, "region_mode", s->region_mode);
	sb_json_str(&j, "device", s->t.ct.info.devname[0] ? s->t.ct.info.devname : NULL);
	sb_json_str(&j, "model", s->t.ct.info.model[0] ? s->t.ct.info.model : NULL);
	if (s->health_ok[0])
		sb_health_json(&j, "health_before", &s->health[0]);
	sb_json_obj_close(&j);
	return commit(s, &j);
}

void soak_iter_json(struct sb_json *j, const struct soak_iter *it)
{
	static const char *const lat[] = { "p50_ns", "p99_ns", "max_ns" };
	sb_json_u64(j, "iteration", it->n);
	sb_json_u64(j, "start_ns", it->start_ns);
	sb_json_u64(j, "end_ns", it->end_ns);
	sb_json_double(j, "write_bw_bytes", it->write_bw);
	sb_json_double(j, "read_bw_bytes", it->read_bw);
	sb_json_obj_open(j, "write_lat");
	for (int i = 0; i < 3; i++)
		sb_json_u64(j, lat[i], it->wlat[i]);
	sb_json_obj_close(j);
	sb_json_obj_open(j, "read_lat");
	for (int i = 0; i < 3; i++)
		sb_json_u64(j, lat[i], it->rlat[i]);
	sb_json_obj_close(j);
	sb_json_obj_open(j, "verify");
	sb_json_u64(j, "blocks_checked", it->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_json_u64(j, sb_verify_class_name(c), it->count[c]);
	sb_json_arr_open(j, "bad_ranges");
	for (size_t i = 0; i < it->nranges; i++)
		sb_verify_range_json(j, &it->ranges[i], -1);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", it->ranges_omitted);
	sb_json_obj_close(j);
	sb_json_u64(j, "io_errors", it->io_errors);
	if (it->first_errno) {
		sb_json_i64(j, "first_errno", it->first_errno);
		sb_json_u64(j, "first_error_offset", it->first_error_offset);
	}
	sb_json_str(j, "cache", it->cache > 0 ? sb_cache_method_name(it->cache) : "direct");
	sb_json_arr_open(j, "kmsg");
	for (size_t i = 0; i < it->nkmsg; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "time_us", it->kmsg[i].time_us);
		sb_json_str(j, "category", it->kmsg[i].category);
		sb_json_str(j, "text", it->kmsg[i].text);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_u64(j, "kmsg_omitted", it->kmsg_omitted);
	sb_json_bool(j, "interrupted", it->interrupted);
	sb_json_bool(j, "failed", soak_iter_failed(it));
}

int soak_log_iteration(struct soak_state *s, const struct soak_iter *it)
{
	struct sb_json j;
	sb_json_begin(&j, s->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "type", "iteration");
	soak_iter_json(&j, it);
	sb_json_obj_close(&j);
	return commit(s, &j);
}

int soak_log_summary(struct soak_state *s)
{
	struct sb_json j;
	sb_json_begin(&j, s->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "type", "summary");
	soak_summary_json(&j, s);
	sb_json_obj_close(&j);
	return commit(s, &j);
}

/* ---- resume ---- */

static void iter_from_json(const struct sb_jv *v, struct soak_iter *it)
{
	const struct sb_jv *ver = sb_jv_get(v, "verify");
	const struct sb_jv *wl = sb_jv_get(v, "write_lat"), *rl = sb_jv_get(v, "read_lat");
	static const char *const lat[] = { "p50_ns", "p99_ns", "max_ns" };
	memset(it, 0, sizeof(*it));
	sb_jv_u64(sb_jv_get(v, "iteration"), &it->n);
	sb_jv_u64(sb_jv_get(v, "start_ns"), &it->start_ns);
	sb_jv_u64(sb_jv_get(v, "end_ns"), &it->end_ns);
	it->write_bw = sb_jv_num(sb_jv_get(v, "write_bw_bytes"), 0);
	it->read_bw = sb_jv_num(sb_jv_get(v, "read_bw_bytes"), 0);
	for (int i = 0; i < 3; i++) {
		sb_jv_u64(sb_jv_get(wl, lat[i]), &it->wlat[i]);
		sb_jv_u64(sb_jv_get(rl, lat[i]), &it->rlat[i]);
	}
	sb_jv_u64(sb_jv_get(ver, "blocks_checked"), &it->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_jv_u64(sb_jv_get(ver, sb_verify_class_name(c)), &it->count[c]);
	sb_jv_u64(sb_jv_get(v, "io_errors"), &it->io_errors);
	it->nkmsg = sb_jv_len(sb_jv_get(v, "kmsg")); /* counted, not kept */
	if (it->nkmsg > SOAK_MAX_KMSG)
		it->nkmsg = SOAK_MAX_KMSG;
	for (size_t i = 0; i < it->nkmsg; i++) {
		const struct sb_jv *k = sb_jv_at(sb_jv_get(v, "kmsg"), i);
		snprintf(it->kmsg[i].category, sizeof(it->kmsg[i].category), "%s",
			 sb_jv_str(sb_jv_get(k, "category")) ? sb_jv_str(sb_jv_get(k, "category")) : "");
		snprintf(it->kmsg[i].text, sizeof(it->kmsg[i].text), "%s",
			 sb_jv_str(sb_jv_get(k, "text")) ? sb_jv_str(sb_jv_get(k, "text")) : "");
	}
	it->interrupted = sb_jv_bool(sb_jv_get(v, "interrupted"), 0);
}

static int take_config(const struct sb_jv *v, struct soak_state *s, char ***argv, int *argc)
{
	const struct sb_jv *av = sb_jv_get(v, "argv");
	uint64_t ver = 0;
	if (sb_jv_u64(sb_jv_get(v, "log_version"), &ver) < 0 || ver != SOAK_LOG_VERSION ||
	    !sb_jv_is(av, SB_JV_ARR))
		return -EINVAL;
	sb_jv_u64(sb_jv_get(v, "seed"), &s->seed);
	sb_jv_u64(sb_jv_get(v, "started_ns"), &s->started_ns);
	*argc = (int)sb_jv_len(av);
	*argv = calloc((size_t)*argc + 1, sizeof(char *));
	if (!*argv)
		return -ENOMEM;
	for (int i = 0; i < *argc; i++) {
		const char *a = sb_jv_str(sb_jv_at(av, (size_t)i));
		if (!a || !((*argv)[i] = strdup(a)))
			return -EINVAL;
	}
	return 0;
}

static int add_iter(struct soak_state *s, const struct soak_iter *it)
{
	if (s->nit == s->capit) {
		size_t cap = s->capit ? s->capit * 2 : 64;
		struct soak_iter *n = realloc(s->it, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->it = n;
		s->capit = cap;
	}
	s->it[s->nit++] = *it;
	return 0;
}

/* Append an iteration to the state (the loop and resume both do). */
int soak_state_add(struct soak_state *s, const struct soak_iter *it)
{
	return add_iter(s, it);
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

int soak_log_resume(const char *path, struct soak_state *s, char ***argv, int *argc)
{
	char *buf = NULL;
	size_t len = 0, good = 0, lineno = 0;
	int e = read_all(path, &buf, &len), have_config = 0;
	if (e < 0) {
		sb_err("--resume: cannot read '%s': %s", path, strerror(-e));
		free(buf);
		return e == -ENOENT ? SB_EXIT_USAGE : SB_EXIT_ENV;
	}
	for (size_t at = 0; at < len;) {
		char *nl = memchr(buf + at, '\n', len - at);
		if (!nl)
			break; /* torn last line: cut below */
		size_t ll = (size_t)(nl - (buf + at));
		struct sb_jdoc *d = NULL;
		lineno++;
		if (sb_json_parse(buf + at, ll, NULL, &d, NULL) < 0) {
			sb_err("--resume: '%s' line %zu is not a soak log record", path, lineno);
			free(buf);
			return SB_EXIT_USAGE;
		}
		const struct sb_jv *v = sb_jdoc_root(d);
		const char *type = sb_jv_str(sb_jv_get(v, "type"));
		struct soak_iter it;
		if (lineno == 1) {
			have_config = type && !strcmp(type, "config") &&
				      take_config(v, s, argv, argc) == 0;
		} else if (type && !strcmp(type, "iteration")) {
			iter_from_json(v, &it);
			if (add_iter(s, &it) < 0)
				have_config = 0;
		}
		sb_jdoc_free(d);
		if (!have_config) {
			sb_err("--resume: '%s' is not a storbench soak log (line 1 is not its "
			       "configuration)", path);
			free(buf);
			return SB_EXIT_USAGE;
		}
		at += ll + 1;
		good = at;
	}
	free(buf);
	if (!have_config) {
		sb_err("--resume: '%s' is empty", path);
		return SB_EXIT_USAGE;
	}
	if (good < len && truncate(path, (off_t)good) < 0) {
		sb_err("--resume: cannot cut the torn last line of '%s': %s", path, strerror(errno));
		return SB_EXIT_ENV;
	}
	if (good < len)
		sb_warn("--resume: the last line of '%s' was cut short (a crash?): it is dropped",
			path);
	return 0;
}
