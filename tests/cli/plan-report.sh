#!/bin/sh
# storbench report on a plan (issue 31): its directory, its JSON (-o, or
# plan.json in its directory) or its journal.json opens on the plan's
# verdict (overall and per target), the steps that did not run and the
# criteria, then each step's own report drawn from its result, in text,
# JSON (each step's analysis under it), HTML (the first screen at 1280
# px, headless Chromium) and XLSX (a first Plan sheet); a glob of the
# directory is the plan once; a directory without plan.json shows its
# journal's steps without a verdict; a directory moved is still read; a
# plan's JSON that is wrong is refused by key path; storbench plan
# --html writes report.html in its directory, html=NAME.html in [global]
# that file of it.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/rep.ini" <<'INI'
[global]
name = rep
label = firmware=1.2b

[speed]
run = quick --size=8M --runtime=100ms --repeat=1
expect = RND4K-Q1T1.read.iops >= 10
expect = SEQ1M-Q8T1.write.bw >= 1000GiB/s

[integrity]
run = verify --size=4M
expect = damaged_blocks == 0

[bad]
run = run --rw=read --size=4M
target = /proc/version

[never]
run = verify --size=4M
INI
expect_exit 2 "$SB" plan --quiet --html "$T/rep.ini" "$T/d" -o "$T/rep.json"
P="$T/rep-plan"
[ -s "$P/plan.json" ] || fail "the plan wrote no plan.json in its directory"
cmp -s "$P/plan.json" "$T/rep.json" || fail "plan.json is not the plan's JSON (-o)"
[ -s "$P/report.html" ] || fail "plan --html wrote no report.html"

# text: the verdict first, per target, the criteria, then each step's report
expect_exit 0 "$SB" report "$P"
cp "$T/out" "$T/dir.txt"
head -1 "$T/dir.txt" | grep -q "^INCOMPLETE: rep (4 of 7 criteria passed, 1 failed, 2 not judged: their steps never ran)$" ||
	{ cat "$T/dir.txt"; fail "verdict line"; }
grep -q "^target: $T/d: INCOMPLETE$" "$T/dir.txt" || fail "a target's verdict"
grep -q "^speed  *SEQ1M-Q8T1.write.bw  *[0-9.]* [MG]iB/s  *>= 1000 GiB/s  FAIL$" "$T/dir.txt" ||
	{ cat "$T/dir.txt"; fail "a failed criterion"; }
grep -q "^\[bad\] could not run: its command ended with exit code 2" "$T/dir.txt" || fail "why a step could not run"
grep -q "^\[never\] never ran$" "$T/dir.txt" || fail "a step that never ran"
grep -q "^== \[speed\] quick: $T/d ($P/speed.json) ==$" "$T/dir.txt" || fail "the quick step's report"
grep -q "^== \[integrity\] verify: $T/d ($P/integrity.json) ==$" "$T/dir.txt" || fail "the verify step's report"
grep -q "^RND4K Q1T1  *read " "$T/dir.txt" || fail "quick's summary in the plan's report"
grep -q "^intact  *1024 " "$T/dir.txt" || fail "verify's classes in the plan's report"

# its JSON, its journal, a glob of its directory: the same report
expect_exit 0 "$SB" report "$T/rep.json"
cmp -s "$T/out" "$T/dir.txt" || fail "report of the plan's JSON differs"
expect_exit 0 "$SB" report "$P/journal.json"
cmp -s "$T/out" "$T/dir.txt" || fail "report of the plan's journal differs"
expect_exit 0 "$SB" report "$P"/*.json
cmp -s "$T/out" "$T/dir.txt" || { diff "$T/out" "$T/dir.txt" | head; fail "a glob of the plan's directory differs"; }
# a result given beside it follows it; a plain result is as before
expect_exit 0 "$SB" report "$P/speed.json"
grep -q "^== quick: $T/d ($P/speed.json) ==$" "$T/out" || fail "a step's result alone"
cp "$P/speed.json" "$T/extra.json"
expect_exit 0 "$SB" report "$T/extra.json" "$P" "$T/rep.json"
grep "^== " "$T/out" >"$T/heads"
sed -n 3p "$T/heads" | grep -q "^== quick: $T/d ($T/extra.json) ==$" || { cat "$T/heads"; fail "a result beside the plan"; }
[ "$(wc -l <"$T/heads")" = 3 ] || { cat "$T/heads"; fail "a result beside the plan: the plan twice"; }
expect_exit 2 "$SB" report "$P" "$T/nothere.json"

# JSON: the plan's section with each step's analysis under it
expect_exit 0 "$SB" report "$P" --format=json -o "$T/a.json"
json "$T/a.json" "d['plan']['verdict'] == 'INCOMPLETE' and d['plan']['criteria_failed'] == 1 and d['inputs'] == [] and d['plan_notes'] == []" | grep -q True || fail "JSON verdict"
json "$T/a.json" "[(s['step'], s['state'], s['analysis'] and s['analysis']['command']) for s in d['plan']['steps']] == [('speed', 'done', 'quick'), ('integrity', 'done', 'verify'), ('bad', 'could not run', None), ('never', 'never ran', None)]" | grep -q True ||
	fail "JSON steps and their analysis"
json "$T/a.json" "[c['result'] for c in d['plan']['steps'][0]['criteria']] == ['pass', 'pass', 'fail'] and d['plan']['steps'][0]['analysis']['tests'] != []" | grep -q True ||
	fail "JSON criteria"

# HTML: the verdict, the steps that did not run and the criteria on the
# first screen at 1280 px; each step's section after
expect_exit 0 "$SB" report "$P" -o "$T/p.html"
grep -q '<div class="verdict none" id="verdict"><b>INCOMPLETE</b>' "$T/p.html" || fail "HTML verdict"
grep -q '<h2>\[speed\] quick &mdash; ' "$T/p.html" || fail "HTML: the quick step's section"
grep -q '<h2>\[integrity\] verify &mdash; ' "$T/p.html" || fail "HTML: the verify step's section"
cmp -s "$T/p.html" "$P/report.html" || fail "plan --html differs from storbench report DIR"
python3 "$SB_TOP/tests/tools/page-boxes.py" --first-screen '^INCOMPLETE$' \
	--first-screen '^Steps that did not run$' --first-screen '^SEQ1M-Q8T1\.write\.bw$' \
	--first-screen '^FAIL$' --overlaps --json "$T/boxes.json" "$T/p.html" >"$T/pb" 2>&1
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || { cat "$T/pb"; fail "the HTML's first screen"; }

# XLSX: the Plan sheet first, then the steps' sheets
# CSV: the plan's criteria, a row each, as plan.json holds them (pass,
# fail, not run); --table=criteria the same; another --table its table
expect_exit 0 "$SB" report "$P" --format=csv
cp "$T/out" "$T/crit.csv"
expect_exit 0 "$SB" report "$P" --table=criteria -o "$T/crit2.csv"
cmp -s "$T/crit.csv" "$T/crit2.csv" || fail "--table=criteria differs from a plan's CSV"
python3 - "$T/crit.csv" "$P/plan.json" <<'PY' || fail "the criteria CSV is not plan.json's criteria"
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
plan = json.load(open(sys.argv[2]))['plan']
want = [(s['target'], s['step'], c) for s in plan['steps'] for c in s['criteria']]
assert len(rows) == len(want) == 7, (len(rows), len(want))
def same(field, v):
    if v is None:
        return field == ''
    if isinstance(v, str):
        return field == v
    return math.isclose(float(field), v, rel_tol=1e-12)
for r, (t, st, c) in zip(rows, want):
    assert (r['target'], r['step'], r['figure'], r['op'], r['unit'], r['result'], int(r['line'])) == \
        (t, st, c['figure'], c['op'], c['unit'], c['result'], c.get('line', 0)), (r, c)
    assert same(r['limit'], c['limit']) and same(r['measured'], c['measured']), (r, c)
assert [r['result'] for r in rows].count('not run') == 2 and \
    [r['result'] for r in rows].count('fail') == 1, rows
PY
expect_exit 0 "$SB" report "$P" --table=measurements --format=csv
head -1 "$T/out" | grep -q '^source,command,job,' || fail "--table=measurements on a plan"
expect_exit 2 "$SB" report "$P/speed.json" --table=criteria --format=csv
grep -qF -- "--table=criteria: the criteria of a plan" "$T/err" || fail "--table=criteria without a plan"

if "$SB" --version | grep -q "features:.* xlsx"; then
	X="$SB_TOP/tests/tools/xlsx-sheet.py"
	expect_exit 0 "$SB" report "$P" -o "$T/p.xlsx"
	python3 "$X" --check --first=Plan --verdict=INCOMPLETE "$T/p.xlsx" >"$T/faults" ||
		{ cat "$T/faults"; fail "the workbook"; }
	python3 "$X" "$T/p.xlsx" Plan >"$T/plan.csv" || fail "no Plan sheet"
	grep -q "^speed,$T/d,SEQ1M-Q8T1.write.bw,B/s,[0-9.]*,>=,1073741824000,FAIL$" "$T/plan.csv" ||
		{ cat "$T/plan.csv"; fail "a criterion on the Plan sheet"; }
	python3 "$X" "$T/p.xlsx" Summary >/dev/null || fail "quick's sheet after the Plan sheet"
fi

# moved: the results are found by their names in the directory
cp -r "$P" "$T/moved"
rm -r "$P"
expect_exit 0 "$SB" report "$T/moved"
grep -q "^== \[integrity\] verify: $T/d ($T/moved/integrity.json) ==$" "$T/out" || fail "a moved directory"

# the journal alone (the plan killed before it wrote plan.json)
rm "$T/moved/plan.json"
expect_exit 0 "$SB" report "$T/moved"
head -1 "$T/out" | grep -q "^NO VERDICT: $T/moved (2 steps recorded in the journal)$" || { cat "$T/out"; fail "journal alone"; }
grep -q "has no plan.json" "$T/err" || fail "journal alone: no note"
grep -q "^== \[speed\] quick: " "$T/out" || fail "journal alone: the steps"
# the journal given as a file, with no plan.json beside it (was freed twice)
cp "$T/out" "$T/alone.txt"
expect_exit 0 "$SB" report "$T/moved/journal.json"
cmp -s "$T/out" "$T/alone.txt" || fail "the journal alone given as a file"

# a journal of many steps on many targets, interleaved, one run again:
# the last entry of each step on a target, in the order they first ran,
# grouped by target (each in one pass: sorted, not searched step by step)
mkdir "$T/many"
python3 - "$T/many/journal.json" <<'PY'
import json, sys
steps = [{"target": "/dev/t%d" % (i % 1000), "step": "s%d" % (i // 1000), "run": "quick",
          "result": "r%d.json" % i, "status": 0} for i in range(3000)]
steps.append(dict(steps[5], result="again.json"))
json.dump({"storbench_plan_journal": 1, "steps": steps}, open(sys.argv[1], "w"))
PY
expect_exit 0 "$SB" report "$T/many"
head -1 "$T/out" | grep -q "(3000 steps recorded in the journal)$" || fail "many: the steps"
[ "$(grep -c '^target: /dev/t[0-9]*: NO VERDICT$' "$T/out")" = 1000 ] || fail "many: the targets"
grep '^target: ' "$T/out" | head -2 | tr '\n' ' ' | grep -q '/dev/t0: .*/dev/t1: ' ||
	fail "many: the targets in the order they first ran"
awk '/^target: \/dev\/t5: /{on=1; next} on && !NF{exit} on' "$T/out" >"$T/t5"
printf '[s0] done: again.json\n[s1] done: r1005.json\n[s2] done: r2005.json\n' | cmp -s - "$T/t5" ||
	{ cat "$T/t5"; fail "many: a target's steps, the last entry of each"; }
for f in html xlsx json; do
	expect_exit 0 "$SB" report "$T/many" -o "$T/many.$f"
done

# a journal pointing 10,000 steps at one result loads it once (its
# report drawn once, each step's analysis in the JSON), two steps at a
# result that cannot be read each get the note: before, the result was
# loaded once a step (380 MB, 10,000 reports in the text)
mkdir "$T/shared"
expect_exit 0 "$SB" run --rw=read --size=1M --runtime=50ms --direct=0 --quiet \
	--output="$T/shared/r.json" "$T/shared"
echo '{"storbench": 1' >"$T/shared/bad.json"
python3 - "$T/shared/journal.json" <<'PY'
import json, sys
steps = [{"target": "/dev/t", "step": "s%d" % i, "run": "run", "result": "r.json", "status": 0}
         for i in range(10000)]
steps += [{"target": "/dev/t", "step": "b%d" % i, "run": "run", "result": "bad.json", "status": 0}
          for i in range(2)]
json.dump({"storbench_plan_journal": 1, "steps": steps}, open(sys.argv[1], "w"))
PY
expect_exit 0 "$SB" report "$T/shared"
[ "$(grep -c '^== \[s0\] run: ' "$T/out")" = 1 ] && ! grep -q '^== \[s1\] ' "$T/out" ||
	fail "shared: the result's report not drawn once"
[ "$(grep -c "step \[b[01]\] on '/dev/t': .*bad.json" "$T/err")" = 2 ] ||
	{ cat "$T/err"; fail "shared: a note for each step of the bad result"; }
if [ -x /usr/bin/time ] && ! ldd "$SB" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	/usr/bin/time -f %M -o "$T/rss" "$SB" report "$T/shared" --format=json \
		-o "$T/shared.json" 2>/dev/null || fail "shared: report --format=json"
	[ "$(cat "$T/rss")" -lt 131072 ] || fail "shared: $(cat "$T/rss") KiB: loaded once a step"
else
	expect_exit 0 "$SB" report "$T/shared" --format=json -o "$T/shared.json"
fi
python3 - "$T/shared.json" <<'PY' || fail "shared: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
steps = d['plan']['steps']
assert len(steps) == 10002, len(steps)
assert all(s['analysis'] for s in steps[:10000]), 'a step without its analysis'
assert all(s['analysis'] is None for s in steps[10000:])
assert d['inputs'] == [], len(d['inputs'])
assert len(d['plan_notes']) == 3, d['plan_notes']
PY
ok "a result of 10,000 steps loaded once, its steps' analyses and notes kept"

# a plan's JSON that is wrong is refused by key path; two plans are refused
sed 's/"op" : ">="/"op" : "=>"/' "$T/rep.json" >"$T/badop.json"
expect_exit 2 "$SB" report "$T/badop.json"
grep -q "^storbench: '$T/badop.json': plan.steps\[0\].criteria\[1\].op: expected one of >= <= > < == !=, found '=>'$" "$T/err" ||
	{ cat "$T/err"; fail "a bad op"; }
mkdir "$T/other"
cp "$T/rep.json" "$T/other/plan.json"
expect_exit 2 "$SB" report "$T/moved" "$T/other"
grep -q "one plan per report" "$T/err" || fail "two plans"

# html= in [global]: the plan's HTML report, that file of its directory,
# without --html; the same page as storbench report DIR
printf '[global]\nname=hp\nhtml=qual.html\n[v]\nrun = verify --size=1M\n' >"$T/hp.ini"
expect_exit 0 "$SB" plan --quiet "$T/hp.ini" "$T/d"
[ -s "$T/hp-plan/qual.html" ] || fail "html=qual.html: no qual.html in the plan's directory"
[ -e "$T/hp-plan/report.html" ] && fail "html=qual.html: report.html written too"
expect_exit 0 "$SB" report "$T/hp-plan" -o "$T/hp.html"
cmp -s "$T/hp.html" "$T/hp-plan/qual.html" || fail "html=: differs from storbench report DIR"
ok "plan report"
