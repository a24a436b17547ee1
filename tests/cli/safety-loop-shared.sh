# Two loop devices over one file are one storage: with an ext4 image
# mounted through one loop device, a second loop device over the same file
# (or over a hard link to it, or a loop over that one) is in use, and
# every command that writes refuses it, --destroy-data or not; so is a
# loop device over an active swap file. Before, 'verify --destroy-data' on
# the second loop device said "all blocks intact" and the mounted
# filesystem was gone (issue 26, item 1). Byte for byte: the image's
# sha256 is the same after every refusal. Every device, file and mount is
# this test's own.
# needs: root loop slow
. "$SB_TOP/tests/lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
img="$T/fs.img"
truncate -s 32M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || fail "mkfs.ext4"
loop() { # FILE|DEVICE: a loop device over it, detached at exit (last made first)
	l=$(losetup -f --show "$1" 2>/dev/null) || skip "no loop device available"
	echo "$l" >>"$T/.loops"
	echo "$l"
}
detach_all() {
	unmount "$T/mnt"
	[ -f "$T/.swaps" ] && while read -r s; do swapoff "$s" 2>/dev/null; done <"$T/.swaps"
	[ -f "$T/.loops" ] && tac "$T/.loops" | while read -r l; do losetup -d "$l" 2>/dev/null; done
	rm -f "$T/.loops"
	cleanup
}
trap detach_all EXIT INT TERM
l1=$(loop "$img")
mkdir "$T/mnt" && mount "$l1" "$T/mnt" || skip "mount is not allowed here"
echo precious >"$T/mnt/data" && sync
ln "$img" "$T/link.img" || fail "hard link"
l2=$(loop "$img")
l3=$(loop "$T/link.img")
l4=$(loop "$l3")
sum=$(sha256sum <"$img")

# every command that writes a device, with options that make it short
cmds="run --rw=write --size=1M
run --rw=read --size=1M --precondition=fill
run --rw=read --size=1M --discard-before
verify --size=1M
soak --iterations=1 --size=1M --log=$T/soak.jsonl
latency --write --count=2
cliff --size=1M
flash --open-au
spo --journal=$T/journal --duration=1s
pts --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=1
quick --size=2M --runtime=100ms --repeat=1
quick --read-only --size=2M --precondition=fill-random:1M
fio --name=x --rw=write --size=1M --filename=DEV"
n=0
for dev in "$l2" "$l3" "$l4"; do
	echo "$cmds" | while read -r line; do
		set -- $line
		cmd=$1; shift
		args=$(echo "$*" | sed "s|DEV|$dev|")
		last=$dev
		[ "$cmd" = fio ] && last=
		"$SB" $cmd $args --destroy-data $last >"$T/out" 2>"$T/err"
		rc=$?
		[ "$(sha256sum <"$img")" = "$sum" ] ||
			{ cat "$T/out" "$T/err"; fail "$cmd $args on $dev: the mounted image changed"; }
		[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "$cmd $args on $dev: exit $rc, expected 3"; }
		grep -q "refusing to write to '$dev': $l1 is mounted on $T/mnt" "$T/err" ||
			{ cat "$T/err"; fail "$cmd $args on $dev: the refusal does not name $l1's mount"; }
	done || exit 1
	n=$((n + 13))
done
grep -q "is over the same file as $l3 ($T/link.img)" "$T/err" || { cat "$T/err"; fail "message names the shared file"; }
[ -e "$T/journal" ] && fail "spo made its journal before refusing"
ok "$n writing commands refused a loop device over the mounted image, its hard link and a loop over that; the image unchanged"

# reading stays allowed
expect_exit 0 "$SB" run --rw=read --size=1M --runtime=100ms --quiet "$l2"

# a lazy unmount takes the mount away and leaves the filesystem alive (a
# file of it still open): no mount table lists it, the kernel still holds
# the loop device under it
exec 7<"$T/mnt/data"
umount -l "$T/mnt" || fail "umount -l"
for cmd in "run --rw=write --size=1M" "verify --size=1M" "latency --write --count=2"; do
	expect_exit 3 "$SB" $cmd --destroy-data "$l2"
	grep -q "refusing to write to '$l2': $l1 is held by the kernel or another program (a filesystem, mounted or lazily unmounted" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: a lazily unmounted filesystem not found"; }
	[ "$(sha256sum <"$img")" = "$sum" ] || fail "$cmd: the image changed under a lazily unmounted filesystem"
done
exec 7<&-
ok "a filesystem alive after a lazy unmount holds its loop device: the other loop device is refused"
# the filesystem lets its device go once its last file is closed
free_dev() { python3 -c "import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))" "$1" 2>/dev/null; }
wait_until 10 free_dev "$l1" || fail "$l1 still held after the last file closed"
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the mounted filesystem was damaged"
ok "reads allowed; the filesystem is whole"

# a loop device over an active swap file writes the swap under the kernel
sw=$(make_swapfile 8) || skip "no swap file of our own"
l5=$(loop "$sw")
sum=$(sha256sum <"$sw")
for cmd in "run --rw=write --size=1M" "verify --size=1M" "latency --write --count=2"; do
	expect_exit 3 "$SB" $cmd --destroy-data "$l5"
	grep -q "refusing to write to '$l5': $l5 is over $sw, an active swap file" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: not refused as over a swap file"; }
	[ "$(sha256sum <"$sw")" = "$sum" ] || fail "$cmd: the swap file changed"
done
ok "a loop device over an active swap file is refused"
exit 0
