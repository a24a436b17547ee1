# The device's own commands, on an eMMC emulated by tests/preload/devemu.so
# over a loop device of the test's own (no eMMC here): info shows the
# cache from EXT_CSD; --set-cache=off needs --destroy-data (refused: the
# state unchanged) and then writes CACHE_CTRL (EXT_CSD[33] = 0); a device
# without a cache is refused; pts --profile=enterprise holds the cache off
# for the run and switches it back on (the emulator's log and state, the
# results); --purge=sanitize erases and sanitizes (a pattern written before
# reads as the erased value), and a device that refuses the erase or has no
# sanitize is an error that leaves the pattern. Issue 14.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/devemu.sh"
d=$(make_loop 16) || skip "no loop device"
devemu_start "$d"

# info: an eMMC with its cache on
expect_exit 0 emu "$SB" info --format=json "$d"
cp "$T/out" "$T/i.json"
[ "$(json "$T/i.json" "d['storbench']['info']['device']['transport']")" = mmc ] ||
	fail "the emulator did not take: $(cat "$T/out")"
expect_exit 0 emu "$SB" info "$d"
grep -q "^  cache  *8.00 MiB, on$" "$T/out" || { cat "$T/out"; fail "cache on not shown"; }
[ "$(devemu_byte 33)" = 1 ] || fail "the emulated CACHE_CTRL starts at $(devemu_byte 33)"
ok "info: emulated eMMC, cache on"

# --set-cache: consent first, bad values named
expect_exit 2 emu "$SB" info --set-cache=off "$d"
grep -q "add --destroy-data" "$T/err" || { cat "$T/err"; fail "no consent message"; }
[ "$(devemu_byte 33)" = 1 ] || fail "refused, yet CACHE_CTRL changed"
grep -q "^switch" "$DEVEMU_LOG" && fail "refused, yet a SWITCH was sent"
expect_exit 2 emu "$SB" info --set-cache=maybe --destroy-data "$d"
grep -q -- "--set-cache.*on or off" "$T/err" || { cat "$T/err"; fail "bad value"; }
expect_exit 2 "$SB" info --set-cache=off --destroy-data "$T"
grep -q "is not a block device" "$T/err" || { cat "$T/err"; fail "a directory"; }
ok "--set-cache: refused without --destroy-data, state unchanged; bad values named"

expect_exit 0 emu "$SB" info --set-cache=off --destroy-data --output="$T/s.json" "$d"
[ "$(devemu_byte 33)" = 0 ] || fail "CACHE_CTRL is $(devemu_byte 33) after --set-cache=off"
grep -qx "switch 33 0" "$DEVEMU_LOG" || fail "no SWITCH of byte 33 to 0: $(cat "$DEVEMU_LOG")"
grep -q "^  cache  *8.00 MiB, off$" "$T/out" || { cat "$T/out"; fail "cache off not shown"; }
grep -q "^cache set off (it was on) by eMMC EXT_CSD CACHE_CTRL" "$T/out" || { cat "$T/out"; fail "no cache line"; }
[ "$(json "$T/s.json" "d['storbench']['info']['set_cache']['state'], d['storbench']['info']['set_cache']['before']")" = "('off', 'on')" ] ||
	fail "set_cache in the results: $(json "$T/s.json" "d['storbench']['info'].get('set_cache')")"
[ "$(json "$T/s.json" "d['storbench']['info']['health']['ext_csd']['cache_enabled']")" = False ] ||
	fail "health after the switch: $(json "$T/s.json" "d['storbench']['info']['health']")"
ok "--set-cache=off --destroy-data: EXT_CSD[33] = 0, info shows off, results record it"

# a device that refuses the switch: an error naming the device and the command
expect_exit 3 emu env DEVEMU_REFUSE=cache "$SB" info --set-cache=on --destroy-data "$d"
grep -q "'$d' refused SWITCH of CACHE_CTRL (EXT_CSD\[33\]) to 1" "$T/err" || { cat "$T/err"; fail "refused switch"; }
[ "$(devemu_byte 33)" = 0 ] || fail "a refused switch changed CACHE_CTRL"
expect_exit 0 emu "$SB" info --set-cache=on --destroy-data "$d"
[ "$(devemu_byte 33)" = 1 ] || fail "--set-cache=on left CACHE_CTRL at $(devemu_byte 33)"
ok "a refused switch is an error (exit 3) naming '$d' and CACHE_CTRL; on again"

# pts enterprise: off for the run, on again after it
: >"$DEVEMU_LOG"
short="--test=iops --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=5 --precondition=1 --seed=3"
emu "$SB" pts --destroy-data --quiet $short --profile=enterprise --purge=none \
	--output="$T/pts.json" "$d" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "pts: exit $rc"; }
[ "$(grep "^switch 33" "$DEVEMU_LOG" | tr '\n' ,)" = "switch 33 0,switch 33 1," ] ||
	fail "pts sent $(grep "^switch" "$DEVEMU_LOG" | tr '\n' ,) (expected off, then on)"
[ "$(devemu_byte 33)" = 1 ] || fail "pts left CACHE_CTRL at $(devemu_byte 33)"
wc=$(json "$T/pts.json" "(lambda w: (w['changed'], w['before'], w['during'], w['restored']))(d['storbench']['pts']['conditions']['write_cache'])")
[ "$wc" = "(True, 'on', 'off', True)" ] || fail "write_cache in the results: $wc"
json "$T/pts.json" "d['storbench']['pts']['deviations']" | grep -q "volatile write cache" &&
	fail "a cache held off is still a deviation"
grep -q "^device cache: switched off by eMMC EXT_CSD CACHE_CTRL (SWITCH, CMD6) for the run, switched back on after it" "$T/out" ||
	{ cat "$T/out"; fail "the text does not say it"; }
ok "pts enterprise: cache off for the run, on after it (log, state, results, text)"

# Ctrl-C during the run: the cache on again, once after the first signal
# (the run ends its way), at once on the second (the signal handler)
sigint_run() { # NSIGNALS
	: >"$DEVEMU_LOG"
	# not through emu (a function): $! must be storbench itself
	LD_PRELOAD=$DEVEMU_PRELOAD "$SB" pts --destroy-data --quiet --test=iops --round-time=1s --bs=4k --mix=0/100 \
		--max-rounds=25 --precondition=none --profile=enterprise --purge=none "$d" \
		>"$T/out" 2>"$T/err" &
	pid=$!
	i=0
	while ! grep -qx "switch 33 0" "$DEVEMU_LOG" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	grep -qx "switch 33 0" "$DEVEMU_LOG" || { kill $pid; cat "$T/err"; fail "pts never switched the cache off"; }
	sleep 0.5
	kill -INT $pid
	[ "$1" = 2 ] && sleep 0.05 && kill -INT $pid 2>/dev/null
	wait $pid
	rc=$?
	[ $rc = 130 ] || { cat "$T/out" "$T/err"; fail "pts after $1 SIGINT: exit $rc"; }
	[ "$(grep "^switch 33" "$DEVEMU_LOG" | tr '\n' ,)" = "switch 33 0,switch 33 1," ] ||
		fail "after $1 SIGINT: $(grep "^switch" "$DEVEMU_LOG" | tr '\n' ,)"
	[ "$(devemu_byte 33)" = 1 ] || fail "after $1 SIGINT the cache is off"
}
sigint_run 1
sigint_run 2
ok "pts enterprise stopped by one or two SIGINTs: the cache is on again"

# a pattern, then purges: run --precondition=purge takes the strongest the
# device offers (auto) and then only reads; pts --purge=sanitize asks by name
python3 -c "import sys; sys.stdout.buffer.write(b'\xa5' * (16 << 20))" >"$T/pattern"
write_pattern() { dd if="$T/pattern" of="$d" bs=1M oflag=direct status=none || fail "dd"; }
is_pattern() { cmp -s "$T/pattern" "$d"; }
is_zero() { cmp -s -n $((16 << 20)) /dev/zero "$d"; }
REFUSE=
purge_run() { # EXIT: a read job after the purge (it leaves the bytes alone)
	expect_exit "$1" emu env DEVEMU_REFUSE="$REFUSE" "$SB" run --destroy-data --precondition=purge \
		--rw=read --bs=64k --size=1M --runtime=200ms --time-based --quiet \
		--output="$T/run.json" "$d"
}
pts_purge() { # EXIT METHOD (EXIT ran: 0 or 1, steady or not)
	emu env DEVEMU_REFUSE="$REFUSE" "$SB" pts --destroy-data --quiet $short --profile=client \
		--purge="$2" --output="$T/pp.json" "$d" >"$T/out" 2>"$T/err"
	got=$?
	case "$1:$got" in
	ran:0 | ran:1 | 2:2 | 3:3) ;;
	*) cat "$T/out" "$T/err"; fail "pts --purge=$2 exited $got, expected $1" ;;
	esac
}

write_pattern
REFUSE=erase
pts_purge 3 sanitize
grep -q -- "--purge=sanitize: '$d' refused ERASE (CMD35/36/38)" "$T/err" || { cat "$T/err"; fail "refused erase"; }
is_pattern || fail "a refused erase changed the device"
purge_run 3
grep -q -- "'$d' refused ERASE" "$T/err" || { cat "$T/err"; fail "auto: refused erase"; }
is_pattern || fail "auto: a refused erase changed the device"
REFUSE=
ok "a refused erase: exit 3 (pts --purge=sanitize and auto), the message names '$d' and ERASE, the pattern is intact"

: >"$DEVEMU_LOG"
purge_run 0
is_zero || fail "--precondition=purge (auto) left data on an eMMC that sanitizes"
[ "$(grep -v send_ext_csd "$DEVEMU_LOG" | tr '\n' ,)" = "erase 0 32767 0x0 timeout=600000,switch 165 1 timeout=600000," ] ||
	fail "commands sent: $(cat "$DEVEMU_LOG")"
[ "$(json "$T/run.json" "d['storbench']['state']['purge']")" = sanitize ] ||
	fail "purge recorded: $(json "$T/run.json" "d['storbench']['state']")"
ok "auto on an eMMC that sanitizes: erase of sectors 0-32767, SANITIZE_START, the device reads zero, recorded"

: >"$DEVEMU_LOG"
pts_purge ran sanitize
[ "$(grep -v "send_ext_csd\|switch 33" "$DEVEMU_LOG" | tr '\n' ,)" = "erase 0 32767 0x0 timeout=600000,switch 165 1 timeout=600000," ] ||
	fail "pts --purge=sanitize sent: $(cat "$DEVEMU_LOG")"
[ "$(json "$T/pp.json" "[t['purge'] for t in d['storbench']['pts']['tests']]")" = "['sanitize']" ] ||
	fail "pts purge recorded: $(json "$T/pp.json" "[t['purge'] for t in d['storbench']['pts']['tests']]")"
ok "pts --purge=sanitize: erase + SANITIZE_START sent, recorded"

# the sanitize refused after the erase: an error that says the device was erased only
write_pattern
REFUSE=sanitize
purge_run 3
REFUSE=
grep -q -- "--purge=sanitize: '$d' refused SANITIZE_START (SWITCH of EXT_CSD\[165\]).*erased, not sanitized" "$T/err" ||
	{ cat "$T/err"; fail "refused sanitize"; }
ok "SANITIZE_START refused: exit 3, the message names '$d', the command and what was done"

# erased value 0xff (ERASED_MEM_CONT [181] = 1)
printf '\001' | dd of="$DEVEMU_STATE/ext_csd" bs=1 seek=181 conv=notrunc status=none
write_pattern
purge_run 0
python3 -c "import sys; sys.exit(open(sys.argv[1], 'rb').read(16 << 20) != b'\xff' * (16 << 20))" "$d" ||
	fail "ERASED_MEM_CONT 1: the device does not read 0xff"
ok "ERASED_MEM_CONT = 1: the device reads 0xff after the sanitize"

# no sanitize support (SEC_FEATURE_SUPPORT [231] bit 6 clear): asked by name,
# refused with nothing written; auto takes the next strongest (discard here)
printf '\025' | dd of="$DEVEMU_STATE/ext_csd" bs=1 seek=231 conv=notrunc status=none
write_pattern
pts_purge 2 sanitize
grep -q -- "--purge=sanitize: '$d' does not support sanitize" "$T/err" || { cat "$T/err"; fail "no support"; }
is_pattern || fail "a refused sanitize changed the device"
: >"$DEVEMU_LOG"
purge_run 0
purged=$(json "$T/run.json" "d['storbench']['state']['purge']")
[ "$purged" = discard ] || [ "$purged" = secure-discard ] || fail "auto without sanitize: $purged"
grep -q "^erase\|^switch 165" "$DEVEMU_LOG" && fail "auto sent eMMC commands to a device without sanitize"
ok "an eMMC without sanitize: --purge=sanitize exit 2, pattern intact; auto took $purged"

# a device without a cache: --set-cache refused
printf '\000\000\000\000' | dd of="$DEVEMU_STATE/ext_csd" bs=1 seek=249 conv=notrunc status=none
expect_exit 2 emu "$SB" info --set-cache=off --destroy-data "$d"
grep -q "'$d' reports no cache (EXT_CSD CACHE_SIZE 0)" "$T/err" || { cat "$T/err"; fail "no cache"; }
ok "a device without a cache: --set-cache refused (exit 2)"

# not an eMMC at all: the plain device, no preload
write_pattern
expect_exit 2 "$SB" pts --destroy-data --quiet $short --purge=sanitize "$d"
grep -q -- "--purge=sanitize: '$d' is no eMMC" "$T/err" || { cat "$T/err"; fail "plain loop sanitize"; }
is_pattern || fail "a refused sanitize changed the plain device"
ok "sanitize of a device that is no eMMC: refused by name"

# a partition of an eMMC: its sanitize would erase the whole card (and the
# kernel takes eMMC commands on the whole disk only, EPERM on a partition):
# refused by name with nothing sent; auto goes to the partition's own
# discard without asking the card for its EXT_CSD
truncate -s 16M "$T/parts.img" || fail "truncate"
python3 - "$T/parts.img" <<'PY' || fail "no partition table written"
import struct, sys
# an MBR: two Linux partitions, sectors 2048-10239 and 10240-32767
mbr = bytearray(512)
for i, (start, n) in enumerate([(2048, 8192), (10240, 22528)]):
    mbr[446 + 16 * i:462 + 16 * i] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", start, n)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
pd=$(losetup -f --show -P "$T/parts.img") || fail "losetup -P"
echo "$pd" >>"$T/.loops"
# the kernel's scan, else partx's (BLKPG) where the scan found nothing
test -b "${pd}p2" || partx -a "$pd" 2>/dev/null
if wait_until 10 test -b "${pd}p2"; then
	devemu_start "$pd"
	expect_exit 2 emu "$SB" pts --destroy-data --quiet $short --purge=sanitize "${pd}p2"
	grep -q -- "--purge=sanitize: '${pd}p2' is a partition, and a sanitize .* acts on the whole" "$T/err" ||
		{ cat "$T/err"; fail "sanitize of an eMMC partition"; }
	grep -q "^erase\|^switch 165" "$DEVEMU_LOG" && fail "a partition's sanitize sent $(cat "$DEVEMU_LOG")"
	: >"$DEVEMU_LOG"
	expect_exit 0 emu "$SB" run --destroy-data --precondition=purge --rw=read --bs=64k --size=1M \
		--runtime=100ms --time-based --quiet --output="$T/pp.json" "${pd}p2"
	purged=$(json "$T/pp.json" "d['storbench']['state']['purge']")
	[ "$purged" = discard ] || [ "$purged" = secure-discard ] || fail "auto on an eMMC partition: $purged"
	[ -s "$DEVEMU_LOG" ] && fail "commands sent for a partition: $(cat "$DEVEMU_LOG")"
	ok "an eMMC's partition: sanitize refused by name, auto takes $purged, no eMMC command sent"
else
	echo "skip part: no partition nodes of a loop device here (${pd}p2)"
fi
