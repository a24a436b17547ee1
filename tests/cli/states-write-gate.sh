# --precondition and --discard-before write the target even when the
# workload only reads: they pass the same write gate as the workload's
# writes. Before, with --rw=read (or quick --read-only, or a job file that
# reads) the target was opened to read, following links and skipping the
# file checks, and the fill then wrote through that: through a symlink,
# through /proc/self/fd/N, into the backing file of a mounted loop device
# (and its hard link), into an active swap file (issue 26, item 2). Byte
# for byte: every file not offered has the same sha256 after each refusal.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

victim="$T/victim.bin"
head -c 4M /dev/urandom >"$victim" || fail "victim"
ln -s "$victim" "$T/sym.bin"
vsum=$(sha256sum <"$victim")
# refused CODE MESSAGE FILE CMD...: exits CODE naming MESSAGE, FILE unchanged
refused() {
	code=$1 msg=$2 file=$3
	shift 3
	sum=$(sha256sum <"$file")
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$(sha256sum <"$file")" = "$sum" ] || { cat "$T/out" "$T/err"; fail "'$*' wrote $file"; }
	[ $rc = "$code" ] || { cat "$T/out" "$T/err"; fail "'$*' exited $rc, expected $code"; }
	grep -q -- "$msg" "$T/err" || { cat "$T/err"; fail "'$*': message does not say '$msg'"; }
}
printf '[r]\nrw=read\nbs=4k\nsize=1M\nfilename=%s\n' "$T/sym.bin" >"$T/sym.fio"

# states TARGET: every way of asking for a state over a workload that reads
states() {
	t=$1
	echo "run --rw=read --size=1M --precondition=fill $t
run --rw=read --size=1M --precondition=fill-random:1M $t
run --rw=read --size=1M --discard-before $t
run --rw=randread --size=1M --precondition=fill --discard-before $t
quick --read-only --size=2M --runtime=100ms --repeat=1 --precondition=fill-random:1M $t
quick --read-only --size=2M --runtime=100ms --repeat=1 --discard-before $t"
}
symlink="symbolic link (name the file itself)"
states "$T/sym.bin" | while read -r line; do
	refused 2 "$symlink" "$victim" "$SB" $line --destroy-data --quiet
done || exit 1
refused 2 "$symlink" "$victim" "$SB" run --precondition=fill --destroy-data --quiet "$T/sym.fio" "$T/sym.bin"
refused 2 "$symlink" "$victim" "$SB" sweep --precondition=fill --file-sizes=1M --record-sizes=64k \
	--tests=read --destroy-data --quiet "$T/sym.bin"
# /proc/self/fd/N is a link the kernel follows to the file open as N
states /proc/self/fd/5 | while read -r line; do
	refused 2 "$symlink" "$victim" "$SB" $line --destroy-data --quiet 5<"$victim"
done || exit 1
[ "$(sha256sum <"$victim")" = "$vsum" ] || fail "the victim changed"
ok "a symlink and /proc/self/fd/N: every state over a read refused, the file unchanged"

# the backing file of a mounted loop device, and a hard link to it
[ "$(id -u)" = 0 ] || skip "needs root for a mounted loop device (the symlink cases passed)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (the symlink cases passed)"
img="$T/fs.img"
truncate -s 32M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || fail "mkfs.ext4"
dev=$(losetup -f --show "$img" 2>/dev/null) || skip "no loop device available"
echo "$dev" >>"$T/.loops"
mkdir "$T/mnt" && mount "$dev" "$T/mnt" || skip "mount is not allowed here"
trap 'unmount "$T/mnt"; cleanup' EXIT INT TERM
echo precious >"$T/mnt/data" && sync
ln "$img" "$T/hard.img" || fail "hard link"
for t in "$img" "$T/hard.img"; do
	states "$t" | while read -r line; do
		refused 3 "it is the backing file of $dev" "$img" "$SB" $line --destroy-data --quiet
	done || exit 1
	printf '[r]\nrw=read\nbs=4k\nsize=1M\nfilename=%s\n' "$t" >"$T/img.fio"
	refused 3 "it is the backing file of $dev" "$img" "$SB" run --precondition=fill --destroy-data \
		--quiet "$T/img.fio" "$t"
done
umount "$T/mnt" || fail "umount"
e2fsck -fn "$img" >/dev/null 2>&1 || fail "the mounted filesystem was damaged"
ok "a mounted image and its hard link: every state over a read refused, the image unchanged"

# an active swap file (the kernel's ETXTBSY stopped the fill, not storbench)
sw=$(make_swapfile 8) || skip "no swap file of our own (the other cases passed)"
states "$sw" | while read -r line; do
	refused 3 "it is an active swap file" "$sw" "$SB" $line --destroy-data --quiet
done || exit 1
ok "an active swap file: every state over a read refused"
exit 0
