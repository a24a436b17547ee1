/* Device health as text (report.h, rep_health_text): eMMC life time and
 * EXT_CSD, NVMe SMART, as info and soak print them; report/html_health.c
 * draws the pair a result keeps. */
#include "report/report.h"

#define HROW "%s%-13s "

static const char *read_error(int err)
{
	if (sb_health_needs_root(err))
		return "needs root (run as root to read it)";
	if (err == -ENOTSUP)
		return "not supported";
	if (err == -ENODEV)
		return "no device node found in /dev";
	if (err == -ENOTTY)
		return "not supported by the device";
	return strerror(-err);
}

static const char *or_unknown(const char *s)
{
	return s && s[0] ? s : "unknown";
}

static const char *on_off(int v)
{
	return v ? "on" : "off";
}

static void ext_csd_text(FILE *f, const struct sb_ext_csd *e, const char *in)
{
	static const char *const bkops[] = { "none", "non-critical", "performance impacted",
					     "critical" };
	char a[32], b[32], c[32];

	fprintf(f, HROW "revision %u (eMMC %s), %llu sectors (%s)\n", in, "EXT_CSD", e->rev,
		or_unknown(e->version), (unsigned long long)e->sectors,
		sb_fmt_size(e->sectors * 512, a, sizeof(a)));
	if (e->cache_bytes)
		fprintf(f, HROW "%s, %s\n", in, "cache", sb_fmt_size(e->cache_bytes, a, sizeof(a)),
			on_off(e->cache_on));
	else
		fprintf(f, HROW "none\n", in, "cache");
	fprintf(f, HROW "%s, manual %s, auto %s, status %s\n", in, "background",
		e->bkops_supported ? "supported" : "not supported", on_off(e->bkops_manual),
		on_off(e->bkops_auto), bkops[e->bkops_status & 3]);
	const char *boot = sb_mmc_boot_text(e->part_config);
	fprintf(f, HROW "%s%s, boot areas %s each, RPMB %s\n", in, "partitions",
		strcmp(boot, "none") ? "boots from " : "boot disabled",
		strcmp(boot, "none") ? boot : "", sb_fmt_size(e->boot_size, a, sizeof(a)),
		sb_fmt_size(e->rpmb_size, b, sizeof(b)));
	fprintf(f, HROW "%s%s", in, "timing", sb_mmc_timing_text(e->hs_timing),
		e->enhanced_strobe ? " (enhanced strobe supported)" : "");
	if (e->cmdq_supported)
		fprintf(f, ", command queue (depth %u) %s", e->cmdq_depth, on_off(e->cmdq_on));
	fputc('\n', f);
	fprintf(f, HROW "erase group %s", in, "geometry",
		sb_fmt_size(e->erase_group, a, sizeof(a)));
	if (e->optimal_write) /* eMMC 5.0 on */
		fprintf(f, ", optimal write %s, optimal trim %s",
			sb_fmt_size(e->optimal_write, b, sizeof(b)),
			sb_fmt_size(e->optimal_trim, c, sizeof(c)));
	fputc('\n', f);
	fprintf(f, HROW "erase %s, trim %s, sanitize %s\n", in, "secure",
		e->sec_features & 1 ? "yes" : "no", (e->sec_features >> 4) & 1 ? "yes" : "no",
		(e->sec_features >> 6) & 1 ? "yes" : "no");
	if (e->rev >= 7)
		fprintf(f, HROW "%s (device version 0x%04x)%s\n", in, "firmware",
			rep_vis(or_unknown(e->fw_text), a, sizeof(a)), e->device_version,
			e->ffu_supported ? ", field update supported" : "");
}

static void mmc_text(FILE *f, const struct sb_health *h, const char *in)
{
	if (h->have_life) {
		fprintf(f, HROW "type A %s used, type B %s used (from %s)\n", in, "life time",
			sb_mmc_life_text(h->life_a), sb_mmc_life_text(h->life_b), h->life_source);
		fprintf(f, HROW "%s\n", in, "pre-EOL", sb_mmc_pre_eol_text(h->pre_eol));
	} else {
		fprintf(f, HROW "not reported\n", in, "life time");
	}
	if (h->ext_csd_err)
		fprintf(f, HROW "%s\n", in, "EXT_CSD", read_error(h->ext_csd_err));
	else
		ext_csd_text(f, &h->ext, in);
}

static void smart_text(FILE *f, const struct sb_nvme_smart *s, const char *in)
{
	char a[32], b[32], w[256];

	fprintf(f, HROW "%s\n", in, "warnings",
		sb_nvme_warning_text(s->critical_warning, w, sizeof(w)));
	fprintf(f, HROW "%d C\n", in, "temperature", s->temperature_c);
	fprintf(f, HROW "%u%% available (threshold %u%%)\n", in, "spare", s->avail_spare,
		s->spare_thresh);
	fprintf(f, HROW "%u%% of the rated endurance\n", in, "used", s->percent_used);
	fprintf(f, HROW "read %s, written %s\n", in, "data",
		sb_fmt_size(sb_nvme_units_bytes(s->data_units_read), a, sizeof(a)),
		sb_fmt_size(sb_nvme_units_bytes(s->data_units_written), b, sizeof(b)));
	fprintf(f, HROW "%llu reads, %llu writes\n", in, "commands",
		(unsigned long long)s->host_reads, (unsigned long long)s->host_writes);
	fprintf(f, HROW "on %llu h, %llu cycles, %llu unsafe shutdowns, busy %llu min\n", in,
		"power", (unsigned long long)s->power_on_hours, (unsigned long long)s->power_cycles,
		(unsigned long long)s->unsafe_shutdowns, (unsigned long long)s->busy_minutes);
	fprintf(f, HROW "%llu media and data integrity, %llu error log entries\n", in, "errors",
		(unsigned long long)s->media_errors, (unsigned long long)s->error_log_entries);
}

void rep_health_text(FILE *f, const struct sb_health *h, const char *in)
{
	switch (h->kind) {
	case SB_HEALTH_MMC: mmc_text(f, h, in); break;
	case SB_HEALTH_NVME:
		if (h->smart_err)
			fprintf(f, HROW "%s\n", in, "SMART log", read_error(h->smart_err));
		else
			smart_text(f, &h->smart, in);
		break;
	case SB_HEALTH_NONE: break;
	}
}
