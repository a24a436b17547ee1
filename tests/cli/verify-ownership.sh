# What verify counts as its own: never a file by its name alone. On a
# filesystem without user xattrs (ramfs here; FAT and exFAT on SD cards) a
# user's file named as storbench names its files is neither written over
# nor removed; a file whose first block is a verify block is storbench's
# and may be written again without --destroy-data. A fill of a directory
# removes the files of earlier runs (as f3write does), but not a user's
# file of such a name, nor one a running storbench holds.
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

# what storbench wrote says so in its first block
expect_exit 0 "$SB" verify --phase=write --size=1M --seed=5 --quiet "$M/v.bin"
expect_exit 0 "$SB" verify --phase=write --seed=5 --generation=2 --quiet "$M/v.bin"
expect_exit 0 "$SB" verify --phase=check --generation=2 --quiet "$M/v.bin"
ok "a file of verify blocks is storbench's without xattrs"

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
