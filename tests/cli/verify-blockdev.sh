# verify on a loop device: writing needs --destroy-data and never leaves the
# region; a check only reads; separate runs; damage found at its offset; a
# mounted device is never written.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
v() { json "$T/r.json" "d['storbench']['verify']$1"; }
M=1048576

loop=$(make_loop 64)
dd if=/dev/urandom of="$loop" bs=1M count=64 oflag=direct status=none || fail "filling"
region_sums() {
	echo "$(dd if="$loop" bs=1M count=8 status=none | md5sum) $(dd if="$loop" bs=1M skip=24 status=none | md5sum)"
}
all=$(md5sum <"$loop")
outside=$(region_sums)

expect_exit 2 "$SB" verify --size=8M "$loop"
grep -q "refusing to write to .$loop.: writing destroys what the device holds (add --destroy-data" "$T/err" || fail "refusal: $(cat "$T/err")"
expect_exit 1 "$SB" verify --phase=check --offset=8M --size=16M --quiet "$loop"
grep -q "4096 foreign" "$T/out" || fail "random data: $(cat "$T/out")"
[ "$(md5sum <"$loop")" = "$all" ] || fail "a refused write or a check changed the device"
ok "writes refused without --destroy-data; a check only reads"

expect_exit 0 "$SB" verify --offset=8M --size=16M --destroy-data --quiet --output="$T/r.json" "$loop"
[ "$(v "['intact']")" = 4096 ] || fail "intact: $(v "['intact']")"
[ "$(v "['direct']")" = True ] || fail "not direct on a device"
[ "$(region_sums)" = "$outside" ] || fail "data outside the region changed"
expect_exit 0 "$SB" verify --phase=check --offset=8M --size=16M --quiet "$loop"
ok "write and check inside the region, nothing outside touched"

dd if=/dev/zero of="$loop" bs=4k seek=$((12 * M / 4096)) count=1 oflag=direct conv=notrunc status=none
expect_exit 1 "$SB" verify --phase=check --offset=8M --size=16M --quiet --output="$T/r.json" "$loop"
[ "$(v "['bad_ranges'][0]['offset']")" = $((12 * M)) ] || fail "offset: $(v "['bad_ranges']")"
[ "$(v "['foreign']")" = 1 ] || fail "foreign count"
ok "a zeroed block found at its device offset"

# a mounted device is never written, whatever the options
command -v mkfs.ext4 >/dev/null || { ok "mounted case skipped: no mkfs.ext4"; exit 0; }
truncate -s 32M "$T/fs.img"
fs=$(losetup -f --show "$T/fs.img") || fail "second loop device"
echo "$fs" >>"$T/.loops"
mkfs.ext4 -q -F "$fs" || fail "mkfs"
mkdir "$T/m"
mount "$fs" "$T/m" || { ok "mounted case skipped: cannot mount here"; exit 0; }
"$SB" verify --destroy-data --size=1M "$fs" >"$T/out" 2>"$T/err"
rc=$?
umount "$T/m"
[ $rc = 3 ] || fail "mounted device: exit $rc, expected 3: $(cat "$T/err")"
grep -q "refusing to write" "$T/err" || fail "mounted: $(cat "$T/err")"
expect_exit 2 "$SB" verify --size=1M "$fs"
grep -q "destroy-data" "$T/err" || fail "signature: $(cat "$T/err")"
ok "a mounted device is refused; a filesystem needs --destroy-data"
