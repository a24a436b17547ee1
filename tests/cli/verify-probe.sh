# verify --probe on a plain loop device: good, all of it usable, the first
# MiB untouched; refused without --destroy-data, on a file, with a region.
# (verify-probe-fake.sh: fake devices.)
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
p() { json "$T/r.json" "d['storbench']['verify']['probe']['$1']"; }

loop=$(make_loop 32)
sum=$(md5sum <"$loop")
expect_exit 2 "$SB" verify --probe "$loop"
grep -q "refusing to write to .$loop.: writing destroys what the device holds (add --destroy-data" "$T/err" || fail "refusal: $(cat "$T/err")"
[ "$(md5sum <"$loop")" = "$sum" ] || fail "refused probe changed the device"
expect_exit 2 "$SB" verify --probe --destroy-data "$T/loop.img"
expect_exit 2 "$SB" verify --probe --destroy-data --size=8M "$loop"
expect_exit 0 "$SB" verify --probe --destroy-data --output="$T/r.json" "$loop"
[ "$(p kind)" = good ] && [ "$(p usable_bytes)" = 33554432 ] || fail "plain loop: $(p kind) $(p usable_bytes)"
grep -q "result: good, all 32.0 MiB usable" "$T/out" || fail "text: $(cat "$T/out")"
[ "$(dd if="$loop" bs=1M count=1 status=none | md5sum)" = "$(head -c 1M /dev/zero | md5sum)" ] ||
	fail "the probe wrote into the first MiB"
ok "a real device is good; refusals"

