/*
 * sb_health_read: wear and failure counters of an eMMC (EXT_CSD, or the
 * life_time / pre_eol_info attributes the kernel copies from it at probe)
 * or an NVMe controller (SMART log). The sysfs copy needs no privilege but
 * is as old as the last probe; EXT_CSD is read fresh when we may.
 */
#include "lib/device/devinfo.h"

int sb_health_needs_root(int err)
{
	return err == -EACCES || err == -EPERM;
}

static void mmc_from_sysfs(const struct sb_mmc_card *m, struct sb_health *h)
{
	unsigned a, b, e = 0;

	if (!m->life_time[0] || sb_mmc_parse_life_time(m->life_time, &a, &b))
		return;
	if (m->pre_eol_info[0])
		sb_mmc_parse_hex(m->pre_eol_info, &e);
	h->have_life = 1;
	h->life_source = "sysfs";
	h->life_a = a;
	h->life_b = b;
	h->pre_eol = e;
}

/* EXT_CSD rev 7 (eMMC 5.0) and later carry the estimates. */
static void mmc_health(const struct sb_devinfo *d, struct sb_health *h)
{
	uint8_t raw[SB_EXT_CSD_SIZE];

	h->kind = SB_HEALTH_MMC;
	mmc_from_sysfs(&d->mmc, h);
	if (strcmp(d->mmc.type, "MMC") != 0) {
		h->ext_csd_err = -ENOTSUP; /* SD cards have no EXT_CSD */
		return;
	}
	h->ext_csd_err = d->node[0] ? sb_mmc_read_ext_csd(d->node, raw) : -ENODEV;
	if (h->ext_csd_err)
		return;
	sb_ext_csd_decode(raw, &h->ext);
	if (h->ext.rev >= 7) {
		h->have_life = 1;
		h->life_source = "ext_csd";
		h->life_a = h->ext.life_a;
		h->life_b = h->ext.life_b;
		h->pre_eol = h->ext.pre_eol;
	}
}

static void nvme_health(const struct sb_devinfo *d, struct sb_health *h)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	char ctrl[64];

	h->kind = SB_HEALTH_NVME;
	if (!d->nvme_ctrl[0]) {
		h->smart_err = -ENODEV;
		return;
	}
	snprintf(ctrl, sizeof(ctrl), "/dev/%s", d->nvme_ctrl);
	h->smart_err = sb_nvme_read_smart(ctrl, log);
	if (!h->smart_err)
		sb_nvme_smart_decode(log, &h->smart);
}

int sb_health_read(const struct sb_devinfo *d, struct sb_health *out)
{
	if (!d || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->when = time(NULL);
	out->ext_csd_err = out->smart_err = -ENOTSUP;
	if (d->is_mmc)
		mmc_health(d, out);
	else if (d->nvme_ctrl[0] || !strncmp(d->transport, "nvme", 4))
		nvme_health(d, out);
	return 0;
}
