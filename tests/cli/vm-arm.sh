# Real kernel drivers on an ARM board: the armhf static storbench on
# QEMU's vexpress-a9 (TCG) with Debian's armmp kernel, its PL181 MMC host
# holding an SD card (the kernel's mmci and mmc_block drivers): info
# against the card's sysfs files and registers, the cache switch refused
# with no eMMC command, verify and quick against the kernel's counters,
# a short soak. One boot (tests/vm/checks-arm, compared by
# tests/vm/compare-arm); the card is an image file in $T.
# docs/testing.md, "Real drivers". Issue 28.
# needs: root qemu slow
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/vm.sh"
command -v qemu-system-arm >/dev/null 2>&1 || skip "no qemu-system-arm (scripts/install-deps --test)"
# the helpers skip in a subshell: their reason is what they printed
sb=$(vm_static_storbench arm-linux-gnueabihf-) || { echo "$sb"; exit 77; }
k=$(vm_kernel armhf armmmci virtio_mmio virtio_blk) || { echo "$k"; exit 77; }
"$SB_TOP/tests/vm/mkinitramfs" "$T/initrd" "$k" "$k/busybox" "$sb" "$SB_TOP/tests/vm/checks-arm" ||
	fail "mkinitramfs"
truncate -s 64M "$T/sd.img"
vm_run 280 virtio-blk-device qemu-system-arm -M vexpress-a9 -m 512 -audiodev none,id=noaudio -global pl041.audiodev=noaudio \
	-kernel "$k/vmlinuz" -dtb "$k/vexpress-v2p-ca9.dtb" -initrd "$T/initrd" \
	-append "console=ttyAMA0 panic=-1 quiet sb.limit=280 sb.idle=150" \
	-drive "if=sd,file=$T/sd.img,format=raw"
python3 "$SB_TOP/tests/vm/compare-arm" "$T/res" || fail "storbench and the card disagree (above)"
