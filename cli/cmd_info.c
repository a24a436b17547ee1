/* storbench info: identity, geometry, cache state and health of the device
 * holding a target. Reads only (the target probe's O_DIRECT test in a
 * directory creates and removes an empty file), unless --set-cache asks to
 * switch the device's cache (NVMe, ATA, eMMC), with --destroy-data's consent
 * and checks. */
#include "cli/cli.h"
#include "report/report.h"
#include "lib/storbench.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

struct info_ctx {
	const char *output;
	int json_stdout;
};

enum { I_SET_CACHE };

static const struct cli_opt info_opts[] = {
	{ "set-cache", OPT_ARG, I_SET_CACHE, "on|off",
	  "switch the device's volatile write cache with its own command (NVMe: Set "
	  "Features VWC, for the whole controller; ATA: SET FEATURES; eMMC: EXT_CSD "
	  "CACHE_CTRL; needs root and --destroy-data)" },
	{ NULL, 0, 0, NULL, NULL },
};

static int info_set(void *ctx, int id, const char *v, char *hint, size_t hl)
{
	int *set_cache = ctx;
	if (id != I_SET_CACHE)
		return -EINVAL;
	if (strcmp(v, "on") && strcmp(v, "off")) {
		snprintf(hint, hl, "on or off");
		return -EINVAL;
	}
	*set_cache = !strcmp(v, "on");
	return 0;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench info [options] TARGET\n\n"
	       "Describes TARGET and the device beneath it: for a file or directory the\n"
	       "filesystem and its mount options, then for the block device its identity\n"
	       "(vendor, model, serial, firmware, transport), geometry (block and I/O sizes,\n"
	       "discard, zones), queue and write cache, whether it is in use or holds data,\n"
	       "and health: eMMC life time and EXT_CSD, NVMe SMART (these two need root).\n"
	       "Nothing is written (for a directory, O_DIRECT support is tested by creating\n"
	       "and removing an empty file), unless --set-cache is given: it switches the\n"
	       "device's volatile write cache on or off with the device's own command (NVMe\n"
	       "Set Features Volatile Write Cache, which applies to every namespace of the\n"
	       "controller; ATA SET FEATURES 02h/82h; eMMC EXT_CSD CACHE_CTRL), as root, on a\n"
	       "whole block device that passes the checks of a write (not mounted or in use)\n"
	       "and with --destroy-data; a device that reports no cache is refused. The state\n"
	       "stays until the next power cycle (NVMe: controller reset) or switch.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench info /dev/mmcblk0\n"
	       "  storbench info --format=json /mnt/sd\n"
	       "  storbench info --set-cache=off --destroy-data /dev/mmcblk0\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* Why TARGET cannot be described: message printed, exit code returned. */
static int refuse(const char *path, int err, const struct sb_target_info *t)
{
	struct stat st;

	if (err) {
		sb_err("cannot access '%s': %s", path, strerror(-err));
		return cli_exit_of_errno(err);
	}
	struct sb_error er;
	if (sb_target_missing_device(path, t, &er))
		return cli_error(&er);
	if (t->kind == SB_TARGET_NONE) {
		sb_err("cannot access '%s': %s", path, strerror(ENOENT));
		return SB_EXIT_ENV;
	}
	if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
		sb_err("'%s' is a character device: info describes files, directories and block "
		       "devices",
		       path);
	else
		sb_err("'%s' is not a file, directory or block device", path);
	return SB_EXIT_USAGE;
}

static void check_block(struct sb_info_report *r)
{
	r->checked_block = 1;
	r->in_use = sb_dev_in_use(makedev(r->t.dev_major, r->t.dev_minor), r->where,
				  sizeof(r->where));
	r->signature = sb_dev_signature(r->t.path, r->what, sizeof(r->what));
}

/* Everything that can be learned without writing; what cannot be read
 * (EXT_CSD, SMART without root) is recorded in the report. */
static void describe(struct sb_info_report *r)
{
	if (r->t.mountpoint[0] && r->t.kind != SB_TARGET_BLOCK)
		r->have_mount = sb_mount_info(r->t.mountpoint, &r->mount) == 0;
	r->have_dev = sb_devinfo_probe(&r->t, &r->dev) == 0;
	if (r->have_dev)
		sb_health_read(&r->dev, &r->health);
	if (r->t.kind == SB_TARGET_BLOCK)
		check_block(r);
}

/* --set-cache: the consent of a write (--destroy-data, not mounted or in
 * use, held with O_EXCL meanwhile), then the device's own command on its
 * whole-disk node. */
static int set_cache(struct sb_info_report *r, const char *path, int on, int destroy_data)
{
	struct sb_jobtarget jt;
	struct sb_error er;
	struct sb_devcache before;
	if (r->t.kind != SB_TARGET_BLOCK) {
		sb_err("--set-cache: '%s' is not a block device", path);
		return SB_EXIT_USAGE;
	}
	if (!r->have_dev || !r->dev.node[0] || r->dev.part[0]) {
		sb_err("--set-cache: name the whole disk ('%s' is %s)", path,
		       r->dev.part[0] ? "a partition" : "no disk storbench can find");
		return SB_EXIT_USAGE;
	}
	memset(&jt, 0, sizeof(jt));
	jt.destroy_data = destroy_data;
	int rc = cli_device_consent(&jt, path);
	if (!rc && sb_devcache_set(r->dev.node, on, &before, &er))
		rc = cli_error(&er);
	cli_target_cleanup(&jt, 0);
	if (rc)
		return rc;
	r->set_cache = on ? "on" : "off";
	r->cache_before = before.on;
	r->cache_how = before.how;
	sb_health_read(&r->dev, &r->health);
	return 0;
}

static int write_outputs(struct info_ctx *c, const char *path, const struct sb_info_report *rep)
{
	struct sb_results *r = sb_results_create("info");
	int rc = SB_EXIT_OK;

	if (!r) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	sb_results_info(r, path, rep);
	if (c->output && cli_write_json(r, c->output) < 0)
		rc = SB_EXIT_ENV;
	if (c->json_stdout && cli_write_json(r, "-") < 0)
		rc = SB_EXIT_ENV;
	if (!c->json_stdout)
		rep_info_text(stdout, rep);
	sb_results_free(r);
	return rc;
}

int cmd_info(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli_shared sh = { 0 };
	char *pos[1];
	int cache = -1;
	struct cli_cmd_opts co = { info_opts, info_set, 0, NULL, &cache, cmd, &sh };

	int p = cli_parse_target(argc, argv, &co, help, "a file, a directory or a block device",
				 &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	struct info_ctx c = { sh.output, cli_format_is(cmd, &sh, "json") };
	struct sb_info_report *rep = calloc(1, sizeof(*rep));
	if (!rep) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	const int err = sb_target_probe(pos[0], &rep->t);
	int rc;
	if (err || rep->t.kind == SB_TARGET_NONE || rep->t.kind == SB_TARGET_OTHER) {
		rc = refuse(pos[0], err, &rep->t);
	} else {
		describe(rep);
		rc = cache >= 0 ? set_cache(rep, pos[0], cache, sh.destroy_data) : 0;
		if (!rc)
			rc = write_outputs(&c, pos[0], rep);
	}
	free(rep);
	return rc;
}
