/*
 * The device beneath a probed target (lib/target/target.h): its identity
 * and its health, read by lib/device from the device's own name.
 */
#ifndef SB_TARGET_DEVICE_H
#define SB_TARGET_DEVICE_H

#include "lib/sb.h"
#include "lib/device/devinfo.h"
#include "lib/target/target.h"

/* The device of a probed target, and the node to open (the target itself
 * when it names the whole disk, else /dev/DISK when that is the same
 * device). -ENODEV when there is no block device beneath. */
int sb_devinfo_probe(const struct sb_target_info *t, struct sb_devinfo *out);
/* The health of the device beneath a probed target, in one call: what
 * soak, pts and verify record before and after a run. A target with no
 * block device beneath (tmpfs) gets kind SB_HEALTH_NONE and 0. */
int sb_health_capture(const struct sb_target_info *t, struct sb_health *out);

#endif
