#!/bin/sh
# A plan's criteria on cliff's figures (a temporary directory) and pts's
# (its own loop device): each figure read from the step's result through
# the method's reader, judged, and a figure the result does not hold
# (cliff's recovery after no drop) missing and failed.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/c.ini" <<'INI'
[fill]
run = cliff --size=32M --recovery=100ms
expect = total_bytes == 32M
expect = avg_bw > 0
expect = found == false
INI
expect_exit 0 "$SB" plan --quiet "$T/c.ini" "$T/d" -o "$T/c.json"
head -1 "$T/out" | grep -q "^PASS: .*c.ini (4 of 4 criteria passed)$" || { cat "$T/out"; fail "cliff's figures"; }
json "$T/c.json" "[c['measured'] for c in d['plan']['steps'][0]['criteria'] if c['figure'] == 'total_bytes'] == [33554432]" | grep -q True || fail "cliff total_bytes in JSON"
printf '[fill]\nrun = cliff --size=32M --recovery=100ms\nexpect = 1.recovered_fraction >= 0\n' >"$T/c2.ini"
expect_exit 1 "$SB" plan --quiet "$T/c2.ini" "$T/d"
grep -q "1.recovered_fraction  *missing  *>= 0  *FAIL$" "$T/out" || { cat "$T/out"; fail "a recovery not measured"; }
ok "cliff's figures"

dev=$(make_loop 64)
cat >"$T/p.ini" <<'INI'
[pts]
run = pts --destroy-data --round-time=100ms --max-rounds=5 --bs=4k --mix=0/100 --precondition=none --purge=none --iodepth=4
expect = status != unknown
expect = iops.rounds == 5
expect = iops.steady_state.reached != maybe
expect = steady != maybe
INI
expect_exit 0 "$SB" plan --quiet "$T/p.ini" "$dev" -o "$T/p.json"
head -1 "$T/out" | grep -q "^PASS: .*p.ini (4 of 4 criteria passed)$" || { cat "$T/out"; fail "pts's figures"; }
json "$T/p.json" "[c['measured'] for c in d['plan']['steps'][0]['criteria'] if c['figure'] == 'iops.steady_state.reached'][0] in ('true', 'false')" | grep -q True || fail "pts steady state in JSON"
ok "pts's figures"
