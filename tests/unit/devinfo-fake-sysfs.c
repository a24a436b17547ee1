/* needs: none */
/*
 * Device identity from sysfs for devices this machine lacks: eMMC (with a
 * partition), SD, NVMe plain and multipath (over TCP), SATA, USB and
 * device-mapper, through sysfs trees built in a temp directory the way the
 * kernel lays them out (disk directory, "device" link to the bus device,
 * "subsystem" link naming the bus). Then health from the eMMC's sysfs copy
 * of its life time, and the device and health JSON writers.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_write.h"
#include "lib/device/devinfo.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

/* ---- building a fake sysfs ---- */

/* dir/name into out (PATH_MAX bytes). */
static void pjoin(char *out, const char *dir, const char *name)
{
	const size_t a = strlen(dir), b = strlen(name);
	assert_true(a + 1 + b < PATH_MAX);
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	sbt_mkdirs(dir);
	pjoin(path, dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_bin(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	pjoin(path, dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void lnk(const char *target, const char *dir, const char *name)
{
	char path[PATH_MAX];
	sbt_mkdirs(dir);
	pjoin(path, dir, name);
	assert_int_equal(symlink(target, path), 0);
}

static const char *sys_root(void)
{
	return sbt_path("sys");
}

static const char *class_block(void)
{
	static char p[PATH_MAX];
	pjoin(p, sys_root(), "class/block");
	return p;
}

/* A disk directory at dev/block/NAME (dev: the bus device, absolute), with
 * queue attributes, listed in class/block. */
static void fake_disk(const char *dev, const char *name, const char *sectors, char *diskdir)
{
	char q[PATH_MAX];
	char b[80];
	snprintf(b, sizeof(b), "block/%s", name);
	pjoin(diskdir, dev, b);
	put(diskdir, "size", sectors);
	put(diskdir, "removable", "0\n");
	put(diskdir, "ro", "0\n");
	put(diskdir, "dev", "259:0\n");
	lnk(dev, diskdir, "device");
	pjoin(q, diskdir, "queue");
	put(q, "logical_block_size", "512\n");
	put(q, "physical_block_size", "4096\n");
	put(q, "minimum_io_size", "4096\n");
	put(q, "optimal_io_size", "0\n");
	put(q, "max_sectors_kb", "1280\n");
	put(q, "rotational", "0\n");
	put(q, "nr_requests", "64\n");
	put(q, "scheduler", "[mq-deadline] kyber none\n");
	put(q, "write_cache", "write back\n");
	put(q, "discard_granularity", "524288\n");
	put(q, "discard_max_bytes", "2147483648\n");
	put(q, "zoned", "none\n");
	lnk(diskdir, class_block(), name);
}

static void fake_emmc(void)
{
	char card[PATH_MAX], disk[PATH_MAX], part[PATH_MAX];

	pjoin(card, sys_root(), "devices/platform/fe340000.mmc/mmc_host/mmc0/mmc0:0001");
	put(card, "type", "MMC\n");
	put(card, "name", "AJTD4R\n");
	put(card, "manfid", "0x000015\n");
	put(card, "oemid", "0x0100\n");
	put(card, "date", "05/2019\n");
	put(card, "cid", "15010041 4a544434 52021d5b 3a1f13a5\n");
	put(card, "csd", "d0270032 0f5903ff f6dbffef 8e40400d\n");
	put(card, "serial", "0x1d5b3a1f\n");
	put(card, "prv", "0x2\n");
	put(card, "hwrev", "0x0\n");
	put(card, "fwrev", "0x0500000000000000\n");
	put(card, "erase_size", "524288\n");
	put(card, "preferred_erase_size", "4194304\n");
	put(card, "life_time", "0x01 0x02\n");
	put(card, "pre_eol_info", "0x01\n");
	lnk("../../../../../../bus/mmc", card, "subsystem");
	fake_disk(card, "mmcblk0", "30777344\n", disk);
	pjoin(part, disk, "mmcblk0p1");
	put(part, "partition", "1\n");
	put(part, "start", "8192\n");
	put(part, "size", "1048576\n");
	lnk(part, class_block(), "mmcblk0p1");
}

static void test_emmc(void **state)
{
	struct sb_devinfo d;
	struct sb_health h;
	(void)state;

	fake_emmc();
	assert_int_equal(sb_devinfo_read(class_block(), "mmcblk0p1", &d), 0);
	assert_string_equal(d.disk, "mmcblk0");
	assert_string_equal(d.part, "mmcblk0p1");
	assert_int_equal(d.part_start, 8192 * 512);
	assert_string_equal(d.transport, "mmc");
	assert_string_equal(d.model, "AJTD4R");
	assert_string_equal(d.serial, "0x1d5b3a1f");
	assert_string_equal(d.firmware, "0x0500000000000000");
	assert_string_equal(d.vendor, "manfid 0x15, oemid 0x0100");
	assert_int_equal(d.capacity, 30777344ull * 512);
	assert_int_equal(d.logical_bs, 512);
	assert_int_equal(d.physical_bs, 4096);
	assert_int_equal(d.minimum_io, 4096);
	assert_int_equal(d.optimal_io, 0);
	assert_int_equal(d.max_io, 1280 * 1024);
	assert_int_equal(d.rotational, 0);
	assert_int_equal(d.removable, 0);
	assert_int_equal(d.read_only, 0);
	assert_string_equal(d.scheduler, "mq-deadline");
	assert_int_equal(d.nr_requests, 64);
	assert_string_equal(d.write_cache, "write back");
	assert_int_equal(d.discard_granularity, 524288);
	assert_int_equal(d.discard_max, 2147483648ull);
	assert_string_equal(d.zoned, "none");
	assert_int_equal(d.is_mmc, 1);
	assert_string_equal(d.mmc.type, "MMC");
	assert_int_equal(d.mmc.manfid, 0x15);
	assert_int_equal(d.mmc.oemid, 0x100);
	assert_string_equal(d.mmc.date, "05/2019");
	assert_string_equal(d.mmc.prv, "0x2");
	assert_int_equal(d.mmc.erase_size, 512 * 1024);
	assert_int_equal(d.mmc.preferred_erase_size, 4 * MIB);
	assert_string_equal(d.node, ""); /* read, not probed: no node looked up */

	/* health without root or a node: the sysfs copy of the estimates */
	assert_int_equal(sb_health_read(&d, &h), 0);
	assert_int_equal(h.kind, SB_HEALTH_MMC);
	assert_int_equal(h.have_life, 1);
	assert_string_equal(h.life_source, "sysfs");
	assert_int_equal(h.life_a, 1);
	assert_int_equal(h.life_b, 2);
	assert_int_equal(h.pre_eol, 1);
	assert_int_equal(h.ext_csd_err, -ENODEV);
	assert_true(h.when > 0);
}

static void test_sd(void **state)
{
	char card[PATH_MAX], disk[PATH_MAX];
	struct sb_devinfo d;
	struct sb_health h;
	(void)state;

	pjoin(card, sys_root(), "devices/platform/sdhci/mmc_host/mmc1/mmc1:aaaa");
	put(card, "type", "SD\n");
	put(card, "name", "SC64G\n");
	put(card, "manfid", "0x000003\n");
	put(card, "oemid", "0x5344\n");
	put(card, "fwrev", "0x0\n");
	lnk("../../../../../bus/mmc", card, "subsystem");
	fake_disk(card, "mmcblk1", "124735488\n", disk);
	assert_int_equal(sb_devinfo_read(class_block(), "mmcblk1", &d), 0);
	assert_string_equal(d.transport, "sd");
	assert_string_equal(d.part, "");
	assert_string_equal(d.model, "SC64G");
	assert_int_equal(d.mmc.oemid, 0x5344);
	assert_int_equal(sb_health_read(&d, &h), 0);
	assert_int_equal(h.kind, SB_HEALTH_MMC);
	assert_int_equal(h.have_life, 0);
	assert_int_equal(h.ext_csd_err, -ENOTSUP); /* SD cards have no EXT_CSD */
}

static void test_nvme(void **state)
{
	char pci[PATH_MAX], ctrl[PATH_MAX], disk[PATH_MAX];
	struct sb_devinfo d;
	struct sb_health h;
	(void)state;

	pjoin(pci, sys_root(), "devices/pci0000:00/0000:00:01.0");
	put(pci, "vendor", "0x144d\n");
	pjoin(ctrl, pci, "nvme/nvme7");
	put(ctrl, "model", "Samsung SSD 970 EVO Plus 1TB            \n");
	put(ctrl, "serial", "S4EWNX0R123456A     \n");
	put(ctrl, "firmware_rev", "2B2QEXM7\n");
	put(ctrl, "transport", "pcie\n");
	lnk(pci, ctrl, "device");
	lnk("../../../../../class/nvme", ctrl, "subsystem");
	fake_disk(ctrl, "nvme7n1", "1953525168\n", disk);
	assert_int_equal(sb_devinfo_read(class_block(), "nvme7n1", &d), 0);
	assert_string_equal(d.transport, "nvme");
	assert_string_equal(d.nvme_ctrl, "nvme7");
	assert_string_equal(d.model, "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(d.serial, "S4EWNX0R123456A");
	assert_string_equal(d.firmware, "2B2QEXM7");
	assert_string_equal(d.vendor, "PCI 0x144d");
	assert_int_equal(d.is_mmc, 0);
	assert_int_equal(sb_health_read(&d, &h), 0);
	assert_int_equal(h.kind, SB_HEALTH_NVME);
	if (access("/dev/nvme7", F_OK) != 0)
		assert_int_equal(h.smart_err, -ENOENT);
}

/* Native multipath: the disk hangs below the subsystem, the controllers
 * (here one over TCP) are entries of it. */
static void test_nvme_multipath(void **state)
{
	char subsys[PATH_MAX], ctrl[PATH_MAX], disk[PATH_MAX];
	struct sb_devinfo d;
	(void)state;

	pjoin(subsys, sys_root(), "devices/virtual/nvme-subsystem/nvme-subsys3");
	put(subsys, "model", "Linux\n");
	put(subsys, "serial", "0123456789abcdef\n");
	put(subsys, "firmware_rev", "6.1.0\n");
	lnk("../../../../class/nvme-subsystem", subsys, "subsystem");
	pjoin(ctrl, subsys, "nvme9");
	put(ctrl, "model", "Linux\n");
	put(ctrl, "transport", "tcp\n");
	fake_disk(subsys, "nvme3n1", "2097152\n", disk);
	assert_int_equal(sb_devinfo_read(class_block(), "nvme3n1", &d), 0);
	assert_string_equal(d.transport, "nvme-tcp");
	assert_string_equal(d.nvme_ctrl, "nvme9");
	assert_string_equal(d.model, "Linux");
}

static void test_sata_usb(void **state)
{
	char dev[PATH_MAX], disk[PATH_MAX];
	struct sb_devinfo d;
	/* VPD page 80h: header (qualifier, page, length 0x0014), space padded */
	static const uint8_t pg80[] = { 0x00, 0x80, 0x00, 0x14, ' ', ' ', 'S', '3',
					'Z',  '9',  'N',  'B',	'0', 'K', '1', '2',
					'3',  '4',  '5',  '6',	'7', 'X', ' ', ' ' };
	(void)state;

	pjoin(dev, sys_root(), "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0");
	put(dev, "vendor", "ATA     \n");
	put(dev, "model", "Samsung SSD 860 \n");
	put(dev, "rev", "4B6Q\n");
	put_bin(dev, "vpd_pg80", pg80, sizeof(pg80));
	lnk("../../../../../../../../bus/scsi", dev, "subsystem");
	fake_disk(dev, "sdq", "976773168\n", disk);
	assert_int_equal(sb_devinfo_read(class_block(), "sdq", &d), 0);
	assert_string_equal(d.transport, "sata");
	assert_string_equal(d.vendor, "ATA");
	assert_string_equal(d.model, "Samsung SSD 860");
	assert_string_equal(d.firmware, "4B6Q");
	assert_string_equal(d.serial, "S3Z9NB0K1234567X");

	pjoin(dev, sys_root(),
	      "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0");
	put(dev, "vendor", "SanDisk \n");
	put(dev, "model", "Ultra Fit       \n");
	put(dev, "rev", "1.00\n");
	lnk("../../../../../../../../../bus/scsi", dev, "subsystem");
	fake_disk(dev, "sdr", "120176640\n", disk);
	assert_int_equal(sb_devinfo_read(class_block(), "sdr", &d), 0);
	assert_string_equal(d.transport, "usb");
	assert_string_equal(d.vendor, "SanDisk");
	assert_string_equal(d.serial, ""); /* no VPD page: none made up */
}

static void test_dm(void **state)
{
	char dm[PATH_MAX], s[PATH_MAX];
	struct sb_devinfo d;
	(void)state;

	pjoin(dm, sys_root(), "devices/virtual/block/dm-3");
	put(dm, "size", "2048\n");
	pjoin(s, dm, "slaves/sdq2");
	sbt_mkdirs(s);
	pjoin(s, dm, "slaves/sdr1");
	sbt_mkdirs(s);
	lnk(dm, class_block(), "dm-3");
	assert_int_equal(sb_devinfo_read(class_block(), "dm-3", &d), 0);
	assert_string_equal(d.transport, "dm");
	assert_true(strstr(d.slaves, "sdq2") && strstr(d.slaves, "sdr1") && strchr(d.slaves, ','));
	assert_int_equal(d.capacity, 2048 * 512);
	assert_int_equal(d.rotational, -1); /* no queue directory: unknown */
	assert_int_equal(sb_devinfo_read(class_block(), "nope", &d), -ENOENT);
	assert_int_equal(sb_devinfo_read(class_block(), "../dm-3", &d), -EINVAL);
	assert_int_equal(sb_devinfo_read(class_block(), "", &d), -EINVAL);
}

/* ---- JSON ---- */

static char *to_json(void (*write)(struct sb_json *, const void *), const void *arg)
{
	struct sb_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	write(&j, arg);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	return buf;
}

static void write_dev(struct sb_json *j, const void *d)
{
	sb_devinfo_json(j, "device", d);
}

static void write_health(struct sb_json *j, const void *h)
{
	sb_health_json(j, "health", h);
}

static void write_pair(struct sb_json *j, const void *h)
{
	const struct sb_health *p = h;
	sb_health_pair_json(j, "health", &p[0], &p[1]);
}

static void test_json(void **state)
{
	struct sb_devinfo d;
	struct sb_health h[2];
	(void)state;

	assert_int_equal(sb_devinfo_read(class_block(), "mmcblk0p1", &d), 0);
	char *s = to_json(write_dev, &d);
	assert_non_null(strstr(s, "\"transport\":\"mmc\""));
	assert_non_null(strstr(s, "\"partition_start\":4194304"));
	assert_non_null(strstr(s, "\"manfid\":\"0x15\""));
	assert_non_null(strstr(s, "\"node\":null"));
	free(s);

	assert_int_equal(sb_health_read(&d, &h[0]), 0);
	s = to_json(write_health, &h[0]);
	assert_non_null(strstr(s, "\"kind\":\"emmc\""));
	assert_non_null(strstr(s, "\"life_time_b_used\":\"10-20%\""));
	assert_non_null(strstr(s, "\"pre_eol_state\":\"normal\""));
	assert_non_null(strstr(s, "\"ext_csd\":null"));
	free(s);

	h[1] = h[0];
	h[1].life_b = 3;
	s = to_json(write_pair, h);
	assert_non_null(
		strstr(s, "\"change\":{\"life_time_a\":0,\"life_time_b\":1,\"pre_eol\":0}"));
	free(s);

	memset(h, 0, sizeof(h));
	h[0].kind = h[1].kind = SB_HEALTH_NVME;
	h[0].smart.percent_used = 4;
	h[1].smart.percent_used = 5;
	h[0].smart.data_units_written = 1000;
	h[1].smart.data_units_written = 1002;
	h[1].smart.critical_warning = SB_NVME_WARN_TEMPERATURE;
	s = to_json(write_pair, h);
	assert_non_null(strstr(s, "\"percent_used\":1"));
	assert_non_null(strstr(s, "\"data_written_bytes\":1024000"));
	assert_non_null(strstr(s, "\"new_critical_warnings\":2"));
	assert_non_null(strstr(s, "\"critical_warnings\":[\"temperature beyond threshold\"]"));
	free(s);
	h[1].smart_err = -EACCES;
	s = to_json(write_health, &h[1]);
	assert_non_null(strstr(s, "\"smart_error\":\"needs root\""));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emmc),	 cmocka_unit_test(test_sd),
		cmocka_unit_test(test_nvme),	 cmocka_unit_test(test_nvme_multipath),
		cmocka_unit_test(test_sata_usb), cmocka_unit_test(test_dm),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
