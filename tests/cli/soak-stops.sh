# A soak that stops before its end says so: a full target mid-write, or an
# iteration that cannot run, gives the verdict "aborted" with the reason
# (never PASS), the unwritten blocks counted as such (not "foreign"), and
# "No space left on device" on the console. A signal (SIGINT in an
# iteration, SIGTERM in the pause between two) gives "interrupted" with
# the reason and the command line that resumes it, in the text, the
# results (-o), the log's summary and the report of the log; the iteration
# it cut short says so (never "verify ok"), does not count as one of
# --iterations, and the resumed soak runs one more. A --duration soak the
# clock ends is complete (PASS). --duration counts on the monotonic clock:
# a wall clock now behind the log's (NTP stepping back on a board without
# a real-time clock) does not end a resumed soak at once.
# needs: root fuse slow kmsg
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

# ---- SIGINT in iteration 3 of 4 (faultfs holds each phase's first
# request 1.5 s: the signal comes while iteration 3 writes)
verdict_of() { # LOG: the summary line's verdict, and why it stopped
	python3 - "$1" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"type":"summary"' in l][-1]
print(s['verdict'], s.get('stopped_early', '-'), s.get('resume', '-'), sep='|')
PY
}
files_there() { ls "$1"/.storbench-verify-*.tmp >/dev/null 2>&1; }
mkdir "$FF_BACK/i"
ff_rules "delay * 0 4096 1500000"
"$SB" soak --iterations=4 --size=1M --log="$T/i.jsonl" --output="$T/i.json" "$FF_MNT/i" \
	>"$T/i.out" 2>"$T/i.err" &
pid=$!
wait_until 120 sh -c '[ "$(grep -c "\"type\":\"iteration\"" "$1")" = 2 ]' sh "$T/i.jsonl" &&
	wait_until 30 files_there "$FF_BACK/i" || { kill -9 $pid; fail "SIGINT: iteration 3 did not start"; }
kill -INT $pid
wait $pid
rc=$?
ff_rules
[ $rc = 130 ] || { cat "$T/i.out" "$T/i.err"; fail "SIGINT: exit $rc, expected 130"; }
grep -q 'PASS' "$T/i.out" && { cat "$T/i.out"; fail "SIGINT: PASS"; }
grep -q '^    3  .*verify cut short  errors 0  (interrupted)$' "$T/i.out" ||
	{ cat "$T/i.out"; fail "SIGINT: the cut iteration does not say so"; }
grep -q '^soak: 3 iterations (1 cut short), 0 failed: INTERRUPTED$' "$T/i.out" ||
	{ cat "$T/i.out"; fail "SIGINT: verdict"; }
grep -q '^  stopped early: interrupted by SIGINT (Ctrl-C) in iteration 3 (2 of 4 whole)$' "$T/i.out" ||
	{ cat "$T/i.out"; fail "SIGINT: reason"; }
grep -qxF "  resume with: $SB soak --resume=$T/i.jsonl" "$T/i.out" ||
	{ cat "$T/i.out"; fail "SIGINT: the resume line"; }
[ "$(verdict_of "$T/i.jsonl")" = "interrupted|interrupted by SIGINT (Ctrl-C) in iteration 3 (2 of 4 whole)|$SB soak --resume=$T/i.jsonl" ] ||
	fail "SIGINT: the log's summary: $(verdict_of "$T/i.jsonl")"
[ "$(json "$T/i.json" "d['storbench']['soak']['verdict'], d['storbench']['interrupted']")" = "('interrupted', True)" ] ||
	fail "SIGINT: the results"
[ "$(json "$T/i.json" "d['storbench']['soak']['iteration_records'][2]['interrupted']")" = True ] ||
	fail "SIGINT: the cut iteration's record"
expect_exit 0 "$SB" report "$T/i.jsonl"
grep -q '^3 iterations (1 cut short), 0 failed: INTERRUPTED$' "$T/out" &&
	grep -q '^stopped early: interrupted by SIGINT' "$T/out" &&
	grep -qxF "resume with: $SB soak --resume=$T/i.jsonl" "$T/out" || { cat "$T/out"; fail "SIGINT: the report"; }
"$SB" report "$T/i.jsonl" --format=json >"$T/r.json" 2>/dev/null
[ "$(json "$T/r.json" "d['inputs'][0]['soak']['verdict']")" = interrupted ] || fail "SIGINT: the report's JSON"
ok "SIGINT in iteration 3: INTERRUPTED with the reason and the resume line, in the text, results, log and report"
# the resume: the cut iteration is not one of the 4
expect_exit 0 "$SB" soak --resume="$T/i.jsonl"
grep -q '^resuming after iteration 3 (cut short: it does not count, one more runs)$' "$T/out" ||
	{ cat "$T/out"; fail "resume: not said"; }
grep -q '^soak: 5 iterations (1 cut short), 0 failed: PASS$' "$T/out" || { cat "$T/out"; fail "resume: verdict"; }
ok "resumed: 4 whole iterations and the cut one, PASS"

# ---- SIGTERM in the pause of a --duration soak: interrupted, nothing cut
"$SB" soak --duration=1h --idle=1h --size=1M --log="$T/t.jsonl" "$FF_MNT/i" >"$T/t.out" 2>&1 &
pid=$!
wait_until 60 grep -q '"type":"iteration"' "$T/t.jsonl" || { kill -9 $pid; fail "SIGTERM: no iteration"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || { cat "$T/t.out"; fail "SIGTERM: exit $rc, expected 143"; }
grep -q '^soak: 1 iteration, 0 failed: INTERRUPTED$' "$T/t.out" &&
	grep -q '^  stopped early: interrupted by SIGTERM after iteration 1$' "$T/t.out" ||
	{ cat "$T/t.out"; fail "SIGTERM: verdict"; }
ok "SIGTERM between iterations of a --duration soak: INTERRUPTED after iteration 1"

# ---- SIGHUP (the SSH session of an unattended soak dropped): the same
# stop, results and log written, its files removed; before, the soak died
# at once, left its file behind and wrote no verdict
mkdir "$T/h"
"$SB" soak --duration=1h --idle=1h --size=1M --log="$T/h.jsonl" -o "$T/h.json" "$T/h" >"$T/h.out" 2>&1 &
pid=$!
wait_until 60 grep -q '"type":"iteration"' "$T/h.jsonl" || { kill -9 $pid; fail "SIGHUP: no iteration"; }
kill -HUP $pid
wait $pid
rc=$?
[ $rc = 129 ] || { cat "$T/h.out"; fail "SIGHUP: exit $rc, expected 129"; }
grep -q '^  stopped early: interrupted by SIGHUP (the terminal hung up) after iteration 1$' "$T/h.out" ||
	{ cat "$T/h.out"; fail "SIGHUP: verdict"; }
[ "$(json "$T/h.json" "d['storbench']['soak']['verdict']")" = interrupted ] || fail "SIGHUP: no results marked interrupted"
[ "$(verdict_of "$T/h.jsonl" | cut -d'|' -f1)" = interrupted ] || fail "SIGHUP: the log: $(verdict_of "$T/h.jsonl")"
[ -z "$(ls -A "$T/h")" ] || fail "SIGHUP: left $(ls -A "$T/h")"
ok "SIGHUP between iterations: INTERRUPTED, results and log written, nothing left"

# ---- a --duration soak the clock ends is complete
expect_exit 0 "$SB" soak --duration=1s --size=1M --log="$T/c.jsonl" "$FF_MNT/i"
grep -q '^soak: [0-9]* iterations\?, 0 failed: PASS$' "$T/out" || { cat "$T/out"; fail "clock: verdict"; }
grep -q 'stopped early' "$T/out" && fail "clock: stopped early"
[ "$(verdict_of "$T/c.jsonl")" = "pass|-|-" ] || fail "clock: the log's summary"
ok "a --duration soak the clock ends: PASS"

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
