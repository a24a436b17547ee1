/*
 * Device identity and geometry from sysfs. The disk's directory gives the
 * queue (block sizes, scheduler, discard, zones); its "device" link leads
 * to the bus device, whose subsystem says how the disk is attached and
 * where the vendor, model, serial and firmware live: SCSI/SATA/USB/UFS in
 * vendor/model/rev/vpd_pg80, NVMe in the controller, eMMC/SD in the card's
 * CID attributes, virtio in the disk's own "serial".
 */
#include "lib/device/devinfo.h"
#include "lib/device/sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* src into dst, cut to fit. */
static void copy(char *dst, size_t size, const char *src)
{
	size_t i;
	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	if (size)
		dst[i] = '\0';
}

static void read_queue(const char *dir, struct sb_devinfo *d)
{
	char q[PATH_MAX], buf[256];
	uint64_t v;

	if (sb_sysfs_path(q, sizeof(q), dir, "queue"))
		return;
	if (sb_sysfs_u64(dir, "size", &v) == 0)
		d->capacity = v * 512;
	if (sb_sysfs_u64(q, "logical_block_size", &v) == 0)
		d->logical_bs = (uint32_t)v;
	if (sb_sysfs_u64(q, "physical_block_size", &v) == 0)
		d->physical_bs = (uint32_t)v;
	if (sb_sysfs_u64(q, "minimum_io_size", &v) == 0)
		d->minimum_io = (uint32_t)v;
	if (sb_sysfs_u64(q, "optimal_io_size", &v) == 0)
		d->optimal_io = (uint32_t)v;
	if (sb_sysfs_u64(q, "max_sectors_kb", &v) == 0)
		d->max_io = v * 1024;
	if (sb_sysfs_u64(q, "rotational", &v) == 0)
		d->rotational = v != 0;
	if (sb_sysfs_u64(q, "nr_requests", &v) == 0)
		d->nr_requests = (unsigned)v;
	if (sb_sysfs_u64(q, "discard_granularity", &v) == 0)
		d->discard_granularity = v;
	if (sb_sysfs_u64(q, "discard_max_bytes", &v) == 0)
		d->discard_max = v;
	if (sb_sysfs_text(q, "scheduler", buf, sizeof(buf)) == 0)
		sb_sysfs_selected(buf, d->scheduler, sizeof(d->scheduler));
	sb_sysfs_text(q, "write_cache", d->write_cache, sizeof(d->write_cache));
	sb_sysfs_text(q, "zoned", d->zoned, sizeof(d->zoned));
	if (sb_sysfs_u64(dir, "removable", &v) == 0)
		d->removable = v != 0;
	if (sb_sysfs_u64(dir, "ro", &v) == 0)
		d->read_only = v != 0;
}

/* The last path component a symlink points to ("../../bus/scsi" -> "scsi"). */
static void link_base(const char *dir, const char *name, char *out, size_t size)
{
	char path[PATH_MAX], dest[PATH_MAX];

	if (sb_sysfs_path(path, sizeof(path), dir, name))
		return;
	const ssize_t n = readlink(path, dest, sizeof(dest) - 1);
	if (n <= 0)
		return;
	dest[n] = '\0';
	const char *b = strrchr(dest, '/');
	copy(out, size, b ? b + 1 : dest);
}

/* SCSI INQUIRY VPD page 80h (unit serial number): a 4-byte header whose
 * bytes 2-3 give the length, then space-padded ASCII. */
static void vpd_serial(const char *devpath, char *out, size_t size)
{
	char path[PATH_MAX];
	uint8_t b[256];

	if (sb_sysfs_path(path, sizeof(path), devpath, "vpd_pg80"))
		return;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	const ssize_t n = read(fd, b, sizeof(b));
	close(fd);
	if (n < 4 || b[1] != 0x80)
		return;
	size_t len = (size_t)(b[2] << 8 | b[3]);
	len = SB_MIN(len, (size_t)n - 4);
	char s[256];
	size_t k = 0;
	for (size_t i = 0; i < len && k + 1 < sizeof(s); i++)
		if (b[4 + i] >= 0x20 && b[4 + i] < 0x7f)
			s[k++] = (char)b[4 + i];
	s[k] = '\0';
	sb_sysfs_trim(s);
	if (s[0])
		copy(out, size, s);
}

/* How a SCSI disk is attached, from the path of its device. */
static const char *scsi_transport(const char *devpath)
{
	static const struct {
		const char *needle, *name;
	} kinds[] = {
		{ "/usb", "usb" },
		{ "ufs", "ufs" },
		{ "/ata", "sata" },
		{ "/end_device-", "sas" },
		{ "/rport-", "fc" },
		{ "/session", "iscsi" },
		{ "/virtio", "virtio-scsi" },
		{ "/VMBUS", "hyperv" },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(kinds); i++)
		if (strstr(devpath, kinds[i].needle))
			return kinds[i].name;
	return "scsi";
}

static void read_mmc(const char *devpath, struct sb_devinfo *d)
{
	struct sb_mmc_card *m = &d->mmc;
	char buf[64];
	unsigned v;

	d->is_mmc = 1;
	sb_sysfs_text(devpath, "type", m->type, sizeof(m->type));
	sb_sysfs_text(devpath, "name", m->name, sizeof(m->name));
	if (sb_sysfs_text(devpath, "manfid", buf, sizeof(buf)) == 0 &&
	    sb_mmc_parse_hex(buf, &v) == 0)
		m->manfid = v;
	if (sb_sysfs_text(devpath, "oemid", buf, sizeof(buf)) == 0 &&
	    sb_mmc_parse_hex(buf, &v) == 0)
		m->oemid = v;
	sb_sysfs_text(devpath, "date", m->date, sizeof(m->date));
	sb_sysfs_text(devpath, "cid", m->cid, sizeof(m->cid));
	sb_sysfs_text(devpath, "csd", m->csd, sizeof(m->csd));
	sb_sysfs_text(devpath, "serial", m->serial, sizeof(m->serial));
	sb_sysfs_text(devpath, "prv", m->prv, sizeof(m->prv));
	sb_sysfs_text(devpath, "hwrev", m->hwrev, sizeof(m->hwrev));
	sb_sysfs_text(devpath, "fwrev", m->fwrev, sizeof(m->fwrev));
	sb_sysfs_u64(devpath, "erase_size", &m->erase_size);
	sb_sysfs_u64(devpath, "preferred_erase_size", &m->preferred_erase_size);
	sb_sysfs_text(devpath, "life_time", m->life_time, sizeof(m->life_time));
	sb_sysfs_text(devpath, "pre_eol_info", m->pre_eol_info, sizeof(m->pre_eol_info));

	copy(d->transport, sizeof(d->transport), strcmp(m->type, "SD") ? "mmc" : "sd");
	copy(d->model, sizeof(d->model), m->name);
	snprintf(d->vendor, sizeof(d->vendor), "manfid 0x%02x, oemid 0x%04x", m->manfid, m->oemid);
	copy(d->serial, sizeof(d->serial), m->serial);
	copy(d->firmware, sizeof(d->firmware), m->fwrev[0] ? m->fwrev : m->prv);
}

/* A multipath NVMe disk hangs below the subsystem; its controllers are the
 * entries named nvmeN there. */
static void nvme_controller(const char *devpath, const char *subsys, char *ctrl, size_t size,
			    char *ctrlpath, size_t pathsize)
{
	if (!strcmp(subsys, "nvme")) {
		const char *base = strrchr(devpath, '/');
		copy(ctrlpath, pathsize, devpath);
		copy(ctrl, size, base ? base + 1 : devpath);
		return;
	}
	DIR *dir = opendir(devpath);
	struct dirent *e;
	unsigned n;
	char rest;
	if (!dir)
		return;
	while ((e = readdir(dir)))
		if (sscanf(e->d_name, "nvme%u%c", &n, &rest) == 1) {
			copy(ctrl, size, e->d_name);
			sb_sysfs_path(ctrlpath, pathsize, devpath, e->d_name);
			break;
		}
	closedir(dir);
}

static void read_nvme(const char *devpath, const char *subsys, struct sb_devinfo *d)
{
	char ctrlpath[PATH_MAX] = "", tr[32] = "", pci[PATH_MAX], vid[16];

	nvme_controller(devpath, subsys, d->nvme_ctrl, sizeof(d->nvme_ctrl), ctrlpath,
			sizeof(ctrlpath));
	const char *from = ctrlpath[0] ? ctrlpath : devpath;
	sb_sysfs_text(from, "model", d->model, sizeof(d->model));
	sb_sysfs_text(from, "serial", d->serial, sizeof(d->serial));
	sb_sysfs_text(from, "firmware_rev", d->firmware, sizeof(d->firmware));
	sb_sysfs_text(from, "transport", tr, sizeof(tr));
	if (!tr[0] || !strcmp(tr, "pcie"))
		snprintf(d->transport, sizeof(d->transport), "nvme");
	else
		snprintf(d->transport, sizeof(d->transport), "nvme-%.18s", tr);
	if (sb_sysfs_path(pci, sizeof(pci), from, "device") == 0 &&
	    sb_sysfs_text(pci, "vendor", vid, sizeof(vid)) == 0)
		snprintf(d->vendor, sizeof(d->vendor), "PCI %s", vid);
}

/* Generic attributes first (most buses name them alike), then what a bus
 * keeps elsewhere. */
static void read_identity(const char *dir, struct sb_devinfo *d)
{
	char link[PATH_MAX], devpath[PATH_MAX], subsys[64] = "";

	if (sb_sysfs_path(link, sizeof(link), dir, "device") || !realpath(link, devpath))
		return;
	link_base(devpath, "subsystem", subsys, sizeof(subsys));
	sb_sysfs_text(devpath, "vendor", d->vendor, sizeof(d->vendor));
	sb_sysfs_text(devpath, "model", d->model, sizeof(d->model));
	sb_sysfs_text(devpath, "rev", d->firmware, sizeof(d->firmware));
	sb_sysfs_text(devpath, "firmware_rev", d->firmware, sizeof(d->firmware));
	sb_sysfs_text(devpath, "serial", d->serial, sizeof(d->serial));
	sb_sysfs_text(dir, "serial", d->serial, sizeof(d->serial));
	copy(d->transport, sizeof(d->transport), subsys);

	if (!strcmp(subsys, "scsi")) {
		vpd_serial(devpath, d->serial, sizeof(d->serial));
		copy(d->transport, sizeof(d->transport), scsi_transport(devpath));
	} else if (!strcmp(subsys, "mmc")) {
		read_mmc(devpath, d);
	} else if (!strcmp(subsys, "nvme") || !strcmp(subsys, "nvme-subsystem")) {
		read_nvme(devpath, subsys, d);
	}
}

/* Disks without a bus device: known by their driver's name. */
static void virtual_transport(const char *disk, struct sb_devinfo *d)
{
	static const char *const prefixes[] = { "loop", "zram", "dm-", "md",  "nbd",
						"ram",	"ublk", "rbd", "pmem" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(disk, prefixes[i], strlen(prefixes[i]))) {
			snprintf(d->transport, sizeof(d->transport), "%.*s",
				 (int)strcspn(prefixes[i], "-"), prefixes[i]);
			return;
		}
	snprintf(d->transport, sizeof(d->transport), "virtual");
}

static void read_slaves(const char *dir, struct sb_devinfo *d)
{
	char path[PATH_MAX];
	size_t o = 0;
	struct dirent *e;

	DIR *s = sb_sysfs_path(path, sizeof(path), dir, "slaves") ? NULL : opendir(path);
	if (!s)
		return;
	while ((e = readdir(s)) && o + 1 < sizeof(d->slaves)) {
		if (e->d_name[0] == '.')
			continue;
		int w = snprintf(d->slaves + o, sizeof(d->slaves) - o, "%s%s", o ? "," : "",
				 e->d_name);
		o = w > 0 ? SB_MIN(o + (size_t)w, sizeof(d->slaves) - 1) : o;
	}
	closedir(s);
}

/* Resolve name to the real directory of its whole disk. */
static int disk_dir(const char *sys_block, const char *name, struct sb_devinfo *d, char *dir,
		    size_t size)
{
	char path[PATH_MAX], real[PATH_MAX];
	uint64_t start;

	if (!name[0] || strchr(name, '/') || sb_sysfs_path(path, sizeof(path), sys_block, name))
		return -EINVAL;
	if (!realpath(path, real))
		return -errno;
	if (!sb_sysfs_exists(real, "partition")) {
		copy(d->disk, sizeof(d->disk), name);
		copy(dir, size, real);
		return 0;
	}
	copy(d->part, sizeof(d->part), name);
	if (sb_sysfs_u64(real, "start", &start) == 0)
		d->part_start = start * 512;
	char *slash = strrchr(real, '/');
	if (!slash || slash == real)
		return -ENOENT;
	*slash = '\0';
	const char *disk = strrchr(real, '/');
	copy(d->disk, sizeof(d->disk), disk ? disk + 1 : real);
	copy(dir, size, real);
	return 0;
}

int sb_devinfo_read(const char *sys_block, const char *name, struct sb_devinfo *out)
{
	char dir[PATH_MAX];

	if (!name || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->rotational = out->removable = out->read_only = -1;
	const int err = disk_dir(sys_block ? sys_block : SB_SYS_BLOCK, name, out, dir, sizeof(dir));
	if (err)
		return err;
	read_queue(dir, out);
	if (sb_sysfs_exists(dir, "device"))
		read_identity(dir, out);
	else
		virtual_transport(out->disk, out);
	read_slaves(dir, out);
	if (!strcmp(out->transport, "loop")) {
		char loop[PATH_MAX];
		if (sb_sysfs_path(loop, sizeof(loop), dir, "loop") == 0)
			sb_sysfs_text(loop, "backing_file", out->backing_file,
				      sizeof(out->backing_file));
	}
	return 0;
}

/* /dev/DISK when it is the device sysfs names (dev numbers agree). */
static void find_node(const char *disk, char *node, size_t size)
{
	char dir[PATH_MAX], buf[32], path[96];
	unsigned ma, mi;
	struct stat st;

	snprintf(dir, sizeof(dir), SB_SYS_BLOCK "/%s", disk);
	if (sb_sysfs_text(dir, "dev", buf, sizeof(buf)) || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return;
	snprintf(path, sizeof(path), "/dev/%s", disk);
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == ma &&
	    minor(st.st_rdev) == mi)
		copy(node, size, path);
}

/* An NVMe controller sysfs did not describe (very old kernels): ask it,
 * which needs root; without, the fields stay empty. */
static void nvme_identify(struct sb_devinfo *d)
{
	uint8_t id[SB_NVME_ID_SIZE];
	struct sb_nvme_id c;
	char ctrl[64];

	if (!d->nvme_ctrl[0] || (d->model[0] && d->serial[0]))
		return;
	snprintf(ctrl, sizeof(ctrl), "/dev/%s", d->nvme_ctrl);
	if (sb_nvme_identify_ctrl(ctrl, id) || sb_nvme_id_decode(id, &c))
		return;
	copy(d->model, sizeof(d->model), c.model);
	copy(d->serial, sizeof(d->serial), c.serial);
	copy(d->firmware, sizeof(d->firmware), c.firmware);
}

/* An NVMe controller's firmware slots: which one runs, and what each
 * holds (the Firmware Slot Information log; root). A controller that does
 * not answer leaves nvme_fw.active 0. */
static void nvme_fw_slot(struct sb_devinfo *d)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	char ctrl[64];

	if (!d->nvme_ctrl[0])
		return;
	snprintf(ctrl, sizeof(ctrl), "/dev/%s", d->nvme_ctrl);
	if (sb_nvme_read_fw_slot(ctrl, log) || sb_nvme_fw_slot_decode(log, &d->nvme_fw))
		memset(&d->nvme_fw, 0, sizeof(d->nvme_fw));
}

int sb_devinfo_describe(const char *devname, const char *node, struct sb_devinfo *out)
{
	if (!devname || !out)
		return -EINVAL;
	const int err = sb_devinfo_read(NULL, devname, out);
	if (err)
		return err;
	if (node && !strcmp(devname, out->disk))
		copy(out->node, sizeof(out->node), node);
	else
		find_node(out->disk, out->node, sizeof(out->node));
	nvme_identify(out);
	nvme_fw_slot(out);
	return 0;
}
