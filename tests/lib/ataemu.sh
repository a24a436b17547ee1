# The LD_PRELOAD ATA drive emulator for CLI tests (sourced after cli.sh; see
# tests/preload/ataemu.c for what it emulates and what not).
#   ataemu_start DEV  readies DEV (a loop or zram device of the test's own)
#                     to answer ATA PASS-THROUGH; skips (77) where a preload
#                     cannot work: no ataemu.so (a static or cross build), a
#                     static binary
#   ataemu_drive CAPS a fresh drive with CAPS (ATAEMU_CAPS: security,
#                     enhanced, frozen, sanitize, block, ...), an empty log
#   ata CMD...        runs CMD with the emulator (storbench only: the test's
#                     own dd, cmp and od see the plain device)
#   ataemu_word N     IDENTIFY word N of the emulated drive, decimal
#   ataemu_log        the commands the drive answered, one line, comma after each
ataemu_start() {
	so=${SB_BUILD:-build}/preload/ataemu.so
	[ -f "$so" ] || skip "no $so (the emulator is built for dynamic native builds only)"
	command -v readelf >/dev/null || skip "no readelf to tell a static binary"
	readelf -l "$SB" 2>/dev/null | grep -q INTERP || skip "$SB is static: LD_PRELOAD cannot reach it"
	ATAEMU_PRELOAD=$(cd "$(dirname "$so")" && pwd)/ataemu.so
	# an ASan build needs its runtime first in the list
	if ldd "$SB" 2>/dev/null | grep -q libasan; then
		asan=$(${CC:-gcc} -print-file-name=libasan.so 2>/dev/null)
		[ -f "$asan" ] || skip "ASan build, and no libasan.so to preload first"
		ATAEMU_PRELOAD=$asan:$ATAEMU_PRELOAD
	fi
	mkdir -p "$T/ataemu" || fail "mkdir $T/ataemu"
	export ATAEMU_DEV=$1 ATAEMU_STATE=$T/ataemu ATAEMU_LOG=$T/ataemu/log ATAEMU_REFUSE=
	ataemu_drive security
}

ataemu_drive() {
	export ATAEMU_CAPS=$1 ATAEMU_REFUSE=
	rm -f "$ATAEMU_STATE/ata"
	: >"$ATAEMU_LOG"
}

ata() {
	LD_PRELOAD=$ATAEMU_PRELOAD "$@"
}

ataemu_word() {
	od -An -tu2 -j $((2 * $1)) -N2 "$ATAEMU_STATE/ata" | tr -d ' '
}

ataemu_log() {
	tr '\n' , <"$ATAEMU_LOG"
}
