#!/bin/sh
# The built-in plans: plan --list names each with its description, each
# parses (its figures and options checked); emmc-stability runs by name on
# a temporary directory, scaled down with --set (the sweep's matrix, the
# soak's duration and size), the sweeps' iozone CSV in the plan's
# directory; --set's refusals (no such step, a bad time, '*' matching
# nothing, another command); a name that is neither a file nor a
# built-in plan.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/emmc-plan.sh"

cd "$T" || fail "cd"
mkdir "$T/d"

expect_exit 0 "$SB" plan --list
for p in emmc-stability sd-card ssd-pts tlc-states; do
	grep -q "^$p  *[A-Za-z]" "$T/out" || { cat "$T/out"; fail "--list: $p"; }
done
[ "$(wc -l <"$T/out")" = 4 ] || { cat "$T/out"; fail "--list: one line a plan"; }
ok "plan --list"

# every built-in plan is checked whole (its figures, its steps' options)
# before anything runs: a target that is not there stops each after that
for p in emmc-stability sd-card ssd-pts tlc-states; do
	expect_exit 3 "$SB" plan --quiet --destroy-data "$p" "$T/none/x"
	grep -q "cannot use '$T/none/x'" "$T/err" || { cat "$T/err"; fail "$p: not checked to its target"; }
done
ok "each built-in plan parses and its steps' options pass their parsers"

# emmc-stability by name, scaled down
emmc_stability "$T/d"
json "$T/e.json" "d['plan']['name'] == 'emmc-stability' and [s['run'] for s in d['plan']['steps']][0].startswith('sweep --file-sizes=64k,256k --record-sizes=4k,64k ')" | grep -q True || fail "the step's run as --set made it"
ok "emmc-stability on a directory"

# --set's refusals: nothing runs
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set nosuch.size=1M
grep -q "storbench: --set: nosuch.size=1M: the plan has no step \[nosuch\], nor a step running nosuch (iozone-before, dd-loop, iozone-after)" "$T/err" || { cat "$T/err"; fail "--set: no such step"; }
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set dd-loop.wait=soon
grep -q "wait: 'soon' is not a time" "$T/err" || { cat "$T/err"; fail "--set: a bad wait"; }
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set '*.nosuch=1'
grep -q "no step has --nosuch" "$T/err" || { cat "$T/err"; fail "--set: '*' matching none"; }
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set 'dd-loop.run=verify --size=1M'
grep -q "\[dd-loop\]: run: 'verify' is not this step's command" "$T/err" || { cat "$T/err"; fail "--set: another command"; }
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set dd-loop.iterations=zero
grep -q "\[dd-loop\] run: .*--iterations" "$T/err" || { cat "$T/err"; fail "--set: an option its command refuses"; }
expect_exit 2 "$SB" plan emmc-stability "$T/d" --set nodot
grep -q "'nodot' is not STEP.KEY=VALUE" "$T/err" || { cat "$T/err"; fail "--set: no dot"; }
ok "--set refused before anything runs"

expect_exit 2 "$SB" plan no-such-plan "$T/d"
grep -q "cannot open 'no-such-plan': No such file or directory (nor is it a built-in plan: storbench plan --list)" "$T/err" || { cat "$T/err"; fail "an unknown plan name"; }
# a file of the name comes first
printf '[v]\nrun = verify --size=1M\n' >"$T/sd-card"
expect_exit 0 "$SB" plan --quiet sd-card "$T/d"
grep -q "^PASS: sd-card (1 of 1 criteria passed)" "$T/out" || { cat "$T/out"; fail "a file named as a built-in plan"; }
ok "plan names"
