# What verify counts as its own: a file with storbench's mark (the xattr
# user.storbench), as every command counts it; never a file by its name,
# nor by its data. On a filesystem without user xattrs (ramfs here; FAT
# and exFAT on SD cards) a user's file named as storbench names its files
# is neither written over nor removed, and a file an earlier verify kept
# (--phase=write, --keep), verify blocks and all, is checked but written
# again only with --destroy-data (issue 26, item 5). A fill of a directory
# removes the files of earlier runs (as f3write does), but not a user's
# file of such a name, nor one a running storbench holds.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root to mount ramfs and tmpfs"
M=$T/ram
mkdir "$M"
mount -t ramfs none "$M" 2>/dev/null || skip "cannot mount ramfs"
umount_all() { unmount "$T/tmpfs" "$M"; cleanup; }
trap umount_all EXIT INT TERM

user_file() { head -c "$2" /dev/urandom >"$1"; md5sum <"$1" >"$1.sum"; }
same() { [ -f "$1" ] && [ "$(md5sum <"$1")" = "$(cat "$1.sum")" ] || fail "$2: '$1' was changed or removed"; }

# a user's files with the names storbench gives its own
mkdir "$M/d"
user_file "$M/d/.storbench-verify-0.tmp" 64k
user_file "$M/d/.storbench-verify-1234-0123456789abcdef-0.tmp" 64k
expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$M/d"
expect_exit 0 "$SB" verify --size=1M --quiet "$M/d"
same "$M/d/.storbench-verify-0.tmp" "a write in the directory"
same "$M/d/.storbench-verify-1234-0123456789abcdef-0.tmp" "a write in the directory"
user_file "$M/.storbench-99-0.tmp" 1M
expect_exit 2 "$SB" verify --phase=write "$M/.storbench-99-0.tmp"
grep -q "refusing to overwrite" "$T/err" || fail "refusal: $(cat "$T/err")"
same "$M/.storbench-99-0.tmp" "a TARGET named as storbench names its files"
ok "a user's file is not taken for storbench's by its name"

# a file verify kept is data like any other where nothing can mark it:
# checked, but written again (by verify, run or sweep) only with consent
kept() { # CMD...: refused, the kept file byte for byte as it was
	expect_exit 2 "$@"
	grep -q "refusing to overwrite '$M/v.bin'" "$T/err" || fail "$*: $(cat "$T/err")"
	same "$M/v.bin" "$*"
}
expect_exit 0 "$SB" verify --phase=write --size=1M --seed=5 --quiet "$M/v.bin"
md5sum <"$M/v.bin" >"$M/v.bin.sum"
expect_exit 0 "$SB" verify --phase=check --quiet "$M/v.bin"
kept "$SB" verify --phase=write --seed=5 --generation=2 --quiet "$M/v.bin"
kept "$SB" verify --seed=6 --quiet "$M/v.bin"
kept "$SB" verify --phase=write --offset=512k --quiet "$M/v.bin"
kept "$SB" run --rw=randwrite --size=64k --direct=0 --quiet "$M/v.bin"
kept "$SB" sweep --file-sizes=64k --record-sizes=16k --tests=write --quiet "$M/v.bin"
expect_exit 0 "$SB" verify --phase=write --seed=5 --generation=2 --destroy-data --quiet "$M/v.bin"
expect_exit 0 "$SB" verify --phase=check --generation=2 --quiet "$M/v.bin"
ok "a file verify kept on ramfs is written again only with --destroy-data (verify, run, sweep)"

# run --keep's file, the same (the mark is the one rule)
expect_exit 0 "$SB" run --rw=write --size=64k --direct=0 --keep --quiet "$M/r.bin"
expect_exit 2 "$SB" verify --phase=write --quiet "$M/r.bin"
ok "run --keep's file on ramfs is not verify's to write either"

# a fill removes the files earlier runs left, and nothing else
S=$T/tmpfs
mkdir "$S"
mount -t tmpfs -o size=96m tmpfs "$S" 2>/dev/null || skip "cannot mount tmpfs"
# (the user's file first: a fill leaves no room for one after it)
user_file "$S/.storbench-verify-1234-0123456789abcdef-0.tmp" 64k
expect_exit 0 "$SB" verify --phase=write --quiet "$S"
set -- $(ls "$S"/.storbench-verify-*-0.tmp | grep -v 1234-0123456789abcdef)
first=$1
expect_exit 0 "$SB" verify --phase=write --quiet --output="$T/r.json" "$S"
[ -e "$first" ] && fail "the fill left an earlier run's file"
same "$S/.storbench-verify-1234-0123456789abcdef-0.tmp" "a fill"
[ "$(json "$T/r.json" "d['storbench']['verify']['size']")" -gt $((16 << 20)) ] ||
	fail "the fill did not take the space the earlier run's file held"
ok "a fill removes earlier runs' files, not a user's"
# the fill took all the room: its files go before the next checks
ls "$S"/.storbench-verify-*.tmp | grep -v 1234-0123456789abcdef | xargs rm -f

# tmpfs keeps user xattrs (Linux 6.6 and later): there a kept file is
# marked, and storbench's to write again
if python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.probe", b"1")' \
	"$S/.storbench-verify-1234-0123456789abcdef-0.tmp" 2>/dev/null; then
	expect_exit 0 "$SB" verify --phase=write --size=1M --keep --quiet "$S/k.bin"
	expect_exit 0 "$SB" verify --phase=write --generation=2 --quiet "$S/k.bin"
	expect_exit 0 "$SB" run --rw=randwrite --size=64k --direct=0 --quiet "$S/k.bin"
	ok "on tmpfs with user xattrs a kept file is marked and storbench's"
else
	expect_exit 0 "$SB" verify --phase=write --size=1M --keep --quiet "$S/k.bin"
	expect_exit 2 "$SB" verify --phase=write --generation=2 --quiet "$S/k.bin"
	ok "on tmpfs without user xattrs a kept file is not storbench's"
fi

# FUSE without user xattrs (faultfs passing through to ramfs, which has
# none): the same as ramfs itself
. "$(dirname "$0")/../lib/faultfs.sh"
FF_BACK=$M/back
trap 'fuse_unmount "$FF_MNT" "$FF_PID"; unmount "$T/tmpfs" "$M"; cleanup' EXIT INT TERM
ff_start
expect_exit 0 "$SB" verify --phase=write --size=1M --direct=0 --quiet "$FF_MNT/f.bin"
sum=$(md5sum <"$FF_BACK/f.bin")
expect_exit 2 "$SB" verify --phase=write --direct=0 --generation=2 --quiet "$FF_MNT/f.bin"
expect_exit 2 "$SB" run --rw=randwrite --size=64k --direct=0 --quiet "$FF_MNT/f.bin"
[ "$(md5sum <"$FF_BACK/f.bin")" = "$sum" ] || fail "FUSE: the kept file changed"
expect_exit 0 "$SB" verify --phase=check --direct=0 --quiet "$FF_MNT/f.bin"
ok "on FUSE without user xattrs a kept file is not storbench's"
