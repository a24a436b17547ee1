/* storbench info as text (report.h, rep_info_text): a sectioned listing in
 * IEC units (the JSON section is lib/results/info_json.c's). */
#include "report/report.h"

#define ROW "  %-13s "

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

static void render_target(FILE *f, const struct sb_info_report *r)
{
	static const char *const kinds[] = { "missing", "file", "directory", "block device",
					     "other" };
	const struct sb_target_info *t = &r->t;
	char a[32], b[32];

	fprintf(f, "target        %s (%s", t->path, kinds[t->kind]);
	if (t->kind == SB_TARGET_FILE)
		fprintf(f, ", %s", sb_fmt_size(t->file_size, a, sizeof(a)));
	if (t->kind == SB_TARGET_BLOCK)
		fprintf(f, ", %s", sb_fmt_size(t->capacity, a, sizeof(a)));
	fprintf(f, ")\n");
	if (t->fstype[0]) {
		fprintf(f, "filesystem    %s on %s", t->fstype, t->mountpoint);
		if (r->have_mount)
			fprintf(f, ", from %s (%s)", r->mount.source, r->mount.options);
		fprintf(f, ", %s free\n", sb_fmt_size(t->fs_free, b, sizeof(b)));
	}
	if (t->direct_ok >= 0)
		fprintf(f, "direct I/O    %s\n", t->direct_ok ? "supported" : "not supported");
	if (sb_target_in_ram(t))
		fprintf(f, "device        none (the filesystem is in RAM: %s)\n", t->fstype);
	else if (!t->devname[0] && t->kind != SB_TARGET_BLOCK)
		fprintf(f, "device        none (the filesystem has no block device beneath)\n");
}

static void render_geometry(FILE *f, const struct sb_devinfo *d)
{
	char a[32], b[32], c[32], e[32];

	fprintf(f, ROW "%s (%llu bytes)\n", "capacity", sb_fmt_size(d->capacity, a, sizeof(a)),
		(unsigned long long)d->capacity);
	fprintf(f, ROW "logical %s, physical %s\n", "block size",
		sb_fmt_size(d->logical_bs, a, sizeof(a)),
		sb_fmt_size(d->physical_bs, b, sizeof(b)));
	fprintf(f, ROW "minimum %s, optimal %s, largest request %s\n", "I/O size",
		sb_fmt_size(d->minimum_io, a, sizeof(a)),
		d->optimal_io ? sb_fmt_size(d->optimal_io, b, sizeof(b)) : "not reported",
		sb_fmt_size(d->max_io, c, sizeof(c)));
	fprintf(f, ROW "%s\n", "rotational", yes_no(d->rotational));
	if (d->scheduler[0] || d->nr_requests)
		fprintf(f, ROW "scheduler %s, nr_requests %u\n", "queue", or_dash(d->scheduler),
			d->nr_requests);
	else
		fprintf(f, ROW "bio-based (no scheduler, no request queue)\n", "queue");
	fprintf(f, ROW "%s\n", "write cache", or_dash(d->write_cache));
	if (d->discard_max)
		fprintf(f, ROW "granularity %s, up to %s per request\n", "discard",
			sb_fmt_size(d->discard_granularity, a, sizeof(a)),
			sb_fmt_size(d->discard_max, e, sizeof(e)));
	else
		fprintf(f, ROW "not supported\n", "discard");
	fprintf(f, ROW "%s\n", "zoned", or_dash(d->zoned));
	fprintf(f, ROW "removable %s, read-only %s\n", "flags", yes_no(d->removable),
		yes_no(d->read_only));
}

static void render_identity(FILE *f, const struct sb_devinfo *d)
{
	char a[32];

	fprintf(f, "device        %s", d->disk);
	if (d->part[0])
		fprintf(f, " (partition %s at %s)", d->part,
			sb_fmt_size(d->part_start, a, sizeof(a)));
	fputc('\n', f);
	fprintf(f, ROW "%s\n", "node", d->node[0] ? d->node : "not found in /dev");
	fprintf(f, ROW "%s\n", "transport", or_dash(d->transport));
	/* virtual disks (loop, zram, dm) have none of these: no empty rows */
	const char *const names[] = { "vendor", "model", "serial", "firmware" };
	const char *const values[] = { d->vendor, d->model, d->serial, d->firmware };
	for (size_t i = 0; i < SB_ARRAY_SIZE(names); i++)
		if (values[i][0])
			fprintf(f, ROW "%s\n", names[i], values[i]);
	if (d->nvme_ctrl[0])
		fprintf(f, ROW "%s\n", "controller", d->nvme_ctrl);
	if (d->backing_file[0])
		fprintf(f, ROW "%s\n", "backing file", d->backing_file);
	if (d->slaves[0])
		fprintf(f, ROW "%s\n", "built on", d->slaves);
}

static void render_mmc(FILE *f, const struct sb_mmc_card *m)
{
	char a[32], b[32];

	fprintf(f, "%s card\n", m->type[0] ? m->type : "MMC");
	fprintf(f, ROW "%s\n", "name", or_dash(m->name));
	fprintf(f, ROW "0x%02x, OEM 0x%04x\n", "manufacturer", m->manfid, m->oemid);
	fprintf(f, ROW "%s\n", "date", or_dash(m->date));
	fprintf(f, ROW "%s\n", "serial", or_dash(m->serial));
	fprintf(f, ROW "prv %s, hwrev %s, fwrev %s\n", "revision", or_dash(m->prv),
		or_dash(m->hwrev), or_dash(m->fwrev));
	fprintf(f, ROW "%s\n", "CID", or_dash(m->cid));
	fprintf(f, ROW "%s\n", "CSD", or_dash(m->csd));
	fprintf(f, ROW "%s, preferred %s\n", "erase size", sb_fmt_size(m->erase_size, a, sizeof(a)),
		sb_fmt_size(m->preferred_erase_size, b, sizeof(b)));
}

static void render_safety(FILE *f, const struct sb_info_report *r)
{
	if (!r->checked_block)
		return;
	if (r->in_use < 0)
		fprintf(f, ROW "cannot tell (%s)\n", "in use", strerror(-r->in_use));
	else
		fprintf(f, ROW "%s%s\n", "in use", r->in_use ? "yes: " : "no",
			r->in_use ? r->where : "");
	if (r->signature < 0)
		fprintf(f, ROW "cannot tell (%s)\n", "signature", strerror(-r->signature));
	else
		fprintf(f, ROW "%s\n", "signature", r->signature ? r->what : "none found");
}

void rep_info_text(FILE *f, const struct sb_info_report *r)
{
	render_target(f, r);
	if (!r->have_dev) {
		render_safety(f, r);
		return;
	}
	render_identity(f, &r->dev);
	render_geometry(f, &r->dev);
	render_safety(f, r);
	if (r->dev.is_mmc)
		render_mmc(f, &r->dev.mmc);
	if (r->health.kind != SB_HEALTH_NONE) {
		fprintf(f, "health\n");
		rep_health_text(f, &r->health, "  ");
	}
	if (r->set_cache)
		fprintf(f, "cache set %s (it was %s) by %s\n", r->set_cache,
			r->cache_before ? "on" : "off", r->cache_how);
}
