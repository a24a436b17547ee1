# A regular file that a loop device reads and writes (a filesystem image
# mounted through /dev/loopN) is in use: writing it corrupts the mounted
# filesystem, so every command that writes a file refuses it, --destroy-data
# or not, and says which loop device holds it. The check goes by device and
# inode, so a renamed image is still found. Reading stays allowed. Found by
# the second adversarial pass of issue 12; the image, its loop device and
# its mount are this test's own.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
img="$T/fs.img"
truncate -s 32M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || fail "mkfs.ext4"
dev=$(losetup -f --show "$img" 2>/dev/null) || skip "no loop device available"
echo "$dev" >>"$T/.loops"
mkdir "$T/mnt" && mount "$dev" "$T/mnt" || skip "mount is not allowed here"
trap 'unmount "$T/mnt"; cleanup' EXIT INT TERM
echo precious >"$T/mnt/data" && sync
mv "$img" "$T/renamed.img" && img="$T/renamed.img"

for cmd in "verify --size=1M" "run --rw=write --size=1M" "sweep --file-sizes=1M --record-sizes=64k --tests=write --quiet" \
	"latency --write --count=2"; do
	expect_exit 3 "$SB" $cmd --destroy-data "$img"
	grep -q "refusing to write to '.*renamed.img': it is the backing file of $dev" "$T/err" ||
		{ cat "$T/out" "$T/err"; fail "$cmd: not refused as a loop device's backing file"; }
done
expect_exit 0 "$SB" run --rw=read --size=1M --runtime=100ms --quiet "$img"
umount "$T/mnt" || fail "umount"
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the mounted filesystem was damaged"
ok "a loop device's backing file is refused for writing by verify, run, sweep and latency; read freely"
exit 0
