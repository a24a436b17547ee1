/*
 * A record of the history out of a result's JSON text: storbench's result
 * (its header through sb_results_head_read, its figures through
 * sb_figures_read, the device's identity through the typed takes), a
 * soak's JSON Lines log (through the soak's own reader, sb_soak_log_parse
 * and sb_soak_log_summary), or fio's JSON output, read as run's jobs are.
 */
#include "lib/history/history.h"

#include <ctype.h>
#include <math.h>

#include "lib/json/json_take.h"
#include "lib/results/results_read.h"
#include "lib/soak/soak_json.h"

static int nomem(struct sb_error *err)
{
	return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
}

/* A section's reader refused it (whatever its errno): bad input, said. */
static int refused(int e, struct sb_error *err)
{
	if (e >= 0 || e == -ENOMEM)
		return e;
	err->err = -EINVAL;
	err->cls = SB_ERR_INPUT;
	return -EINVAL;
}

/* *dst = a copy of s (NULL or "": stays NULL) */
static int dup(char **dst, const char *s)
{
	if (!s || !*s)
		return 0;
	return (*dst = strdup(s)) ? 0 : -ENOMEM;
}

/* A string member that may be null or absent (*out NULL). */
static int str_or_null(struct sb_jtake *t, const struct sb_jv *o, const char *key, const char **out)
{
	if (sb_jv_is(sb_jv_get(o, key), SB_JV_NULL))
		return 0;
	return sb_jtake_str(t, o, key, SB_JTAKE_OPTIONAL, out) < 0 ? t->e : 0;
}

/* The device's identity as the result has it: storbench.device (its
 * model, serial, firmware, capacity; an eMMC's or SD card's CID and its
 * fwrev where the disk says no firmware), storbench.health.before's
 * EXT_CSD revision. Each optional; a wrong type is refused by key path. */
static int identity_read(const struct sb_jv *sb, struct sb_history_rec *r, struct sb_error *err)
{
	struct sb_jtake t;
	const char *model = NULL, *serial = NULL, *fw = NULL, *cid = NULL, *fwrev = NULL;
	uint64_t cap = 0, rev = 0;
	sb_jtake_init(&t, err);
	sb_jtake_down(&t, "storbench");
	size_t at = sb_jtake_down(&t, "device");
	const struct sb_jv *dev = sb_jv_get(sb, "device");
	if (dev && !sb_jv_is(dev, SB_JV_NULL)) {
		if (!sb_jv_is(dev, SB_JV_OBJ))
			return sb_jtake_bad(&t, NULL, "an object", dev);
		const struct sb_jv *mmc;
		if (str_or_null(&t, dev, "model", &model) < 0 ||
		    str_or_null(&t, dev, "serial", &serial) < 0 ||
		    str_or_null(&t, dev, "firmware", &fw) < 0 ||
		    sb_jtake_u64(&t, dev, "capacity", SB_JTAKE_OPTIONAL, UINT64_MAX, &cap) < 0)
			return t.e;
		if ((mmc = sb_jtake_obj(&t, dev, "mmc", SB_JTAKE_OPTIONAL)) != NULL) {
			sb_jtake_down(&t, "mmc");
			if (str_or_null(&t, mmc, "cid", &cid) < 0 ||
			    str_or_null(&t, mmc, "fwrev", &fwrev) < 0 ||
			    (!serial && str_or_null(&t, mmc, "serial", &serial) < 0))
				return t.e;
		} else if (t.e) {
			return t.e;
		}
	}
	sb_jtake_up(&t, at);
	const struct sb_jv *before = sb_jv_get(sb_jv_get(sb, "health"), "before");
	const struct sb_jv *ext = sb_jv_get(before, "ext_csd");
	if (sb_jv_is(ext, SB_JV_OBJ)) {
		sb_jtake_down(&t, "health.before.ext_csd");
		if (sb_jtake_u64(&t, ext, "revision", SB_JTAKE_OPTIONAL, 255, &rev) < 0)
			return t.e;
		r->ext_csd_rev = (int)rev;
	}
	/* NVMe's active firmware slot (1-7), where the controller told it */
	const struct sb_jv *fws = sb_jv_get(dev, "nvme_firmware_slot");
	if (fws && !sb_jv_is(fws, SB_JV_NULL)) {
		uint64_t slot = 0;
		sb_jtake_up(&t, at);
		sb_jtake_down(&t, "device.nvme_firmware_slot");
		if (!sb_jv_is(fws, SB_JV_OBJ))
			return sb_jtake_bad(&t, NULL, "an object", fws);
		if (sb_jtake_u64(&t, fws, "active", SB_JTAKE_OPTIONAL, 7, &slot) < 0)
			return t.e;
		r->fw_slot = slot ? (int)slot : -1;
	}
	r->capacity = cap;
	if (dup(&r->model, model) || dup(&r->serial, serial) ||
	    dup(&r->firmware, fw ? fw : fwrev) || dup(&r->cid, cid))
		return nomem(err);
	return 0;
}

static int storbench_read(const struct sb_jv *root, struct sb_history_rec *r, struct sb_error *err)
{
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	struct sb_results_doc h;
	uint64_t ts = 0;
	int e = sb_results_head_read(sb, "storbench", &h, err);
	if (e < 0)
		return e;
	if (!h.command)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "storbench.command: expected the command's name, found nothing");
	if (sb_jv_u64(sb_jv_get(root, "timestamp"), &ts) == 0 && ts < INT64_MAX)
		r->started = (int64_t)ts;
	if (dup(&r->command, h.command) || dup(&r->host, h.host.hostname) ||
	    dup(&r->version, h.version) || dup(&r->state, h.state.name) ||
	    dup(&r->write_cache, h.target.write_cache))
		return nomem(err);
	if ((e = identity_read(sb, r, err)) < 0)
		return e;
	if (!r->model && (e = dup(&r->model, h.target.model)) < 0)
		return nomem(err);
	if (!r->capacity)
		r->capacity = h.target.capacity;
	size_t n;
	if (!sb_figure_defs(h.command, &n))
		return 0; /* a command whose figures are not named yet: the record alone */
	int e2 = sb_figures_read(root, &r->figs, err);
	if (e2 == -ENOENT) { /* a figure the run never made (a soak stopped early): none */
		r->figs.n = 0;
		return 0;
	}
	return refused(e2, err);
}

/* fio's JSON output: "fio version" and "jobs"; read as run's result (the
 * same readers, the same names: JOB.read.bw ...), the text kept as fio
 * wrote it. fio may print notes before the document: it starts at the
 * first line that opens an object. */
static int fio_read(const char *text, size_t len, struct sb_history_rec *r, struct sb_error *err)
{
	static const char tail[] = ",\"storbench\":{\"command\":\"run\"}}";
	struct sb_json_error je;
	struct sb_jdoc *doc = NULL;
	size_t end = len;
	while (end && isspace((unsigned char)text[end - 1]))
		end--;
	if (!end || text[end - 1] != '}')
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "not fio's JSON output");
	char *t = malloc(end + sizeof(tail));
	if (!t)
		return nomem(err);
	memcpy(t, text, end - 1);
	memcpy(t + end - 1, tail, sizeof(tail));
	int e = sb_json_parse(t, end - 1 + sizeof(tail) - 1, NULL, &doc, &je);
	if (e == 0) {
		const struct sb_jv *root = sb_jdoc_root(doc);
		uint64_t ts = 0;
		if (sb_jv_u64(sb_jv_get(root, "timestamp"), &ts) == 0 && ts < INT64_MAX)
			r->started = (int64_t)ts;
		if (dup(&r->command, "fio") ||
		    dup(&r->version, sb_jv_str(sb_jv_get(root, "fio version"))))
			e = nomem(err);
		else
			e = refused(sb_figures_read(root, &r->figs, err), err);
		snprintf(r->figs.command, sizeof(r->figs.command), "fio");
	} else {
		e = sb_error_set(err, e == -ENOMEM ? e : -EINVAL,
				 e == -ENOMEM ? SB_ERR_ENV : SB_ERR_INPUT, "not JSON: %s", je.msg);
	}
	sb_jdoc_free(doc);
	free(t);
	return e;
}

/* the result file itself, as read */
static int keep_text(const char *text, size_t len, struct sb_history_rec *r, struct sb_error *err)
{
	if (!(r->json = malloc(len + 1)))
		return nomem(err);
	memcpy(r->json, text, len);
	r->json[len] = 0;
	r->json_len = len;
	return 0;
}

/* A soak's JSON Lines log: 1 and r read when it is one (its first line a
 * soak's configuration), 0 when it is not, -errno with err. Its verdict
 * and figures are its last summary's, or, where the log ends without one
 * (a soak killed or still running), its iterations' and "interrupted". */
static int soak_log_read(const char *text, size_t len, struct sb_history_rec *r,
			 struct sb_error *err)
{
	struct sb_soak_log log;
	struct sb_soak_summary sum;
	int e = sb_soak_log_parse(text, len, &log);
	if (e == -EINVAL && log.log_version && log.log_version != SB_SOAK_LOG_VERSION) {
		e = sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				 "a soak log of version %llu: this storbench reads version %d",
				 (unsigned long long)log.log_version, SB_SOAK_LOG_VERSION);
		sb_soak_log_free(&log);
		return e;
	}
	if (e == -EINVAL || e == -ENODATA || (e == -EBADMSG && log.line <= 1)) {
		sb_soak_log_free(&log);
		return 0; /* line 1 is no soak's configuration */
	}
	if (e == -EBADMSG)
		e = sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				 "a soak log whose line %zu is refused: %s", log.line, log.why);
	else if (e < 0)
		e = nomem(err);
	else if ((e = sb_soak_log_summary(text, &log, &sum, err)) == 0 &&
		 (e = sb_figures_of_soak(&sum, &r->figs)) < 0)
		e = nomem(err);
	else if (e == -ENOENT) /* a summary of no figures (no iteration ran): none, as a result's */
		e = 0;
	if (e == 0) {
		r->started = (int64_t)(log.started_ns / 1000000000u);
		if (dup(&r->command, "soak") || dup(&r->version, log.version) ||
		    dup(&r->model, log.model))
			e = nomem(err);
	}
	sb_soak_log_free(&log);
	return e < 0 ? e : 1;
}

int sb_history_rec_read(const char *text, size_t len, struct sb_history_rec *r,
			struct sb_error *err)
{
	struct sb_json_error je;
	struct sb_jdoc *doc = NULL;
	const char *at = text;
	int e;
	memset(r, 0, sizeof(*r));
	r->ext_csd_rev = r->fw_slot = -1;
	if ((e = soak_log_read(text, len, r, err)) != 0)
		return e < 0 ? e : keep_text(text, len, r, err);
	/* fio's notes before its document */
	while (at < text + len && *at != '{') {
		const char *nl = memchr(at, '\n', (size_t)(text + len - at));
		at = nl ? nl + 1 : text + len;
	}
	if (at == text + len)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "not JSON: no object in it");
	len -= (size_t)(at - text);
	text = at;
	if ((e = sb_json_parse(text, len, NULL, &doc, &je)) < 0) {
		if (e == -ENOMEM)
			return nomem(err);
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "not JSON: %s", je.msg);
	}
	const struct sb_jv *root = sb_jdoc_root(doc);
	if (sb_jv_get(root, "storbench"))
		e = storbench_read(root, r, err);
	else if (sb_jv_is(sb_jv_get(root, "fio version"), SB_JV_STR) &&
		 sb_jv_is(sb_jv_get(root, "jobs"), SB_JV_ARR))
		e = fio_read(text, len, r, err);
	else
		e = sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				 "neither a storbench result nor fio's JSON output (no \"storbench\" "
				 "section, no \"fio version\" and \"jobs\")");
	sb_jdoc_free(doc);
	return e < 0 ? e : keep_text(text, len, r, err);
}

static int key_ok(const char *k, size_t n)
{
	if (n < 1 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)k[i]) && !strchr("_-.", k[i]))
			return 0;
	return 1;
}

int sb_history_rec_label(struct sb_history_rec *r, const char *kv, struct sb_error *err)
{
	const char *eq = strchr(kv, '=');
	if (!eq || !key_ok(kv, (size_t)(eq - kv)))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "'%s' is not a label (KEY=VALUE, KEY of letters, digits, _ - "
				    "and ., up to 64)",
				    kv);
	if (strlen(eq + 1) > 256 || strchr(eq + 1, '\n'))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "label '%.*s': its value is over 256 characters or holds a "
				    "line break",
				    (int)(eq - kv), kv);
	for (size_t i = 0; i < r->nlabels; i++)
		if (strlen(r->labels[i].key) == (size_t)(eq - kv) &&
		    !strncmp(r->labels[i].key, kv, (size_t)(eq - kv)))
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "label '%.*s' given twice",
					    (int)(eq - kv), kv);
	struct sb_history_label *v = realloc(r->labels, (r->nlabels + 1) * sizeof(*v));
	if (!v)
		return nomem(err);
	r->labels = v;
	v = &r->labels[r->nlabels];
	v->key = strndup(kv, (size_t)(eq - kv));
	v->value = strdup(eq + 1);
	if (!v->key || !v->value) {
		free(v->key);
		free(v->value);
		return nomem(err);
	}
	r->nlabels++;
	return 0;
}

void sb_history_rec_free(struct sb_history_rec *r)
{
	if (!r)
		return;
	char **s[] = { &r->command, &r->options,     &r->host,	   &r->version,
		       &r->model,   &r->serial,	     &r->firmware, &r->cid,
		       &r->state,   &r->write_cache, &r->source,   &r->json };
	for (size_t i = 0; i < SB_ARRAY_SIZE(s); i++)
		free(*s[i]);
	for (size_t i = 0; i < r->nlabels; i++) {
		free(r->labels[i].key);
		free(r->labels[i].value);
	}
	free(r->labels);
	sb_figures_free(&r->figs);
	memset(r, 0, sizeof(*r));
	r->ext_csd_rev = r->fw_slot = -1;
}
