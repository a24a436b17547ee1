# Loop devices share data without being partitions or holders: a device is
# in use when a loop device over it (or over one of its partitions, or over
# a loop over it ...) is mounted, when the loop device named sits on a
# mounted device, and when a loop device holds a file on a filesystem that
# lives on it, mounted or lazily unmounted. Issue 12, item 1. Every device
# here is a loop device over a temporary file.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"

# loop SIZE_MB|DEVICE [losetup options]: a loop device over a new file or
# over a device, detached at exit
loop() {
	src=$1; shift
	case $src in
	/*) ;;
	*) img=$(mktemp "$T/img.XXXXXX"); truncate -s "${src}M" "$img"; src=$img ;;
	esac
	dev=$(losetup -f --show "$@" "$src" 2>/dev/null) || skip "no loop device available"
	echo "$dev" >>"$T/.loops"
	echo "$dev"
}
# stack detaches from the top (cli.sh detaches in the order made)
detach_all() {
	[ -f "$T/.loops" ] && tac "$T/.loops" | while read -r l; do losetup -d "$l" 2>/dev/null; done
	rm -f "$T/.loops"
	cleanup
}
trap detach_all EXIT INT TERM

mkdir "$T/m"

# the issue's case: A under B, B mounted; and one more level (A under B under C)
a=$(loop 64)
b=$(loop "$a")
mkfs.ext4 -q -F "$b" || fail "mkfs.ext4"
unshare -m sh -c "mount '$b' '$T/m' || exit 99; '$SB' run --rw=write --size=1M --destroy-data \
	--quiet '$a' >'$T/out' 2>'$T/err'; echo \$? >'$T/rc'; umount '$T/m'"
[ $? = 99 ] && skip "cannot mount ext4 here"
[ "$(cat "$T/rc")" = 3 ] || { cat "$T/out" "$T/err"; fail "stacked loop: exit $(cat "$T/rc"), expected 3"; }
grep -q "refusing to write to '$a': $b is mounted on $T/m" "$T/err" || { cat "$T/err"; fail "message"; }
e2fsck -fn "$b" >/dev/null 2>&1 || fail "the filesystem on $b is damaged"
c=$(loop "$b")
unshare -m sh -c "mount '$c' '$T/m' || exit 99
	for d in '$a' '$b'; do
		'$SB' run --rw=write --size=1M --destroy-data --quiet \$d 2>>'$T/err2'
		[ \$? = 3 ] || exit 1
	done"
[ $? = 0 ] || { cat "$T/err2"; fail "a loop over a loop over the target, mounted: not refused"; }
"$SB" run --rw=read --size=1M --quiet "$a" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "reads refused"; }
ok "a mounted loop device over the target (at any depth) refuses writes, not reads"

# the other way: the loop device named sits on a mounted one
unshare -m sh -c "mount '$b' '$T/m' || exit 99; '$SB' run --rw=write --size=1M --destroy-data \
	--quiet '$c' >'$T/out' 2>'$T/err'; echo \$? >'$T/rc'"
[ "$(cat "$T/rc")" = 3 ] || { cat "$T/out" "$T/err"; fail "loop over a mounted device: exit $(cat "$T/rc")"; }
grep -q "$b is mounted" "$T/err" || { cat "$T/err"; fail "message names $b"; }
ok "a loop device over a mounted device is refused"

# unmounted, the stack may be written with consent
expect_exit 0 "$SB" run --rw=write --size=1M --destroy-data --quiet "$a"
ok "written when nothing above is mounted"

# a loop device over a partition of the target: an MBR with two Linux
# partitions (1-31 MiB, 31-63 MiB) written before losetup -P scans it
img=$(mktemp "$T/img.XXXXXX")
truncate -s 64M "$img"
python3 - "$img" <<'PY' || fail "partition table"
import struct, sys
def entry(start, count):  # LBA start and count, type 0x83, CHS unused
    return struct.pack("<B3sB3sII", 0, b"\xff\xff\xff", 0x83, b"\xff\xff\xff", start, count)
mbr = bytearray(512)
mbr[446:478] = entry(2048, 61440) + entry(63488, 65536)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
p=$(loop "$img" -P)
sys=/sys/class/block/$(basename "$p")p2
i=0
while [ ! -e "$sys/dev" ] && [ $i -lt 10 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$sys/dev" ] || partx -a "$p" 2>/dev/null # the scan of -P did not happen here
[ -e "$sys/dev" ] || skip "the kernel made no partitions of $p"
# without udev there is no node: one of our own
p2=${p}p2
[ -b "$p2" ] || { p2=$T/p2; mknod "$p2" b $(tr ':' ' ' <"$sys/dev") || fail "mknod"; }
q=$(loop "$p2")
mkfs.ext4 -q -F "$q" || fail "mkfs.ext4 on $q"
unshare -m sh -c "mount '$q' '$T/m' || exit 99
	'$SB' run --rw=write --size=1M --destroy-data --quiet '$p' 2>'$T/err' >/dev/null
	[ \$? = 3 ] || exit 1
	'$SB' run --rw=write --size=1M --destroy-data --quiet '$p2' 2>>'$T/err' >/dev/null
	[ \$? = 3 ] || exit 2"
rc=$?
[ $rc = 0 ] || { cat "$T/err"; fail "loop over a partition of the target: step $rc"; }
grep -q "$q is mounted on $T/m" "$T/err" || { cat "$T/err"; fail "message names $q"; }
ok "a mounted loop device over a partition of the target is refused"

# a loop device over a file on the target's filesystem, which is lazily
# unmounted: the filesystem lives on while the loop holds the file
f=$(loop 64)
mkfs.ext4 -q -F "$f" || fail "mkfs.ext4 on $f"
unshare -m sh -c "mount '$f' '$T/m' || exit 99
	truncate -s 8M '$T/m/inner.img' || exit 98
	g=\$(losetup -f --show '$T/m/inner.img') || exit 97
	umount -l '$T/m'
	'$SB' run --rw=write --size=1M --destroy-data --quiet '$f' >'$T/out' 2>'$T/err'
	echo \$? >'$T/rc'
	losetup -d \$g"
rc=$?
[ $rc = 97 ] && skip "no loop device over a file on a loop device here"
[ $rc = 0 ] || fail "setup step $rc"
[ "$(cat "$T/rc")" = 3 ] || { cat "$T/out" "$T/err"; fail "loop over a file on the target: exit $(cat "$T/rc")"; }
grep -q "is backed by .*inner.img, a file on $f" "$T/err" || { cat "$T/err"; fail "message"; }
ok "a loop device over a file on the target's filesystem is refused"
