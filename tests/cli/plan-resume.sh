#!/bin/sh
# A plan killed (SIGKILL, as a crash or a power cut would end it) in the
# middle of a step resumes at the first unfinished step when run again on
# the same target: the steps its journal lists finished are not run again
# (their result files keep their times), the killed one runs from its
# start, and the verdict covers every step; killed in each step in turn
# (a soak's: it resumes through soak --resume), it resumes at that one. A
# journal that is not a plan's is refused.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/p.ini" <<'INI'
[global]
name = r
[one]
run = verify --size=4M
expect = damaged_blocks == 0
[two]
run = quick --size=8M --runtime=300ms --repeat=2
expect = RND4K-Q1T1.read.iops > 0
[three]
run = verify --size=4M
INI

# steps recorded in the journal
journal_has() {
	python3 - "$T/r-plan/journal.json" "$@" <<'PY' 2>/dev/null
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if [s['step'] for s in j['steps']] == sys.argv[2:] else 1)
PY
}

setsid "$SB" plan --quiet "$T/p.ini" "$T/d" >"$T/first.out" 2>&1 &
pid=$!
# the kill comes while step two runs: its output file is made when it starts
wait_until 60 test -e "$T/r-plan/two.txt" || { kill -KILL -$pid; fail "step two never started"; }
journal_has one || { kill -KILL -$pid; fail "step two started before the journal had step one"; }
kill -KILL -$pid
wait $pid 2>/dev/null
journal_has one || fail "the journal after the kill: not step one alone"
[ -e "$T/r-plan/three.json" ] && fail "step three ran before the kill"
m1=$(stat -c %y "$T/r-plan/one.json")

expect_exit 0 "$SB" plan "$T/p.ini" "$T/d"
grep -qF "step 1 of 3 [one] on '$T/d': done before (the journal)" "$T/err" || { cat "$T/err"; fail "step one ran again"; }
grep -qF "step 2 of 3 [two] on '$T/d': quick" "$T/err" || { cat "$T/err"; fail "step two did not run again"; }
[ "$(stat -c %y "$T/r-plan/one.json")" = "$m1" ] || fail "step one's result was written again"
head -1 "$T/out" | grep -q "^PASS: r (5 of 5 criteria passed)$" || { cat "$T/out"; fail "the verdict after the resume"; }
journal_has one two three || fail "the journal after the resume"
ok "killed in step two, resumed at step two"

# SIGKILL in each step in turn, a soak's among them: the journal keeps the
# steps before it, and the plan run again resumes at the killed one (the
# soak through soak --resume of the log the plan named), the steps before
# it not run again, every step once in the journal
cat >"$T/k.ini" <<'INI'
[global]
name = k
[a]
run = quick --size=8M --runtime=300ms --repeat=1
[b]
run = soak --iterations=3 --size=1M
[c]
run = quick --size=8M --runtime=300ms --repeat=1
INI
soak_iterations() { # grep -c prints 0 itself when nothing matches
	n=$(grep -c '"iteration"' "$1/b.jsonl" 2>/dev/null)
	echo "${n:-0}"
}
soaked() { [ "$(soak_iterations "$1")" -ge 1 ]; }
n=0
for k in a b c; do
	dir="$T/k-$k"
	iters=3
	[ $k = b ] && iters=1000000
	setsid "$SB" plan --quiet --dir="$dir" "$T/k.ini" "$T/d" --set b.iterations=$iters \
		>"$T/k.out" 2>&1 &
	pid=$!
	if [ $k = b ]; then
		wait_until 60 soaked "$dir" || { kill -KILL -$pid; fail "[b]'s soak never ran an iteration"; }
	else
		wait_until 60 test -e "$dir/$k.txt" || { kill -KILL -$pid; fail "[$k] never started"; }
	fi
	kill -KILL -$pid
	wait $pid 2>/dev/null
	before=$(python3 -c "print(' '.join(['a', 'b', 'c'][:'abc'.index('$k')]))")
	# shellcheck disable=SC2086 # the steps before k, as words
	J="$dir/journal.json"
	python3 - "$J" $before <<'PY' || fail "killed in [$k]: the journal is not the steps before it"
import json, os, sys
want = sys.argv[2:]
have = [s['step'] for s in json.load(open(sys.argv[1]))['steps']] if os.path.exists(sys.argv[1]) else []
assert have == want, (have, want)
PY
	[ $k = b ] && iters=$(($(soak_iterations "$dir") + 2))
	m=""
	[ $k = a ] || m=$(stat -c %y "$dir/a.json")
	expect_exit 0 "$SB" plan --dir="$dir" "$T/k.ini" "$T/d" --set b.iterations=$iters
	i=1
	for s in $before; do
		grep -qF "step $i of 3 [$s] on '$T/d': done before (the journal)" "$T/err" ||
			{ cat "$T/err"; fail "killed in [$k]: [$s] ran again"; }
		i=$((i + 1))
	done
	grep -qF "step $i of 3 [$k] on '$T/d': " "$T/err" && ! grep -qF "[$k] on '$T/d': done before" "$T/err" ||
		{ cat "$T/err"; fail "killed in [$k]: [$k] did not run again"; }
	[ -z "$m" ] || [ "$(stat -c %y "$dir/a.json")" = "$m" ] || fail "killed in [$k]: [a]'s result written again"
	[ $k = b ] && { grep -q "^resuming after iteration" "$dir/b.txt" || { cat "$dir/b.txt"; fail "[b]'s soak did not resume"; }; }
	head -1 "$T/out" | grep -q "^PASS: k (3 of 3 criteria passed)$" || { cat "$T/out"; fail "killed in [$k]: the verdict"; }
	python3 - "$J" <<'PY' || fail "killed in [$k]: the journal after the resume"
import json, sys
assert [s['step'] for s in json.load(open(sys.argv[1]))['steps']] == ['a', 'b', 'c']
PY
	n=$((n + 1))
done
[ $n = 3 ] || fail "not every step killed"
ok "SIGKILL in each step, a soak's among them: resumed at it"

# a result from before that cannot be read (cut short) is no result: its
# step runs again, and the journal's latest entry of it is the one judged
printf '{"storbench": {' >"$T/r-plan/three.json"
expect_exit 0 "$SB" plan "$T/p.ini" "$T/d"
grep -qF "step 3 of 3 [three] on '$T/d': its result '$T/r-plan/three.json' cannot be read" "$T/err" ||
	{ cat "$T/err"; fail "a broken result from before: not said"; }
grep -qF "it runs again" "$T/err" || { cat "$T/err"; fail "a broken result: not run again"; }
journal_has one two three three || fail "the journal after a step ran again"
python3 - "$T/r-plan/journal.json" <<'PY' || fail "journal edit"
import json, sys
j = json.load(open(sys.argv[1]))
j['steps'][2]['status'] = 1  # the older entry of [three] said its command failed
json.dump(j, open(sys.argv[1], 'w'))
PY
expect_exit 0 "$SB" plan "$T/p.ini" "$T/d"
grep -qF "step 3 of 3 [three] on '$T/d': done before (the journal)" "$T/err" || { cat "$T/err"; fail "step three ran a third time"; }
head -1 "$T/out" | grep -q "^PASS: r" || { cat "$T/out"; fail "the older journal entry was judged"; }
ok "a result that cannot be read runs again; the latest entry is judged"

# a journal that is not a plan's: refused, nothing runs
echo '{"steps": 3}' >"$T/r-plan/journal.json"
expect_exit 2 "$SB" plan "$T/p.ini" "$T/d"
grep -qF "journal.json': not a plan's journal" "$T/err" || { cat "$T/err"; fail "a foreign journal"; }
echo 'not json' >"$T/r-plan/journal.json"
expect_exit 2 "$SB" plan "$T/p.ini" "$T/d"
grep -qF "not a plan's journal: line 1" "$T/err" || { cat "$T/err"; fail "a journal that is not JSON"; }
ok "a journal that is not a plan's is refused"
