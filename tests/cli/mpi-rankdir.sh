# The ranks' directories a killed run leaves (mpirun -n 3 storbench run, a
# build with make MPI=1): a rank killed with SIGKILL leaves its directory
# TARGET/storbench-rank-N, marked with the run and the files it made. The
# next run takes it over, removing exactly those files, with a warning
# naming the old run; but refuses it, touching nothing, when it holds a
# file the run did not make, a symlink in place of a listed file (its
# target untouched), a marker that does not read as storbench's, or when
# the run that made it is alive.
# needs: mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"
short="--rw=randread --bs=4k --size=2M --runtime=1s --time-based --quiet"

# 1. rank 1 killed mid-run: its directory stays, with its marker and file
mkdir "$T/d"
$MPI -n 3 "$SB" run --rw=randread --size=2M --runtime=100s --time-based --quiet "$T/d" \
	>"$T/kout" 2>"$T/kerr" &
job=$!
victim=
D1=$T/d/storbench-rank-1
for _ in $(seq 200); do
	for p in $(pgrep -x storbench); do
		{ grep -q "$T/d" "/proc/$p/cmdline" &&
			tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=1" &&
			victim=$p; } 2>/dev/null
	done
	[ -n "$victim" ] && grep -q '^file ' "$D1/.storbench-rank" 2>/dev/null && break
	sleep 0.1
done
[ -n "$victim" ] || { kill $job; fail "rank 1 never started"; }
grep -q '^file ' "$D1/.storbench-rank" || { kill $job; fail "rank 1's marker lists no file"; }
kill -9 "$victim"
wait $job
[ $? != 0 ] || fail "the job ended well after rank 1 was killed"
old_run=$(sed -n 's/^run //p' "$D1/.storbench-rank")
listed=$(sed -n 's/^file //p' "$D1/.storbench-rank")
[ -n "$old_run" ] && [ -f "$D1/$listed" ] || fail "no leftover: $(ls -la "$D1")"
grep -q "^pid $victim$" "$D1/.storbench-rank" || fail "marker: $(cat "$D1/.storbench-rank")"
cp "$D1/.storbench-rank" "$T/marker"
sum=$(cksum <"$D1/$listed")
ok "a killed rank leaves its directory, its marker naming the run and the file"

# each refusal: every rank stops, rank 1's directory exactly as it was
refused() {
	expect_exit 2 $MPI -n 3 "$SB" run $short "$T/d"
	grep -q "storbench-rank-1.*$1" "$T/err" || fail "refusal ($1): $(cat "$T/err")"
	grep -q "rank 1 refused" "$T/err" || fail "rank 1 not named: $(cat "$T/err")"
	[ "$(cksum <"$D1/$listed")" = "$sum" ] || fail "the leftover file changed ($1)"
	cmp -s "$D1/.storbench-rank" "$T/marker" || fail "the marker changed ($1)"
}

# 2. a file the run did not make: refused, nothing removed
echo mine >"$D1/notes.txt"
refused "'notes.txt', which run $old_run did not make"
[ "$(cat "$D1/notes.txt")" = mine ] || fail "notes.txt touched"
rm "$D1/notes.txt"
ok "a file the killed run did not make: refused, nothing removed"

# 3. a symlink planted under the listed name: not followed, not removed
echo precious >"$T/victim"
mv "$D1/$listed" "$T/saved"
ln -s "$T/victim" "$D1/$listed"
expect_exit 2 $MPI -n 3 "$SB" run $short "$T/d"
grep -q "is not the file run $old_run made there (a symbolic link)" "$T/err" ||
	fail "symlink: $(cat "$T/err")"
[ -L "$D1/$listed" ] || fail "the symlink was removed"
[ "$(cat "$T/victim")" = precious ] || fail "the symlink's target was touched"
rm "$D1/$listed"
mv "$T/saved" "$D1/$listed"
ok "a symlink in place of a listed file: refused, neither it nor its target touched"

# 4. a marker that does not read as storbench's
echo "something else" >>"$D1/.storbench-rank"
expect_exit 2 $MPI -n 3 "$SB" run $short "$T/d"
grep -q "does not read as storbench's (line" "$T/err" || fail "bad marker: $(cat "$T/err")"
[ "$(cksum <"$D1/$listed")" = "$sum" ] || fail "the leftover file changed (bad marker)"
cp "$T/marker" "$D1/.storbench-rank"
ok "a marker that does not parse: refused"

# 5. the leftover taken over: its file removed, a warning naming the run;
# every directory gone at the end
expect_exit 0 $MPI -n 3 "$SB" run $short "$T/d"
grep -q "reusing '$D1', left by run $old_run (pid $victim on .*removed the 1 file it made" \
	"$T/err" || fail "no warning naming the old run: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "left after the run: $(ls -laR "$T/d")"
ok "the killed run's directory is taken over, with a warning naming it"

# 6. a live run's directories are refused, and it runs on undisturbed
mkdir "$T/live"
$MPI -n 3 "$SB" run --rw=randread --size=2M --runtime=6s --time-based --quiet \
	--output="$T/live.json" "$T/live" >"$T/lout" 2>"$T/lerr" &
job=$!
for _ in $(seq 100); do
	n=$(grep -l '^file ' "$T"/live/storbench-rank-*/.storbench-rank 2>/dev/null | wc -l)
	[ "$n" = 3 ] && break
	sleep 0.1
done
[ "$n" = 3 ] || { kill $job; fail "the live run did not start"; }
expect_exit 2 $MPI -n 3 "$SB" run $short "$T/live"
grep -q "in use by a run now" "$T/err" || fail "live run's directory: $(cat "$T/err")"
wait $job || fail "the live run failed: $(cat "$T/lerr")"
[ -z "$(ls -A "$T/live")" ] || fail "the live run's directories were left: $(ls -A "$T/live")"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['jobs'][0]['read']['io_bytes'] > 0" \
	"$T/live.json" || fail "the live run's result"
ok "a live run's directory is refused, the live run ends well"
