# The LD_PRELOAD NVMe emulator for CLI tests (sourced after cli.sh; see
# tests/preload/nvmeemu.c for what it emulates and what not).
#   nvmeemu_start DEV  dresses DEV (a loop or zram device of the test's own)
#                     up as NVMe namespace 1 of controller nvmeemu0 (sysfs:
#                     model, serial, firmware, transport pcie); skips (77)
#                     where a preload cannot work: no nvmeemu.so (a static
#                     or cross build), a static binary
#   nvme CMD...       runs CMD with the emulator (storbench only: the test's
#                     own dd, cmp and od see the plain device); the device's
#                     capabilities come from NVMEEMU_* in the environment
#   nvmeemu_cmds      the admin commands answered, one a line ("admin 0x80
#                     nsid=0x1 cdw10=0x200"), the identity's log reads left
#                     out (SMART: health; Firmware Slot Information)
#   nvmeemu_drop_logs removes those reads from NVMEEMU_LOG itself
#   NVMEEMU_LOG       every command answered, one per line
#   $NVMEEMU_STATE/vwc  the volatile write cache's WCE (0/1) once set
nvmeemu_start() {
	so=${SB_BUILD:-build}/preload/nvmeemu.so
	[ -f "$so" ] || skip "no $so (the emulator is built for dynamic native builds only)"
	command -v readelf >/dev/null || skip "no readelf to tell a static binary"
	readelf -l "$SB" 2>/dev/null | grep -q INTERP || skip "$SB is static: LD_PRELOAD cannot reach it"
	NVMEEMU_PRELOAD=$(cd "$(dirname "$so")" && pwd)/nvmeemu.so
	# an ASan build needs its runtime first in the list
	if ldd "$SB" 2>/dev/null | grep -q libasan; then
		asan=$(${CC:-gcc} -print-file-name=libasan.so 2>/dev/null)
		[ -f "$asan" ] || skip "ASan build, and no libasan.so to preload first"
		NVMEEMU_PRELOAD=$asan:$NVMEEMU_PRELOAD
	fi
	name=${1##*/}
	real=$(realpath "/sys/class/block/$name") || fail "no sysfs entry for $1"
	S=$T/nvmeemu
	fake=$S/sys/block/$name ctrl=$S/sys/devices/nvmeemu0
	mkdir -p "$fake" "$ctrl" "$S/sys/class/nvme" || fail "mkdir $S"
	for e in "$real"/*; do
		[ "${e##*/}" = device ] || ln -s "$e" "$fake/${e##*/}"
	done
	ln -s ../../devices/nvmeemu0 "$fake/device"
	ln -s ../../class/nvme "$ctrl/subsystem"
	printf '%s\n' "storbench nvmeemu" >"$ctrl/model"
	printf '%s\n' EMU0001 >"$ctrl/serial"
	printf '%s\n' 1.0 >"$ctrl/firmware_rev"
	printf '%s\n' pcie >"$ctrl/transport"
	export NVMEEMU_DEV=$1 NVMEEMU_STATE=$S NVMEEMU_LOG=$S/log
	: >"$NVMEEMU_LOG"
	rm -f "$S/sanitize" "$S/vwc"
}

nvme() {
	LD_PRELOAD=$NVMEEMU_PRELOAD "$@"
}

nvmeemu_cmds() {
	grep '^admin' "$NVMEEMU_LOG" | grep -v '^admin 0x02 nsid=0xffffffff cdw10=0x7f000[23]$'
}
nvmeemu_drop_logs() {
	sed -i '/^admin 0x02 nsid=0xffffffff cdw10=0x7f000[23]$/d' "$NVMEEMU_LOG"
}
