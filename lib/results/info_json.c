/* The "info" section of the results (storbench info): what is known about
 * the target beside the host and target sections. */
#include "lib/results/sections.h"
#include "lib/json/json_write.h"

static void fs_json(struct sb_json *j, const struct sb_info_report *r)
{
	if (!r->t.fstype[0]) {
		sb_json_null(j, "filesystem");
		return;
	}
	sb_json_obj_open(j, "filesystem");
	sb_json_str(j, "type", r->t.fstype);
	sb_json_str(j, "mountpoint", r->t.mountpoint);
	sb_json_str(j, "source", r->have_mount ? r->mount.source : NULL);
	sb_json_str(j, "options", r->have_mount ? r->mount.options : NULL);
	sb_json_u64(j, "free_bytes", r->t.fs_free);
	sb_json_obj_close(j);
}

/* "in_use": true|false|null with "in_use_where", and the same shape for
 * "has_signature" with "signature"; an "_error" when it could not be told. */
static void check_json(struct sb_json *j, const char *key, const char *detail, int v,
		       const char *text)
{
	char k[48];

	if (v < 0)
		sb_json_null(j, key);
	else
		sb_json_bool(j, key, v);
	sb_json_str(j, detail, v > 0 ? text : NULL);
	if (v < 0) {
		snprintf(k, sizeof(k), "%s_error", detail);
		sb_json_str(j, k, strerror(-v));
	}
}

static void info_json(struct sb_json *j, const void *report)
{
	const struct sb_info_report *r = report;

	if (r->t.direct_ok >= 0)
		sb_json_bool(j, "direct_io", r->t.direct_ok);
	else
		sb_json_null(j, "direct_io");
	fs_json(j, r);
	if (r->have_dev)
		sb_devinfo_json(j, "device", &r->dev);
	else
		sb_json_null(j, "device");
	if (r->checked_block) {
		check_json(j, "in_use", "in_use_where", r->in_use, r->where);
		check_json(j, "has_signature", "signature", r->signature, r->what);
	}
	if (r->have_dev)
		sb_health_json(j, "health", &r->health);
	if (r->set_cache) {
		sb_json_obj_open(j, "set_cache");
		sb_json_str(j, "state", r->set_cache);
		sb_json_str(j, "before", r->cache_before ? "on" : "off");
		sb_json_str(j, "command", r->cache_how);
		sb_json_obj_close(j);
	}
}

void sb_results_info(struct sb_results *res, const char *path, const struct sb_info_report *rep)
{
	snprintf(res->target_path, sizeof(res->target_path), "%s", path);
	res->target = rep->t;
	sb_host_info(&res->host);
	res->extra_key = sb_section_name(SB_SECTION_INFO);
	res->extra_json = info_json;
	res->extra_ctx = rep;
}
