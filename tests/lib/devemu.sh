# The LD_PRELOAD eMMC emulator for CLI tests (sourced after cli.sh; see
# tests/preload/devemu.c for what it emulates and what not).
#   devemu_start DEV [HEX]  dresses DEV (a loop or zram device of the test's
#                     own) up as an eMMC whose EXT_CSD starts as HEX
#                     (default tests/fixtures/emmc51-ext-csd.hex); skips
#                     (77) where a preload cannot work: no devemu.so (a
#                     static or cross build), a static binary
#   devemu_start_sd DEV  the same DEV dressed up as an SD card (sysfs type
#                     SD, no life_time or pre_eol_info): the emulator
#                     answers no eMMC command (ETIMEDOUT, as an SD card's
#                     host after its timeout) and logs each ("sd: CMDn")
#   emu CMD...        runs CMD with the emulator (storbench only: the test's
#                     own dd, cmp and od see the plain device)
#   devemu_byte N     EXT_CSD byte N of the emulated state, decimal
#   DEVEMU_LOG        the commands the device received, one per line
devemu_start() {
	so=${SB_BUILD:-build}/preload/devemu.so
	[ -f "$so" ] || skip "no $so (the emulator is built for dynamic native builds only)"
	command -v readelf >/dev/null || skip "no readelf to tell a static binary"
	readelf -l "$SB" 2>/dev/null | grep -q INTERP || skip "$SB is static: LD_PRELOAD cannot reach it"
	DEVEMU_PRELOAD=$(cd "$(dirname "$so")" && pwd)/devemu.so
	# an ASan build needs its runtime first in the list
	if ldd "$SB" 2>/dev/null | grep -q libasan; then
		asan=$(${CC:-gcc} -print-file-name=libasan.so 2>/dev/null)
		[ -f "$asan" ] || skip "ASan build, and no libasan.so to preload first"
		DEVEMU_PRELOAD=$asan:$DEVEMU_PRELOAD
	fi
	name=${1##*/}
	real=$(realpath "/sys/class/block/$name") || fail "no sysfs entry for $1"
	S=$T/devemu
	fake=$S/sys/block/$name card=$S/sys/devices/mmc0:0001
	mkdir -p "$fake" "$card" "$S/sys/bus/mmc" || fail "mkdir $S"
	for e in "$real"/*; do
		[ "${e##*/}" = device ] || ln -s "$e" "$fake/${e##*/}"
	done
	ln -s ../../devices/mmc0:0001 "$fake/device"
	ln -s ../../bus/mmc "$card/subsystem"
	printf '%s\n' MMC >"$card/type"
	printf '%s\n' SBEMU1 >"$card/name"
	printf '%s\n' 0x000015 >"$card/manfid"
	printf '%s\n' 0x0100 >"$card/oemid"
	printf '%s\n' 0x00c0ffee >"$card/serial"
	printf '%s\n' 0x0500000000000000 >"$card/fwrev"
	printf '%s\n' "0x01 0x02" >"$card/life_time"
	printf '%s\n' 0x01 >"$card/pre_eol_info"
	printf '%s\n' 524288 >"$card/erase_size"
	export DEVEMU_DEV=$1 DEVEMU_STATE=$S DEVEMU_LOG=$S/log
	export DEVEMU_HEX=${2:-${SB_TOP:-$(dirname "$0")/../..}/tests/fixtures/emmc51-ext-csd.hex}
	: >"$DEVEMU_LOG"
	rm -f "$S/ext_csd"
}

emu() {
	LD_PRELOAD=$DEVEMU_PRELOAD "$@"
}

devemu_byte() {
	od -An -tu1 -j "$1" -N1 "$DEVEMU_STATE/ext_csd" | tr -d ' '
}

devemu_start_sd() {
	devemu_start "$1"
	card=$DEVEMU_STATE/sys/devices/mmc0:0001
	printf '%s\n' SD >"$card/type"
	printf '%s\n' SBSD1 >"$card/name"
	rm -f "$card/life_time" "$card/pre_eol_info"
}
