# A soak that stops before its end says so: a full target mid-write, or an
# iteration that cannot run, gives the verdict "aborted" with the reason
# (never PASS), the unwritten blocks counted as such (not "foreign"), and
# "No space left on device" on the console. --duration counts on the
# monotonic clock: a wall clock now behind the log's (NTP stepping back on
# a board without a real-time clock) does not end a resumed soak at once.
# needs: root fuse
. "$SB_TOP/tests/lib/cli.sh"

last() { # LOG KEY: the summary line's value of KEY
	python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
s = [l for l in lines if l.get('type') == 'summary'][-1]
print(s.get(sys.argv[2]))
PY
}

# ---- an iteration that cannot run: not enough space for the region
if [ "$(id -u)" = 0 ] && mkdir "$T/small" && mount -t tmpfs -o size=1m tmpfs "$T/small" 2>/dev/null; then
	"$SB" soak --iterations=2 --size=4M --log="$T/s.jsonl" "$T/small" >"$T/out" 2>"$T/err"
	rc=$?
	umount "$T/small"
	[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "no room: exit $rc, expected 3"; }
	grep -q 'ABORTED' "$T/out" || { cat "$T/out"; fail "no room: not ABORTED"; }
	grep -q 'PASS' "$T/out" && fail "no room: PASS"
	grep -q '^  stopped early: iteration 1 could not run: not enough space' "$T/out" ||
		{ cat "$T/out"; fail "no room: no reason"; }
	[ "$(last "$T/s.jsonl" verdict)" = aborted ] || fail "no room: log verdict"
	last "$T/s.jsonl" aborted_reason | grep -q 'not enough space' || fail "no room: log reason"
	ok "an iteration that cannot run: ABORTED with the reason"
fi

# ---- a full target in the middle of a write (faultfs: writes past 1 MiB fail)
. "$SB_TOP/tests/lib/faultfs.sh"
ff_start
ff_rules "enospc * 1048576 65536"
"$SB" soak --iterations=3 --size=2M --log="$T/f.jsonl" --output="$T/f.json" "$FF_MNT" \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "full: exit $rc, expected 3"; }
grep -q '^    1 .*No space left on device: [0-9]* blocks not written' "$T/out" ||
	{ cat "$T/out"; fail "full: the iteration does not say it"; }
grep -q '^soak: 1 iteration, 0 failed: ABORTED$' "$T/out" || { cat "$T/out"; fail "full: verdict"; }
grep -q '^  stopped early: No space left on device: [0-9]* blocks of iteration 1 could not be written, from offset 1048576$' "$T/out" ||
	{ cat "$T/out"; fail "full: reason"; }
python3 - "$T/f.jsonl" "$T/f.json" <<'PY' || fail "full: log and results"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
it = [l for l in lines if l.get('type') == 'iteration']
assert len(it) == 1, it
assert it[0]['unwritten_blocks'] > 0 and it[0]['verify']['foreign'] == 0, it[0]
assert it[0]['io_errors'] == 0, it[0]
assert lines[-1]['verdict'] == 'aborted', lines[-1]
r = json.load(open(sys.argv[2]))['storbench']['soak']
assert r['summary']['verdict'] == 'aborted' if 'summary' in r else r['verdict'] == 'aborted', r.keys()
PY
ok "a full target mid-write: ABORTED, blocks unwritten (not foreign), No space left on device"
ff_rules

# ---- --duration on the monotonic clock: a log from "the future" resumes
mkdir "$T/m"
# killed after its first iteration, which must come well inside --duration
# (10 s: a loaded machine, an ASan build, can take seconds over one), and
# waited for 60 s at most, not 5
"$SB" soak --duration=10s --size=1M --idle=200ms --log="$T/m.jsonl" "$T/m" >/dev/null 2>&1 &
pid=$!
wait_until 60 sh -c '[ "$(grep -c "\"type\":\"iteration\"" "$1" 2>/dev/null)" -ge 1 ]' sh "$T/m.jsonl" ||
	{ kill -9 $pid; fail "--duration soak: no iteration in 60 s"; }
kill -9 $pid; wait $pid 2>/dev/null
python3 - "$T/m.jsonl" <<'PY'
import json, sys
day = 86400 * 10**9
out = []
for l in open(sys.argv[1]):
    try:
        d = json.loads(l)
    except ValueError:
        continue # the line SIGKILL cut
    if d.get('type') == 'summary':
        continue
    for k in ('started_ns', 'start_ns', 'end_ns'):
        if k in d:
            d[k] += day # written when the clock was a day ahead
    out.append(json.dumps(d))
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
PY
before=$(grep -c '"type":"iteration"' "$T/m.jsonl")
expect_exit 0 "$SB" soak --resume="$T/m.jsonl"
after=$(grep -c '"type":"iteration"' "$T/m.jsonl")
[ "$after" -gt "$before" ] || { cat "$T/out" "$T/err"; fail "resumed with the clock behind the log: no iteration ran ($before, $after)"; }
ok "a wall clock behind the log does not end a --duration soak ($before then $after iterations)"
exit 0
