# run on block devices: reads on zram (or a loop device) report the bytes the
# kernel counted for the device within 2%. (Writes: tests/cli/safety.sh.)
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root to read block devices"

devs=""
if [ -b /dev/zram0 ] && [ -w /sys/block/zram0/disksize ]; then
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] && echo 1G >/sys/block/zram0/disksize
	[ "$(cat /sys/block/zram0/disksize)" != 0 ] && devs=/dev/zram0
fi
loop=$(make_loop 64)
dd if=/dev/urandom of="$loop" bs=1M count=64 status=none oflag=direct || fail "filling loop"
devs="$devs $loop"

for dev in $devs; do
	name=$(basename "$dev")
	before=$(awk '{print $3}' "/sys/block/$name/stat")
	for e in psync io_uring libaio; do
		"$SB" --version | grep -q "engines:.* $e" || continue
		expect_exit 0 "$SB" run --engine=$e --rw=randread --bs=4k --iodepth=8 --size=32M \
			--quiet --output="$T/r.json" "$dev"
		b=$(json "$T/r.json" "d['jobs'][0]['read']['io_bytes']")
		[ "$b" = 33554432 ] || fail "$dev $e: read $b bytes"
		kb=$(json "$T/r.json" "d['disk_util'][0]['read_bytes']")
		within_pct "$kb" "$b" 2 || fail "$dev $e: kernel counted $kb bytes, we $b"
		[ "$(json "$T/r.json" "d['storbench']['target']['kind']")" = "block device" ] ||
			fail "kind"
		ok "$dev $e: $b bytes, kernel $kb"
	done
	after=$(awk '{print $3}' "/sys/block/$name/stat")
	[ "$after" -gt "$before" ] || fail "$dev: sectors read did not grow"

done

# a region past the end is refused before any I/O
"$SB" run --rw=read --offset=60M --size=8M --quiet "$loop" 2>"$T/err"
[ $? = 2 ] || fail "region past the end accepted"
grep -q -- "--size" "$T/err" || fail "message: $(cat "$T/err")"
ok "region bounds checked"
