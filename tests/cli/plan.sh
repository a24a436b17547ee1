#!/bin/sh
# storbench plan on a temporary directory: quick, verify, run and soak
# steps with criteria on their figures; the verdict first, the criteria
# table, the JSON result (-o) and JUnit (--junit: each criterion a test
# case); exit 0 when every criterion passed, 1 when one failed (JUnit
# shows it), and a step that cannot run stops the plan (the report says
# why and which steps never ran).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/pass.ini" <<'INI'
# a plan that passes
[global]
name = smoke
label = firmware=1.2b

[speed]
run = quick --size=8M --runtime=150ms --repeat=1
expect = RND4K-Q1T1.read.iops >= 10
expect = SEQ1M-Q8T1.write.bw >= 100k/s
expect = RND4K-Q1T1.read.lat_p99 <= 10s

[blocks]
run = verify --size=4M
expect = damaged_blocks == 0
expect = result == pass
expect = check.bw > 0

[mix]
run = run --rw=randrw --bs=4k --size=4M --runtime=200ms --name=mix
target = $T/mix.dat
expect = mix.read.iops > 0
expect = mix.write.lat_p99 < 10s
expect = mix.errors == 0

[stable]
run = soak --iterations=2 --size=4M
expect = verdict == pass
expect = failed_iterations == 0
expect = write.bw.cv < 1000%
INI
sed -i "s|\$T|$T|" "$T/pass.ini"
expect_exit 0 "$SB" plan --quiet "$T/pass.ini" "$T/d" -o "$T/pass.json" --junit="$T/pass.xml"
head -1 "$T/out" | grep -q "^PASS: smoke (16 of 16 criteria passed)$" || { cat "$T/out"; fail "verdict line"; }
grep -q "^speed  *RND4K-Q1T1.read.iops  *[0-9.k]*  *>= 10  *pass$" "$T/out" || { cat "$T/out"; fail "criteria table"; }
grep -q "^label: firmware=1.2b$" "$T/out" || fail "label"
for s in speed blocks mix stable; do
	[ -s "$T/smoke-plan/$s.json" ] || fail "$s: no result file"
done
json "$T/pass.json" "d['plan']['verdict'] == 'PASS' and d['plan']['criteria_passed'] == 16 and d['plan']['criteria_failed'] == 0" | grep -q True || fail "JSON verdict"
json "$T/pass.json" "[s['state'] for s in d['plan']['steps']] == ['done'] * 4" | grep -q True || fail "JSON steps"
json "$T/pass.json" "[c for s in d['plan']['steps'] for c in s['criteria'] if c['figure'] == 'damaged_blocks'][0]['measured'] == 0" | grep -q True || fail "JSON measured"
python3 - "$T/pass.xml" <<'PY' || fail "JUnit of a pass"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == 'testsuites' and r.get('tests') == '16' and r.get('failures') == '0'
cases = r.findall('.//testcase')
assert len(cases) == 16 and not r.findall('.//failure')
assert any(c.get('name') == 'RND4K-Q1T1.read.iops >= 10' for c in cases)
PY
# the text result of each step is kept beside it
grep -q "SEQ1M Q8T1" "$T/smoke-plan/speed.txt" || fail "quick's text output"
ok "a plan that passes: quick, verify, run, soak"

# the same plan again: every step is in the journal, none runs again
m=$(stat -c %Y.%y "$T/smoke-plan/blocks.json")
expect_exit 0 "$SB" plan "$T/pass.ini" "$T/d"
grep -c "done before (the journal)" "$T/err" | grep -q '^4$' || { cat "$T/err"; fail "a second run ran steps again"; }
[ "$(stat -c %Y.%y "$T/smoke-plan/blocks.json")" = "$m" ] || fail "a finished step ran again"
ok "a finished plan run again judges its results and runs nothing"

# a criterion that fails: exit 1, the table and JUnit say which
cat >"$T/fail.ini" <<'INI'
[speed]
run = quick --size=8M --runtime=150ms --repeat=1 --read-only
expect = RND4K-Q1T1.read.iops >= 1000G
expect = RND4K-Q1T1.read.iops > 0
expect = RND4K-Q1T1.write.iops > 0
INI
expect_exit 1 "$SB" plan --quiet "$T/fail.ini" "$T/d" --dir="$T/f" --junit="$T/fail.xml"
head -1 "$T/out" | grep -q "^FAIL: .*fail.ini (2 of 4 criteria passed, 2 failed)$" || { cat "$T/out"; fail "verdict of a failure"; }
grep -q "RND4K-Q1T1.read.iops .* >= 1000G  *FAIL$" "$T/out" || { cat "$T/out"; fail "failed row"; }
grep -q "RND4K-Q1T1.write.iops  *missing  *> 0  *FAIL$" "$T/out" || { cat "$T/out"; fail "a figure missing from the result"; }
python3 - "$T/fail.xml" <<'PY' || fail "JUnit of a failure"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.get('failures') == '2', r.get('failures')
f = [c for c in r.findall('.//testcase') if c.find('failure') is not None]
assert [c.get('name') for c in f] == ['RND4K-Q1T1.read.iops >= 1000G', 'RND4K-Q1T1.write.iops > 0']
assert 'expected >= 1000G' in f[0].find('failure').get('message')
PY
ok "a failing criterion: exit 1, named in the table and JUnit"

# a step that cannot run stops the plan: the reason, the steps never run
cat >"$T/stop.ini" <<'INI'
[a]
run = verify --size=4M
[b]
run = run --rw=read --size=4M
target = /proc/version
[c]
run = verify --size=4M
INI
expect_exit 2 "$SB" plan --quiet "$T/stop.ini" "$T/d" --dir="$T/s" -o "$T/stop.json" --junit="$T/stop.xml"
head -1 "$T/out" | grep -q "^INCOMPLETE: " || { cat "$T/out"; fail "verdict of a stopped plan"; }
grep -qF "step [b] on '/proc/version' could not run: its command ended with exit code 2: cannot use '/proc/version'" "$T/out" || { cat "$T/out"; fail "the reason"; }
grep -qF "never ran: [b] on '/proc/version', [c] on '$T/d'" "$T/out" || { cat "$T/out"; fail "never ran"; }
[ -e "$T/s/c.json" ] && fail "a step after the one that could not run ran"
json "$T/stop.json" "[s['state'] for s in d['plan']['steps']] == ['done', 'could not run', 'never ran']" | grep -q True || fail "JSON states"
grep -q "<skipped message=\"its command ended with exit code 2" "$T/stop.xml" || fail "JUnit skipped"
ok "a step that cannot run stops the plan with the reason"

# JUnit is well-formed XML whatever a target's name holds (or a step's
# reason, that names it): a byte that is not UTF-8 and a control
# character are shown as text, never written raw
odd=$(printf "$T/odd\\377\\033x")
mkdir "$odd"
printf '[global]\nname=odd\n[v]\nrun = verify --size=1M\nexpect = damaged_blocks == 0\n' >"$T/odd.ini"
"$SB" plan --quiet "$T/odd.ini" "$odd" --junit="$T/odd.xml" >"$T/out" 2>&1 # its verdict aside
python3 - "$T/odd.xml" <<'PY' || { cat -v "$T/odd.xml"; fail "JUnit of an odd target name"; }
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert any('odd\\xff\\x1bx' in v for e in r.iter() for v in e.attrib.values()), ET.tostring(r)
PY
ok "JUnit of a target named with a byte that is not UTF-8: well-formed"

# several targets, one after another, each with its own result files
mkdir "$T/a" "$T/b"
printf '[global]\nname=two\n[v]\nrun = verify --size=4M\nexpect = damaged_blocks == 0\n' >"$T/two.ini"
expect_exit 0 "$SB" plan --quiet "$T/two.ini" "$T/a" "$T/b" --format=json
json "$T/out" "[(s['target'], s['result']) for s in d['plan']['steps']] == [('$T/a', '$T/two-plan/v-1.json'), ('$T/b', '$T/two-plan/v-2.json')]" | grep -q True || { cat "$T/out"; fail "two targets"; }
ok "two targets, each through the plan"
