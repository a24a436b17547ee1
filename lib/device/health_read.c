/*
 * A device's health read back (devinfo.h): what sb_health_json and
 * sb_health_pair_json (devinfo_json.c) write, each figure checked for its
 * type and named by its key path when wrong; null, which the writer
 * writes for what could not be read, is kept as null.
 */
#include "lib/device/devinfo.h"
#include "lib/json/json_take.h"

#include <math.h>

enum hv_type { T_NUM, T_STR, T_LIST };

/* Where each field is written: in a health object, and in the pair's
 * "change" (NULL: no change written of it). */
static const struct {
	const char *key, *change;
	enum hv_type type;
} fields[SB_HF_N] = {
	[SB_HF_PERCENT_USED] = { "smart.percent_used", "percent_used", T_NUM },
	[SB_HF_AVAIL_SPARE] = { "smart.avail_spare", NULL, T_NUM },
	[SB_HF_DATA_WRITTEN] = { "smart.data_written_bytes", "data_written_bytes", T_NUM },
	[SB_HF_DATA_READ] = { "smart.data_read_bytes", "data_read_bytes", T_NUM },
	[SB_HF_MEDIA_ERRORS] = { "smart.media_errors", "media_errors", T_NUM },
	[SB_HF_ERR_LOG_ENTRIES] = { "smart.num_err_log_entries", "num_err_log_entries", T_NUM },
	[SB_HF_UNSAFE_SHUTDOWNS] = { "smart.unsafe_shutdowns", "unsafe_shutdowns", T_NUM },
	[SB_HF_CRITICAL_WARNINGS] = { "smart.critical_warnings", "new_critical_warnings", T_LIST },
	[SB_HF_TEMPERATURE_C] = { "smart.temperature_c", NULL, T_NUM },
	[SB_HF_POWER_ON_HOURS] = { "smart.power_on_hours", NULL, T_NUM },
	[SB_HF_LIFE_A] = { "life_time_a_used", "life_time_a", T_STR },
	[SB_HF_LIFE_B] = { "life_time_b_used", "life_time_b", T_STR },
	[SB_HF_PRE_EOL] = { "pre_eol_state", "pre_eol", T_STR },
	[SB_HF_FIRMWARE] = { "ext_csd.firmware_version", NULL, T_STR },
};

/* A value of type type (or null) at v, named key under t's path. */
static int value(struct sb_jtake *t, const char *key, const struct sb_jv *v, enum hv_type type,
		 struct sb_health_val *out)
{
	static const char *const what[] = { "a number", "a string", "an array of strings" };
	memset(out, 0, sizeof(*out));
	if (!v)
		return 0;
	if (sb_jv_is(v, SB_JV_NULL)) {
		out->has = SB_HV_NULL;
		return 0;
	}
	if (type == T_NUM && sb_jv_is(v, SB_JV_NUM) && isfinite(v->num.d)) {
		out->has = SB_HV_NUM;
		out->num = v->num.d;
		return 0;
	}
	if (type == T_STR && sb_jv_is(v, SB_JV_STR)) {
		out->has = SB_HV_STR;
		out->str = sb_jv_str(v);
		return 0;
	}
	if (type == T_LIST && sb_jv_is(v, SB_JV_ARR)) {
		for (size_t i = 0; i < sb_jv_len(v); i++)
			if (!sb_jv_is(sb_jv_at(v, i), SB_JV_STR)) {
				const size_t was = sb_jtake_down(t, key);
				sb_jtake_item(t, i);
				sb_jtake_bad(t, NULL, "a string", sb_jv_at(v, i));
				sb_jtake_up(t, was);
				return t->e;
			}
		out->has = SB_HV_LIST;
		out->list = v;
		return 0;
	}
	return sb_jtake_bad(t, key, what[type], v);
}

/* The member at a dotted key ("smart.percent_used"): NULL when any step
 * is not there (a null "smart": SMART could not be read). */
static const struct sb_jv *at(const struct sb_jv *v, const char *key)
{
	const char *dot = strchr(key, '.');
	char head[32];
	if (!dot)
		return sb_jv_get(v, key);
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	return sb_jv_get(sb_jv_get(v, head), dot + 1);
}

static int doc_read(struct sb_jtake *t, const struct sb_jv *v, struct sb_health_doc *out)
{
	memset(out, 0, sizeof(*out));
	if (!v)
		return 0;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a device's health", v);
	if (sb_jtake_str(t, v, "kind", SB_JTAKE_OPTIONAL, &out->kind) < 0)
		return t->e;
	for (int i = 0; i < SB_HF_N; i++) {
		const char *dot = strchr(fields[i].key, '.');
		if (dot) { /* the object it is in: an object, or null */
			char head[32];
			snprintf(head, sizeof(head), "%.*s", (int)(dot - fields[i].key),
				 fields[i].key);
			const struct sb_jv *o = sb_jv_get(v, head);
			if (o && !sb_jv_is(o, SB_JV_OBJ) && !sb_jv_is(o, SB_JV_NULL))
				return sb_jtake_bad(t, head, "an object or null", o);
		}
		if (value(t, fields[i].key, at(v, fields[i].key), fields[i].type, &out->f[i]) < 0)
			return t->e;
	}
	return 0;
}

int sb_health_doc_read(const struct sb_jv *v, const char *where, struct sb_health_doc *out,
		       struct sb_error *err)
{
	struct sb_jtake t;
	sb_jtake_init(&t, err);
	sb_jtake_down(&t, where ? where : "");
	return doc_read(&t, v, out);
}

int sb_health_pair_read(const struct sb_jv *v, const char *where, struct sb_health_pair_doc *out,
			struct sb_error *err)
{
	struct sb_jtake t;
	const struct sb_jv *side[2], *change;
	struct sb_health_doc *doc[2] = { &out->before, &out->after };
	static const char *const names[2] = { "before", "after" };
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&t, err);
	sb_jtake_down(&t, where ? where : "");
	if (!v)
		return 0;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object of health before and after", v);
	for (int i = 0; i < 2; i++) {
		side[i] = sb_jv_get(v, names[i]);
		const size_t was = sb_jtake_down(&t, names[i]);
		if (doc_read(&t, side[i], doc[i]) < 0)
			return t.e;
		sb_jtake_up(&t, was);
	}
	out->have_before = side[0] != NULL;
	out->have_after = side[1] != NULL;
	change = sb_jv_get(v, "change");
	if (change && !sb_jv_is(change, SB_JV_OBJ))
		return sb_jtake_bad(&t, "change", "an object", change);
	const size_t was = sb_jtake_down(&t, "change");
	for (int i = 0; change && i < SB_HF_N; i++)
		if (fields[i].change &&
		    value(&t, fields[i].change, sb_jv_get(change, fields[i].change), T_NUM,
			  &out->c[i]) < 0)
			return t.e;
	sb_jtake_up(&t, was);
	return 0;
}
