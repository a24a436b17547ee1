/*
 * Device and health sections as JSON. Sizes in bytes; text fields the
 * device did not report are null. NVMe SMART keys are nvme-cli's
 * (smart-log -o json) so its consumers read them; derived figures
 * (temperature_c, *_bytes) are added beside them.
 */
#include "lib/device/devinfo.h"
#include "lib/json/json_write.h"

static void str_or_null(struct sb_json *j, const char *key, const char *v)
{
	sb_json_str(j, key, v && v[0] ? v : NULL);
}

static void tristate(struct sb_json *j, const char *key, int v)
{
	if (v < 0)
		sb_json_null(j, key);
	else
		sb_json_bool(j, key, v);
}

static void mmc_card_json(struct sb_json *j, const struct sb_mmc_card *m)
{
	char id[16];

	sb_json_obj_open(j, "mmc");
	str_or_null(j, "type", m->type);
	str_or_null(j, "name", m->name);
	snprintf(id, sizeof(id), "0x%02x", m->manfid);
	sb_json_str(j, "manfid", id);
	snprintf(id, sizeof(id), "0x%04x", m->oemid);
	sb_json_str(j, "oemid", id);
	str_or_null(j, "date", m->date);
	str_or_null(j, "cid", m->cid);
	str_or_null(j, "csd", m->csd);
	str_or_null(j, "serial", m->serial);
	str_or_null(j, "prv", m->prv);
	str_or_null(j, "hwrev", m->hwrev);
	str_or_null(j, "fwrev", m->fwrev);
	sb_json_u64(j, "erase_size", m->erase_size);
	sb_json_u64(j, "preferred_erase_size", m->preferred_erase_size);
	str_or_null(j, "life_time", m->life_time);
	str_or_null(j, "pre_eol_info", m->pre_eol_info);
	sb_json_obj_close(j);
}

static void slaves_json(struct sb_json *j, const char *list)
{
	char name[64];

	sb_json_arr_open(j, "slaves");
	for (const char *p = list; *p;) {
		const size_t n = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		sb_json_str(j, NULL, name);
		p += n + (p[n] == ',');
	}
	sb_json_arr_close(j);
}

/* "nvme_firmware_slot": {"active": 1, "next": null, "revisions": ["1.0",
 * null, ...]}: the slot running, the one the next reset activates, each
 * slot's revision (null: empty) */
static void fw_slot_json(struct sb_json *j, const struct sb_nvme_fw_slot *f)
{
	sb_json_obj_open(j, "nvme_firmware_slot");
	sb_json_u64(j, "active", f->active);
	if (f->next)
		sb_json_u64(j, "next", f->next);
	else
		sb_json_null(j, "next");
	sb_json_arr_open(j, "revisions");
	for (int i = 0; i < SB_NVME_FW_SLOTS; i++)
		str_or_null(j, NULL, f->rev[i]);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

void sb_devinfo_json(struct sb_json *j, const char *key, const struct sb_devinfo *d)
{
	sb_json_obj_open(j, key);
	str_or_null(j, "disk", d->disk);
	str_or_null(j, "partition", d->part);
	if (d->part[0])
		sb_json_u64(j, "partition_start", d->part_start);
	str_or_null(j, "node", d->node);
	str_or_null(j, "transport", d->transport);
	str_or_null(j, "vendor", d->vendor);
	str_or_null(j, "model", d->model);
	str_or_null(j, "serial", d->serial);
	str_or_null(j, "firmware", d->firmware);
	sb_json_u64(j, "capacity", d->capacity);
	sb_json_u64(j, "logical_block_size", d->logical_bs);
	sb_json_u64(j, "physical_block_size", d->physical_bs);
	sb_json_u64(j, "minimum_io_size", d->minimum_io);
	sb_json_u64(j, "optimal_io_size", d->optimal_io);
	sb_json_u64(j, "max_io_size", d->max_io);
	tristate(j, "rotational", d->rotational);
	tristate(j, "removable", d->removable);
	tristate(j, "read_only", d->read_only);
	str_or_null(j, "scheduler", d->scheduler);
	if (d->nr_requests)
		sb_json_u64(j, "nr_requests", d->nr_requests);
	else
		sb_json_null(j, "nr_requests"); /* bio-based: no request queue */
	str_or_null(j, "write_cache", d->write_cache);
	sb_json_u64(j, "discard_granularity", d->discard_granularity);
	sb_json_u64(j, "discard_max_bytes", d->discard_max);
	str_or_null(j, "zoned", d->zoned);
	if (d->nvme_ctrl[0])
		sb_json_str(j, "nvme_controller", d->nvme_ctrl);
	if (d->nvme_fw.active)
		fw_slot_json(j, &d->nvme_fw);
	if (d->backing_file[0])
		sb_json_str(j, "backing_file", d->backing_file);
	if (d->slaves[0])
		slaves_json(j, d->slaves);
	if (d->is_mmc)
		mmc_card_json(j, &d->mmc);
	sb_json_obj_close(j);
}

static const char *err_text(int err)
{
	if (sb_health_needs_root(err))
		return "needs root";
	if (err == -ENOTSUP)
		return "not supported";
	if (err == -ENODEV)
		return "no device node";
	if (err == -ENOTTY)
		return "not supported by the device";
	return strerror(-err);
}

static void ext_csd_json(struct sb_json *j, const struct sb_ext_csd *e)
{
	sb_json_obj_open(j, "ext_csd");
	sb_json_u64(j, "revision", e->rev);
	str_or_null(j, "version", e->version);
	sb_json_u64(j, "sectors", e->sectors);
	sb_json_u64(j, "capacity", e->sectors * 512);
	sb_json_u64(j, "cache_size", e->cache_bytes);
	sb_json_bool(j, "cache_enabled", e->cache_on);
	sb_json_bool(j, "bkops_supported", e->bkops_supported);
	sb_json_bool(j, "bkops_manual", e->bkops_manual);
	sb_json_bool(j, "bkops_auto", e->bkops_auto);
	sb_json_u64(j, "bkops_status", e->bkops_status);
	sb_json_u64(j, "partition_config", e->part_config);
	sb_json_str(j, "boot_partition", sb_mmc_boot_text(e->part_config));
	sb_json_bool(j, "partitioning_completed", e->partitioning_done);
	sb_json_str(j, "timing", sb_mmc_timing_text(e->hs_timing));
	sb_json_bool(j, "enhanced_strobe", e->enhanced_strobe);
	sb_json_u64(j, "device_type", e->device_type);
	sb_json_u64(j, "boot_partition_size", e->boot_size);
	sb_json_u64(j, "rpmb_size", e->rpmb_size);
	sb_json_u64(j, "erase_group_size", e->erase_group);
	sb_json_u64(j, "reliable_write_sectors", e->rel_wr_sectors);
	sb_json_bool(j, "secure_erase", e->sec_features & 1);
	sb_json_bool(j, "secure_trim", (e->sec_features >> 4) & 1);
	sb_json_bool(j, "sanitize", (e->sec_features >> 6) & 1);
	sb_json_bool(j, "cmdq_supported", e->cmdq_supported);
	sb_json_u64(j, "cmdq_depth", e->cmdq_depth);
	sb_json_bool(j, "cmdq_enabled", e->cmdq_on);
	sb_json_bool(j, "ffu_supported", e->ffu_supported);
	sb_json_u64(j, "data_sector_size", e->data_sector_size);
	sb_json_u64(j, "optimal_read_size", e->optimal_read);
	sb_json_u64(j, "optimal_write_size", e->optimal_write);
	sb_json_u64(j, "optimal_trim_size", e->optimal_trim);
	str_or_null(j, "firmware_version", e->fw_text);
	sb_json_u64(j, "device_version", e->device_version);
	sb_json_obj_close(j);
}

static void mmc_health_json(struct sb_json *j, const struct sb_health *h)
{
	if (h->have_life) {
		sb_json_str(j, "life_source", h->life_source);
		sb_json_u64(j, "life_time_a", h->life_a);
		sb_json_str(j, "life_time_a_used", sb_mmc_life_text(h->life_a));
		sb_json_u64(j, "life_time_b", h->life_b);
		sb_json_str(j, "life_time_b_used", sb_mmc_life_text(h->life_b));
		sb_json_u64(j, "pre_eol", h->pre_eol);
		sb_json_str(j, "pre_eol_state", sb_mmc_pre_eol_text(h->pre_eol));
	}
	if (h->ext_csd_err) {
		sb_json_null(j, "ext_csd");
		sb_json_str(j, "ext_csd_error", err_text(h->ext_csd_err));
	} else {
		ext_csd_json(j, &h->ext);
	}
}

static void warnings_json(struct sb_json *j, unsigned bits)
{
	char all[256];

	sb_json_arr_open(j, "critical_warnings");
	if (bits) {
		sb_nvme_warning_text(bits, all, sizeof(all));
		for (const char *p = all; *p;) {
			const size_t n = strcspn(p, ",");
			char one[64];
			snprintf(one, sizeof(one), "%.*s", (int)n, p);
			sb_json_str(j, NULL, one);
			p += n;
			p += strspn(p, ", ");
		}
	}
	sb_json_arr_close(j);
}

static void smart_json(struct sb_json *j, const struct sb_nvme_smart *s)
{
	char key[32];

	sb_json_obj_open(j, "smart");
	sb_json_u64(j, "critical_warning", s->critical_warning);
	warnings_json(j, s->critical_warning);
	sb_json_u64(j, "temperature", s->temperature_k);
	sb_json_i64(j, "temperature_c", s->temperature_c);
	sb_json_u64(j, "avail_spare", s->avail_spare);
	sb_json_u64(j, "spare_thresh", s->spare_thresh);
	sb_json_u64(j, "percent_used", s->percent_used);
	sb_json_u64(j, "endurance_grp_critical_warning_summary", s->endurance_warning);
	sb_json_u64(j, "data_units_read", s->data_units_read);
	sb_json_u64(j, "data_units_written", s->data_units_written);
	sb_json_u64(j, "data_read_bytes", sb_nvme_units_bytes(s->data_units_read));
	sb_json_u64(j, "data_written_bytes", sb_nvme_units_bytes(s->data_units_written));
	sb_json_u64(j, "host_read_commands", s->host_reads);
	sb_json_u64(j, "host_write_commands", s->host_writes);
	sb_json_u64(j, "controller_busy_time", s->busy_minutes);
	sb_json_u64(j, "power_cycles", s->power_cycles);
	sb_json_u64(j, "power_on_hours", s->power_on_hours);
	sb_json_u64(j, "unsafe_shutdowns", s->unsafe_shutdowns);
	sb_json_u64(j, "media_errors", s->media_errors);
	sb_json_u64(j, "num_err_log_entries", s->error_log_entries);
	sb_json_u64(j, "warning_temp_time", s->warning_temp_minutes);
	sb_json_u64(j, "critical_comp_time", s->critical_temp_minutes);
	for (int i = 0; i < 8; i++)
		if (s->sensor_k[i]) {
			snprintf(key, sizeof(key), "temperature_sensor_%d", i + 1);
			sb_json_u64(j, key, s->sensor_k[i]);
		}
	sb_json_obj_close(j);
}

static const char *kind_name(enum sb_health_kind k)
{
	return k == SB_HEALTH_MMC ? "emmc" : k == SB_HEALTH_NVME ? "nvme" : "none";
}

void sb_health_json(struct sb_json *j, const char *key, const struct sb_health *h)
{
	sb_json_obj_open(j, key);
	sb_json_str(j, "kind", kind_name(h->kind));
	sb_json_u64(j, "time", (uint64_t)h->when);
	if (h->kind == SB_HEALTH_MMC)
		mmc_health_json(j, h);
	if (h->kind == SB_HEALTH_NVME && h->smart_err) {
		sb_json_null(j, "smart");
		sb_json_str(j, "smart_error", err_text(h->smart_err));
	} else if (h->kind == SB_HEALTH_NVME) {
		smart_json(j, &h->smart);
	}
	sb_json_obj_close(j);
}

static void delta(struct sb_json *j, const char *key, uint64_t a, uint64_t b)
{
	sb_json_i64(j, key, (int64_t)(b - a));
}

/* What a run changed: more wear, new errors, new warnings. */
static void change_json(struct sb_json *j, const struct sb_health *a, const struct sb_health *b)
{
	sb_json_obj_open(j, "change");
	if (a->kind == SB_HEALTH_MMC && a->have_life && b->have_life) {
		delta(j, "life_time_a", a->life_a, b->life_a);
		delta(j, "life_time_b", a->life_b, b->life_b);
		delta(j, "pre_eol", a->pre_eol, b->pre_eol);
	}
	if (a->kind == SB_HEALTH_NVME && !a->smart_err && !b->smart_err) {
		const struct sb_nvme_smart *x = &a->smart, *y = &b->smart;
		delta(j, "percent_used", x->percent_used, y->percent_used);
		delta(j, "data_read_bytes", sb_nvme_units_bytes(x->data_units_read),
		      sb_nvme_units_bytes(y->data_units_read));
		delta(j, "data_written_bytes", sb_nvme_units_bytes(x->data_units_written),
		      sb_nvme_units_bytes(y->data_units_written));
		delta(j, "media_errors", x->media_errors, y->media_errors);
		delta(j, "unsafe_shutdowns", x->unsafe_shutdowns, y->unsafe_shutdowns);
		delta(j, "num_err_log_entries", x->error_log_entries, y->error_log_entries);
		sb_json_u64(j, "new_critical_warnings", y->critical_warning & ~x->critical_warning);
	}
	sb_json_obj_close(j);
}

void sb_health_pair_json(struct sb_json *j, const char *key, const struct sb_health *before,
			 const struct sb_health *after)
{
	sb_json_obj_open(j, key);
	sb_health_json(j, "before", before);
	sb_health_json(j, "after", after);
	if (before->kind == after->kind)
		change_json(j, before, after);
	sb_json_obj_close(j);
}
