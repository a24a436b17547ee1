# verify in a directory others may write to: its files get names nobody can
# plant in advance (the process id and random bits, different in every
# run), a symlink planted under any name verify used to take is never
# followed, --destroy-data included, and a TARGET that is a symlink is not
# written through; a separate check still finds the files of a write.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

head -c 64k /dev/urandom >"$T/victim"
sum=$(md5sum <"$T/victim")
unchanged() { [ "$(md5sum <"$T/victim")" = "$sum" ] || fail "$1: the symlink's target was written"; }

# names: unpredictable, one run's differ from another's
mkdir "$T/d"
expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$T/d"
expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$T/d"
ls -A "$T/d" >"$T/names"
[ "$(wc -l <"$T/names")" = 2 ] || fail "two runs, two files: $(cat "$T/names")"
grep -qv '^\.storbench-verify-[0-9]*-[0-9a-f]\{16\}-0\.tmp$' "$T/names" &&
	fail "names without a run of their own: $(cat "$T/names")"
expect_exit 0 "$SB" verify --phase=check --quiet "$T/d"
grep -q "blocks: 256 checked, 256 intact" "$T/out" || fail "the check found no files: $(cat "$T/out")"
ok "each run's files have names of their own; a check finds them"

# files planted under a run's names, past the end its data names or past
# what the filesystem can hold: no files of that run; a newer run of
# another user's (or of no verify data) is not the one checked
mkdir "$T/p"
expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$T/p"
set -- "$T"/p/.storbench-verify-*-0.tmp
run=${1%-0.tmp}
head -c 64k /dev/urandom >"$run-1.tmp"
head -c 64k /dev/urandom >"$run-999999999.tmp"
head -c 64k /dev/urandom >"$T/p/.storbench-verify-1-0123456789abcdef-0.tmp"
touch -d tomorrow "$T/p/.storbench-verify-1-0123456789abcdef-0.tmp"
expect_exit 0 "$SB" verify --phase=check --quiet "$T/p"
grep -q "blocks: 256 checked, 256 intact" "$T/out" || fail "planted names: $(cat "$T/out")"
ok "names planted beside a run's files are not taken for its files"

# symlinks planted under the names of earlier versions and of this run's
# pattern: none is followed, none is removed, with --destroy-data too
mkdir "$T/s"
for n in .storbench-verify-0.tmp .storbench-verify-1.tmp .storbench-1-0.tmp; do
	ln -s "$T/victim" "$T/s/$n"
done
expect_exit 0 "$SB" verify --size=1M --destroy-data --quiet "$T/s"
unchanged "a directory with planted symlinks"
[ "$(find "$T/s" -type l | wc -l)" = 3 ] || fail "a planted symlink was removed"
expect_exit 0 "$SB" verify --phase=write --size=1M --destroy-data --quiet "$T/s"
expect_exit 0 "$SB" verify --phase=check --quiet "$T/s"
unchanged "a write and a check among planted symlinks"
ok "symlinks planted in the directory are never followed"

# TARGET a symlink: not written through, even with --destroy-data
ln -s "$T/victim" "$T/link"
expect_exit 2 "$SB" verify --phase=write --size=64k --destroy-data "$T/link"
grep -q "symbolic link" "$T/err" || fail "refusal: $(cat "$T/err")"
unchanged "--destroy-data on a symlink"
# a dangling one: nothing is created where it points
ln -s "$T/new-victim" "$T/dangling"
expect_exit 2 "$SB" verify --size=64k "$T/dangling"
[ -e "$T/new-victim" ] && fail "a file was created through a dangling symlink"
ok "a TARGET that is a symlink is not written through"
