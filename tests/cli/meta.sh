# storbench meta: the file tests create, stat and delete exactly --files
# files (one thread and several, over several directories, with data); the
# block and seek tests move what they say; nothing is left behind and a
# user's file in the directory is untouched; bonnie++'s CSV line has 50
# fields; a leftover of a killed run is named; Ctrl-C leaves valid partial
# results and no files; bad options create nothing.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

d="$T/dir"
mkdir "$d"
echo "my data" >"$d/user.txt"
usum=$(md5sum <"$d/user.txt")
only_user() { [ "$(ls -A "$d")" = "user.txt" ] && [ "$(md5sum <"$d/user.txt")" = "$usum" ]; }

counts() { # JSON N: every file test handled N files
	for t in seq_create seq_stat seq_delete rand_create rand_stat rand_delete; do
		[ "$(json "$1" "d['storbench']['meta']['tests']['$t']['ops']")" = "$2" ] ||
			fail "$t: $(json "$1" "d['storbench']['meta']['tests']['$t']['ops']") files, expected $2"
		[ "$(json "$1" "d['storbench']['meta']['tests']['$t']['lat_ns']['N']")" = "$2" ] ||
			fail "$t: latency samples"
	done
}

expect_exit 0 "$SB" meta --size=0 --files=300 --quiet --output="$T/a.json" "$d"
counts "$T/a.json" 300
grep -q '^seq_create ' "$T/out" || { cat "$T/out"; fail "text table"; }
only_user || fail "left behind: $(ls -A "$d")"
ok "300 files, one thread: created, stat'ed, deleted; nothing left"

expect_exit 0 "$SB" meta --size=0 --files=500 --dirs=4 --threads=3 --file-size=0:3k --quiet \
	--output="$T/b.json" "$d"
counts "$T/b.json" 500
[ "$(json "$T/b.json" "d['storbench']['meta']['params']['dirs']")" = 4 ] || fail "dirs"
only_user || fail "left behind with threads: $(ls -A "$d")"
ok "500 files with data, 4 directories, 3 threads"

expect_exit 0 "$SB" meta --files=0 --size=4M --char-size=1M --per-char=putc --seeks=300 --quiet \
	--output="$T/c.json" "$d"
for t in write rewrite read; do
	[ "$(json "$T/c.json" "d['storbench']['meta']['tests']['$t']['bytes']")" = 4194304 ] || fail "$t bytes"
done
for t in putc getc; do
	[ "$(json "$T/c.json" "d['storbench']['meta']['tests']['$t']['bytes']")" = 1048576 ] || fail "$t bytes"
done
[ "$(json "$T/c.json" "d['storbench']['meta']['tests']['seeks']['ops']")" = 300 ] || fail "seeks"
only_user || fail "block test file left: $(ls -A "$d")"
ok "block and seek tests"

# bonnie++'s CSV line alone on stdout, 50 fields
expect_exit 0 "$SB" meta --csv --quiet --size=2M --char-size=1M --seeks=100 --files=64 \
	--per-char=syscall --data=bonnie --name=box "$d"
[ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "CSV: not one line"; }
[ "$(awk -F, '{print NF}' "$T/out")" = 50 ] || { cat "$T/out"; fail "CSV: not 50 fields"; }
[ "$(cut -d, -f1 "$T/out")" = 1.98 ] || fail "CSV format version"
[ "$(cut -d, -f3 "$T/out")" = box ] || fail "CSV name"
[ "$(cut -d, -f6 "$T/out")" = 2M ] || fail "CSV file size"
[ "$(cut -d, -f22 "$T/out")" = 0.0625 ] || fail "CSV num_files (64/1024)"
expect_exit 0 "$SB" meta --format=csv --quiet --size=0 --files=32 "$d"
[ "$(awk -F, '{print NF}' "$T/out")" = 50 ] || fail "CSV without block tests"
only_user || fail "CSV runs left: $(ls -A "$d")"
ok "bonnie++ CSV: 50 fields"

# a run directory left by a killed run is named, and left alone
( sh -c 'exit 0' ) & dead=$!
wait $dead
mkdir "$d/.storbench-meta-$dead-0"
echo "storbench meta $dead" >"$d/.storbench-meta-$dead-0/.storbench-meta"
expect_exit 0 "$SB" meta --size=0 --files=16 --quiet "$d"
grep -q "$d/.storbench-meta-$dead-0" "$T/err" || { cat "$T/err"; fail "leftover not named"; }
[ -d "$d/.storbench-meta-$dead-0" ] || fail "leftover removed without asking"
rm -r "$d/.storbench-meta-$dead-0"
ok "leftover named"

# Ctrl-C: partial results, exit 130, the run directory removed
"$SB" meta --size=0 --files=1000000 --quiet --output="$T/i.json" "$d" >"$T/iout" 2>&1 &
pid=$!
# the interrupt must land inside seq_create: wait for its first files in
# the run's directory (beside the run's marker), not a fixed time a loaded
# machine may not give it (waiting for the directory alone failed once
# under load: the interrupt came before seq_create began)
for _ in $(seq 600); do
	[ "$(find "$d" -path "$d/.storbench-meta-*" -type f 2>/dev/null | wc -l)" -gt 1 ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/iout"; fail "Ctrl-C exit $rc"; }
[ "$(json "$T/i.json" "d['storbench']['interrupted']")" = True ] || fail "not marked interrupted"
[ "$(json "$T/i.json" "d['storbench']['meta']['tests']['seq_create']['interrupted']")" = True ] ||
	fail "test not marked interrupted"
only_user || fail "Ctrl-C left: $(ls -A "$d")"
ok "Ctrl-C"

# bad options: exit 2, one line naming the option, nothing created
for args in "--files=x" "--files=-1" "--dirs=0" "--dirs=2 --threads=3" "--threads=0" \
	"--size=1000k" "--size=1M --char-size=1000k" "--size=-1" "--chunk=3000" "--chunk=128" \
	"--file-size=4k:1k" "--file-size=2G" "--per-char=x" "--data=zeros" "--format=xml" \
	"--name=a,b" "--seed=0" "--files=0 --size=0" "--nosuch"; do
	# shellcheck disable=SC2086
	"$SB" meta --size=0 --files=8 $args "$d" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "meta $args: exit $rc"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "meta $args: not one line"; }
	grep -q '^storbench: --' "$T/err" || { cat "$T/err"; fail "meta $args: does not name the option"; }
	only_user || fail "meta $args created something"
done
expect_exit 2 "$SB" meta --size=0 --files=8 "$d/user.txt"
expect_exit 3 "$SB" meta --size=0 --files=8 "$T/missing"
expect_exit 2 "$SB" meta
only_user || fail "bad targets created something"
ok "bad options refused"
