# needs: root loop
# No eMMC command reaches an SD card (issue 26, item 17). An SD card reads
# the eMMC commands as others (CMD8 SEND_EXT_CSD as SEND_IF_COND, with no
# data: the host waits out its timeout, "cmd error -110", and the command
# fails after a minute). The emulator (tests/preload/devemu.so) dresses a
# loop device of the test's own up as an SD card (sysfs type SD) and logs
# every MMC command it receives; every path of storbench that can send one
# is run on it and the log must stay empty: info (health: EXT_CSD),
# info --set-cache (CACHE_CTRL), pts --profile=enterprise (the cache held
# off), pts/run/cliff --purge=sanitize (ERASE + SANITIZE_START) refused by
# name with exit 2 and the data intact, --purge=auto taking the block
# layer's discard, verify's health before and after.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/devemu.sh"
d=$(make_loop 16) || skip "no loop device"
devemu_start_sd "$d"

no_command() { # WHAT: the emulator received no MMC command
	[ -s "$DEVEMU_LOG" ] && fail "$1 sent MMC commands to the SD card: $(tr '\n' ' ' <"$DEVEMU_LOG")"
	return 0
}

# info: an SD card, its health without EXT_CSD
expect_exit 0 emu "$SB" info --format=json "$d"
cp "$T/out" "$T/i.json"
[ "$(json "$T/i.json" "d['storbench']['info']['device']['transport']")" = sd ] ||
	fail "the emulator did not take: $(cat "$T/out")"
no_command "info"
ok "info: an SD card, no MMC command sent"

# --set-cache: refused by name at once, before any command
for v in off on; do
	expect_exit 2 emu "$SB" info --set-cache=$v --destroy-data "$d"
	grep -q "'$d' is an SD card: the cache switch is an eMMC command (CACHE_CTRL in EXT_CSD" "$T/err" ||
		{ cat "$T/err"; fail "--set-cache=$v: not refused by name"; }
	grep -q "nothing was sent" "$T/err" || { cat "$T/err"; fail "--set-cache=$v: does not say nothing was sent"; }
	no_command "info --set-cache=$v"
done
ok "info --set-cache on an SD card: exit 2, named, no MMC command"

python3 -c "import sys; sys.stdout.buffer.write(b'\xa5' * (16 << 20))" >"$T/pattern"
write_pattern() { dd if="$T/pattern" of="$d" bs=1M oflag=direct status=none || fail "dd"; }
is_pattern() { cmp -s "$T/pattern" "$d"; }
short="--test=iops --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=5 --precondition=1 --seed=3"

# --purge=sanitize, by each command that purges: exit 2, named, data intact
write_pattern
expect_exit 2 emu "$SB" pts --destroy-data --quiet $short --purge=sanitize "$d"
grep -q -- "--purge=sanitize: '$d' is an SD card: sanitize is an eMMC command" "$T/err" ||
	{ cat "$T/err"; fail "pts --purge=sanitize: not refused by name"; }
no_command "pts --purge=sanitize"
expect_exit 2 emu "$SB" run --destroy-data --precondition=purge --purge=sanitize \
	--rw=read --bs=64k --size=1M --runtime=100ms --time-based --quiet "$d"
grep -q -- "--purge=sanitize: '$d' is an SD card" "$T/err" || { cat "$T/err"; fail "run --purge=sanitize"; }
no_command "run --precondition=purge --purge=sanitize"
expect_exit 2 emu "$SB" cliff --destroy-data --quiet --purge=sanitize --size=4M "$d"
grep -q -- "--purge=sanitize: '$d' is an SD card" "$T/err" || { cat "$T/err"; fail "cliff --purge=sanitize"; }
no_command "cliff --purge=sanitize"
is_pattern || fail "a refused sanitize changed the SD card"
ok "--purge=sanitize (pts, run, cliff) on an SD card: exit 2, named, no MMC command, data intact"

# auto: the block layer's discard, without trying the eMMC's sanitize
expect_exit 0 emu "$SB" run --destroy-data --precondition=purge --rw=read --bs=64k --size=1M \
	--runtime=100ms --time-based --quiet --output="$T/run.json" "$d"
purged=$(json "$T/run.json" "d['storbench']['state']['purge']")
[ "$purged" = discard ] || [ "$purged" = secure-discard ] || fail "auto on an SD card: $purged"
no_command "run --precondition=purge (auto)"
ok "--purge=auto on an SD card: $purged, no MMC command"

# pts enterprise: the cache cannot be switched by command: recorded, nothing sent
emu "$SB" pts --destroy-data --quiet $short --profile=enterprise --purge=none \
	--output="$T/pts.json" "$d" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "pts enterprise on an SD card: exit $rc"; }
no_command "pts --profile=enterprise"
[ "$(json "$T/pts.json" "d['storbench']['pts']['conditions']['write_cache']['changed']")" = False ] ||
	fail "pts enterprise says it switched the SD card's cache"
ok "pts --profile=enterprise on an SD card: ran (exit $rc), the cache left alone, no MMC command"

# verify reads the health before and after
expect_exit 0 emu "$SB" verify --destroy-data --quiet --size=1M "$d"
no_command "verify"
ok "verify on an SD card: no MMC command"

# the same emulator as an eMMC answers (the log would have shown a command)
printf '%s\n' MMC >"$DEVEMU_STATE/sys/devices/mmc0:0001/type"
expect_exit 0 emu "$SB" info "$d"
grep -qx send_ext_csd "$DEVEMU_LOG" || fail "the emulator logs no command of an eMMC: $(cat "$DEVEMU_LOG")"
ok "the log holds what an eMMC receives (the check above can fail)"
