# Symlinks planted in a shared directory (issue 12, item 2): test files are
# new (O_EXCL, never through a symlink) under names nobody can guess, and
# used by descriptor, never re-opened by name; a file TARGET that is a
# symlink is never written through, --destroy-data or not. The victim is a
# file of the test's own.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

victim=$T/victim
head -c 65536 /dev/urandom >"$victim"
sum=$(md5sum <"$victim")
intact() { [ "$(md5sum <"$victim")" = "$sum" ] || fail "$1: the victim was written"; }

# names: the process id and 64 random bits, mode 0600
mkdir "$T/d"
expect_exit 0 "$SB" run --rw=write --size=64k --direct=0 --keep --quiet "$T/d"
f=$(ls -A "$T/d")
echo "$f" | grep -Eq '^\.storbench-[0-9]+-[0-9a-f]{16}\.tmp$' || fail "name: $f"
[ "$(stat -c %a "$T/d/$f")" = 600 ] || fail "mode $(stat -c %a "$T/d/$f")"
rm -f "$T/d/$f"
ok "test files are named .storbench-PID-RANDOM.tmp, mode 0600"

# a symlink planted under the name the next process would have used (exec
# keeps the shell's pid): neither followed nor in the way
plant_and_run() { # DIR CMD...: a symlink to the victim at DIR/.storbench-PID-0.tmp, then CMD
	sh -c 'd=$1; v=$2; shift 2; ln -s "$v" "$d/.storbench-$$-0.tmp"; exec "$@"' sh "$@"
}
for cmd in "run --rw=write --size=64k --direct=0" "run --rw=randrw --size=64k --direct=0" \
	"sweep --file-sizes=64k --record-sizes=16k --tests=write,read" \
	"latency --count=3 --flood --size=64k --buffered" \
	"quick --size=2M --runtime=100ms --repeat=1"; do
	rm -rf "$T/s"; mkdir "$T/s"
	plant_and_run "$T/s" "$victim" "$SB" $cmd --quiet "$T/s" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 0 ] || { cat "$T/err"; fail "$cmd: exit $rc with a planted symlink"; }
	intact "$cmd"
	[ "$(ls -A "$T/s" | wc -l)" = 1 ] && [ -L "$T/s/$(ls -A "$T/s")" ] ||
		fail "$cmd: left $(ls -A "$T/s")"
done
ok "a symlink planted under a predictable name is never followed nor in the way"

# the test file swapped for a symlink while the run goes on: the repeats
# reopen the file, not the name
mkdir "$T/w"
"$SB" run --rw=write --bs=4k --size=64k --runtime=1s --time-based --repeat=3 --direct=0 \
	--quiet "$T/w" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ -z "$(ls -A "$T/w")" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
f=$(ls -A "$T/w")
[ -n "$f" ] || fail "no test file appeared"
mv "$T/w/$f" "$T/w/moved" && ln -s "$victim" "$T/w/$f"
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$T/err"; fail "swapped: exit $rc"; }
intact "a swapped name"
[ -L "$T/w/$f" ] || fail "the planted symlink was removed"
grep -q "did not remove '$T/w/$f': it is no longer the file storbench created" "$T/err" ||
	fail "message: $(cat "$T/err")"
ok "a test file swapped for a symlink during the run: the run goes on in its own file"

# TARGET a symlink to a regular file: read through, never written through
ln -s "$victim" "$T/link"
for cmd in "run --rw=write --size=4k --destroy-data --direct=0" \
	"sweep --file-sizes=64k --record-sizes=16k --tests=write --destroy-data" \
	"latency --count=3 --flood --write --destroy-data --buffered"; do
	"$SB" $cmd --quiet "$T/link" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/out" "$T/err"; fail "$cmd: exit $rc, expected 2"; }
	grep -q "refusing to write to '$T/link': it is a symbolic link (name the file itself)" \
		"$T/err" || fail "$cmd: message: $(cat "$T/err")"
	intact "$cmd"
done
expect_exit 0 "$SB" run --rw=read --size=64k --direct=0 --quiet "$T/link"
ok "a symlink TARGET is read through, never written through"
