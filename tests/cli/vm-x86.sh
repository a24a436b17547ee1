# Real kernel drivers: a static storbench in a QEMU guest (q35, TCG) with
# Debian's own kernel, on an NVMe, a SATA disk (AHCI), an SD card (sdhci),
# a SCSI disk (virtio-scsi) and a virtio disk, each held against the tool
# people trust for it in the same guest (nvme-cli, hdparm, mmc-utils,
# sg3-utils, sysfs): identity and SMART, the cache switch, pts' purges and refusals,
# the cache restored after a failure and a signal, run/verify/quick on
# every engine against the kernel's counters, spo across a surprise
# removal, timing verdicts that must find nothing under TCG. One boot runs
# every check (tests/vm/checks-x86, compared by tests/vm/compare-x86);
# the disks are image files in $T. docs/testing.md, "Real drivers".
# Issue 28.
# needs: root qemu slow
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/vm.sh"
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "no qemu-system-x86_64 (scripts/install-deps --test)"
for t in busybox nvme hdparm mmc sg_inq sg_modes sg_vpd; do
	command -v $t >/dev/null 2>&1 || skip "no $t (scripts/install-deps --test)"
done
# the helpers skip in a subshell: their reason is what they printed
sb=$(vm_static_storbench) || { echo "$sb"; exit 77; }
k=$(vm_kernel amd64 nvme ahci sd_mod sg sdhci-pci mmc_block virtio_pci virtio_blk virtio_scsi \
	i6300esb crc64_rocksoft_generic crct10dif_generic) || { echo "$k"; exit 77; }
"$SB_TOP/tests/vm/mkinitramfs" "$T/initrd" "$k" "$(command -v busybox)" "$sb" \
	"$SB_TOP/tests/vm/checks-x86" nvme hdparm mmc sg_inq sg_modes sg_vpd || fail "mkinitramfs"

for d in nvme sata scsi virtio; do truncate -s 64M "$T/$d.img"; done
# the SD card (a power of 2) is the guest's slowest device: 16 MiB keeps
# its pts, quick and erase within the guest's time
truncate -s 16M "$T/sd.img"
drive() { echo "file=$T/$1.img,if=none,id=$1,format=raw,discard=unmap"; }
# nvme.io_queue_depth=2: one command at a time on the NVMe's I/O queue.
# With more, QEMU 7.2's NVMe (shadow doorbells) now and then misses a
# command the guest submitted while it was reading the queue (I/O timeout,
# abort, controller reset), the more often the busier the host
# sb.idle=180: a check that has not ended 180 s after it began hangs
# (the longest a check may take is 120 s of its own timeout); the whole
# life, 900 s, only bounds the test. The guest took 80 to 130 s of its
# clock here under a load of 9 to 15 (its clock is the host's, TCG gets a
# share of a core), and more than 240 s on a slower CI machine
vm_run 900 virtio-blk-pci qemu-system-x86_64 -accel tcg -M q35 -m 512 -smp 1 \
	-kernel "$k/vmlinuz" -initrd "$T/initrd" \
	-append "console=ttyS0 panic=-1 quiet nvme.io_queue_depth=2 sb.limit=900 sb.idle=180" \
	-device i6300esb -watchdog-action poweroff \
	-drive "$(drive nvme)" -device nvme,drive=nvme,serial=SBNVME0001,smart_critical_warning=0x14 \
	-drive "$(drive sata)" \
	-device ide-hd,drive=sata,bus=ide.0,serial=SBSATA0001,model=SBSATADISK,discard_granularity=512 \
	-device sdhci-pci -drive "$(drive sd)" -device sd-card,drive=sd \
	-device virtio-scsi-pci,id=vscsi -drive "$(drive scsi)" \
	-device scsi-hd,drive=scsi,bus=vscsi.0,serial=SBSCSI0001 \
	-drive "$(drive virtio)" -device virtio-blk-pci,drive=virtio,serial=SBVBLK0001
# the NVMe's Firmware Slot Information page as QEMU answers it (the unit
# test nvme-smart-decode decodes this capture)
od -A d -t x1 "$T/res/nvme-fw-log-raw.out" | sed -n '1,5p'
python3 "$SB_TOP/tests/vm/compare-x86" "$T/res" || fail "storbench and the tools disagree (above)"
# the history records the NVMe's identity as the guest's cliff read it,
# its active firmware slot with it (none where the controller refused)
if "$SB" --version | grep -q sqlite; then
	expect_exit 0 "$SB" history --db="$T/h.db" --import "$T/res/cliff-nvme.out"
	python3 - "$T/h.db" "$T/res/cliff-nvme.out" <<'PY' || fail "the NVMe's identity in the history"
import json, sqlite3, sys
dev = json.load(open(sys.argv[2]))["storbench"]["device"]
row = sqlite3.connect(sys.argv[1]).execute("SELECT model, serial, firmware, fw_slot FROM results").fetchone()
slot = dev.get("nvme_firmware_slot")
want = (dev["model"], dev["serial"], dev["firmware"], slot["active"] if slot else None)
assert row == want, (row, want)
print("ok: the history records the NVMe's model, serial, firmware and slot", row)
PY
fi
