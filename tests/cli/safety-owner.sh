# Ownership is never taken by name (issue 12, item 3): on a filesystem
# without user xattrs (ramfs here; FAT and exFAT on SD cards) a user's file
# called .storbench-*.tmp is not storbench's: not overwritten, not deleted,
# without --destroy-data. A file storbench laid out and kept counts as ours
# only where it can carry the mark (the xattr, or a verify block first).
# needs: root
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a ramfs mount)"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"

mkdir "$T/r"
cat >"$T/inside.sh" <<'SH'
SB=$1 r=$2
mount -t ramfs ramfs "$r" || exit 99
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.x", b"1")' "$r" 2>/dev/null && exit 98 # it has user xattrs after all
f=$r/.storbench-1-0.tmp
head -c 2097152 /dev/urandom >"$f"
sum=$(md5sum <"$f")
same() { [ -f "$f" ] && [ "$(md5sum <"$f")" = "$sum" ]; }
"$SB" run --rw=write --size=64k --direct=0 --quiet "$f" >/dev/null 2>"$r.err1"
[ $? = 2 ] || exit 1
same || exit 2
grep -q "refusing to overwrite '$f': storbench did not create it" "$r.err1" || exit 3
"$SB" sweep --file-sizes=64k --record-sizes=16k --tests=write --quiet "$f" >/dev/null 2>"$r.err2"
[ $? = 2 ] || exit 4
same || exit 5
"$SB" quick --size=2M --runtime=100ms --repeat=1 "$f" >/dev/null 2>"$r.err3"
same || exit 6
grep -q "read tests only" "$r.err3" || exit 7
"$SB" latency --count=2 --flood --write --buffered --quiet "$f" >/dev/null 2>"$r.err4"
[ $? = 2 ] || exit 8
same || exit 9
# kept by an earlier run: not marked here, so not taken without consent
"$SB" run --rw=write --size=64k --direct=0 --keep --quiet "$r/kept" >/dev/null 2>&1 || exit 10
"$SB" run --rw=write --size=64k --direct=0 --quiet "$r/kept" >/dev/null 2>"$r.err5"
[ $? = 2 ] || exit 11
"$SB" run --rw=write --size=64k --direct=0 --destroy-data --quiet "$r/kept" >/dev/null 2>&1 || exit 12
exit 0
SH
unshare -m sh "$T/inside.sh" "$SB" "$T/r"
rc=$?
[ $rc = 99 ] && skip "cannot mount ramfs here"
[ $rc = 98 ] && skip "this ramfs has user xattrs"
[ $rc = 0 ] || for e in 1 2 3 4 5; do [ -f "$T/r.err$e" ] && sed "s/^/err$e: /" "$T/r.err$e"; done
[ $rc = 0 ] || fail "step $rc"
ok "a user's .storbench-*.tmp on ramfs is neither overwritten nor deleted (run, sweep, quick, latency)"
