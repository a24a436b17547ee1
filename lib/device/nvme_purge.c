/*
 * NVMe purge (SNIA PTS purge methods, METHODS.md 3.1): Sanitize (NVM
 * Express Base Specification 2.0, 5.24: block erase, crypto erase or
 * overwrite of the whole NVM subsystem, run in the background and followed
 * through the Sanitize Status log, 5.16.1.25) and Format NVM with Secure
 * Erase Settings 1, user data erase (5.23), both sent as admin commands
 * through the namespace's block node.
 *
 * What a purge must not do: change the sector size (the format keeps the
 * LBA format, metadata and protection settings in use), or erase more than
 * the target. A Sanitize always reaches every namespace of the NVM
 * subsystem, and a Format does where FNA says so (bit 0 format, bit 1
 * secure erase applies to all namespaces); the safety checks only vouched
 * for the target namespace, so either is refused when the controller has
 * another active namespace (Identify CNS 02h). Namespaces of the subsystem
 * behind other controllers are out of its sight: a multi-controller
 * subsystem with namespaces elsewhere is the operator's to know.
 *
 * After a Format or Sanitize the kernel revalidates the namespaces itself
 * (the commands' effects, LBCC/NCC, trigger a rescan at the end of the
 * passthrough, Linux 5.x on); a kernel without that needs `nvme ns-rescan`.
 * The page cache of the node is dropped (BLKFLSBUF).
 */
#include "lib/device/nvme.h"

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <time.h>

/* A Format with user data erase can take minutes on a large device: the
 * kernel's admin timeout (60 s) would reset the controller in the middle */
#define FORMAT_TIMEOUT_MS (2u * 3600u * 1000u)
/* A Sanitize without an estimate in the log: waited for this long */
#define SANITIZE_WAIT_S (24u * 3600u)
/* ... and a log that still says "never sanitized" after the command */
#define SANITIZE_START_S 60u

/* Not sb_purge_name: lib/device/purge.c calls this file, not the reverse. */
static const char *mname(enum sb_purge_method m)
{
	return m == SB_PURGE_FORMAT ? "format" : m == SB_PURGE_SANITIZE ? "sanitize" : "auto";
}

static const char *sanact_name(unsigned sanact)
{
	switch (sanact) {
	case SB_NVME_SANACT_BLOCK: return "block erase";
	case SB_NVME_SANACT_CRYPTO: return "crypto erase";
	default: return "overwrite";
	}
}

/* An admin command that did not go through: e < 0 the ioctl's errno, > 0
 * the device's status. */
static int admin_error(struct sb_error *er, enum sb_purge_method m, const char *path,
		       const char *cmd, int e, const char *after)
{
	char st[96];
	if (e < 0)
		return sb_error_set(er, e, SB_ERR_ENV, "--purge=%s: %s of '%s' failed: %s%s (%s)",
				    mname(m), cmd, path, strerror(-e),
				    e == -EACCES || e == -EPERM ? " (needs CAP_SYS_ADMIN)" : "",
				    after);
	return sb_error_set(er, -EIO, SB_ERR_ENV, "--purge=%s: '%s' refused %s: %s (%s)", mname(m),
			    path, cmd, sb_nvme_status_text(e, st, sizeof(st)), after);
}

/* The first active namespace of the controller other than nsid: 0 none,
 * else its id; or -errno / > 0 status in *err. */
static uint32_t other_namespace(int fd, uint32_t nsid, int *err)
{
	uint8_t list[SB_NVME_ID_SIZE];
	*err = sb_nvme_active_ns_fd(fd, list);
	if (*err)
		return 0;
	for (size_t i = 0; i + 4 <= sizeof(list); i += 4) {
		const uint32_t id = (uint32_t)list[i] | (uint32_t)list[i + 1] << 8 |
				    (uint32_t)list[i + 2] << 16 | (uint32_t)list[i + 3] << 24;
		if (!id)
			break;
		if (id != nsid)
			return id;
	}
	return 0;
}

static void nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);
}

/* Poll the Sanitize Status log until the sanitize ends: every 10 ms at
 * first, then slower, up to once a second; bounded by twice the device's
 * own estimate plus 10 minutes, or SANITIZE_WAIT_S without one. */
static int sanitize_wait(int fd, const char *path, unsigned sanact, struct sb_error *er)
{
	const uint64_t t0 = sb_now_ns();
	uint64_t wait = 10000000u, limit_s = SANITIZE_WAIT_S;
	for (;;) {
		uint8_t log[SB_NVME_SANITIZE_LOG_SIZE];
		struct sb_nvme_sanitize_status s;
		const int e = sb_nvme_sanitize_log_fd(fd, log);
		if (e)
			return admin_error(er, SB_PURGE_SANITIZE, path,
					   "Get Log Page (Sanitize Status, LID 81h)", e,
					   "the sanitize was started; its end is unknown");
		sb_nvme_sanitize_decode(log, &s);
		const uint32_t est = s.est_s[sanact];
		if (est && est != UINT32_MAX)
			limit_s = 2ull * est + 600;
		const uint64_t took_s = (sb_now_ns() - t0) / 1000000000u;
		if (s.state == SB_NVME_SSTAT_DONE || s.state == SB_NVME_SSTAT_DONE_NO_DEALLOC)
			return 0;
		if (s.state == SB_NVME_SSTAT_FAILED)
			return sb_error_set(
				er, -EIO, SB_ERR_ENV,
				"--purge=sanitize: the %s sanitize of '%s' failed (Sanitize Status "
				"log: SSTAT 3, most recent sanitize failed); the device stays in "
				"sanitize failure mode until a sanitize completes or one with "
				"SANACT 1 (exit failure mode) is sent",
				sanact_name(sanact), path);
		if (s.state != SB_NVME_SSTAT_RUNNING && s.state != SB_NVME_SSTAT_NEVER)
			return sb_error_set(er, -EIO, SB_ERR_ENV,
					    "--purge=sanitize: '%s' reports sanitize state %u "
					    "(SSTAT, reserved) after the Sanitize command",
					    path, s.state);
		if (s.state == SB_NVME_SSTAT_NEVER && took_s >= SANITIZE_START_S)
			return sb_error_set(
				er, -EIO, SB_ERR_ENV,
				"--purge=sanitize: '%s' accepted the Sanitize command, yet "
				"its log still says never sanitized after %u s",
				path, SANITIZE_START_S);
		if (took_s >= limit_s)
			return sb_error_set(er, -ETIMEDOUT, SB_ERR_ENV,
					    "--purge=sanitize: the %s sanitize of '%s' still runs "
					    "after %llu s (%.1f%% done); storbench stopped waiting, "
					    "the device goes on",
					    sanact_name(sanact), path, (unsigned long long)took_s,
					    s.progress * 100.0 / 65536);
		nap(wait);
		wait = SB_MIN(wait * 2, 1000000000u);
	}
}

static int do_sanitize(int fd, const char *path, unsigned sanact, char *how, size_t howlen,
		       struct sb_error *er)
{
	const uint32_t cdw10 = sb_nvme_sanitize_cdw10(sanact);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "Sanitize (%s, CDW10 0x%x)", sanact_name(sanact),
		 (unsigned)cdw10);
	const int e = sb_nvme_sanitize_fd(fd, cdw10);
	if (e)
		return admin_error(er, SB_PURGE_SANITIZE, path, cmd, e, "no sanitize was started");
	const int w = sanitize_wait(fd, path, sanact, er);
	ioctl(fd, BLKFLSBUF, 0); /* cached pages predate the sanitize */
	if (w)
		return w;
	snprintf(how, howlen, "NVMe Sanitize %s, SANACT %u%s", sanact_name(sanact), sanact,
		 sanact == SB_NVME_SANACT_OVERWRITE ? ", 1 pass" : "");
	return 0;
}

static int do_format(int fd, const char *path, const struct sb_nvme_caps *c, char *how,
		     size_t howlen, struct sb_error *er)
{
	const uint32_t cdw10 = sb_nvme_format_cdw10(c, 1);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "Format NVM (CDW10 0x%x)", (unsigned)cdw10);
	const int e = sb_nvme_format_fd(fd, c->nsid, cdw10, FORMAT_TIMEOUT_MS);
	ioctl(fd, BLKFLSBUF, 0);
	if (e)
		return admin_error(er, SB_PURGE_FORMAT, path, cmd, e,
				   "the device was not formatted");
	snprintf(how, howlen, "NVMe Format NVM user data erase, SES 1, LBA format %u", c->lbaf);
	return 0;
}

/* The strongest Sanitize action the device offers: auto takes block or
 * crypto erase only (an overwrite wears the flash and takes hours). */
static unsigned pick_sanact(uint32_t sanicap, enum sb_purge_method m)
{
	if (sanicap & SB_NVME_SANICAP_BLOCK)
		return SB_NVME_SANACT_BLOCK;
	if (sanicap & SB_NVME_SANICAP_CRYPTO)
		return SB_NVME_SANACT_CRYPTO;
	if (m == SB_PURGE_SANITIZE && (sanicap & SB_NVME_SANICAP_OVERWRITE))
		return SB_NVME_SANACT_OVERWRITE;
	return 0;
}

int sb_nvme_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		  char *how, size_t howlen, struct sb_error *er)
{
	uint8_t ctrl[SB_NVME_ID_SIZE], ns[SB_NVME_ID_SIZE];
	struct sb_nvme_caps c;
	char dummy[1];

	if (m != SB_PURGE_FORMAT && m != SB_PURGE_SANITIZE && m != SB_PURGE_AUTO)
		return 1;
	if (!how || !howlen) {
		how = dummy;
		howlen = sizeof(dummy);
	}
	const int nsid = sb_nvme_nsid(fd);
	if (nsid <= 0) {
		if (m != SB_PURGE_FORMAT)
			return 1; /* eMMC or the block layer's turn */
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=format: '%s' is no NVMe namespace (NVME_IOCTL_ID: %s); "
				    "storbench formats NVMe only (nothing was written)",
				    path, strerror(-nsid));
	}
	int e = sb_nvme_identify_ctrl_fd(fd, ctrl);
	const char *what = "Identify Controller";
	if (!e) {
		e = sb_nvme_identify_ns_fd(fd, (uint32_t)nsid, ns);
		what = "Identify Namespace";
	}
	if (e) {
		/* auto without the privilege: the discards need none */
		if (m == SB_PURGE_AUTO && (e == -EACCES || e == -EPERM))
			return 1;
		return admin_error(er, m, path, what, e, "nothing was written");
	}
	sb_nvme_caps_decode(ctrl, ns, (uint32_t)nsid, &c);

	/* the node must be the whole namespace: a partition, or a mapping
	 * the kernel passes the ioctl through to, is a part of what a Format
	 * or Sanitize erases */
	uint64_t size = 0;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot purge '%s': %s", path,
				    strerror(errno));
	if (!c.lba_size || c.nsze > UINT64_MAX / c.lba_size || size != c.nsze * c.lba_size) {
		if (m == SB_PURGE_AUTO)
			return 1; /* the discards stay within the node */
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--purge=%s: '%s' holds %llu bytes, its NVMe namespace %d "
				    "%llu LBAs of %u bytes: a part of the namespace (a partition, "
				    "a mapping), which a %s would erase whole (nothing was written)",
				    mname(m), path, (unsigned long long)size, nsid,
				    (unsigned long long)c.nsze, (unsigned)c.lba_size,
				    m == SB_PURGE_FORMAT ? "Format" : "Sanitize");
	}

	const unsigned sanact = pick_sanact(c.sanicap, m);
	const int can_format = (c.oacs & SB_NVME_OACS_FORMAT) != 0;
	const int format_all = (c.fna & (SB_NVME_FNA_FORMAT_ALL | SB_NVME_FNA_ERASE_ALL)) != 0;
	if (m == SB_PURGE_SANITIZE && !sanact)
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=sanitize: NVMe '%s' does not support sanitize "
				    "(Identify Controller SANICAP 0x%x: no crypto erase, block erase "
				    "or overwrite; nothing was written)",
				    path, (unsigned)c.sanicap);
	if (m == SB_PURGE_FORMAT && !can_format)
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=format: NVMe '%s' does not support Format NVM "
				    "(Identify Controller OACS bit 1 clear; nothing was written)",
				    path);
	if (m == SB_PURGE_FORMAT && c.lbaf > c.nlbaf)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "--purge=format: NVMe '%s' names LBA format %u in use (FLBAS "
				    "0x%02x) of %u formats: cannot keep it (nothing was written)",
				    path, c.lbaf, c.flbas, c.nlbaf + 1u);

	/* a purge that reaches further than the target: only alone */
	uint32_t other = 0;
	/* NN 1: the controller cannot have another (and a pre-1.1 one may not
	 * know CNS 02h) */
	if (c.nn != 1 &&
	    ((m != SB_PURGE_FORMAT && sanact) || (m != SB_PURGE_SANITIZE && format_all))) {
		other = other_namespace(fd, (uint32_t)nsid, &e);
		if (e)
			return admin_error(er, m, path, "Identify (active namespace list, CNS 02h)",
					   e, "nothing was written");
	}
	if (m == SB_PURGE_SANITIZE && other)
		return sb_error_set(
			er, -EBUSY, SB_ERR_INPUT,
			"--purge=sanitize: a Sanitize erases every namespace of the NVM "
			"subsystem, and the controller of '%s' (nsid %d) has namespace %u "
			"too: refused (nothing was written; --purge=format erases one "
			"namespace where the device allows)",
			path, nsid, (unsigned)other);
	if (m == SB_PURGE_FORMAT && format_all && other)
		return sb_error_set(er, -EBUSY, SB_ERR_INPUT,
				    "--purge=format: the device formats every namespace at once "
				    "(Identify Controller FNA 0x%02x), and the controller of '%s' "
				    "(nsid %d) has namespace %u too: refused (nothing was written)",
				    c.fna, path, nsid, (unsigned)other);

	int r;
	if (m == SB_PURGE_SANITIZE || (m == SB_PURGE_AUTO && sanact && !other)) {
		r = do_sanitize(fd, path, sanact, how, howlen, er);
		*used = r ? SB_PURGE_NONE : SB_PURGE_SANITIZE;
		return r;
	}
	if (m == SB_PURGE_FORMAT || (can_format && !(format_all && other) && c.lbaf <= c.nlbaf)) {
		r = do_format(fd, path, &c, how, howlen, er);
		*used = r ? SB_PURGE_NONE : SB_PURGE_FORMAT;
		return r;
	}
	return 1;
}
