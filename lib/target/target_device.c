/*
 * From a probed target to the device beneath it: lib/device describes a
 * device by its kernel name; a target knows that name and whether it is
 * the device itself.
 */
#include "lib/target/target_device.h"

int sb_devinfo_probe(const struct sb_target_info *t, struct sb_devinfo *out)
{
	if (!t || !out)
		return -EINVAL;
	if (!t->devname[0]) {
		memset(out, 0, sizeof(*out));
		return -ENODEV;
	}
	return sb_devinfo_describe(t->devname, t->kind == SB_TARGET_BLOCK ? t->path : NULL, out);
}

int sb_health_capture(const struct sb_target_info *t, struct sb_health *out)
{
	struct sb_devinfo d;

	if (!t || !out)
		return -EINVAL;
	const int err = sb_devinfo_probe(t, &d);
	if (err) {
		memset(out, 0, sizeof(*out));
		out->when = time(NULL);
		out->ext_csd_err = out->smart_err = -ENOTSUP;
		return err == -ENODEV ? 0 : err;
	}
	return sb_health_read(&d, out);
}
