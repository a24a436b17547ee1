# Safety rules on a loop device over a temporary file: a mounted device is
# never written; an ext4 signature needs --destroy-data; consented writes
# stay inside --offset/--size; the device is held exclusively during a run;
# a full filesystem and bad targets get clear messages.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"

dev=$(make_loop 64)
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
sum=$(md5sum <"$dev")
ln -s "$dev" "$T/by-id-link"

# mounted (in a private mount namespace, where storbench runs too)
mkdir "$T/mnt"
unshare -m sh -c "
	mount -o ro,noload '$dev' '$T/mnt' || exit 99
	for target in '$dev' '$T/by-id-link'; do
		'$SB' run --rw=randwrite --size=1M --destroy-data --quiet \"\$target\" 2>>'$T/err'
		[ \$? = 3 ] || exit 1
		'$SB' quick --size=4M --runtime=100ms --repeat=1 --destroy-data --quiet \"\$target\" 2>>'$T/err'
		[ \$? = 3 ] || exit 2
	done
	'$SB' run --rw=randread --size=1M --quiet '$dev' >/dev/null 2>>'$T/err' || exit 3
	exit 0"
rc=$?
[ $rc = 99 ] && skip "cannot mount ext4 here"
[ $rc = 0 ] || { cat "$T/err"; fail "mounted device: step $rc"; }
grep -q "is mounted on $T/mnt" "$T/err" || { cat "$T/err"; fail "refusal does not say where"; }
[ "$(md5sum <"$dev")" = "$sum" ] || fail "mounted device changed"
ok "mounted device refused (by path and by link), reads allowed"

# unmounted ext4: refused without consent, naming what was found
"$SB" run --rw=randwrite --size=1M --quiet "$dev" 2>"$T/err"
[ $? = 2 ] || fail "ext4 signature: write not refused"
grep -q "ext4" "$T/err" || { cat "$T/err"; fail "refusal does not name ext4"; }
grep -q -- "--destroy-data" "$T/err" || fail "refusal does not name --destroy-data"
[ "$(md5sum <"$dev")" = "$sum" ] || fail "device changed without consent"
ok "ext4 signature needs --destroy-data"

# consented random writes stay inside [offset, offset+size)
dd if=/dev/urandom of="$dev" bs=1M count=64 oflag=direct status=none
mkfs.ext4 -q -F "$dev"
head_sum=$(dd if="$dev" bs=1M count=8 status=none | md5sum)
tail_sum=$(dd if="$dev" bs=1M skip=24 status=none | md5sum)
mid_sum=$(dd if="$dev" bs=1M skip=8 count=16 status=none | md5sum)
expect_exit 0 "$SB" run --rw=randwrite --bs=4k --offset=8M --size=16M --destroy-data \
	--quiet --output="$T/w.json" "$dev"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['io_bytes']")" = 16777216 ] || fail "bytes"
[ "$(dd if="$dev" bs=1M count=8 status=none | md5sum)" = "$head_sum" ] || fail "wrote before --offset"
[ "$(dd if="$dev" bs=1M skip=24 status=none | md5sum)" = "$tail_sum" ] || fail "wrote past --size"
[ "$(dd if="$dev" bs=1M skip=8 count=16 status=none | md5sum)" != "$mid_sum" ] || fail "region not written"
ok "writes stay inside the region"

# the device is held exclusively during a destructive run
w0=$(awk '{ print $5 }' "/sys/block/${dev##*/}/stat")
"$SB" run --rw=randwrite --size=8M --runtime=20s --time-based --destroy-data --quiet "$dev" &
pid=$!
# asked once the run writes to the device (writes completed, field 5 of
# its stat, past what they were before: it opened it first), not after a
# fixed sleep that a loaded machine can outlast before storbench opens it
# (and asking earlier could take the device from under storbench)
wait_until 60 sh -c '[ "$(awk "{ print \$5 }" "$1")" != "$2" ]' sh "/sys/block/${dev##*/}/stat" "$w0" ||
	{ kill $pid; fail "the run never wrote to $dev"; }
python3 -c "
import os, sys, errno
try:
    os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))
except OSError as e:
    sys.exit(0 if e.errno == errno.EBUSY else 1)
sys.exit(2)" "$dev"
rc=$?
kill -INT $pid; wait $pid
[ $rc = 0 ] || fail "second exclusive opener was not refused with EBUSY (rc $rc)"
ok "second opener gets EBUSY"

# a full filesystem: refused before starting when it cannot fit, and a
# clear ENOSPC message when it fills up during the run
mkdir "$T/small"
unshare -m sh -c "
	mount -t tmpfs -o size=4M tmpfs '$T/small' || exit 99
	'$SB' run --rw=write --size=8M --direct=0 --quiet '$T/small' 2>'$T/err1'
	[ \$? = 3 ] || exit 1
	[ -z \"\$(ls -A '$T/small')\" ] || exit 2
	'$SB' run --rw=write --bs=64k --size=2M --direct=0 --keep --quiet '$T/small/f' || exit 3
	'$SB' run --rw=trim --bs=64k --direct=0 --quiet '$T/small/f' || exit 4
	dd if=/dev/zero of='$T/small/user' bs=64k status=none 2>/dev/null
	'$SB' run --rw=write --bs=64k --direct=0 --quiet '$T/small/f' 2>'$T/err2'
	[ \$? = 1 ] || exit 5
	exit 0"
rc=$?
[ $rc = 99 ] && skip "cannot mount tmpfs here"
[ $rc = 0 ] || { cat "$T/err1" "$T/err2" 2>/dev/null; fail "full filesystem: step $rc"; }
grep -q "not enough space" "$T/err1" || { cat "$T/err1"; fail "no space message before start"; }
grep -q "no space left on the device after writing" "$T/err2" || { cat "$T/err2"; fail "ENOSPC message"; }
ok "full filesystem: clear messages"

# bad targets
"$SB" run --size=1M "$T/missing/f" 2>"$T/err"; [ $? = 3 ] || fail "missing directory: not exit 3"
"$SB" run --size=1M /dev/null 2>"$T/err"; [ $? = 2 ] || fail "character device"
grep -q "not a file, directory or block device" "$T/err" || fail "char device message"
mkdir -m 700 "$T/private"
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SB" run --size=1M "$T/private/f" 2>"$T/err"
	rc=$?
	[ $rc = 3 ] || { cat "$T/err"; fail "no permission: exit $rc"; }
	grep -q "Permission denied" "$T/err" || fail "permission message"
fi
ok "bad targets"
