#!/bin/sh
# SIGTERM, and Ctrl-C (SIGINT to the plan, the terminal's foreground
# process group: the step runs in a group of its own) twice, during a
# plan's step: the step is stopped, the report, its JSON and JUnit are
# written marked INTERRUPTED with the steps that never ran, exit 128+N;
# the journal keeps the steps that finished, and the plan run again
# resumes there; the stopped soak resumes its own way (soak --resume of
# the log the plan named).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/i.ini" <<'INI'
[first]
run = verify --size=1M
[long]
run = soak --iterations=1000000 --size=1M
[last]
run = verify --size=1M
INI

# waits for the long step to be under way: its soak log (the plan names
# it) has one more iteration than it had
iterations() { # grep -c prints 0 itself when nothing matches
	n=$(grep -c '"iteration"' "$T/i-plan/long.jsonl" 2>/dev/null)
	echo "${n:-0}"
}
soak_running() {
	[ "$(iterations)" -gt "$had" ]
}
had=0

"$SB" plan --quiet "$T/i.ini" "$T/d" -o "$T/i.json" --junit="$T/i.xml" >"$T/out" 2>"$T/err" &
pid=$!
wait_until 60 soak_running || { kill -9 $pid; cat "$T/err"; fail "the long step did not start"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || { cat "$T/out" "$T/err"; fail "SIGTERM: exit $rc, expected 143"; }
head -1 "$T/out" | grep -q "^INTERRUPTED: .*i.ini (1 of 3 criteria passed, 2 not judged: their steps never ran)$" || { cat "$T/out"; fail "the verdict"; }
grep -q "^step \[long\] on '$T/d' was stopped: interrupted by SIGTERM: the plan run again resumes at it$" "$T/out" || { cat "$T/out"; fail "why"; }
grep -q "^never ran: \[long\] on '$T/d', \[last\] on '$T/d'$" "$T/out" || { cat "$T/out"; fail "the steps that never ran"; }
json "$T/i.json" "d['plan']['verdict'] == 'INTERRUPTED' and d['plan']['interrupted'] == 'SIGTERM' and [s['state'] for s in d['plan']['steps']] == ['done', 'interrupted', 'never ran']" | grep -q True || fail "JSON"
python3 - "$T/i.xml" <<'PY' || fail "JUnit"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.get('tests') == '3' and r.get('skipped') == '2', r.attrib
PY
json "$T/i-plan/journal.json" "[s['step'] for s in d['steps']] == ['first']" | grep -q True || fail "the journal"
ok "SIGTERM during a step"

# Ctrl-C twice: the step ends at once on the second, the report still
# comes; the soak resumed its own way (its log, soak --resume)
had=$(iterations)
"$SB" plan "$T/i.ini" "$T/d" -o "$T/i2.json" >"$T/out" 2>"$T/err" &
pid=$!
wait_until 60 soak_running || { kill -9 $pid; cat "$T/err"; fail "the long step did not start again"; }
kill -INT $pid
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/out" "$T/err"; fail "Ctrl-C: exit $rc, expected 130"; }
grep -q "step 1 of 3 \[first\] on '$T/d': done before (the journal)" "$T/err" || { cat "$T/err"; fail "resumed at the first unfinished step"; }
head -1 "$T/out" | grep -q "^INTERRUPTED: " || { cat "$T/out"; fail "Ctrl-C: the verdict"; }
json "$T/i2.json" "d['plan']['interrupted'] == 'SIGINT (Ctrl-C)'" | grep -q True || fail "Ctrl-C: JSON"
ok "Ctrl-C twice during a step"

grep -q "^resuming after iteration" "$T/i-plan/long.txt" || { cat "$T/err" "$T/i-plan/long.txt"; fail "the soak did not resume"; }

# run again with an end: [first] from the journal, [long] resumed to its
# new end, then [last]
had=$(iterations)
expect_exit 0 "$SB" plan "$T/i.ini" "$T/d" --set long.iterations=$((had + 2))
head -1 "$T/out" | grep -q "^PASS: .*i.ini (3 of 3 criteria passed)$" || { cat "$T/out"; fail "the plan run again"; }
grep -q "step 1 of 3 \[first\] on '$T/d': done before (the journal)" "$T/err" || { cat "$T/err"; fail "[first] again"; }
grep -q "step 2 of 3 \[long\] on '$T/d': soak --iterations=$((had + 2)) --size=1M$" "$T/err" || { cat "$T/err"; fail "[long] again"; }
[ "$(iterations)" -ge $((had + 2)) ] || fail "[long] resumed to its end"
ok "the plan run again resumes"
