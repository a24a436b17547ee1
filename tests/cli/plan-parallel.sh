#!/bin/sh
# plan --parallel: with several TARGETs, each target's steps at once, a
# process each, its lines on stderr prefixed with its target and kept in
# its own log (target-N.log in the plan's directory); one report with a
# verdict per target and overall; the journal, written by every target's
# process, keeps every step of every target (run again: all done before).
# Two soaks that never end on their own both under way prove the targets
# run at once; SIGTERM to the plan stops both, the report says
# INTERRUPTED for each.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/a" "$T/b" "$T/c"
cat >"$T/p.ini" <<'INI'
[global]
name = par
[one]
run = verify --size=2M
expect = damaged_blocks == 0
[two]
run = verify --size=1M
INI

expect_exit 0 "$SB" plan --parallel "$T/p.ini" "$T/a" "$T/b" "$T/c" -o "$T/p.json"
head -1 "$T/out" | grep -q "^PASS: par (9 of 9 criteria passed)$" || { cat "$T/out"; fail "the verdict"; }
for t in a b c; do
	grep -qxF "target: $T/$t: PASS (3 of 3 criteria passed)" "$T/out" || { cat "$T/out"; fail "target $t's verdict"; }
	grep -qF "$T/$t: storbench: step 2 of 2 [two] on '$T/$t': verify --size=1M" "$T/err" ||
		{ cat "$T/err"; fail "target $t's lines not prefixed"; }
done
n=1
for t in a b c; do
	log="$T/par-plan/target-$n.log"
	grep -qF "step 1 of 2 [one] on '$T/$t': verify --size=2M" "$log" || { cat "$log"; fail "target $t's log"; }
	grep -q "on '$T/[^$t]'" "$log" && { cat "$log"; fail "target $t's log has another's lines"; }
	n=$((n + 1))
done
json "$T/p.json" "[t['verdict'] for t in d['plan']['targets']] == ['PASS'] * 3 and d['plan']['verdict'] == 'PASS' and len(d['plan']['steps']) == 6" | grep -q True || fail "JSON"
json "$T/par-plan/journal.json" "sorted((s['step'], s['target']) for s in d['steps']) == sorted((s, '$T/' + t) for s in ('one', 'two') for t in 'abc')" | grep -q True ||
	{ cat "$T/par-plan/journal.json"; fail "the journal lost a step of a target"; }
ok "three targets at once: a verdict each, a log each, the journal whole"

expect_exit 0 "$SB" plan --parallel "$T/p.ini" "$T/a" "$T/b" "$T/c"
[ "$(grep -c 'done before (the journal)' "$T/err")" = 6 ] || { cat "$T/err"; fail "run again: not all done before"; }
ok "run again: every step of every target done before"

cat >"$T/s.ini" <<'INI'
[global]
name = soaks
[long]
run = soak --iterations=1000000 --size=1M
INI
running() {
	grep -q '"iteration"' "$T/soaks-plan/long-1.jsonl" 2>/dev/null &&
		grep -q '"iteration"' "$T/soaks-plan/long-2.jsonl" 2>/dev/null
}
"$SB" plan --parallel "$T/s.ini" "$T/a" "$T/b" -o "$T/s.json" >"$T/out" 2>"$T/err" &
pid=$!
wait_until 60 running || { kill -TERM $pid; wait $pid; cat "$T/err"; fail "the two soaks were not under way at once"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || { cat "$T/out" "$T/err"; fail "SIGTERM: exit $rc, expected 143"; }
head -1 "$T/out" | grep -q "^INTERRUPTED: soaks " || { cat "$T/out"; fail "the verdict"; }
json "$T/s.json" "[s['state'] for s in d['plan']['steps']] == ['interrupted'] * 2 and [t['verdict'] for t in d['plan']['targets']] == ['INTERRUPTED'] * 2 and d['plan']['interrupted'] == 'SIGTERM'" | grep -q True ||
	{ cat "$T/s.json"; fail "JSON after SIGTERM"; }
[ -e "$T/soaks-plan/journal.json" ] && json "$T/soaks-plan/journal.json" "d['steps'] == []" | grep -q False && fail "a stopped step in the journal"
ok "two soaks at once, both stopped by SIGTERM to the plan"
